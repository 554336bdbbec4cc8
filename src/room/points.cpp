// Sources and receivers of a room: their grid weights, refused where they would reach beyond the walls.
#include <cmath>

#include "wavefd/room.hpp"

namespace wavefd {

std::vector<GridWeight> room_point_weights(const std::array<double, 3>& p, Spreading s, const Index3& n, const std::string& key) {
  std::vector<GridWeight> w = spread_weights(p, s, n, key);  // throws outside the cell centres
  for (int d = 0; d < 3 && s == Spreading::sinc; ++d) {
    const double base = std::floor(p[d]);
    if (p[d] != base && (base < 3 || base + 4 > double(n[d] - 1)))
      throw Error(key + "[" + axis_name(d) + "] = " + format_number((p[d] + 0.5)) + " cells from the low wall: sinc "
                  "spreading reaches beyond the walls there; accepted: spreading = trilinear, or a position at least "
                  "3.5 cells from the low wall and 4.5 from the high one, or on a cell centre");
  }
  return w;
}

namespace {

// In a room from a mesh, every cell a point reaches (its nonzero weights) must be air.
void check_in_air(const RoomModel& m, const std::vector<GridWeight>& weights, const std::string& key) {
  if (m.air.empty()) return;
  for (const GridWeight& w : weights) {
    if (w.weight == 0) continue;
    if (!m.air[std::size_t(w.at[0] + m.n[0] * (w.at[1] + m.n[1] * w.at[2]))])
      throw Error(key + " reaches cell (" + std::to_string(w.at[0]) + ", " + std::to_string(w.at[1]) + ", " +
                  std::to_string(w.at[2]) + "), outside the room's air (the mesh does not enclose it); accepted: a "
                  "position inside the mesh whose spreading stays in the air");
  }
}

}  // namespace

void check_room_model(const RoomModel& m) {
  if (!symmetric_in_each_axis(m.stencil))
    throw Error("room walls need a stencil symmetric in each axis; " + m.stencil.name + " is not");
  if (!m.air.empty() && !on_the_axes(m.stencil) && m.courant > kVoxelWallsMaxCfl * m.stencil.max_courant * (1 + 1e-12))
    throw Error("scheme.cfl = " + format_number(m.courant / m.stencil.max_courant) + " with stencil " + m.stencil.name +
                " in a room from a mesh; accepted: at most " + format_number(kVoxelWallsMaxCfl) +
                " (off-axis terms at voxel walls widen the operator's spectrum by up to 4 % on rough walls, docs/room.md)");
  for (std::size_t i = 0; i < m.sources.size(); ++i) {
    const std::string key = "source[" + std::to_string(i) + "].position";
    if (!m.sources[i].hard) {
      check_in_air(m, room_point_weights(m.sources[i].position, m.spreading, m.n, key), key);
    } else {
      spread_weights(m.sources[i].position, Spreading::trilinear, m.n, key);
      const auto& p = m.sources[i].position;
      check_in_air(m, {{{std::llround(p[0]), std::llround(p[1]), std::llround(p[2])}, 1.0}}, key);
    }
  }
  for (std::size_t i = 0; i < m.receivers.size(); ++i) {
    const std::string key = "receivers.positions[" + std::to_string(i) + "]";
    check_in_air(m, room_point_weights(m.receivers[i], m.spreading, m.n, key), key);
  }
}

}  // namespace wavefd
