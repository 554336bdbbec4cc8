// Native HIP fused xyz kernel for star stencils (after the AMD lab notes "Finite difference
// method — seismic stencil codes, part 3"): a block of BX x BY threads owns a (BX*V) x BY tile of
// the xy plane and streams along z with a sliding window of 2R+1 planes in registers; the y
// neighbours come from the tile's rows staged in LDS (plus R halo rows above and below), the x
// neighbours from 16-byte vector loads of the row (L1), and the result goes out with nontemporal
// stores. Loads and stores are V-wide (float4 / double2) when rows are 16-byte aligned, else V = 1.
// With a variable coefficient (Coef, the seismic inner box) it is read beside u-.
#include <hip/hip_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/fused.hpp"
#include "star_fused.hpp"

namespace wavefd::hip {
namespace {

template <class T, int V>
struct Vec;
template <> struct Vec<float, 4> { using type = float4; };
template <> struct Vec<double, 2> { using type = double2; };
template <class T> struct Vec<T, 1> { using type = T; };

// V consecutive values from global or LDS memory (the caller guarantees the alignment).
template <class T, int V>
__device__ __forceinline__ void load(const T* p, T (&out)[V]) {
  using W = typename Vec<T, V>::type;
  const W w = *reinterpret_cast<const W*>(p);
  const T* s = reinterpret_cast<const T*>(&w);
#pragma unroll
  for (int v = 0; v < V; ++v) out[v] = s[v];
}

template <class T, int V>
__device__ __forceinline__ void store_nontemporal(T* p, const T (&in)[V]) {
#pragma unroll
  for (int v = 0; v < V; ++v) __builtin_nontemporal_store(in[v], p + v);
}

template <class T, int R>
struct Coeffs {
  T c[R + 1];
};

template <class T, int R, int BX, int BY, int V, bool Coef>
__global__ void __launch_bounds__(BX * BY)
    star_fused_kernel(const T* __restrict__ u, T* __restrict__ u_prev, const T* __restrict__ coef, std::int64_t sy,
                      std::int64_t sz,
                      std::int64_t origin, int lo0, int lo1, int lo2, int hi0, int hi1, int hi2, Coeffs<T, R> k) {
  constexpr int TX = BX * V;
  constexpr int XL = (R + V - 1) / V * V;  // x halo rounded up to whole vectors
  constexpr int NW = (V + 2 * XL) / V;     // vectors of a thread's own row
  __shared__ T rows[BY + 2 * R][TX];       // the tile's rows of the current plane, R halo rows each side

  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * BX + tx;
  const int x0 = lo0 + blockIdx.x * TX, y0 = lo1 + blockIdx.y * BY;
  const int x = x0 + tx * V, y = y0 + ty;
  const bool active = x < hi0 && y < hi1;
  const std::int64_t base = origin + x + std::int64_t(y) * sy;

  T w[2 * R + 1][V];  // w[j][v] = u(x + v, y, z - R + j)
  if (active) {
#pragma unroll
    for (int j = 0; j < 2 * R; ++j) load<T, V>(u + base + std::int64_t(lo2 - R + j) * sz, w[j]);
  }
  for (int z = lo2; z < hi2; ++z) {
    const std::int64_t zoff = std::int64_t(z) * sz;
    if (active) load<T, V>(u + base + zoff + std::int64_t(R) * sz, w[2 * R]);
    __syncthreads();  // the previous plane's rows are no longer read
    // Rows y0 - R .. y0 + BY + R - 1 of this plane into LDS (vector-wide, row by row).
    for (int i = tid; i < (BY + 2 * R) * BX; i += BX * BY) {
      const int r = i / BX, cx = (i % BX) * V, gy = y0 - R + r;
      if (x0 + cx < hi0 && gy < hi1 + R) {
        T t[V];
        load<T, V>(u + origin + x0 + cx + std::int64_t(gy) * sy + zoff, t);
#pragma unroll
        for (int v = 0; v < V; ++v) rows[r][cx + v] = t[v];
      }
    }
    __syncthreads();
    if (active) {
      const T* gp = u + base + zoff;
      T row[NW * V];  // the own row from x - XL to x + V + XL (L1)
#pragma unroll
      for (int n = 0; n < NW; ++n) {
        T t[V];
        load<T, V>(gp - XL + n * V, t);
#pragma unroll
        for (int v = 0; v < V; ++v) row[n * V + v] = t[v];
      }
      T prev[V], vp[V], out[V];
      load<T, V>(u_prev + base + zoff, prev);
      if constexpr (Coef) load<T, V>(coef + base + zoff, vp);
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = Coef ? k.c[0] * w[R][v] : k.c[0] * w[R][v] - prev[v];
#pragma unroll
      for (int m = 1; m <= R; ++m)
#pragma unroll
        for (int v = 0; v < V; ++v)
          out[v] = fma(k.c[m], (row[XL + v - m] + row[XL + v + m]) +
                                   (rows[ty + R - m][tx * V + v] + rows[ty + R + m][tx * V + v]) + (w[R - m][v] + w[R + m][v]),
                       out[v]);
      if constexpr (Coef)
#pragma unroll
        for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(w[R][v], out[v], vp[v], prev[v]);
      store_nontemporal<T, V>(u_prev + base + zoff, out);
    }
#pragma unroll
    for (int j = 0; j < 2 * R; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) w[j][v] = w[j + 1][v];
  }
}

template <class T, int R, int V, bool Coef>
void launch(const native::StarArgs<T>& a) {
  constexpr int BX = 64 / V > 16 ? 64 / V : 16, BY = 4;  // one 64-wide wavefront per row group
  const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1];
  Coeffs<T, R> k;
  for (int m = 0; m <= R; ++m) k.c[m] = a.c[m];
  const dim3 block(BX, BY, 1), grid((nx + BX * V - 1) / (BX * V), (ny + BY - 1) / BY, 1);
  hipLaunchKernelGGL((star_fused_kernel<T, R, BX, BY, V, Coef>), grid, block, 0, static_cast<hipStream_t>(a.stream),
                     a.u, a.u_prev, a.coef, a.sy, a.sz, a.origin, a.lo[0], a.lo[1], a.lo[2], a.hi[0], a.hi[1], a.hi[2], k);
  const hipError_t e = hipGetLastError();
  if (e != hipSuccess) throw std::runtime_error(std::string("hip star-fused: launch: ") + hipGetErrorString(e));
}

}  // namespace

template <class T>
void star_fused(const native::StarArgs<T>& a) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  constexpr int V = 16 / sizeof(T);
  const bool vector = native::vector_aligned(a);
  native::with_star_radius(a.radius, "hip star-fused", [&](auto R) {
    constexpr int r = decltype(R)::value;
    if (vector)
      a.coef ? launch<T, r, V, true>(a) : launch<T, r, V, false>(a);
    else
      a.coef ? launch<T, r, 1, true>(a) : launch<T, r, 1, false>(a);
  });
}

template void star_fused<float>(const native::StarArgs<float>&);
template void star_fused<double>(const native::StarArgs<double>&);

}  // namespace wavefd::hip
