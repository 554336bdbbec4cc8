// Native CUDA kernel for two steps of the seismic inner box in one pass (temporal blocking).
//
// Why: one step of the inner box moves 16 bytes per point in float (u, u-, vp read; u+ written),
// so the best one-step kernel is held at the copy bandwidth. Two steps in one pass read u^n,
// u^{n-1} and vp once and write u^{n+1} and u^{n+2}: 20 bytes per two steps, 10 per step.
//
// A block of BY warps covers a tile of EX = LX V points by EY = BY 32 / LX rows of the xy plane
// (V = 16 bytes of points per thread; LX lanes per row, so a warp holds 32 / LX rows) and streams
// along z, two stages per plane:
//   stage 1 (plane z): u^{n+1} on the whole tile: each thread holds its column's 2R+1 values of u^n
//     along z in registers (as star_stream.cuh), reads the in-plane neighbours through L1; points
//     outside the box (the tile's rim reaches up to R beyond it) are read from `next`, where the
//     layer kernel has put them. The block's own points (the tile less a rim of R rows and R
//     points, rounded to whole vectors, on every side) are written to `next`.
//   stage 2 (plane z - R): u^{n+2} at the block's own points, every neighbour of u^{n+1} from a
//     ring of planes of the tile in shared memory; u^n at the centre is the oldest value of stage
//     1's register window.
// One block barrier per plane: stage 1 writes plane z into a slot that stage 2 last read two
// planes before (at least 2R+2 slots; 16, so that a slot is a mask, not a division, away).
// Neighbouring tiles compute each other's rims again, the price of the fused pair: with 16 lanes
// per row a tile of 64 x 32 float points keeps 56 x 24 of them (rim 1.52 times its own points),
// where 32 lanes per row keep 120 x 8 of 128 x 16 (2.13 times), with the same registers per
// thread (the 128 x 16 tiles' kernel was bound by the instructions it issued; this one waits on
// stage 1's loads and the barrier of each plane: docs/performance.md).
// Each point's value is written once, by its owner.
// Every multiply-add is the one-step kernels' (fused.hpp), so a pair gives the bits of two steps.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "kernels/fused.hpp"
#include "launch_shape.cuh"
#include "star_pair.hpp"
#include "vector_access.cuh"

