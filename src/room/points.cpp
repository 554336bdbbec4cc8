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

void check_room_model(const RoomModel& m) {
  if (!symmetric_in_each_axis(m.stencil))
    throw Error("room walls need a stencil symmetric in each axis; " + m.stencil.name + " is not");
  for (std::size_t i = 0; i < m.sources.size(); ++i)
    if (!m.sources[i].hard) room_point_weights(m.sources[i].position, m.spreading, m.n, "source[" + std::to_string(i) + "].position");
    else spread_weights(m.sources[i].position, Spreading::trilinear, m.n, "source[" + std::to_string(i) + "].position");
  for (std::size_t i = 0; i < m.receivers.size(); ++i)
    room_point_weights(m.receivers[i], m.spreading, m.n, "receivers.positions[" + std::to_string(i) + "]");
}

}  // namespace wavefd
