#pragma once
// Private helpers shared by the stencil sources (src/stencil/*.cpp). Not part of the public API.
#include <array>
#include <string>
#include <vector>

#include "wavefd/stencil.hpp"

namespace wavefd::detail {

using Triplet = std::array<int, 3>;

// --- shells (family.cpp) ------------------------------------------------------------------------

// true if q is in Hamilton's set Q (eq. 6): q1 >= q2 >= q3 >= 0, q1 >= 1.
bool in_Q(const Triplet& q);

// P(q): the unique permutations of (+-q1, +-q2, +-q3), sorted (x, y, z) ascending.
std::vector<Offset> shell_points(const Triplet& q);

// Builds a Stencil from shells (sorted lexicographically by the caller; the centre is implicit)
// and one weight per shell (shell_weights[0] = centre). Fills offsets, weights, shell, shell_q and
// radius; max_courant is left to the caller.
Stencil assemble_from_shells(Family family, std::string name, const std::vector<Triplet>& shells,
                             const std::vector<double>& shell_weights);

// --- weight solver (moments.cpp) ----------------------------------------------------------------

// Isotropy-optimised Laplacian weights for the stencil S(shells) (Hamilton eq. 7). See moments.cpp.
inline constexpr int max_isotropy_level = 8;  // isotropy of the Taylor terms up to order 2n = 16
struct ShellWeights {
  std::vector<double> a;          // a[0] centre, a[p] the weight shared by the points of shell p
  int isotropy_order = 0;         // highest Taylor order whose isotropy was imposed
  bool positive_fallback = false; // the free directions were spent on non-negative weights
  double max_courant = 0;         // max_stable_courant of the result (0: no stable weights found)
};
ShellWeights isotropic_shell_weights(const std::vector<Triplet>& shells);

// Formal order of a consistent Laplacian: the largest even p (<= max_order) such that every
// moment of degree 3..p+1 vanishes (to 1e-9 sum|a| r^degree); 2 if the degree-3/4 ones do not.
int detect_accuracy_order(const std::vector<Offset>& offsets, const std::vector<double>& weights,
                          int max_order = 40);

// --- symbol search (stability.cpp) --------------------------------------------------------------

// Extrema of L(k) = sum a cos(k . l) over the Brillouin zone (grid search + local refinement).
struct SymbolExtrema {
  double max_value = 0;                 // max_k L(k)  (0 at k = 0 for a consistent Laplacian)
  std::array<double, 3> argmax{};       // where it is reached
  double min_value = 0;                 // min_k L(k)  (the stability bound uses -min_value)
  std::array<double, 3> argmin{};
  double scale = 0;                     // sum |a|: the natural size of L
};
SymbolExtrema symbol_extrema(const std::vector<Offset>& offsets, const std::vector<double>& weights);

// Relative tolerance on max L(k) > 0 that still counts as "non-positive" (rounding).
inline constexpr double symbol_positive_tol = 1e-12;

}  // namespace wavefd::detail