namespace wavefd::cuda {
namespace pair {

using namespace vec;

// One configuration: BY warps, VB bytes of points per thread, LX lanes per tile row.
template <class T, int R, int BY, int VB, int LX>
struct Shape {
  static constexpr int V = VB / int(sizeof(T));
  static constexpr int XR = (R + V - 1) / V * V;  // the rim along x, whole vectors
  static constexpr int EX = LX * V;               // tile width (points)
  static constexpr int EY = BY * (32 / LX);       // and height (rows)
  static constexpr int TX = EX - 2 * XR;          // the block's own points across x
  static constexpr int TY = EY - 2 * R;           // and rows
  static constexpr int Slots = 16;                // ring of u^{n+1} planes (a power of two)
  static constexpr int SlotPoints = EX * EY;
  static constexpr std::size_t SmemBytes = std::size_t(Slots) * SlotPoints * sizeof(T);
  static_assert(TY > 0 && TX > 0 && 2 * R + 2 <= Slots && 32 % LX == 0);
};

}  // namespace pair

namespace {
using namespace pair;

template <class T, int R, int BY, int VB, int LX, int MinBlocks>
__global__ void __launch_bounds__(32 * BY, MinBlocks)
    star_pair_kernel(const T* __restrict__ u, const T* __restrict__ u_prev, T* next, T* __restrict__ after,
                     const T* __restrict__ coef, const int* __restrict__ source_at, const T* __restrict__ source_add,
                     int sources, std::int64_t sy, std::int64_t sz, std::int64_t origin, int lo0, int lo1, int lo2,
                     int hi0, int hi1, int hi2, int z_chunk, Coeffs<T, R> k) {
  using S = Shape<T, R, BY, VB, LX>;
  constexpr int V = S::V, XR = S::XR;
  constexpr unsigned Mask = S::Slots - 1;
  extern __shared__ __align__(16) unsigned char smem_bytes[];
  T* const ring = reinterpret_cast<T*>(smem_bytes);

  const int lane = int(threadIdx.x) % LX, row = int(threadIdx.y) * (32 / LX) + int(threadIdx.x) / LX;
  const int x0 = lo0 + int(blockIdx.x) * S::TX, y0 = lo1 + int(blockIdx.y) * S::TY;  // the block's own points start
  const int x = x0 - XR + lane * V, y = y0 - R + row;                                // this thread's column
  const int zb = lo2 + int(blockIdx.z) * z_chunk, ze = min(zb + z_chunk, hi2);       // stage 2's planes
  const int z_first = zb - R, z_end = ze + R;                                        // stage 1's
  const bool in_box = x >= lo0 && x < hi0 && y >= lo1 && y < hi1;  // whole vectors: x bounds on 16 bytes
  const bool needed = x >= lo0 - XR && x < hi0 + XR && y >= lo1 - R && y < hi1 + R;
  const bool owner = in_box && lane >= XR / V && lane < LX - XR / V && row >= R && row < S::EY - R;

  // Whether a source point lies where this block computes stage 1.
  bool sourced = false;
  for (int s = int(threadIdx.y * 32 + threadIdx.x); s < sources; s += 32 * BY) {
    const int sx = source_at[3 * s], sy_ = source_at[3 * s + 1], sz_ = source_at[3 * s + 2];
    sourced = sourced || (sx >= x0 - XR && sx < x0 - XR + S::EX && sy_ >= y0 - R && sy_ < y0 - R + S::EY &&
                          sz_ >= z_first && sz_ < z_end);
  }
  sourced = __syncthreads_or(sourced);

  const std::int64_t col = origin + x + std::int64_t(y) * sy;
  T w[2 * R + 1][V];  // w[j] = u^n(x.., y, z - R + j)
  T lead[V], prev[V], vp[V];
  if (in_box) {
#pragma unroll
    for (int j = 0; j < 2 * R; ++j) load_ro<T, V>(u + col + std::int64_t(z_first - R + j) * sz, w[j]);
    load_ro<T, V>(u + col + std::int64_t(z_first + R) * sz, lead);
    load_ro<T, V>(u_prev + col + std::int64_t(z_first) * sz, prev);
    load_ro<T, V>(coef + col + std::int64_t(z_first) * sz, vp);
  }
  T* const mine = ring + row * S::EX + lane * V;  // this thread's points in a slot

  for (int z = z_first; z < z_end; ++z) {
    const std::int64_t p = col + std::int64_t(z) * sz;
#pragma unroll
    for (int v = 0; v < V; ++v) w[2 * R][v] = lead[v];
    T old[V], vpz[V];
#pragma unroll
    for (int v = 0; v < V; ++v) old[v] = prev[v], vpz[v] = vp[v];
    if (in_box && z + 1 < z_end) {  // the next plane's loads, in flight during this one's arithmetic
      load_ro<T, V>(u + p + std::int64_t(R + 1) * sz, lead);
      load_ro<T, V>(u_prev + p + sz, prev);
      load_ro<T, V>(coef + p + sz, vp);
    }

    // Stage 1: u^{n+1} at plane z.
    T s1[V];
#pragma unroll
    for (int v = 0; v < V; ++v) s1[v] = T(0);
    if (in_box && z >= lo2 && z < hi2) {
      T rowv[V + 2 * XR];  // u^n(x - XR .. x + V - 1 + XR, y, z)
#pragma unroll
      for (int n = 0; n < XR / V; ++n) {
        T left[V], right[V];
        load_ro<T, V>(u + p - XR + n * V, left);
        load_ro<T, V>(u + p + V + n * V, right);
#pragma unroll
        for (int v = 0; v < V; ++v) rowv[n * V + v] = left[v], rowv[XR + V + n * V + v] = right[v];
      }
#pragma unroll
      for (int v = 0; v < V; ++v) rowv[XR + v] = w[R][v], s1[v] = k.c[0] * w[R][v];
#pragma unroll
      for (int m = 1; m <= R; ++m) {
        T up[V], down[V];
        load_ro<T, V>(u + p - m * sy, up);
        load_ro<T, V>(u + p + m * sy, down);
#pragma unroll
        for (int v = 0; v < V; ++v)
          s1[v] = kernels::fused(k.c[m], (rowv[XR + v - m] + rowv[XR + v + m]) + (up[v] + down[v]) + (w[R - m][v] + w[R + m][v]),
                                 s1[v]);
      }
#pragma unroll
      for (int v = 0; v < V; ++v) s1[v] = kernels::coefficient_update(w[R][v], s1[v], vpz[v], old[v]);
      if (sourced)
        for (int s = 0; s < sources; ++s)
          if (source_at[3 * s + 1] == y && source_at[3 * s + 2] == z)
#pragma unroll
            for (int v = 0; v < V; ++v)
              if (source_at[3 * s] == x + v) s1[v] += source_add[s];
      if (owner && z >= zb && z < ze) store<T, V>(next + p, s1);
    } else if (needed) {
      load<T, V>(next + p, s1);  // the layer kernel's (outside the box, not written here)
    }
    const unsigned t = unsigned(z - z_first);  // this plane's slot: t & Mask
    store<T, V>(mine + (t & Mask) * S::SlotPoints, s1);
    __syncthreads();

    // Stage 2: u^{n+2} at plane z - R.
    const int zc = z - R;
    if (owner && zc >= zb) {
      const T* centre = mine + ((t - R) & Mask) * S::SlotPoints;
      T rowv[V + 2 * XR];
#pragma unroll
      for (int n = 0; n < (V + 2 * XR) / V; ++n) {
        T piece[V];
        load<T, V>(centre - XR + n * V, piece);
#pragma unroll
        for (int v = 0; v < V; ++v) rowv[n * V + v] = piece[v];
      }
      T out[V];
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = k.c[0] * rowv[XR + v];
#pragma unroll
      for (int m = 1; m <= R; ++m) {
        T up[V], down[V], below[V], above[V];
        load<T, V>(centre - m * S::EX, up);
        load<T, V>(centre + m * S::EX, down);
        load<T, V>(mine + ((t - R - m) & Mask) * S::SlotPoints, below);
        load<T, V>(mine + ((t - R + m) & Mask) * S::SlotPoints, above);
#pragma unroll
        for (int v = 0; v < V; ++v)
          out[v] = kernels::fused(k.c[m], (rowv[XR + v - m] + rowv[XR + v + m]) + (up[v] + down[v]) + (below[v] + above[v]),
                                  out[v]);
      }
      T vpc[V];
      const std::int64_t pc = col + std::int64_t(zc) * sz;
      load_ro<T, V>(coef + pc, vpc);
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(rowv[XR + v], out[v], vpc[v], w[0][v]);
      store<T, V>(after + pc, out);
    }
#pragma unroll
    for (int j = 0; j < 2 * R; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) w[j][v] = w[j + 1][v];
  }
}

constexpr const char* kKernel = "cuda star-pair";

template <class T, int R, int BY, int VB, int LX, int MinBlocks = 1>
void launch(const StarPairArgs<T>& a) {
  using S = Shape<T, R, BY, VB, LX>;
  const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1], nz = a.hi[2] - a.lo[2];
  const int tiles_x = (nx + S::TX - 1) / S::TX, tiles_y = (ny + S::TY - 1) / S::TY;
  int chunk = a.z_chunk;
  if (chunk <= 0) {
    // At least eight blocks per SM over the launch (one is resident at a time), so the last wave
    // is a small part, in streams of at most 128 planes, as cuda-star-tma's (minimod's inner box,
    // 944 x 946 x 946: 2 chunks of 473 planes otherwise).
    int device = 0, sms = 132;
    check(cudaGetDevice(&device), kKernel, "device");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), kKernel, "SM count");
    chunk = automatic_z_chunk(nz, (long long)tiles_x * tiles_y, 8LL * sms, 16 * R, 128);
  }
  const auto kernel = star_pair_kernel<T, R, BY, VB, LX, MinBlocks>;
  static const cudaError_t attribute =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(S::SmemBytes));
  check(attribute, kKernel, "shared memory size");
  const Coeffs<T, R> k = coeffs<T, R>(a.c);
  const dim3 grid(tiles_x, tiles_y, (nz + chunk - 1) / chunk), block(32, BY, 1);
  kernel<<<grid, block, S::SmemBytes, static_cast<cudaStream_t>(a.stream)>>>(
      a.u, a.u_prev, a.next, a.after, a.coef, a.source_at, a.source_add, a.sources, a.sy, a.sz, a.origin, a.lo[0],
      a.lo[1], a.lo[2], a.hi[0], a.hi[1], a.hi[2], chunk, k);
  check(cudaGetLastError(), kKernel, "launch");
}

