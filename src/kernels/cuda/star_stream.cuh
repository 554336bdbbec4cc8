// Native CUDA 2.5-D streaming two-step kernel for star stencils, in-plane neighbours through L1.
//
// A block of 32 x BY threads owns a tile of (32*V) x BY points of the xy plane and streams along z
// (split into chunks for parallelism). Each thread keeps the 2R+1 values of its V points along z
// in registers (a shifting window, fully unrolled so it stays in registers) and prefetches the
// next plane's loads during the current plane's arithmetic. The in-plane neighbours come straight
// from global memory: neighbouring threads read the same lines, which hit L1/L2, and no barrier
// is needed. (Staging the xy plane in shared memory with block barriers was measured slower,
// docs/performance.md; star_tma.cuh stages it without barriers.) Loads and stores are V-wide
// vectors (16 bytes: float4 / double2 / 8 halves) when the box and rows are 16-byte aligned, else
// V = 1. Fields stored in 16 bits are widened to float as read (a packed pair at a time) and
// rounded as stored; the window holds float.
// With the seismic PML (the layer's boxes, scheme.layer_variant, or unified work) layer points
// take the PML update, and each thread's streams come through its own shared-memory slots (in 16
// bits its in-plane neighbours too).
// Compiled once per precision (star_stream_float.cu, ...), so that a build runs them in parallel.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/fused.hpp"
#include "launch_shape.cuh"
#include "pml_column.cuh"
#include "star_stream.hpp"
#include "vector_access.cuh"

