// Native host kernel for star stencils: 2.5-D blocking for the caches, the x loop vectorised.
//
// Why: the Kokkos host variants run 3-5 x slower than a plain OpenMP loop on the development
// machine (star float 256^3, 2 cores: mdrange-stream 0.46 Gpts/s at M = 4, the plain loop about
// 1.5; issue 12). Here each thread takes whole blocks of rows and streams them through every
// plane, so the 2R + 1 planes of its block stay in L2 and each value comes from memory about
// once; within a row the x loop is a simd loop over restrict pointers, with every neighbour at a
// fixed offset. The arithmetic is the Kokkos and native kernels' own, in their order (per
// distance m: ((x pair) + (y pair)) + (z pair), through fused()), so the seismic engine gets the
// same bits from it.
#include "star_host.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "kernels/fused.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace wavefd::host {
namespace {

template <class T, int R, bool Coef>
void sweep(const native::StarArgs<T>& a, int rows) {
  const T* __restrict__ u = a.u;
  T* __restrict__ u_prev = a.u_prev;
  const T* __restrict__ coef = a.coef;
  const std::int64_t sy = a.sy, sz = a.sz;
  const int nx = a.hi[0] - a.lo[0];
  const int blocks = (a.hi[1] - a.lo[1] + rows - 1) / rows;
  T c[R + 1];
  for (int m = 0; m <= R; ++m) c[m] = a.c[m];
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
  for (int b = 0; b < blocks; ++b) {
    const int y0 = a.lo[1] + b * rows, y1 = std::min(y0 + rows, a.hi[1]);
    for (int z = a.lo[2]; z < a.hi[2]; ++z)
      for (int y = y0; y < y1; ++y) {
        const std::int64_t row = a.origin + a.lo[0] + std::int64_t(y) * sy + std::int64_t(z) * sz;
        const T* __restrict__ in = u + row;
        T* __restrict__ out = u_prev + row;
        const T* __restrict__ vp = Coef ? coef + row : nullptr;
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
  }
}

}  // namespace

int star_host_rows(int radius, int row_points, int bytes_per_value) {
  constexpr double kL2 = 256 * 1024;
  const double plane_rows = kL2 / (double(2 * radius + 1) * double(row_points) * bytes_per_value);
  return std::clamp(int(plane_rows) - 2 * radius, 8, 256);
}

template <class T>
void star_host(const native::StarArgs<T>& a) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  // By default at least 8 blocks per thread where the rows allow, so that threads end together
  // (128^3 on 2 cores: 3 blocks of 48 rows left one thread a third of the work idle).
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  const int ny = a.hi[1] - a.lo[1];
  const int rows = a.rows > 0 ? a.rows
                              : std::min(star_host_rows(a.radius, a.hi[0] - a.lo[0], int(sizeof(T))),
                                         std::max(4, (ny + 8 * threads - 1) / (8 * threads)));
  native::with_star_radius(a.radius, "host-star", [&](auto R) {
    if (a.coef) sweep<T, decltype(R)::value, true>(a, rows);
    else sweep<T, decltype(R)::value, false>(a, rows);
  });
}

template void star_host<float>(const native::StarArgs<float>&);
template void star_host<double>(const native::StarArgs<double>&);

}  // namespace wavefd::host
