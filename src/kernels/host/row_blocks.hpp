#pragma once
// How host row kernels share a box among threads: work items of a block of rows (y) streamed
// through a chunk of planes (z), so that the 2R + 1 planes of a block stay in L2 and each value
// comes from memory about once. Plain C++: the native host kernel and the Kokkos row variants
// both take their items from here.
#include <algorithm>

namespace wavefd::host {

// Rows per block by default for this radius, row length and precision: the 2R + 1 planes of a
// block and its halo rows stay within about 256 KiB (a core's L2), and at least 8 blocks per
// thread where the rows allow, so that threads end together (128^3 on 2 cores: 3 blocks of 48
// rows left one thread a third of the work idle).
inline int rows_per_block(int radius, int row_points, int rows, int bytes_per_value, int threads) {
  constexpr double kL2 = 256 * 1024;
  const double plane_rows = kL2 / (double(2 * radius + 1) * double(row_points) * bytes_per_value);
  const int by_cache = std::clamp(int(plane_rows) - 2 * radius, 8, 256);
  return std::min(by_cache, std::max(4, (rows + 8 * threads - 1) / (8 * threads)));
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
    rows = rows_wanted > 0 ? rows_wanted : rows_per_block(radius, nx, ny, bytes_per_value, threads);
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
