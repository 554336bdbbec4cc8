#pragma once
// The star update of host kernels, a block of rows at a time: plain C++ on raw pointers, no
// threading and no Kokkos, so that the native host kernel (OpenMP, star_host.cpp) and the Kokkos
// host variant (rows-stream) share it and differ only in how threads take the blocks.
//
// A work item is a block of rows streamed through a chunk of planes, so that the 2R + 1 planes of
// the block stay in L2 and each value comes from memory about once; within a row the x loop is a
// simd loop over restrict pointers with every neighbour at a fixed offset. The arithmetic is the
// Kokkos and native kernels' own, in their order (per distance m: ((x pair) + (y pair)) + (z
// pair), through fused()), so the seismic engine gets the same bits from it. Where the ghost
// images are active, each row stores its images while it is in cache.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "kernels/fused.hpp"
#include "kernels/native_star.hpp"

namespace wavefd::host {

// Rows per block by default for this radius, row length and precision: the 2R + 1 planes of a
// block and its halo rows stay within about 256 KiB (a core's L2), and at least 8 blocks per
// thread where the rows allow, so that threads end together (128^3 on 2 cores: 3 blocks of 48
// rows left one thread a third of the work idle).
inline int star_rows_per_block(int radius, int row_points, int rows, int bytes_per_value, int threads) {
  constexpr double kL2 = 256 * 1024;
  const double plane_rows = kL2 / (double(2 * radius + 1) * double(row_points) * bytes_per_value);
  const int by_cache = std::clamp(int(plane_rows) - 2 * radius, 8, 256);
  return std::min(by_cache, std::max(4, (rows + 8 * threads - 1) / (8 * threads)));
}

template <class T, int R, bool Coef>
struct StarRows {
  native::StarArgs<T> a;
  int rows = 1;       // rows per block
  int y_blocks = 1;   // blocks across y
  int z_chunk = 1;    // planes per work item
  int items = 0;      // work items: y_blocks x chunks along z
  T c[R + 1] = {};

  StarRows(const native::StarArgs<T>& args, int threads) : a(args) {
    const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1], nz = a.hi[2] - a.lo[2];
    if (nx <= 0 || ny <= 0 || nz <= 0) return;
    // Ghost images row by row (GhostImages::store_row), which needs the box's rows whole.
    if (a.images.active && (a.lo[0] != 0 || a.hi[0] != a.images.n[0]))
      throw std::runtime_error("star rows: ghost images need whole rows (x = 0 .. n)");
    rows = a.rows > 0 ? a.rows : star_rows_per_block(R, nx, ny, int(sizeof(T)), threads);
    y_blocks = (ny + rows - 1) / rows;
    // Many threads, few blocks: each block's planes in chunks (at least 4 R planes each, the
    // halo planes a chunk re-reads), so that every thread gets several items.
    const int chunks = std::clamp((8 * threads + y_blocks - 1) / y_blocks, 1, std::max(1, nz / (4 * R)));
    z_chunk = (nz + chunks - 1) / chunks;
    items = y_blocks * ((nz + z_chunk - 1) / z_chunk);
    for (int m = 0; m <= R; ++m) c[m] = a.c[m];
  }

  void update(int item) const {
    const std::int64_t sy = a.sy, sz = a.sz;
    const int nx = a.hi[0] - a.lo[0];
    const int y0 = a.lo[1] + item % y_blocks * rows, y1 = std::min(y0 + rows, a.hi[1]);
    const int z0 = a.lo[2] + item / y_blocks * z_chunk, z1 = std::min(z0 + z_chunk, a.hi[2]);
    for (int z = z0; z < z1; ++z)
      for (int y = y0; y < y1; ++y) {
        const std::int64_t row = a.origin + a.lo[0] + std::int64_t(y) * sy + std::int64_t(z) * sz;
        update_row(a.u + row, a.u_prev + row, Coef ? a.coef + row : nullptr, nx);
        // After the row, outside update_row's restrict scope: the images read what it wrote.
        if (a.images.active) a.images.store_row(a.u_prev, y, z, row);
      }
  }

  void update_row(const T* __restrict__ in, T* __restrict__ out, const T* __restrict__ vp, int nx) const {
    const std::int64_t sy = a.sy, sz = a.sz;
#ifdef _OPENMP
#pragma omp simd
#endif
    for (int i = 0; i < nx; ++i) {
      T sum = Coef ? c[0] * in[i] : c[0] * in[i] - out[i];
      // m = 1..R written out (a loop over m was left rolled for R >= 6, and not vectorised)
      [&]<int... Ms>(std::integer_sequence<int, Ms...>) {
        ((sum = kernels::fused(c[Ms + 1],
                               ((in[i - (Ms + 1)] + in[i + (Ms + 1)]) + (in[i - (Ms + 1) * sy] + in[i + (Ms + 1) * sy])) +
                                   (in[i - (Ms + 1) * sz] + in[i + (Ms + 1) * sz]),
                               sum)),
         ...);
      }(std::make_integer_sequence<int, R>{});
      out[i] = Coef ? kernels::coefficient_update(in[i], sum, vp[i], out[i]) : sum;
    }
  }
};

// Calls run(rows) with the StarRows of a's radius and coefficient; throws std::runtime_error
// (naming `kernel`) for a radius outside 1..kMaxStarRadius.
template <class T, class Run>
void with_star_rows(const native::StarArgs<T>& a, int threads, const char* kernel, Run&& run) {
  native::with_star_radius(a.radius, kernel, [&](auto R) {
    constexpr int r = decltype(R)::value;
    if (a.coef) run(StarRows<T, r, true>(a, threads));
    else run(StarRows<T, r, false>(a, threads));
  });
}

}  // namespace wavefd::host
