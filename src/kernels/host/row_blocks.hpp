#pragma once
// How host row kernels share a box among threads: work items of a block of rows (y) streamed
// through a chunk of planes (z), so that the 2R + 1 planes of a block stay in L2 and each value
// comes from memory about once. Plain C++: the native host kernel and the Kokkos row variants
// both take their items from here.
#include <unistd.h>

#include <algorithm>

namespace wavefd::host {

// A core's L2 in bytes as the system reports it (256 KiB where it does not say).
inline double l2_cache_bytes() {
  static const double bytes = [] {
    const long b = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return b > 0 ? double(b) : 256.0 * 1024;
  }();
  return bytes;
}

// Rows per block by default for this radius, row length and precision: the 2R + 1 planes of a
// block and its halo rows fill about half of a core's L2, and a block holds at least 3R rows (its
// 2R halo rows, read again by the blocks beside it, at most 2/3 of its own). The blocks across y
// are then made equal. Threads get enough work items from chunks along z (RowBlocks), not from
// thinner blocks: 16-row blocks ran star M = 1 at 256^3 (2 cores, float) in 6.3 ms against 4.4 ms
// with 128 rows, and at M = 8 rows below 3R re-read more halo than the cache saved.
inline int rows_per_block(int radius, int row_points, int rows, int bytes_per_value) {
  const double plane_rows = 0.5 * l2_cache_bytes() / (double(2 * radius + 1) * double(row_points) * bytes_per_value);
  const int most = std::clamp(std::max(int(plane_rows) - 2 * radius, 3 * radius), 4, 256);
  const int blocks = (rows + most - 1) / most;
  return (rows + blocks - 1) / blocks;
}

struct RowBlocks {
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // the box
  int rows = 1;      // rows per block
  int y_blocks = 1;  // blocks across y
  int z_chunk = 1;   // planes per work item
  int items = 0;     // work items: y_blocks x chunks along z

  RowBlocks() = default;
  // `rows_wanted`: rows per block, 0 for rows_per_block().
  RowBlocks(const int (&box_lo)[3], const int (&box_hi)[3], int radius, int bytes_per_value, int threads,
            int rows_wanted) {
    for (int d = 0; d < 3; ++d) lo[d] = box_lo[d], hi[d] = box_hi[d];
    const int nx = hi[0] - lo[0], ny = hi[1] - lo[1], nz = hi[2] - lo[2];
    if (nx <= 0 || ny <= 0 || nz <= 0) return;
    rows = rows_wanted > 0 ? rows_wanted : rows_per_block(radius, nx, ny, bytes_per_value);
    y_blocks = (ny + rows - 1) / rows;
    // Many threads, few blocks: each block's planes in chunks (at least 4 R planes each, the
    // halo planes a chunk re-reads), so that every thread gets several items.
    const int chunks = std::clamp((8 * threads + y_blocks - 1) / y_blocks, 1, std::max(1, nz / (4 * radius)));
    z_chunk = (nz + chunks - 1) / chunks;
    items = y_blocks * ((nz + z_chunk - 1) / z_chunk);
  }

  // Calls row(y, z) for every row of work item `item`, z outer.
  template <class Row>
  void for_rows(int item, Row&& row) const {
    const int y0 = lo[1] + item % y_blocks * rows, y1 = std::min(y0 + rows, hi[1]);
    const int z0 = lo[2] + item / y_blocks * z_chunk, z1 = std::min(z0 + z_chunk, hi[2]);
    for (int z = z0; z < z1; ++z)
      for (int y = y0; y < y1; ++y) row(y, z);
  }
};

}  // namespace wavefd::host