// 16 warps of 16-byte vectors; tiles of 32 rows (16 lanes per row, the default) or 16 rows (32
// lanes per row: wider, lower tiles).
template <class T, int R>
void launch_rows(const StarPairArgs<T>& a) {
  if (a.rows == 16) return launch<T, R, 16, 16, 32>(a);
  return launch<T, R, 16, 16, 16>(a);
}

}  // namespace

template <class T>
bool star_pair_usable(const StarPairArgs<T>& a) {
  const auto on_16 = [](std::int64_t elements) { return (elements * std::int64_t(sizeof(T))) % 16 == 0; };
  const auto aligned = [&](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return a.radius >= 1 && a.radius <= kMaxPairRadius && (a.rows == 0 || a.rows == 16 || a.rows == 32) &&
         aligned(a.u) && aligned(a.u_prev) && aligned(a.next) && aligned(a.after) && aligned(a.coef) &&
         on_16(a.origin + a.lo[0]) && on_16(a.origin + a.hi[0]) && on_16(a.sy) && on_16(a.sz);
}

template <class T>
void star_pair(const StarPairArgs<T>& a) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  if (!star_pair_usable(a)) throw std::runtime_error("cuda star-pair: unaligned rows, a radius above 6 or an unknown tile");
  const bool done = [&]<int... Rs>(std::integer_sequence<int, Rs...>) {
    return ((a.radius == Rs + 1 ? (launch_rows<T, Rs + 1>(a), true) : false) || ...);
  }(std::make_integer_sequence<int, kMaxPairRadius>{});
  if (!done) throw std::runtime_error("cuda star-pair: radius " + std::to_string(a.radius));
}

template bool star_pair_usable<float>(const StarPairArgs<float>&);
template bool star_pair_usable<double>(const StarPairArgs<double>&);
template void star_pair<float>(const StarPairArgs<float>&);
template void star_pair<double>(const StarPairArgs<double>&);

}  // namespace wavefd::cuda
