#pragma once
// The discrete energy of the seismic two-step scheme, computed on plain vectors of u (x fastest)
// apart from both the engine and the reference: the energy tests of the reference
// (test_seismic_reference.cpp) and of the engine (test_seismic_absorbing.cpp) share it.
#include <cstddef>
#include <vector>

#include "wavefd/seismic_model.hpp"

namespace wavefd::test_energy {

inline index_t flat(const Index3& n, index_t i, index_t j, index_t k) { return (k * n[1] + j) * n[0] + i; }

// u at a grid index, or beyond the grid by the outer boundary rule.
inline double value_at(const std::vector<double>& u, const Index3& n, Index3 p, OuterBoundary outer) {
  double sign = 1;
  for (int d = 0; d < 3; ++d) {
    while (p[d] < 0 || p[d] >= n[d]) {
      if (outer == OuterBoundary::zero || p[d] == -1 || p[d] == n[d]) return 0;
      p[d] = p[d] < 0 ? -2 - p[d] : 2 * n[d] - p[d];  // u(-1-q) = -u(-1+q), u(n+q) = -u(n-q)
      sign = -sign;
    }
  }
  return sign * u[std::size_t(flat(n, p[0], p[1], p[2]))];
}

// L u on the unit grid with the model's star weights and outer boundary rule.
inline std::vector<double> laplacian(const SeismicModel& m, const std::vector<double>& u) {
  const std::vector<double> c = m.axis_weights();
  std::vector<double> out(u.size());
  for (index_t k = 0; k < m.n[2]; ++k)
    for (index_t j = 0; j < m.n[1]; ++j)
      for (index_t i = 0; i < m.n[0]; ++i) {
        double sum = c[0] * u[std::size_t(flat(m.n, i, j, k))];
        for (index_t r = 1; r < index_t(c.size()); ++r)
          for (int d = 0; d < 3; ++d) {
            Index3 lo{i, j, k}, hi{i, j, k};
            lo[d] -= r, hi[d] += r;
            sum += c[std::size_t(r)] * (value_at(u, m.n, lo, m.outer) + value_at(u, m.n, hi, m.outer));
          }
        out[std::size_t(flat(m.n, i, j, k))] = sum;
      }
  return out;
}

// The discrete energy of the two-step scheme between u^S and u^{S+1}:
//   E = sum (1 / vp) (u^{S+1} - u^S)^2 - sum u^{S+1} L u^S,
// conserved exactly (up to rounding) when L is symmetric and nothing is added or damped.
struct Energy {
  double kinetic = 0;    // the first sum
  double potential = 0;  // the second, with its sign
  double total() const { return kinetic + potential; }
};

inline Energy energy(const SeismicModel& m, const std::vector<double>& before, const std::vector<double>& after) {
  const std::vector<double> speed = m.velocity->fill(Box{{0, 0, 0}, m.n}, m.h);
  const std::vector<double> lap = laplacian(m, before);
  Energy e;
  for (std::size_t p = 0; p < before.size(); ++p) {
    const double courant = speed[p] * m.dt / m.h, du = after[p] - before[p];
    e.kinetic += du * du / (courant * courant);
    e.potential -= after[p] * lap[p];
  }
  return e;
}

}  // namespace wavefd::test_energy
