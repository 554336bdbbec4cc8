#pragma once
// Stencil families for the two-step scheme u+ = delta_{S,gamma} u - u-  (Hamilton 2015, eq. 1-2).
//
// A Stencil holds the offsets l_k and the weights a_k of a discrete Laplacian on the unit grid
// (h = 1): sum_k a_k u(x + l_k) ~ Laplacian(u)(x). The two-step weights for a Courant number
// lambda are gamma_k = lambda^2 a_k + 2 [l_k == 0]. Pure C++ (no Kokkos): kernels copy what they
// need to the device.
#include <array>
#include <string>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

struct Offset {
  int x = 0, y = 0, z = 0;
  friend bool operator==(const Offset&, const Offset&) = default;
};

enum class Family { star, compact, box, custom };

std::string_view to_string(Family f);
Family parse_family(std::string_view name);  // throws Error naming the accepted families

struct Stencil {
  Family family = Family::star;
  std::string name;                // e.g. "star M=4", "compact R=5", "box q=(2,2,2)", "custom file.txt"
  std::vector<Offset> offsets;     // offsets[0] is the centre (0,0,0)
  std::vector<double> weights;     // Laplacian weights a_k, same order as offsets
  std::vector<int> shell;          // shell index of each offset: 0 = centre, points of one shell
                                   // (one P(q) of Hamilton eq. 7) share their weight
  std::vector<std::array<int, 3>> shell_q;  // q triplet of each shell (shell_q[0] = {0,0,0})
  int radius = 0;                  // max |component| over offsets: the halo width
  int accuracy_order = 2;          // formal order of the Laplacian (2M for star)
  double max_courant = 0;          // largest lambda with |mu(k)| <= 2 over the Brillouin zone

  std::size_t size() const { return offsets.size(); }  // K
  // gamma_k = lambda^2 a_k + 2 [k == 0]
  std::vector<double> two_step_weights(double courant) const;
};

// Families. Each throws Error for a parameter out of range, naming it and the range.
Stencil make_star(int M);                        // M = 1..20, 6M+1 points, order 2M (Fornberg)
Stencil make_compact(int R);                     // S_R^(c): shells with |q|^2 <= R, R = 1..30
Stencil make_box(std::array<int, 3> q);          // S_q^(b): shells q' <= q lexicographically
Stencil load_custom(const std::string& path);    // offsets + Laplacian weights from a text file

// Finite-difference weights (Fornberg 1988) for the derivative of order `derivative` at 0 on the
// given integer nodes. Used for star stencils and the first-derivative operators.
std::vector<double> fornberg_weights(int derivative, const std::vector<int>& nodes);

// mu(k)/lambda^2 without the centre term 2: L(k) = sum_k a_k cos(k . l_k) (k in radians per cell).
double laplacian_symbol(const Stencil& s, const std::array<double, 3>& k);

// Largest lambda with |2 + lambda^2 L(k)| <= 2 over the Brillouin zone; 0 if L(k) > 0 somewhere.
double max_stable_courant(const std::vector<Offset>& offsets, const std::vector<double>& weights);

// Whether offsets that differ only in the signs of their components carry equal weights (every
// family; a custom stencil may not): then odd and even reflections at walls keep the scheme's modes.
bool symmetric_in_each_axis(const Stencil& s);

// Checks that a weight set is a consistent, centrally symmetric Laplacian; throws Error otherwise.
void check_consistent(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                      const std::string& what);

}  // namespace wavefd