namespace wavefd::cuda {
namespace {

using namespace vec;

// The coefficient as a byte per point into a table of at most 256 speeds (StarArgs::coef_index).
template <class A>
struct CoefIndex {
  const std::uint8_t* at = nullptr;  // none: the coefficient's values
  const A* table = nullptr;
  int size = 0;
};

// The streams a thread stages ahead (Ahead > 0): the lead plane of u, u-, the coefficient, phi.
constexpr int kStagedStreams = 4;
// With RowsAhead also the in-plane neighbours: the row's vectors but the centre, and u(y -/+ m).
template <int R, int V>
constexpr int kRowStreams = (V + 2 * ((R + V - 1) / V * V)) / V - 1 + 2 * R;
// The bytes of a block's slots for `streams` streams of V values of E per thread, Ahead + 1 planes.
template <class E, int V>
__host__ __device__ constexpr std::size_t staged_bytes(int threads, int ahead, int streams) {
  return std::size_t(threads) * (ahead + 1) * streams * V * sizeof(E);
}

// The explicit minimum of one block per SM lets ptxas spend registers on loads in flight (float,
// R = 4: 112 registers instead of 96, 70 % instead of 67 % of the copy bandwidth on the H200).
// Images: also store the ghost images (GhostImages); a separate instantiation, because the image
// code costs the plain kernel registers and with them 12 points of copy bandwidth (H200, R = 4).
// Coef: the variable-coefficient update (StarArgs::coef), the coefficient streamed like u-.
// Pml (with Coef): the seismic PML at layer points (pml_column.cuh); 16 warps per SM (128
// registers), the layer kernel's launch bound.
// Ahead > 0: the lead plane, u-, the coefficient and phi (where it is one vector) are copied Ahead
// planes ahead into the thread's own shared-memory slots (cp.async) instead of one plane ahead
// into registers. The PML branch takes Ahead = 1: minimod 1000^3's layer 2.00 ms per step against
// 2.24 ms with registers (H100; 2.05-2.07 ms with 2 or 3 planes ahead).
// RowsAhead (with Ahead > 0): the in-plane neighbours are copied ahead too, so that the update
// does not wait on their loads (minimod 1000^3 in half, H200: layer 1.165 -> 1.066 ms per step).
// With Pml and Ahead > 0, where the model has at most 256 speeds (index.at set): the coefficient
// is staged as a byte per point (StarArgs::coef_index) and looked up in the block's copy of the
// table, 1 byte a point instead of 4 (minimod 1000^3, H200: the layer's 18 bytes a point in half
// become 15, 1.059 -> 1.000 ms per step; in float 1.510 -> 1.454 ms).
// Velocity (with Coef): the velocity form (StarArgs::next): u_prev holds u^n - u^{n-1} in and
// u^{n+1} - u^n out, and u^{n+1} goes to next.
template <class T, int R, int BX, int BY, int V, bool Images, bool Coef, bool Pml = false, int Ahead = 0,
          bool RowsAhead = false, bool Velocity = false>
__global__ void __launch_bounds__(BX * BY, Pml ? 512 / (BX * BY) : 1)
    star_stream_kernel(const T* __restrict__ u, T* __restrict__ u_prev, T* __restrict__ next,
                       const arithmetic_t<T>* __restrict__ coef,
                       std::int64_t sy, std::int64_t sz,
                       std::int64_t origin, int lo0, int lo1, int lo2, int hi0, int hi1, int hi2,
                       int z_chunk, Coeffs<arithmetic_t<T>, R> k, const GhostImages images,
                       const PmlLayer<arithmetic_t<T>> pml_layer, const CoefIndex<arithmetic_t<T>> index) {
  using A = arithmetic_t<T>;  // also the coefficient's and phi's type
  static_assert(Coef || !Velocity, "the velocity form comes with the coefficient");
  const PmlLayer<A>& layer = pml_layer;
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
  A w[2 * R + 1][V];
  T lead[V] = {}, prev[V] = {};
  A vp[V] = {};  // the coefficient, in the arithmetic (two 16-byte loads for 8 points in 16 bits)
  const std::int64_t base = origin + x + std::int64_t(y) * sy;
  const auto img = Images ? images.template column<V>(x, y) : GhostImages::Column<V>{};
  if (active && zb < ze) {
#pragma unroll
    for (int j = 0; j < 2 * R; ++j) load_widened<T, V, true>(u + base + std::int64_t(zb - R + j) * sz, w[j]);
  }
  if (Ahead == 0 && active && zb < ze) {
    load_ro<T, V>(u + base + std::int64_t(zb + R) * sz, lead);
    load_ro<T, V>(u_prev + base + std::int64_t(zb) * sz, prev);
    if constexpr (Coef) load_vectors<A, V, true>(coef + base + std::int64_t(zb) * sz, vp);
  }
  // phi as one vector where it lies so (phi_next_at >= 0), loaded a plane ahead; phi is written
  // here, so not through the read-only path.
  const PmlColumn<A, V> pml(layer, x, y, Pml && active);
  typename PmlColumn<A, V>::PhiCursor phi_cursor;
  std::int64_t phi_next_at = -1;
  A phi_next[V] = {};
  if constexpr (Pml)
    if (active && zb < ze && Ahead == 0) {
      phi_next_at = pml.phi_vector_next(zb, phi_cursor);
      if (phi_next_at >= 0) load_vectors<A, V>(layer.phi + phi_next_at, phi_next);
    }
  // eta's z profile from plane z - 1 to z + 1 (eta_z[j] = eta(z - 1 + j)), slid along the stream,
  // and eta(z + 2) loaded a plane ahead: read where the update needed them, they left it waiting.
  A eta_z[3] = {}, eta_z_ahead = 0;
  if constexpr (Pml)
    if (active && zb < ze)
#pragma unroll
      for (int j = 0; j < 3; ++j) eta_z[j] = layer.eta[2][zb + j];
  // Ahead > 0: this thread's slot of each staged stream for plane z - zb, Ahead + 1 planes in turn
  // (each V values of the arithmetic: u and u- in 16 bits fill half of theirs).
  extern __shared__ __align__(16) unsigned char staged_raw[];
  const int thread = ty * BX + tx;
  auto slot = [&](int plane, int stream) {
    return staged_raw + ((std::size_t(plane % (Ahead + 1)) * kStagedStreams + stream) * (BX * BY) + thread) * V * sizeof(A);
  };
  auto field_slot = [&](int plane, int stream) { return reinterpret_cast<T*>(slot(plane, stream)); };
  // The coefficient's byte index (index.at) takes the coefficient's slot: 4 bytes a thread.
  constexpr bool Indexable = Pml && Ahead > 0 && V == 4;
  auto index_slot = [&](int plane) { return reinterpret_cast<std::uint8_t*>(slot(plane, 2)); };
  auto arithmetic_slot = [&](int plane, int stream) { return reinterpret_cast<A*>(slot(plane, stream)); };
  // RowsAhead: the in-plane neighbours too (the row's vectors but the centre, which is w[R], then
  // u(y - m) and u(y + m)), in slots of V stored values after the others.
  constexpr int Centre = XL / V;
  constexpr int RowStreams = RowsAhead ? kRowStreams<R, V> : 0;
  auto row_slot = [&](int plane, int stream) {
    return reinterpret_cast<T*>(staged_raw + staged_bytes<A, V>(BX * BY, Ahead, kStagedStreams)) +
           ((std::size_t(plane % (Ahead + 1)) * RowStreams + stream) * (BX * BY) + thread) * V;
  };
  // Returns where plane zf's phi vector lies (-1: none copied), kept until the plane is updated.
  auto fetch = [&](int zf) {  // one group per plane, empty past the chunk
    std::int64_t q0 = -1;
    if constexpr (Ahead > 0) {  // compiled only where used: there is no 2-byte copy_async
      if (active && zf < ze) {
        copy_async<T, V>(field_slot(zf - zb, 0), u + base + std::int64_t(zf + R) * sz);
        copy_async<T, V>(field_slot(zf - zb, 1), u_prev + base + std::int64_t(zf) * sz);
        if constexpr (Indexable) {
          if (index.at) copy_async<std::uint8_t, V>(index_slot(zf - zb), index.at + base + std::int64_t(zf) * sz);
          else copy_async_vectors<A, V>(arithmetic_slot(zf - zb, 2), coef + base + std::int64_t(zf) * sz);
        } else if constexpr (Coef) {
          copy_async_vectors<A, V>(arithmetic_slot(zf - zb, 2), coef + base + std::int64_t(zf) * sz);
        }
        if constexpr (RowsAhead) {
          const T* g = u + base + std::int64_t(zf) * sz;
#pragma unroll
          for (int n = 0; n < NW; ++n)
            if (n != Centre) copy_async<T, V>(row_slot(zf - zb, n < Centre ? n : n - 1), g - XL + n * V);
#pragma unroll
          for (int m = 1; m <= R; ++m) {
            copy_async<T, V>(row_slot(zf - zb, NW - 1 + 2 * (m - 1)), g - m * sy);
            copy_async<T, V>(row_slot(zf - zb, NW + 2 * (m - 1)), g + m * sy);
          }
        }
        if constexpr (Pml) {
          q0 = pml.phi_vector_next(zf, phi_cursor);
          if (q0 >= 0) copy_async_vectors<A, V>(arithmetic_slot(zf - zb, 3), layer.phi + q0);
        }
      }
    }
    copy_async_commit();
    return q0;
  };
  // The table of speeds after the slots (Pml with index.at).
  A* table = reinterpret_cast<A*>(staged_raw + staged_bytes<A, V>(BX * BY, Ahead, kStagedStreams) +
                                  (RowsAhead ? staged_bytes<T, V>(BX * BY, Ahead, kRowStreams<R, V>) : 0));
  if constexpr (Indexable)
    if (index.at) {
      for (int i = thread; i < index.size; i += BX * BY) table[i] = index.table[i];
      __syncthreads();
    }
  std::int64_t phi_ahead[Ahead + 1];  // phi_ahead[j]: fetch's answer for plane z + j
  if constexpr (Ahead > 0)
#pragma unroll
    for (int j = 0; j < Ahead; ++j) phi_ahead[j] = fetch(zb + j);

  for (int z = zb; z < ze; ++z) {
    const std::int64_t zoff = std::int64_t(z) * sz;
    if constexpr (Ahead > 0) {
      phi_ahead[Ahead] = fetch(z + Ahead);
      copy_async_wait<Ahead>();  // this plane's group has landed
      if (active) {
        load<T, V>(field_slot(z - zb, 0), lead);
        load<T, V>(field_slot(z - zb, 1), prev);
        if constexpr (Indexable) {
          if (index.at) {
            std::uint8_t byte[V];
            load<std::uint8_t, V>(index_slot(z - zb), byte);
#pragma unroll
            for (int v = 0; v < V; ++v) vp[v] = table[byte[v]];
          } else {
            load_vectors<A, V>(arithmetic_slot(z - zb, 2), vp);
          }
        } else if constexpr (Coef) {
          load_vectors<A, V>(arithmetic_slot(z - zb, 2), vp);
        }
        if constexpr (Pml) {
          phi_next_at = phi_ahead[0];
          if (phi_next_at >= 0) load_vectors<A, V>(arithmetic_slot(z - zb, 3), phi_next);
        }
      }
#pragma unroll
      for (int j = 0; j < Ahead; ++j) phi_ahead[j] = phi_ahead[j + 1];
    }
#pragma unroll
    for (int v = 0; v < V; ++v) w[2 * R][v] = widen(lead[v]);
    A cur_prev[V];
    A cur_vp[V];
    A ph[V];
#pragma unroll
    for (int v = 0; v < V; ++v) cur_prev[v] = widen(prev[v]), cur_vp[v] = vp[v], ph[v] = phi_next[v];
    previous_from_second<Velocity>(w[R], cur_prev);
    const std::int64_t phi_at = phi_next_at;
    if constexpr (Pml)
      if (active && z + 1 < ze) eta_z_ahead = layer.eta[2][z + 3];
    if (Ahead == 0 && active && z + 1 < ze) {  // prefetch the next plane's loads
      load_ro<T, V>(u + base + std::int64_t(z + 1 + R) * sz, lead);
      load_ro<T, V>(u_prev + base + zoff + sz, prev);
      if constexpr (Coef) load_vectors<A, V, true>(coef + base + zoff + sz, vp);
      if constexpr (Pml) {
        phi_next_at = pml.phi_vector_next(z + 1, phi_cursor);
        if (phi_next_at >= 0) load_vectors<A, V>(layer.phi + phi_next_at, phi_next);
      }
    }
    if (active) {
      // In-plane neighbours straight from global memory, through L1.
      const T* gp = u + base + zoff;
      A row[NW * V];  // this thread's row from x - XL to x + V - 1 + XL
#pragma unroll
      for (int n = 0; n < NW; ++n) {
        A t[V];
        if constexpr (!RowsAhead) load_widened<T, V, true>(gp - XL + n * V, t);
        else if (n != Centre) load_widened<T, V>(row_slot(z - zb, n < Centre ? n : n - 1), t);
#pragma unroll
        for (int v = 0; v < V; ++v) row[n * V + v] = RowsAhead && n == Centre ? w[R][v] : t[v];
      }
      A out[V];
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = Coef ? k.c[0] * w[R][v] : k.c[0] * w[R][v] - cur_prev[v];
      A up1[V], down1[V];  // u(y - 1), u(y + 1): the PML's gradient
#pragma unroll
      for (int m = 1; m <= R; ++m) {
        A up[V], down[V];
        if constexpr (RowsAhead) {
          load_widened<T, V>(row_slot(z - zb, NW - 1 + 2 * (m - 1)), up);
          load_widened<T, V>(row_slot(z - zb, NW + 2 * (m - 1)), down);
        } else {
          load_widened<T, V, true>(gp - m * sy, up);
          load_widened<T, V, true>(gp + m * sy, down);
        }
#pragma unroll
        for (int v = 0; v < V; ++v) {
          out[v] = fma(k.c[m], (row[XL + v - m] + row[XL + v + m]) + (up[v] + down[v]) + (w[R - m][v] + w[R + m][v]), out[v]);
          if (m == 1) up1[v] = up[v], down1[v] = down[v];
        }
      }
      bool layer_point = false;
      if constexpr (Pml) {
        const bool slab_row = pml.layer_row(z);
        layer_point = pml.touches(slab_row);
        if (layer_point) {
          std::int64_t q[V];
          if (phi_at < 0) {
            pml.phi_points(z, slab_row, q);
#pragma unroll
            for (int v = 0; v < V; ++v)
              if (q[v] >= 0) ph[v] = layer.phi[q[v]];
          }
          pml.template update<XL>(slab_row, eta_z[1], eta_z[2] - eta_z[0], row, up1, down1, w[R - 1], w[R], w[R + 1],
                                  cur_vp, cur_prev, ph, out);
          if (phi_at >= 0) {
            store_vectors<A, V>(layer.phi + phi_at, ph);
          } else {
#pragma unroll
            for (int v = 0; v < V; ++v)
              if (q[v] >= 0) layer.phi[q[v]] = ph[v];
          }
        }
      }
      if constexpr (Coef)
        if (!layer_point)
#pragma unroll
          for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(w[R][v], out[v], cur_vp[v], cur_prev[v]);
      T stored[V];
      store_update<Velocity>(u_prev, next, base + zoff, out, w[R], stored);
      if constexpr (Images) images.template store<typename Vec<T, V>::type>(u_prev, img, x, y, z, base + zoff, stored);
    }
#pragma unroll
    for (int j = 0; j < 2 * R; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) w[j][v] = w[j + 1][v];
    if constexpr (Pml) eta_z[0] = eta_z[1], eta_z[1] = eta_z[2], eta_z[2] = eta_z_ahead;
  }
}

template <class T, int R, int BX, int BY, int V>
void launch(const native::StarArgs<T>& a) {
  const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1], nz = a.hi[2] - a.lo[2];
  const bool pml = a.pml.active();
  // By default two waves of full occupancy (132 SMs), so that the GPU is filled a few times over.
  const long long tiles = (long long)((nx + BX * V - 1) / (BX * V)) * ((ny + BY - 1) / BY);
  const int chunk = a.z_chunk > 0 ? a.z_chunk : automatic_z_chunk(nz, tiles, 132LL * 2048 / (BX * BY) * 2, 16 * R);
  const dim3 block(BX, BY, 1);
  const dim3 grid((nx + BX * V - 1) / (BX * V), (ny + BY - 1) / BY, (nz + chunk - 1) / chunk);
  const Coeffs<arithmetic_t<T>, R> k = coeffs<arithmetic_t<T>, R>(a.c);
  if (pml && !a.coef) throw std::runtime_error("cuda star-stream: the PML needs the coefficient");
  if (a.coef && a.images.active) throw std::runtime_error("cuda star-stream: ghost images with a coefficient");
  // The ghost images are for the constant-coefficient benchmark; the seismic model does not use them.
  // The PML branch's planes staged ahead (the kernel's comment); none for single 16-bit values,
  // which no copy_async moves. Its kernels only where launch_rows sends the PML: 16-bit fields in
  // vectors of 4 points, not 8.
  constexpr int PmlAhead = kSixteenBit<T> && V == 1 ? 0 : 1;
  constexpr bool WithPml = !kSixteenBit<T> || V * sizeof(T) < 16;             // this V compiles the PML branch
  constexpr bool WithoutPml = !kSixteenBit<T> || V == 1 || V * sizeof(T) == 16;  // and the others
  // The branch stages the in-plane neighbours too (RowsAhead) in 16 bits, where the slots of the
  // 16 warps per SM fit in its shared memory (to R = 7; float's would not).
  constexpr std::size_t Staged = staged_bytes<arithmetic_t<T>, V>(BX * BY, PmlAhead, kStagedStreams);
  constexpr std::size_t StagedRows = staged_bytes<T, V>(BX * BY, PmlAhead, kRowStreams<R, V>);
  constexpr std::size_t Table = 256 * sizeof(arithmetic_t<T>);  // the coefficient's, where indexed
  constexpr bool RowsAhead =
      kSixteenBit<T> && PmlAhead > 0 && 512 / (BX * BY) * (Staged + StagedRows + Table) <= 220 * 1024;
  // The coefficient by its byte index where the model has at most 256 speeds (the kernel's comment).
  CoefIndex<arithmetic_t<T>> index{};
  if (pml && PmlAhead > 0 && V == 4 && a.coef_index && a.coef_table_size <= 256)
    index = {a.coef_index, a.coef_table, a.coef_table_size};
  const std::size_t smem =
      pml ? Staged + (RowsAhead ? StagedRows : 0) + (index.at ? Table : 0) : 0;
  using Kernel = void (*)(const T*, T*, T*, const arithmetic_t<T>*, std::int64_t, std::int64_t, std::int64_t, int, int, int,
                          int, int, int, int, Coeffs<arithmetic_t<T>, R>, GhostImages, PmlLayer<arithmetic_t<T>>,
                          CoefIndex<arithmetic_t<T>>);
  Kernel kernel = nullptr;
  // The velocity form (StarArgs::next) a template argument, so that the form that stores u^{n-1}
  // keeps its registers and instructions.
  const bool velocity = a.next != nullptr;
  if (velocity && (!a.coef || !kSixteenBit<T>))  // CudaStarStream::stores_velocity
    throw std::logic_error("cuda star-stream: the velocity form is compiled with the coefficient in 16 bits");
  if constexpr (WithPml)
    if (pml) kernel = star_stream_kernel<T, R, BX, BY, V, false, true, true, PmlAhead, RowsAhead>;
  if constexpr (WithoutPml)
    if (!pml)
      kernel = a.coef            ? star_stream_kernel<T, R, BX, BY, V, false, true>
               : a.images.active ? star_stream_kernel<T, R, BX, BY, V, true, false>
                                 : star_stream_kernel<T, R, BX, BY, V, false, false>;
  if constexpr (kSixteenBit<T> && WithPml)
    if (pml && velocity) kernel = star_stream_kernel<T, R, BX, BY, V, false, true, true, PmlAhead, RowsAhead, true>;
  if constexpr (kSixteenBit<T> && WithoutPml)
    if (!pml && velocity) kernel = star_stream_kernel<T, R, BX, BY, V, false, true, false, 0, false, true>;
  if (!kernel) throw std::logic_error("cuda star-stream: in 16 bits the PML branch, and only it, takes vectors of 4 points");
  // Tiles of 8 rows with the rows staged need more than the 48 KiB a block has unless it asks.
  if (smem > 48 * 1024)
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)), "cuda star-stream",
          "shared memory");
  kernel<<<grid, block, smem, static_cast<cudaStream_t>(a.stream)>>>(a.u, a.u_prev, a.next, a.coef, a.sy, a.sz, a.origin, a.lo[0],
                                                                  a.lo[1], a.lo[2], a.hi[0], a.hi[1], a.hi[2], chunk, k,
                                                                  a.images, a.pml, index);
  check(cudaGetLastError(), "cuda star-stream", "launch");
}

