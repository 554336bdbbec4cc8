// The wall cells of a voxelized room (include/wavefd/room.hpp): every stencil's terms read at their
// even images inside the air (the composed Neumann closure, docs/room.md), the outside cells the bulk
// update writes, and the surfaces of any room for the diffuse-field formulas.
#include <algorithm>
#include <map>

#include "wavefd/room.hpp"

namespace wavefd {

namespace {

const Index3 kFaceSteps[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

bool is_air(const RoomModel& m, const Index3& c) {
  for (int d = 0; d < 3; ++d)
    if (c[d] < 0 || c[d] >= m.n[d]) return false;  // beyond the grid: outside
  return m.air[std::size_t(c[0] + m.n[0] * (c[1] + m.n[1] * c[2]))] != 0;
}

int outside_faces(const RoomModel& m, const Index3& c) {
  int outside = 0;
  for (const Index3& step : kFaceSteps) outside += !is_air(m, {c[0] + step[0], c[1] + step[1], c[2] + step[2]});
  return outside;
}

// Per cell of `box` (x fastest), whether a cell within `reach` on every axis is air (`air`) or not:
// three sliding windows, one per axis, over the box widened by the reach. Along y and z the windows
// of a whole row or plane slide together, so that every pass reads memory in order (a 405 M-cell
// hall: seconds, where a window per column strode across planes for tens).
std::vector<std::uint8_t> within_reach(const RoomModel& m, const Box& box, int reach, bool air) {
  Index3 lo{}, e{};
  for (int d = 0; d < 3; ++d) lo[d] = box.lo[d] - reach, e[d] = box.hi[d] - box.lo[d] + 2 * reach;
  const auto at = [&](index_t i, index_t j, index_t k) { return std::size_t(i + e[0] * (j + e[1] * k)); };
  std::vector<std::uint8_t> hit(std::size_t(e[0] * e[1] * e[2])), widened(hit.size());
  for (index_t k = 0; k < e[2]; ++k)
    for (index_t j = 0; j < e[1]; ++j)
      for (index_t i = 0; i < e[0]; ++i) hit[at(i, j, k)] = is_air(m, {lo[0] + i, lo[1] + j, lo[2] + k}) == air;
  // x: along each row.
  for (index_t row = 0; row < e[1] * e[2]; ++row) {
    const std::size_t first = std::size_t(row * e[0]);
    int count = 0;  // hits in the window [i - reach, i + reach]
    for (index_t i = 0; i < reach && i < e[0]; ++i) count += hit[first + std::size_t(i)];
    for (index_t i = 0; i < e[0]; ++i) {
      if (i + reach < e[0]) count += hit[first + std::size_t(i + reach)];
      if (i - reach - 1 >= 0) count -= hit[first + std::size_t(i - reach - 1)];
      widened[first + std::size_t(i)] = count > 0;
    }
  }
  std::swap(hit, widened);
  // y and z: `lines` consecutive lines of `block` cells each (a plane's rows, or the planes), the
  // window sliding over lines with one count per cell of a line.
  const auto slide = [&](index_t outer, index_t lines, index_t block) {
    std::vector<std::uint8_t> count(static_cast<std::size_t>(block));
    for (index_t o = 0; o < outer; ++o) {
      const std::size_t base = std::size_t(o * lines * block);
      const auto line = [&](index_t t) { return base + std::size_t(t * block); };
      std::fill(count.begin(), count.end(), 0);
      for (index_t t = 0; t < reach && t < lines; ++t)
        for (index_t p = 0; p < block; ++p) count[std::size_t(p)] += hit[line(t) + std::size_t(p)];
      for (index_t t = 0; t < lines; ++t) {
        if (t + reach < lines)
          for (index_t p = 0; p < block; ++p) count[std::size_t(p)] += hit[line(t + reach) + std::size_t(p)];
        if (t - reach - 1 >= 0)
          for (index_t p = 0; p < block; ++p) count[std::size_t(p)] -= hit[line(t - reach - 1) + std::size_t(p)];
        for (index_t p = 0; p < block; ++p) widened[line(t) + std::size_t(p)] = count[std::size_t(p)] > 0;
      }
    }
    std::swap(hit, widened);
  };
  slide(e[2], e[1], e[0]);         // y: per plane, its rows
  slide(1, e[2], e[0] * e[1]);     // z: the planes
  std::vector<std::uint8_t> out;
  out.reserve(std::size_t((box.hi[0] - box.lo[0]) * (box.hi[1] - box.lo[1]) * (box.hi[2] - box.lo[2])));
  for (index_t k = reach; k < e[2] - reach; ++k)
    for (index_t j = reach; j < e[1] - reach; ++j)
      for (index_t i = reach; i < e[0] - reach; ++i) out.push_back(hit[at(i, j, k)]);
  return out;
}

// `t` cells along axis d from `at` inside the air: a step into a cell that is not air turns back
// instead (the even image across the face between them), so the run of air cells through `at`
// repeats as its even extension, of period twice its length, however short the run.
Index3 walk(const RoomModel& m, Index3 at, int d, int t) {
  int dir = t > 0 ? 1 : -1;
  for (int s = 0; s < std::abs(t); ++s) {
    Index3 next = at;
    next[d] += dir;
    if (is_air(m, next)) at = next;
    else dir = -dir;
  }
  return at;
}

// The terms the walls change at air cell `b`: each offset's weight at its images, the walks along
// its axes in every order (averaged: the operator stays symmetric), less the bulk's own read where
// that is air (beyond a thin wall); the bulk's reads outside the air hold 0 (their points go to
// `left_out`). Empty in open air.
std::map<Index3, double> wall_terms(const RoomModel& m, const Index3& b, std::vector<int>& left_out) {
  const Stencil& s = m.stencil;
  std::map<Index3, double> terms;  // ordered: every rank sums a cell's terms in one order
  for (std::size_t q = 0; q < s.size(); ++q) {
    const Offset& o = s.offsets[q];
    const Index3 l{o.x, o.y, o.z}, raw{b[0] + o.x, b[1] + o.y, b[2] + o.z};
    if (l == Index3{0, 0, 0}) continue;
    if (!is_air(m, raw)) left_out.push_back(int(q));
    std::vector<int> axes;
    for (int d = 0; d < 3; ++d)
      if (l[d] != 0) axes.push_back(d);
    std::map<Index3, int> images;
    int orders = 0;
    do {
      Index3 at = b;
      for (int d : axes) at = walk(m, at, d, l[d]);
      ++images[at], ++orders;
    } while (std::next_permutation(axes.begin(), axes.end()));
    const bool straight = images.size() == 1 && images.begin()->first == raw;
    if (straight) continue;  // inside the air all the way (the bulk's read is right)
    for (const auto& [image, count] : images) terms[image] += s.weights[q] * (double(count) / double(orders));
    if (is_air(m, raw)) terms[raw] -= s.weights[q];
  }
  std::erase_if(terms, [](const auto& t) { return t.second == 0; });
  return terms;
}

}  // namespace

bool on_the_axes(const Stencil& s) {
  return std::all_of(s.offsets.begin(), s.offsets.end(),
                     [](const Offset& o) { return (o.x != 0) + (o.y != 0) + (o.z != 0) <= 1; });
}

std::vector<index_t> boundary_cells(const RoomModel& m) {
  std::vector<index_t> cells;
  for (index_t k = 0; k < m.n[2]; ++k)
    for (index_t j = 0; j < m.n[1]; ++j)
      for (index_t i = 0; i < m.n[0]; ++i)
        if (is_air(m, {i, j, k}) && outside_faces(m, {i, j, k}) > 0) cells.push_back(i + m.n[0] * (j + m.n[1] * k));
  return cells;
}

std::vector<WallCell> voxel_wall_cells(const RoomModel& m, const Box& box) {
  if (!symmetric_in_each_axis(m.stencil))
    throw Error("room walls need a stencil symmetric in each axis (the even reflection); " + m.stencil.name +
                " is not; accepted: the star, compact and box families, or such a custom stencil");
  const std::vector<std::uint8_t> near = within_reach(m, box, m.stencil.radius, false);
  std::vector<WallCell> cells;
  std::size_t next_material = 0, here = 0;  // m.boundary_material is sorted by cell, as the loop below runs
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
        const Index3 at{i, j, k};
        if (!near[here++] || !is_air(m, at)) continue;
        WallCell cell{at, {}, {}, {}};
        if (const int outside = outside_faces(m, at); outside > 0) {
          const index_t flat = i + m.n[0] * (j + m.n[1] * k);
          while (next_material < m.boundary_material.size() && m.boundary_material[next_material].flat < flat) ++next_material;
          if (next_material == m.boundary_material.size() || m.boundary_material[next_material].flat != flat)
            throw Error("room from a mesh: boundary cell (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                        std::to_string(k) + ") has no wall material");
          const RoomModel::BoundaryCell& b = m.boundary_material[next_material];
          cell.faces = {{b.material, double(outside) * b.area_scale}};  // area in cell faces
        }
        const std::map<Index3, double> terms = wall_terms(m, at, cell.left_out);
        if (terms.empty() && cell.faces.empty() && cell.left_out.empty()) continue;
        cell.terms.assign(terms.begin(), terms.end());
        cells.push_back(std::move(cell));
      }
  return cells;
}

std::vector<Index3> outside_shell(const RoomModel& m, const Box& box) {
  const Stencil& s = m.stencil;
  const std::vector<std::uint8_t> near = within_reach(m, box, s.radius, true);
  std::vector<Index3> shell;
  std::size_t here = 0;
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
        if (!near[here++] || is_air(m, {i, j, k})) continue;
        bool read = false;  // by an air cell's bulk update
        for (std::size_t q = 1; q < s.size() && !read; ++q)
          read = is_air(m, {i - s.offsets[q].x, j - s.offsets[q].y, k - s.offsets[q].z});
        if (read) shell.push_back({i, j, k});
      }
  return shell;
}

