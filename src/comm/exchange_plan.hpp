#pragma once
// What one rank sends and receives in a halo exchange, shared by every exchanging transport.
//
// Ghosts are exchanged with up to 26 neighbours (faces, edges, corners) in one round, so that all
// messages are in flight at once; only the regions the stencil reads are exchanged (a star stencil
// needs the 6 faces, compact and box ones edges and corners too). Each message is one box of the
// interior next to a face, edge or corner, packed x-fastest into one contiguous buffer by a single
// kernel, and unpacked into the matching ghost box of the receiver the same way. Faces on a rigid
// wall get no message: the reflection (ghost_shell.hpp) fills them after the messages arrived.
//
// In place: where no message crosses z together with another axis (a stencil that reads no edges
// across z), each z face message is R whole planes, contiguous in the field, and travels straight
// from the sender's last interior planes into the receiver's ghost planes: no pack, no unpack, no
// buffers (4 x H200, 512^3 per GPU split along z: the two kernels moved 32 MB per step beside the
// core). The messages across x and y stay packed. The planes carry their ghost columns and rows and
// the row padding too: the stencil reads none of those in a ghost plane (no edge regions), the
// messages across x and y fill only ghosts beside interior planes, and the ghost fill after the
// messages rewrites the ones its rules own (wrap, reflect), so every ghost the stencil reads ends as
// the packed exchange leaves it.
#include <cstdint>
#include <vector>

#include <Kokkos_Core.hpp>

#include "comm/ghost_message.hpp"
#include "comm/ghost_shell.hpp"
#include "wavefd/halo.hpp"

namespace wavefd::comm {

struct ExchangePlan {
  std::vector<GhostMessage> messages;  // sorted by (peer, tag), which NCCL's in-order matching needs
  FaceFills walls{};                   // reflect on faces at a rigid wall, wrap on own axes, else keep
  // The late axes: the last late_axes of x, y, z, the fewest that hold every axis a message crosses
  // (ShellPart). A rank grid split along z only leaves x and y early: an overlapped step's core
  // then spans whole xy planes and its shell is two z slabs.
  int late_axes = 0;
  index_t send_count = 0, recv_count = 0;  // values in the packed buffers (none when in place)
};

// Regions the stencil reads: direction d is needed when some offset points into it on every axis
// where d is not 0.
bool reads_region(const std::vector<Offset>& offsets, const Index3& dir);
// Whether some offset leaves the point along two or three axes (an edge or corner ghost): the
// ghost fills skip what such a stencil alone reads where none does (fill_ghosts' `edges_read`).
bool reads_edges(const std::vector<Offset>& offsets);

// `in_place`: whether the transport can take the field's own memory (not the host-staged `mpi` of
// GPU builds); the messages then go in place where they can.
// `x_first`: the transport sends the x faces ahead of the others and the update waits for them
// (`peer`: a face is one copy kernel at the whole GPU's rate, against a shell whose x slabs, one
// 32-value tile wide, the streaming kernels update at a sixth of the core's rate). Those messages
// are `early`, x is then not a late axis, and the shell has no x slabs. Only for stencils that read
// no edges: an edge message would need the x ghosts of its neighbour first.
ExchangePlan make_exchange_plan(const HaloSpec& spec, bool in_place, bool x_first = false);

// Box segments of a packed buffer (the messages not in place), readable in device code. 32-bit, as integer division in 64
// bits is several times dearer on GPUs (a buffer of 2^31 elements is refused when planned).
struct PackedBoxes {
  static constexpr int kMax = 26;
  Kokkos::Array<std::int32_t, kMax * 7> seg{};  // per box: lo x, y, z, extent x, y, z, buffer offset
  int count = 0;
  index_t total = 0;
};
PackedBoxes packed_boxes(const ExchangePlan& plan, bool send);

// Copies between the field and a packed buffer, one thread per element.
template <class T, bool ToBuffer>
struct BoxCopy {
  Kokkos::View<T*> field;
  Kokkos::View<T*> buffer;
  Layout l;
  PackedBoxes boxes;

  KOKKOS_INLINE_FUNCTION void operator()(index_t point) const {
    const std::int32_t i = std::int32_t(point);
    int b = 0;
    while (b + 1 < boxes.count && boxes.seg[7 * (b + 1) + 6] <= i) ++b;
    const std::int32_t* s = &boxes.seg[7 * b];
    std::uint32_t r = std::uint32_t(i - s[6]);
    const std::uint32_t ex = std::uint32_t(s[3]), ey = std::uint32_t(s[4]);
    const index_t x = s[0] + index_t(r % ex);
    r /= ex;
    const index_t y = s[1] + index_t(r % ey), z = s[2] + index_t(r / ey);
    if constexpr (ToBuffer) buffer(point) = field(l.at(x, y, z));
    else field(l.at(x, y, z)) = buffer(point);
  }
};

// The functor travels as a kernel argument (light weight): at 512 bytes and more Kokkos would put
// it in constant memory, and such a launch waits on the host until the previous one has finished,
// so the host could not enqueue the next step while the GPU ran this one.
template <class T, bool ToBuffer>
void copy_boxes(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& f, const Kokkos::View<T*>& buffer,
                const PackedBoxes& boxes) {
  if (boxes.total == 0) return;
  using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;
  Kokkos::parallel_for(ToBuffer ? "wavefd::halo_pack" : "wavefd::halo_unpack",
                       Kokkos::Experimental::require(Range(exec, 0, boxes.total),
                                                     Kokkos::Experimental::WorkItemProperty::HintLightWeight),
                       BoxCopy<T, ToBuffer>{f.data, buffer, f.layout, boxes});
}

}  // namespace wavefd::comm