// Tiles of 32 x 4 (the default) or 32 x 8 threads; V = 16 bytes per thread, or 1 when unaligned.
// A box at most 8 vectors wide (the seismic x slabs) gets tiles of 8 x 16 threads: a 32-wide tile
// would leave most of its lanes idle.
template <class T, int R, int V>
void launch_tiles(const native::StarArgs<T>& a) {
  if (a.hi[0] - a.lo[0] <= 8 * V) return launch<T, R, 8, 16, V>(a);
  if (a.rows == 8) return launch<T, R, 32, 8, V>(a);
  return launch<T, R, 32, 4, V>(a);
}

// The PML branch with 16-bit fields takes 8-byte vectors (4 points): then phi and the coefficient
// in float are one 16-byte vector each, and the window holds as many values as float's, within
// the branch's 128 registers.
template <class T, int R, bool Vector>
void launch_rows(const native::StarArgs<T>& a) {
  constexpr int V = Vector ? int(16 / sizeof(T)) : 1;
  if constexpr (kSixteenBit<T> && Vector)
    if (a.pml.active()) return launch_tiles<T, R, V / 2>(a);
  launch_tiles<T, R, V>(a);
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

}  // namespace wavefd::cuda

// The instantiation for one precision (star_stream_<precision>.cu, one translation unit each).
#define WAVEFD_STAR_STREAM_INSTANCES(T) template void wavefd::cuda::star_stream<T>(const wavefd::native::StarArgs<T>&);
