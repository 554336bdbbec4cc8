#include "comm/exchange_plan.hpp"

#include <algorithm>
#include <array>

namespace wavefd::comm {

bool reads_region(const std::vector<Offset>& offsets, const Index3& dir) {
  for (const Offset& o : offsets) {
    const int v[3] = {o.x, o.y, o.z};
    bool into = true;
    for (int a = 0; a < 3; ++a) into = into && (dir[a] == 0 || (dir[a] < 0 ? v[a] < 0 : v[a] > 0));
    if (into) return true;
  }
  return false;
}

bool reads_edges(const std::vector<Offset>& offsets) {
  return std::any_of(offsets.begin(), offsets.end(),
                     [](const Offset& o) { return (o.x != 0) + (o.y != 0) + (o.z != 0) > 1; });
}

ExchangePlan make_exchange_plan(const HaloSpec& spec, bool in_place, bool x_first) {
  ExchangePlan plan;
  const Index3& n = spec.layout.n;
  const index_t h = spec.layout.halo;
  // An axis this rank spans alone (a periodic axis of one rank) wraps onto itself: its ghosts are
  // filled in place after the messages (ghost_shell.hpp), not sent to itself through the
  // transport, which packed and unpacked them (2 x H200, 512^3 per GPU over [1, 1, 2]: 4 of the 6
  // face messages were such self-messages).
  std::array<bool, 3> own_axis{};
  for (int a = 0; a < 3; ++a) {
    const auto& across = spec.sub.neighbour[a];
    own_axis[a] = spec.wrap_own_axes && across[0] == spec.sub.rank && across[1] == spec.sub.rank;
    for (int side = 0; side < 2; ++side) {
      const bool wall = across[side] == kNoNeighbour && spec.boundary == Boundary::rigid;
      plan.walls[a][side] = own_axis[a] ? GhostFill::wrap
                            : wall      ? GhostFill::reflect
                                        : GhostFill::keep;  // zero frames keep their zeros
    }
  }
  if (h == 0) return plan;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const Index3 d{dx, dy, dz};
        if (d == Index3{0, 0, 0} || !reads_region(spec.offsets, d)) continue;
        // Directions along own axes only: the wrap fill covers them. (A direction that also crosses
        // to another rank keeps its message; the fill rewrites its ghosts with the same values.)
        bool own_only = true;
        for (int a = 0; a < 3; ++a) own_only = own_only && (d[a] == 0 || own_axis[a]);
        if (own_only) continue;
        const int peer = spec.decomposition.neighbour(spec.sub, d);
        if (peer == kNoNeighbour) continue;  // across a wall: reflected or zero, not received
        GhostMessage m;
        m.peer = peer;
        m.send_tag = direction_id(d);
        m.recv_tag = direction_id({-dx, -dy, -dz});
        for (int a = 0; a < 3; ++a) {
          // Send the interior layers next to face d; receive into the ghost layers beyond it.
          m.send.lo[a] = d[a] < 0 ? 0 : d[a] > 0 ? n[a] - h : 0;
          m.send.hi[a] = d[a] < 0 ? h : n[a];
          m.recv.lo[a] = d[a] < 0 ? -h : d[a] > 0 ? n[a] : 0;
          m.recv.hi[a] = d[a] < 0 ? 0 : d[a] > 0 ? n[a] + h : n[a];
        }
        m.early = x_first && d == Index3{dx, 0, 0} && !reads_edges(spec.offsets);
        plan.messages.push_back(m);
        for (int a = 0; a < 3; ++a)
          if (d[a] != 0 && !m.early) plan.late_axes = std::max(plan.late_axes, 3 - a);
      }
  std::sort(plan.messages.begin(), plan.messages.end(), [](const GhostMessage& x, const GhostMessage& y) {
    return x.peer != y.peer ? x.peer < y.peer : x.send_tag < y.send_tag;
  });
  // A message crosses z alone (a z face) or z and another axis (an edge or corner across z).
  const auto crosses = [](const GhostMessage& m, bool z, bool other) {
    const Index3 d = direction_of(m.send_tag);
    return (d[2] != 0) == z && (d[0] != 0 || d[1] != 0) == other;
  };
  const Layout& l = spec.layout;
  in_place = in_place && h * l.sz < (index_t(1) << 31) &&  // counts are int in MPI
             std::none_of(plan.messages.begin(), plan.messages.end(), [&](const GhostMessage& m) { return crosses(m, true, true); });
  for (GhostMessage& m : plan.messages) {
    m.in_place = in_place && crosses(m, true, false);
    if (m.in_place) {  // planes [lo, lo + h) with their ghost rows and columns: from row_start(-h, lo)
      m.send_at = l.row_start(-h, m.send.lo[2]), m.recv_at = l.row_start(-h, m.recv.lo[2]), m.length = h * l.sz;
      continue;
    }
    m.length = m.send.size();  // = m.recv.size(): on each axis both are h or n wide
    m.send_at = plan.send_count, plan.send_count += m.length;
    m.recv_at = plan.recv_count, plan.recv_count += m.length;
  }
  return plan;
}

PackedBoxes packed_boxes(const ExchangePlan& plan, bool send) {
  PackedBoxes p;
  for (const GhostMessage& m : plan.messages) {
    if (m.in_place) continue;
    const Box& b = send ? m.send : m.recv;
    std::int32_t* s = &p.seg[7 * p.count++];
    for (int a = 0; a < 3; ++a) s[a] = std::int32_t(b.lo[a]), s[3 + a] = std::int32_t(b.extent(a));
    s[6] = std::int32_t(send ? m.send_at : m.recv_at);
  }
  p.total = send ? plan.send_count : plan.recv_count;
  if (p.total >= (index_t(1) << 31)) throw Error("a halo buffer of this subdomain would hold over 2^31 values");
  return p;
}

}  // namespace wavefd::comm