std::vector<int> air_z_spans(const RoomModel& m, const Box& box) {
  const index_t nx = box.hi[0] - box.lo[0], ny = box.hi[1] - box.lo[1], nz = box.hi[2] - box.lo[2];
  std::vector<int> spans(std::size_t(2 * nx * ny), 0);
  for (index_t k = 0; k < nz; ++k)  // plane by plane, rows along x: the air in memory order
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        if (!is_air(m, {box.lo[0] + i, box.lo[1] + j, box.lo[2] + k})) continue;
        int* span = &spans[std::size_t(2 * (i + nx * j))];
        if (span[0] == span[1]) span[0] = int(k);  // the column's first air
        span[1] = int(k + 1);
      }
  return spans;
}

RoomSurfaces room_surfaces(const RoomModel& m) {
  RoomSurfaces s;
  const double h2 = m.h * m.h;
  if (m.air.empty()) {
    const std::array<double, 3> face = {double(m.n[1] * m.n[2]) * h2, double(m.n[0] * m.n[2]) * h2,
                                        double(m.n[0] * m.n[1]) * h2};  // normal x, y, z
    s.volume = double(m.n[0] * m.n[1] * m.n[2]) * h2 * m.h;
    for (std::size_t f = 0; f < 6; ++f) s.material.push_back(&m.walls[f]), s.area.push_back(face[f / 2]);
    return s;
  }
  std::vector<double> area(m.materials.size(), 0.0);
  for (std::uint8_t a : m.air) s.volume += a;
  s.volume *= h2 * m.h;
  for (const RoomModel::BoundaryCell& b : m.boundary_material) {
    const Index3 at{b.flat % m.n[0], (b.flat / m.n[0]) % m.n[1], b.flat / (m.n[0] * m.n[1])};
    area[std::size_t(b.material)] += h2 * outside_faces(m, at) * b.area_scale;
    s.staircase_area += h2 * outside_faces(m, at);
  }
  for (std::size_t i = 0; i < area.size(); ++i)
    if (area[i] > 0) s.material.push_back(&m.materials[i]), s.area.push_back(area[i]);
  return s;
}

}  // namespace wavefd
