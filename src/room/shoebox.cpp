// The wall cells of a shoebox (include/wavefd/room.hpp): the even reflection's terms and the wall faces.
#include <cmath>
#include <map>

#include "wavefd/room.hpp"

namespace wavefd {

namespace {

// The even image of cell c along an axis of n cells whose walls lie half a cell beyond 0 and n - 1:
// ghost -1 - m stands for cell m, ghost n + m for cell n - 1 - m. Offsets never exceed n (the
// stencil's radius fits the grid), so one reflection suffices.
index_t mirror(index_t c, index_t n) { return c < 0 ? -1 - c : c >= n ? 2 * n - 1 - c : c; }

}  // namespace

std::array<double, 3> room_grid_position(const std::array<double, 3>& metres, double h) {
  std::array<double, 3> g{};
  for (int d = 0; d < 3; ++d) {
    g[d] = metres[d] / h - 0.5;
    if (std::abs(g[d] - std::round(g[d])) <= 1e-9) g[d] = std::round(g[d]);
  }
  return g;
}

std::vector<WallCell> shoebox_wall_cells(const Stencil& s, const Index3& n, const Box& box) {
  if (!symmetric_in_each_axis(s))
    throw Error("room walls need a stencil symmetric in each axis (the even reflection); " + s.name +
                " is not; accepted: the star, compact and box families, or such a custom stencil");
  for (int d = 0; d < 3; ++d)
    if (n[d] < s.radius)
      throw Error("grid.n[" + std::to_string(d) + "] = " + std::to_string(n[d]) + " cells is less than the stencil's radius " +
                  std::to_string(s.radius) + "; accepted: at least the radius on every axis");
  const index_t r = s.radius;
  std::vector<WallCell> cells;
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j) {
      const bool near_yz = j < r || j >= n[1] - r || k < r || k >= n[2] - r;
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
        if (!near_yz && i >= r && i < n[0] - r) {  // the stencil stays inside: skip to the x wall's cells
          i = std::max(i, n[0] - r - 1);
          continue;
        }
        const Index3 at{i, j, k};
        WallCell cell{at, {}, {}, {}};
        for (int d = 0; d < 3; ++d) {
          if (at[d] == 0) cell.faces.push_back({2 * d, 1.0});
          if (at[d] == n[d] - 1) cell.faces.push_back({2 * d + 1, 1.0});
        }
        std::map<Index3, double> images;  // ordered: every rank sums a cell's terms in one order
        for (std::size_t q = 0; q < s.size(); ++q) {
          const Offset& o = s.offsets[q];
          const Index3 to{i + o.x, j + o.y, k + o.z};
          bool outside = false;
          for (int d = 0; d < 3; ++d) outside = outside || to[d] < 0 || to[d] >= n[d];
          if (!outside) continue;
          images[{mirror(to[0], n[0]), mirror(to[1], n[1]), mirror(to[2], n[2])}] += s.weights[q];
          cell.left_out.push_back(int(q));
        }
        if (images.empty() && cell.faces.empty()) continue;
        cell.terms.assign(images.begin(), images.end());
        cells.push_back(std::move(cell));
      }
    }
  return cells;
}

}  // namespace wavefd
