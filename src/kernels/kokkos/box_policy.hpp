#pragma once
// The MDRange policy every Kokkos box kernel uses: index 0 = x (contiguous). Iterate::Left makes
// x the fastest loop on the host; on GPUs Kokkos maps threadIdx.x to index 0 either way.
#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "wavefd/grid.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {

using BoxPolicy = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace,
                                        Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                        Kokkos::IndexType<index_t>>;

inline BoxPolicy box_policy(const Kokkos::DefaultExecutionSpace& exec, const Box& b) {
  return BoxPolicy(exec, {b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]});
}

// The same policy with block extents `t`; the default tile keeps Kokkos' own choice (on CUDA
// 16x2x2, on hosts whole x rows by 2x2). Tiles need not divide the box: edge tiles are partial.
inline BoxPolicy box_policy(const Kokkos::DefaultExecutionSpace& exec, const Box& b, const Tile& t) {
  if (t.is_default()) return box_policy(exec, b);
  return BoxPolicy(exec, {b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}, {t.x, t.y, t.z});
}

// A variant whose kernels run on box_policy(exec, box, args.tile): Base (VariantFor or
// RadiusVariantFor) with the tiles that policy takes on this build's device. A GPU tile is a
// thread block: z at most 64 (CUDA's block limit), and at most 512 threads, Kokkos' own cap for
// the tiles it picks: a 1024-thread block needs <= 64 registers per thread, and mdrange-star takes
// up to 79 (double, nvcc 13, sm_90), so such a block would fail to launch.
template <class Base>
class BoxTiled : public Base {
 public:
  // GPU: warp multiples with x >= 16 for coalesced rows. Host: the x loop is innermost, and whole
  // rows (x = 1024) by small y-z blocks were as fast as anything tried (docs/performance.md, CPU);
  // 64x8x8 is the cache-blocked alternative for CPUs with more cores per cache.
  std::vector<Tile> tile_candidates(const Stencil&, Precision) const override {
    if (kOnHost) return {{1024, 1, 1}, {1024, 4, 1}, {1024, 8, 8}, {64, 8, 8}};
    return {{32, 4, 4}, {32, 8, 2}, {64, 4, 2}, {128, 2, 2}, {16, 8, 4}, {32, 2, 8}, {64, 2, 2}, {32, 4, 2}};
  }
  bool accepts_tile(const Tile& t) const override {
    if (t.is_default()) return true;
    const bool extents = std::min({t.x, t.y, t.z}) >= 1 && std::max({t.x, t.y, t.z}) <= kMaxTileExtent;
    return extents && (kOnHost || (t.x * t.y * t.z <= kMaxThreads && t.z <= kMaxZ));
  }
  std::string accepted_tiles() const override {
    const std::string any = "default, or XxYxZ with each extent 1.." + std::to_string(kMaxTileExtent);
    if (kOnHost) return any;
    return any + ", x*y*z <= " + std::to_string(kMaxThreads) + " threads per block and z <= " + std::to_string(kMaxZ);
  }

 private:
  static constexpr bool kOnHost = std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;
  static constexpr int kMaxThreads = 512, kMaxZ = 64;
};

// Streaming kernels: one index per (x, y) column and z chunk, each walking its chunk plane by
// plane. Chunks are long against the 2R planes each stream preloads, and numerous enough to fill
// the device. Index 0 counts x packs of `pack` points from box.lo[0] (pack divides the x extent).
// GPU blocks are 32 x 4 columns (x contiguous across a warp), and up to 128 columns on boxes
// narrower than 32 packs (a PML slab along x: 7 x 18, not 7 x 4; never more than 128, the launch
// bound of mdrange-stream); host tiles whole x rows. A non-default tile sets the block (x packs by
// y rows) and the planes per chunk (z). Chunks are at least `min_chunk` planes (default 16 R).
template <class Policy = BoxPolicy>
struct ColumnStreams {
  index_t z_chunk = 0;
  Policy policy;
};

template <class Policy = BoxPolicy>
ColumnStreams<Policy> column_streams(const Kokkos::DefaultExecutionSpace& exec, const Box& b, int radius,
                                     int pack = 1, const Tile& tile = {}, index_t min_chunk = 0) {
  constexpr bool on_host = std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;
  const index_t packs = b.extent(0) / pack;
  const index_t columns = packs * b.extent(1);
  const index_t want = on_host ? 8 * index_t(exec.concurrency()) : index_t(132) * 2048 * 2;
  const index_t chunks =
      std::max<index_t>(1, std::min<index_t>((want + columns - 1) / columns, b.extent(2) / (min_chunk > 0 ? min_chunk : 16 * radius)));
  ColumnStreams<Policy> c;
  c.z_chunk = tile.is_default() ? (b.extent(2) + chunks - 1) / chunks : index_t(tile.z);
  const index_t nchunks = (b.extent(2) + c.z_chunk - 1) / c.z_chunk;
  const index_t tile_x = tile.is_default() ? (on_host ? packs : std::min<index_t>(32, packs)) : index_t(tile.x);
  const index_t gpu_rows = std::clamp<index_t>(128 / tile_x, 4, std::max<index_t>(4, b.extent(1)));
  const index_t tile_y = tile.is_default() ? (on_host ? 1 : gpu_rows) : index_t(tile.y);
  c.policy = Policy(exec, {0, b.lo[1], 0}, {packs, b.hi[1], nchunks}, {tile_x, tile_y, 1});
  return c;
}

}  // namespace wavefd::kernels
