#pragma once
// The MDRange policy every Kokkos box kernel uses: index 0 = x (contiguous). Iterate::Left makes
// x the fastest loop on the host; on GPUs Kokkos maps threadIdx.x to index 0 either way.
#include <algorithm>
#include <type_traits>

#include "wavefd/grid.hpp"

namespace wavefd::kernels {

using BoxPolicy = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace,
                                        Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                        Kokkos::IndexType<index_t>>;

inline BoxPolicy box_policy(const Kokkos::DefaultExecutionSpace& exec, const Box& b) {
  return BoxPolicy(exec, {b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]});
}

// Streaming kernels: one index per (x, y) column and z chunk, each walking its chunk plane by
// plane. Chunks are long against the 2R planes each stream preloads, and numerous enough to fill
// the device. Index 0 counts x packs of `pack` points from box.lo[0] (pack divides the x extent).
// GPU blocks are 32 x 4 columns (x contiguous across a warp); host tiles whole x rows.
template <class Policy = BoxPolicy>
struct ColumnStreams {
  index_t z_chunk = 0;
  Policy policy;
};

template <class Policy = BoxPolicy>
ColumnStreams<Policy> column_streams(const Kokkos::DefaultExecutionSpace& exec, const Box& b, int radius,
                                     int pack = 1) {
  constexpr bool on_host = std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;
  const index_t packs = b.extent(0) / pack;
  const index_t columns = packs * b.extent(1);
  const index_t want = on_host ? 8 * index_t(exec.concurrency()) : index_t(132) * 2048 * 2;
  const index_t chunks =
      std::max<index_t>(1, std::min<index_t>((want + columns - 1) / columns, b.extent(2) / (16 * radius)));
  ColumnStreams<Policy> c;
  c.z_chunk = (b.extent(2) + chunks - 1) / chunks;
  const index_t nchunks = (b.extent(2) + c.z_chunk - 1) / c.z_chunk;
  const index_t tile_x = on_host ? packs : std::min<index_t>(32, packs);
  c.policy = Policy(exec, {0, b.lo[1], 0}, {packs, b.hi[1], nchunks}, {tile_x, on_host ? 1 : 4, 1});
  return c;
}

}  // namespace wavefd::kernels
