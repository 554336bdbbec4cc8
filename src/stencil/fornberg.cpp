// Finite-difference weights on arbitrary 1-D nodes (B. Fornberg, "Generation of finite difference
// formulas on arbitrarily spaced grids", Math. Comp. 51, 1988). Evaluated in long double so that
// the wide star stencils (M up to 20, 41 nodes) keep full double accuracy after rounding.
#include <algorithm>
#include <string>
#include <vector>

#include "wavefd/stencil.hpp"

namespace wavefd {

std::vector<double> fornberg_weights(int derivative, const std::vector<int>& nodes) {
  const int n = static_cast<int>(nodes.size());
  const int m = derivative;
  if (m < 0) throw Error("fornberg_weights: derivative order " + std::to_string(m) + " is negative");
  if (n <= m)
    throw Error("fornberg_weights: " + std::to_string(n) + " nodes cannot approximate derivative " +
                std::to_string(m) + "; need at least " + std::to_string(m + 1));
  {
    std::vector<int> sorted = nodes;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw Error("fornberg_weights: duplicated node");
  }

  using ld = long double;
  // c[j][k]: weight of node j for derivative k, using the nodes seen so far. Expansion point z = 0.
  std::vector<std::vector<ld>> c(n, std::vector<ld>(m + 1, 0.0L));
  ld c1 = 1.0L;
  ld c4 = nodes[0];
  c[0][0] = 1.0L;
  for (int i = 1; i < n; ++i) {
    const int mn = std::min(i, m);
    ld c2 = 1.0L;
    const ld c5 = c4;
    c4 = nodes[i];
    for (int j = 0; j < i; ++j) {
      const ld c3 = static_cast<ld>(nodes[i]) - nodes[j];
      c2 *= c3;
      if (j == i - 1) {
        // New node i: its weights follow from those of node i-1 (before they are updated below).
        for (int k = mn; k >= 1; --k) c[i][k] = c1 * (k * c[i - 1][k - 1] - c5 * c[i - 1][k]) / c2;
        c[i][0] = -c1 * c5 * c[i - 1][0] / c2;
      }
      for (int k = mn; k >= 1; --k) c[j][k] = (c4 * c[j][k] - k * c[j][k - 1]) / c3;
      c[j][0] = c4 * c[j][0] / c3;
    }
    c1 = c2;
  }
  std::vector<double> w(n);
  for (int j = 0; j < n; ++j) w[j] = static_cast<double>(c[j][m]);
  return w;
}

}  // namespace wavefd
