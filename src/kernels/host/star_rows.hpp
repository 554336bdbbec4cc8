#pragma once
// The star update of host kernels, a block of rows at a time: plain C++ on raw pointers, no
// threading and no Kokkos, so that the native host kernel (OpenMP, star_host.cpp) and the Kokkos
// host variant (rows-stream) share it and differ only in how threads take the blocks.
//
// Work items are the blocks of rows of row_blocks.hpp; within a row the x loop is a simd loop over
// restrict pointers with every neighbour at a fixed offset. The arithmetic is the Kokkos and
// native kernels' own, in their order (per distance m: ((x pair) + (y pair)) + (z pair), through
// fused()), so the seismic engine gets the same bits from it. Where the ghost images are active,
// each row stores its images while it is in cache. T is the stored type: the 16-bit formats are
// widened to float as read and narrowed as stored (storage_format.hpp).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "kernels/fused.hpp"
#include "kernels/host/row_blocks.hpp"
#include "kernels/native_star.hpp"

namespace wavefd::host {

template <class T, int R, bool Coef>
struct StarRows {
  using A = arithmetic_t<T>;
  native::StarArgs<T> a;
  RowBlocks blocks;  // the work items
  A c[R + 1] = {};

  StarRows(const native::StarArgs<T>& args, int threads) : a(args) {
    // Ghost images row by row (GhostImages::store_row), which needs the box's rows whole.
    if (a.images.active && a.hi[0] > a.lo[0] && (a.lo[0] != 0 || a.hi[0] != a.images.n[0]))
      throw std::runtime_error("star rows: ghost images need whole rows (x = 0 .. n)");
    blocks = RowBlocks(a.lo, a.hi, R, int(sizeof(T)), threads, a.rows);
    for (int m = 0; m <= R; ++m) c[m] = a.c[m];
  }

  void update(int item) const {
    const int nx = a.hi[0] - a.lo[0];
    blocks.for_rows(item, [&](int y, int z) {
      const std::int64_t row = a.origin + a.lo[0] + std::int64_t(y) * a.sy + std::int64_t(z) * a.sz;
      update_row(a.u + row, a.u_prev + row, Coef ? a.coef + row : nullptr, nx);
      // After the row, outside update_row's restrict scope: the images read what it wrote.
      if (a.images.active) a.images.store_row(a.u_prev, y, z, row);
    });
  }

  // Float, radius 6 and up: a row in runs of kLanes points, the distances outer and a simd loop over the
  // run's points inner, so that each distance issues kLanes / (vector width) independent fused
  // multiply-adds where the point loop issues one vector's chain of R of them, one after the other
  // (rows-stream, 256^3 float on the 2 development cores, interleaved A/B: M = 8 1.15x and M = 6
  // 1.10x faster in the median; M = 4 0.95x and M = 8 in double no faster, so those keep the point
  // loop; docs/performance.md). The same operations per point in the same order: the same bits as
  // update_points().
  static constexpr int kLanes = 64;
  static constexpr bool kRuns = std::is_same_v<A, float> && R >= 6;

  void update_row(const T* __restrict__ in, T* __restrict__ out, const A* __restrict__ vp, int nx) const {
    int i = 0;
    if constexpr (kRuns)
      for (; i + kLanes <= nx; i += kLanes) update_run(in + i, out + i, Coef ? vp + i : nullptr);
    update_points(in + i, out + i, Coef ? vp + i : nullptr, nx - i);
  }

  void update_run(const T* __restrict__ in, T* __restrict__ out, const A* __restrict__ vp) const {
    A sum[kLanes];
#ifdef _OPENMP
#pragma omp simd
#endif
    for (int l = 0; l < kLanes; ++l) sum[l] = Coef ? c[0] * widen(in[l]) : c[0] * widen(in[l]) - widen(out[l]);
    [&]<int... Ms>(std::integer_sequence<int, Ms...>) {
      (add_distance<Ms + 1>(in, sum), ...);
    }(std::make_integer_sequence<int, R>{});
#ifdef _OPENMP
#pragma omp simd
#endif
    for (int l = 0; l < kLanes; ++l) out[l] = stored(in[l], sum[l], Coef ? vp[l] : A{}, out[l]);
  }

  template <int M>
  void add_distance(const T* __restrict__ in, A* __restrict__ sum) const {
    const std::int64_t sy = a.sy, sz = a.sz;
    const A cm = c[M];
#ifdef _OPENMP
#pragma omp simd
#endif
    for (int l = 0; l < kLanes; ++l) sum[l] = kernels::fused(cm, axis_pairs<M>(in + l, sy, sz), sum[l]);
  }

  // The 6 neighbours at distance M of *p, summed in the kernels' order: ((x pair) + (y pair)) + (z pair).
  template <int M>
  static A axis_pairs(const T* p, std::int64_t sy, std::int64_t sz) {
    return ((widen(p[-M]) + widen(p[M])) + (widen(p[-M * sy]) + widen(p[M * sy]))) +
           (widen(p[-M * sz]) + widen(p[M * sz]));
  }

  // The value stored for a point: the sum itself, or the coefficient's update with it; narrowed.
  static T stored(T centre, A sum, A vp, T old) {
    return narrow<T>(Coef ? kernels::coefficient_update(widen(centre), sum, vp, widen(old)) : sum);
  }

  void update_points(const T* __restrict__ in, T* __restrict__ out, const A* __restrict__ vp, int nx) const {
    const std::int64_t sy = a.sy, sz = a.sz;
#ifdef _OPENMP
#pragma omp simd
#endif
    for (int i = 0; i < nx; ++i) {
      A sum = Coef ? c[0] * widen(in[i]) : c[0] * widen(in[i]) - widen(out[i]);
      // m = 1..R written out (a loop over m was left rolled for R >= 6, and not vectorised)
      [&]<int... Ms>(std::integer_sequence<int, Ms...>) {
        ((sum = kernels::fused(c[Ms + 1], axis_pairs<Ms + 1>(in + i, sy, sz), sum)), ...);
      }(std::make_integer_sequence<int, R>{});
      out[i] = stored(in[i], sum, Coef ? vp[i] : A{}, out[i]);
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
