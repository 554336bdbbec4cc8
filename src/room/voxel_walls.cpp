// The wall cells of a voxelized room (include/wavefd/room.hpp): the 7-point scheme's even reflection
// at the faces between air and outside cells, the outside cells the bulk update writes, and the
// surfaces of any room for the diffuse-field formulas.
#include "wavefd/room.hpp"

namespace wavefd {

namespace {

const Index3 kFaceSteps[6] = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};

bool is_air(const RoomModel& m, const Index3& c) {
  for (int d = 0; d < 3; ++d)
    if (c[d] < 0 || c[d] >= m.n[d]) return false;  // beyond the grid: outside
  return m.air[std::size_t(c[0] + m.n[0] * (c[1] + m.n[1] * c[2]))] != 0;
}

void check_seven_point(const Stencil& s) {
  if (s.radius != 1 || s.size() != 7)
    throw Error("stencil " + s.name + " in a room from a mesh: its walls take the 7-point scheme (star M = 1) so far; "
                "accepted: stencil.family = 'star', M = 1 (large stencils: shoebox rooms)");
}

}  // namespace

std::vector<WallCell> voxel_wall_cells(const RoomModel& m, const Box& box) {
  check_seven_point(m.stencil);
  std::vector<WallCell> cells;
  std::size_t next_material = 0;  // m.boundary_material is sorted by cell, as the loop below runs
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
        const Index3 at{i, j, k};
        if (!is_air(m, at)) continue;
        double outside = 0;
        for (const Index3& step : kFaceSteps)
          outside += !is_air(m, {i + step[0], j + step[1], k + step[2]});
        if (outside == 0) continue;
        const index_t flat = i + m.n[0] * (j + m.n[1] * k);
        while (next_material < m.boundary_material.size() && m.boundary_material[next_material].first < flat) ++next_material;
        if (next_material == m.boundary_material.size() || m.boundary_material[next_material].first != flat)
          throw Error("room from a mesh: boundary cell (" + std::to_string(i) + ", " + std::to_string(j) + ", " +
                      std::to_string(k) + ") has no wall material");
        // Each missing neighbour's term, read at its even image across the face between them: the cell
        // itself (the 7-point weights are 1); the faces' total area in cell faces, of the cell's material.
        cells.push_back({at, {{m.boundary_material[next_material].second, outside}}, {{at, outside}}});
      }
  return cells;
}

std::vector<Index3> outside_shell(const RoomModel& m, const Box& box) {
  std::vector<Index3> shell;
  for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
    for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
      for (index_t i = box.lo[0]; i < box.hi[0]; ++i) {
        if (is_air(m, {i, j, k})) continue;
        bool near = false;
        for (const Index3& step : kFaceSteps) near = near || is_air(m, {i + step[0], j + step[1], k + step[2]});
        if (near) shell.push_back({i, j, k});
      }
  return shell;
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
  for (const auto& [flat, material] : m.boundary_material) {
    const Index3 at{flat % m.n[0], (flat / m.n[0]) % m.n[1], flat / (m.n[0] * m.n[1])};
    for (const Index3& step : kFaceSteps)
      area[std::size_t(material)] += h2 * !is_air(m, {at[0] + step[0], at[1] + step[1], at[2] + step[2]});
  }
  for (std::size_t i = 0; i < area.size(); ++i)
    if (area[i] > 0) s.material.push_back(&m.materials[i]), s.area.push_back(area[i]);
  return s;
}

}  // namespace wavefd
