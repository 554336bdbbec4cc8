// Native CUDA 2.5-D streaming two-step kernel for star stencils, in-plane neighbours through L1.
//
// A block of 32 x BY threads owns a tile of (32*V) x BY points of the xy plane and streams along z
// (split into chunks for parallelism). Each thread keeps the 2R+1 values of its V points along z
// in registers (a shifting window, fully unrolled so it stays in registers) and prefetches the
// next plane's loads during the current plane's arithmetic. The in-plane neighbours come straight
// from global memory: neighbouring threads read the same lines, which hit L1/L2, and no barrier
// is needed. (Staging the xy plane in shared memory with block barriers was measured slower,
// docs/performance.md; star_tma.cu stages it without barriers.) Loads and stores are V-wide
// vectors (16 bytes: float4 / double2) when the box and rows are 16-byte aligned, else V = 1.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "kernels/fused.hpp"
#include "launch_shape.cuh"
#include "star_stream.hpp"
#include "vector_access.cuh"

namespace wavefd::cuda {
namespace {

using namespace vec;

// The explicit minimum of one block per SM lets ptxas spend registers on loads in flight (float,
// R = 4: 112 registers instead of 96, 70 % instead of 67 % of the copy bandwidth on the H200).
// Images: also store the ghost images (GhostImages); a separate instantiation, because the image
// code costs the plain kernel registers and with them 12 points of copy bandwidth (H200, R = 4).
// Coef: the variable-coefficient update (StarArgs::coef), the coefficient streamed like u-.
template <class T, int R, int BX, int BY, int V, bool Images, bool Coef>
__global__ void __launch_bounds__(BX * BY, 1)
    star_stream_kernel(const T* __restrict__ u, T* __restrict__ u_prev, const T* __restrict__ coef, std::int64_t sy,
                       std::int64_t sz,
                       std::int64_t origin, int lo0, int lo1, int lo2, int hi0, int hi1, int hi2,
                       int z_chunk, Coeffs<T, R> k, const GhostImages images) {
  // x halo: R rounded up to whole vectors on each side, so that every read is an aligned vector.
  constexpr int TX = BX * V;               // tile width in points
  constexpr int XL = (R + V - 1) / V * V;  // halo points read left (and right) of a thread's vector
  constexpr int NW = (V + 2 * XL) / V;     // vectors a thread reads from its own row

  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = lo0 + blockIdx.x * TX;  // tile origin
  const int y0 = lo1 + blockIdx.y * BY;
  const int x = x0 + tx * V, y = y0 + ty;
  const int zb = lo2 + blockIdx.z * z_chunk;
  const int ze = min(zb + z_chunk, hi2);
  const bool active = x < hi0 && y < hi1;  // the box extent is a multiple of V when V > 1

  // Register window along z: w[j][v] holds u(x+v, y, z - R + j); lead/prev are prefetched one
  // plane ahead so that their loads are in flight during the previous plane's compute.
  T w[2 * R + 1][V];
  T lead[V], prev[V], vp[V] = {};
  const std::int64_t base = origin + x + std::int64_t(y) * sy;
  const auto img = Images ? images.template column<V>(x, y) : GhostImages::Column<V>{};
  if (active && zb < ze) {
#pragma unroll
    for (int j = 0; j < 2 * R; ++j) load_ro<T, V>(u + base + std::int64_t(zb - R + j) * sz, w[j]);
  }
  if (active && zb < ze) {
    load_ro<T, V>(u + base + std::int64_t(zb + R) * sz, lead);
    load_ro<T, V>(u_prev + base + std::int64_t(zb) * sz, prev);
    if constexpr (Coef) load_ro<T, V>(coef + base + std::int64_t(zb) * sz, vp);
  }

  for (int z = zb; z < ze; ++z) {
    const std::int64_t zoff = std::int64_t(z) * sz;
#pragma unroll
    for (int v = 0; v < V; ++v) w[2 * R][v] = lead[v];
    T cur_prev[V], cur_vp[V];
#pragma unroll
    for (int v = 0; v < V; ++v) cur_prev[v] = prev[v], cur_vp[v] = vp[v];
    if (active && z + 1 < ze) {  // prefetch the next plane's loads
      load_ro<T, V>(u + base + std::int64_t(z + 1 + R) * sz, lead);
      load_ro<T, V>(u_prev + base + zoff + sz, prev);
      if constexpr (Coef) load_ro<T, V>(coef + base + zoff + sz, vp);
    }
    if (active) {
      // In-plane neighbours straight from global memory, through L1.
      const T* gp = u + base + zoff;
      T row[NW * V];  // this thread's row from x - XL to x + V - 1 + XL
#pragma unroll
      for (int n = 0; n < NW; ++n) {
        T t[V];
        load_ro<T, V>(gp - XL + n * V, t);
#pragma unroll
        for (int v = 0; v < V; ++v) row[n * V + v] = t[v];
      }
      T out[V];
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = Coef ? k.c[0] * w[R][v] : k.c[0] * w[R][v] - cur_prev[v];
#pragma unroll
      for (int m = 1; m <= R; ++m) {
        T up[V], down[V];
        load_ro<T, V>(gp - m * sy, up);
        load_ro<T, V>(gp + m * sy, down);
#pragma unroll
        for (int v = 0; v < V; ++v)
          out[v] = fma(k.c[m], (row[XL + v - m] + row[XL + v + m]) + (up[v] + down[v]) + (w[R - m][v] + w[R + m][v]), out[v]);
      }
      if constexpr (Coef)
#pragma unroll
        for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(w[R][v], out[v], cur_vp[v], cur_prev[v]);
      store<T, V>(u_prev + base + zoff, out);
      if constexpr (Images) images.template store<typename Vec<T, V>::type>(u_prev, img, x, y, z, base + zoff, out);
    }
#pragma unroll
    for (int j = 0; j < 2 * R; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) w[j][v] = w[j + 1][v];
  }
}

template <class T, int R, int BX, int BY, int V>
void launch(const native::StarArgs<T>& a) {
  const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1], nz = a.hi[2] - a.lo[2];
  // By default two waves of full occupancy (132 SMs), so that the GPU is filled a few times over.
  const long long tiles = (long long)((nx + BX * V - 1) / (BX * V)) * ((ny + BY - 1) / BY);
  const int chunk = a.z_chunk > 0 ? a.z_chunk : automatic_z_chunk(nz, tiles, 132LL * 2048 / (BX * BY) * 2, R);
  const dim3 block(BX, BY, 1);
  const dim3 grid((nx + BX * V - 1) / (BX * V), (ny + BY - 1) / BY, (nz + chunk - 1) / chunk);
  const Coeffs<T, R> k = coeffs<T, R>(a.c);
  // The ghost images are for the constant-coefficient benchmark; the seismic model does not use them.
  auto kernel = a.coef           ? star_stream_kernel<T, R, BX, BY, V, false, true>
                : a.images.active ? star_stream_kernel<T, R, BX, BY, V, true, false>
                                  : star_stream_kernel<T, R, BX, BY, V, false, false>;
  if (a.coef && a.images.active) throw std::runtime_error("cuda star-stream: ghost images with a coefficient");
  kernel<<<grid, block, 0, static_cast<cudaStream_t>(a.stream)>>>(a.u, a.u_prev, a.coef, a.sy, a.sz, a.origin, a.lo[0],
                                                                  a.lo[1], a.lo[2], a.hi[0], a.hi[1], a.hi[2], chunk, k,
                                                                  a.images);
  check(cudaGetLastError(), "cuda star-stream", "launch");
}

// Tiles of 32 x 4 (the default) or 32 x 8 threads; V = 16 bytes per thread, or 1 when unaligned.
template <class T, int R, bool Vector>
void launch_rows(const native::StarArgs<T>& a) {
  constexpr int V = Vector ? int(16 / sizeof(T)) : 1;
  if (a.rows == 8) return launch<T, R, 32, 8, V>(a);
  return launch<T, R, 32, 4, V>(a);
}

}  // namespace

template <class T>
void star_stream(const native::StarArgs<T>& a) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  const bool vector = native::vector_aligned(a);
  native::with_star_radius(a.radius, "cuda star-stream", [&](auto R) {
    if (vector)
      launch_rows<T, decltype(R)::value, true>(a);
    else
      launch_rows<T, decltype(R)::value, false>(a);
  });
}

template void star_stream<float>(const native::StarArgs<float>&);
template void star_stream<double>(const native::StarArgs<double>&);

}  // namespace wavefd::cuda
