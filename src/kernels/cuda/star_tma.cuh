// Native CUDA 2.5-D streaming kernel for star stencils fed by the Hopper tensor memory accelerator.
//
// Why: the L1 kernel (star_stream.cuh) reads every in-plane neighbour with its own load, so a
// 32 x 4 tile pulls each u row about three times through L2 for R = 4 and stalls on the load
// pipeline, not on DRAM (docs/performance.md). Here one producer thread copies whole planes of a
// tall tile plus its halo into a ring of shared-memory slots with the bulk tensor copy
// (cp.async.bulk.tensor), and mbarriers, not block-wide barriers, pace the BY consumer warps:
// a consumer waits only until its plane has landed, and a slot is refilled once every consumer
// warp has released it.
//
// Consumer warp w owns row y0 + w of the tile; lane l owns V = 16 bytes of points from x0 + l V
// (8 bytes for fields stored in 16 bits, which are widened to float as read, a packed pair at a
// time, and rounded as stored). Each keeps its points' 2R+1 values along z in registers, in the
// arithmetic's precision (filled from the slot of the leading plane, widened once), and reads the
// x and y neighbours from the slot of the centre plane. By default the copy
// engine also brings the tile of u- into the centre plane's slot, R + Ahead planes before it is
// needed: that keeps far more bytes in flight than one register load per thread (H200, R = 4:
// 86 % instead of 76 % of copy bandwidth in float). u+ is written with vector stores. With a
// variable coefficient (the seismic inner box) its tile travels with u-'s, or, where the model has
// at most 256 speeds, a byte per point into a table of them that each block holds in shared memory
// (1 byte instead of 4: minimod 1000^3 in half, 2.14 against 2.43 ms per step). With the seismic PML
// too (unified work: the whole box in one launch; three-domain work: all but the x slabs), points
// outside the inner box take the PML update; phi is read and written by the threads (it covers
// the layer slabs only, so there is no plane of it to stage), each copying its own phi a few
// planes ahead in the background. phi is in the arithmetic (float beside 16-bit fields).
// Compiled once per precision (star_tma_float.cu, ...): in one translation unit the four took
// about 4 minutes for sm_90, the longest step of a build.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "launch_shape.cuh"
#include "pml_column.cuh"
#include "star_tma.hpp"
#include "tma_copy.cuh"
#include "vector_access.cuh"

namespace wavefd::cuda {
// Device helpers and shapes (a named namespace: on sm_80, where the kernel body is compiled out,
// nvcc would warn that internal ones are unused).
namespace tma {
using namespace vec;

// The 16-bit kernels without the PML unroll their z loop 2R + 1 times (the kernel's comment); their
// ring of 2R + 1 slots (R planes ahead from R = 3) puts each unrolled plane in a slot known at
// compile time. Below R = 3 that ring holds too few planes in flight: there only the coefficient
// kernels unroll (with slots computed per plane), since they store no images.
template <class T, int R, bool Coef, bool Pml>
inline constexpr int kUnroll = kSixteenBit<T> && !Pml && R <= 4 && (Coef || R >= 3) ? 2 * R + 1 : 1;

// Shape of one configuration: BY consumer warps (tile rows), Ahead planes in flight beyond the
// R + 1 a consumer holds (fewer where shared memory runs out), MinBlocks per SM, whether u- is
// staged too (each centre plane's slot also receives the tile of u- that its outputs need),
// whether a coefficient is read (staged after u-'s tile when u- is), and whether the PML branch
// is compiled in (its threads copy their phi PhiAhead planes ahead into buffers of their own);
// Indexed (with StagePrev): the coefficient staged as a byte per point, looked up in a table the
// block holds in shared memory (StarArgs::coef_index).
template <class T, int R, int BY, int Ahead, int MinBlocks, bool StagePrev, bool Coef = false, bool Pml = false,
          bool Indexed = false>
struct Shape {
  // 16-byte vectors; 8 bytes for the 16-bit formats, so that a tile row with its halo stays within
  // the copy engine's 256 elements per box dimension (32 lanes x 8 halves would be 256 before the halo).
  static constexpr int V = sizeof(T) == 2 ? 4 : 16 / sizeof(T);
  static constexpr int TX = 32 * V;                   // tile width in points
  static constexpr int Align = V * int(sizeof(T)) < 16 ? 16 / int(sizeof(T)) : V;  // the copy's x start on 16 bytes
  static constexpr int XL = (R + Align - 1) / Align * Align;  // x halo, whole vectors, so reads stay aligned
  static constexpr int RowLen = TX + 2 * XL;          // slot row (the copy box's x extent)
  static constexpr int Rows = BY + 2 * R;             // slot rows (the box's y extent)
  static constexpr int BoxBytes = RowLen * Rows * int(sizeof(T));
  static constexpr int UBytes = (BoxBytes + 127) / 128 * 128;  // copy destinations: 128-byte aligned
  static constexpr int PrevBytes = StagePrev ? TX * BY * int(sizeof(T)) : 0;  // u- box: the tile, no halo
  // and the coefficient's, in the arithmetic (float for the 16-bit formats), or its byte index:
  // that box starts on the 16-byte boundary at or before the tile (a copy's x start must lie on
  // one: elsewhere the copy stopped with an illegal instruction), so its rows are 16 longer.
  static constexpr int IndexRow = TX + 16;
  static constexpr int CoefBytes = StagePrev && Coef ? (Indexed ? IndexRow : TX * int(sizeof(arithmetic_t<T>))) * BY : 0;
  static constexpr int TableBytes = Indexed ? 256 * int(sizeof(arithmetic_t<T>)) : 0;
  static constexpr int StagedBytes = PrevBytes + CoefBytes;
  static constexpr int SlotBytes = UBytes + (StagedBytes + 127) / 128 * 128;
  static constexpr int PhiAhead = Pml ? 2 : 0;
  static constexpr int PhiBytes = Pml ? (PhiAhead + 1) * BY * 32 * V * int(sizeof(arithmetic_t<T>)) : 0;  // each thread's V points, per plane
  static constexpr int Budget = 227 * 1024 / MinBlocks - 1024 - 256 - PhiBytes - TableBytes;  // per block, less barriers and alignment
  static constexpr int Slots = R + 1 + Ahead < Budget / SlotBytes ? R + 1 + Ahead : Budget / SlotBytes;
  static constexpr bool Fits = Slots >= R + 2 && (!Indexed || (StagePrev && Coef && !Pml));  // a plane in flight
  // The loop unrolled kUnroll times over a ring of as many slots (each plane's slots constant);
  // else the slots computed per plane.
  static constexpr int Unroll = kUnroll<T, R, Coef, Pml>;
  static constexpr bool Grouped = Unroll > 1 && Slots == Unroll;
  static constexpr int Threads = 32 * (BY + 1);       // BY consumer warps + one producer warp
  static constexpr std::size_t BarrierBytes = (2 * Slots * sizeof(std::uint64_t) + 15) / 16 * 16;
  static constexpr std::size_t SmemBytes = std::size_t(Slots) * SlotBytes + BarrierBytes + PhiBytes + TableBytes + 128;
};


}  // namespace tma

namespace {
using namespace tma;

// Velocity (with Coef): the velocity form (StarArgs::next), a template argument so that the form
// that stores u^{n-1} keeps its registers and instructions.
template <class T, int R, int BY, int Ahead, int MinBlocks, bool StagePrev, bool Coef, bool Pml, bool Indexed,
          bool Velocity>
__global__ void __launch_bounds__(32 * (BY + 1), MinBlocks)
    star_tma_kernel(const __grid_constant__ CUtensorMap u_map, const __grid_constant__ CUtensorMap prev_map,
                    const __grid_constant__ CUtensorMap coef_map, const native::StarArgs<T> a, int o0, int o1,
                    int o2, int z_chunk) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using S = tma::Shape<T, R, BY, Ahead, MinBlocks, StagePrev, Coef, Pml, Indexed>;
  using A = arithmetic_t<T>;  // 16-bit storage: values widened to float as read, narrowed as stored
  constexpr int V = S::V;
  T* __restrict__ u_prev = a.u_prev;
  static_assert(Coef || !Velocity, "the velocity form comes with the coefficient");
  T* __restrict__ next = a.next;  // the velocity form: u_prev holds u^n - u^{n-1}
  const A* __restrict__ coef = a.coef;
  const std::int64_t sy = a.sy, sz = a.sz;
  extern __shared__ __align__(128) unsigned char raw[];
  // The copy destinations need 128-byte alignment (offset kept on `raw` so loads stay shared).
  unsigned char* base = raw + ((128 - (smem(raw) & 127)) & 127);
  auto slot = [&](int s) { return reinterpret_cast<T*>(base + std::size_t(s) * S::SlotBytes); };
  auto prev_slot = [&](int s) { return reinterpret_cast<T*>(base + std::size_t(s) * S::SlotBytes + S::UBytes); };
  auto coef_slot = [&](int s) {
    return reinterpret_cast<A*>(base + std::size_t(s) * S::SlotBytes + S::UBytes + S::PrevBytes);
  };
  std::uint64_t* full = reinterpret_cast<std::uint64_t*>(base + std::size_t(S::Slots) * S::SlotBytes);
  std::uint64_t* empty = full + S::Slots;
  A* phi_ahead = reinterpret_cast<A*>(base + std::size_t(S::Slots) * S::SlotBytes + S::BarrierBytes);
  A* table = reinterpret_cast<A*>(base + std::size_t(S::Slots) * S::SlotBytes + S::BarrierBytes + S::PhiBytes);

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int x0 = a.lo[0] + blockIdx.x * S::TX, y0 = a.lo[1] + blockIdx.y * BY;
  int zb = a.lo[2] + blockIdx.z * z_chunk;
  int nz = min(z_chunk, a.hi[2] - zb);
  if (a.z_spans) {  // only the z range the tile's columns need (a room's air): the union of theirs
    __shared__ int span_lo, span_hi;
    if (threadIdx.x == 0) span_lo = INT_MAX, span_hi = INT_MIN;
    __syncthreads();
    if (warp < BY) {
      int lo = INT_MAX, hi = INT_MIN;
      const int y = y0 + warp;
      for (int v = 0; v < V; ++v) {
        const int x = x0 + lane * V + v;
        if (x >= a.hi[0] || y >= a.hi[1]) continue;
        const std::int64_t c = 2 * (x + std::int64_t(y) * a.span_row);
        if (a.z_spans[c] < a.z_spans[c + 1]) lo = min(lo, a.z_spans[c]), hi = max(hi, a.z_spans[c + 1]);
      }
      lo = __reduce_min_sync(0xffffffffu, lo);
      hi = __reduce_max_sync(0xffffffffu, hi);
      if (lane == 0 && lo < hi) atomicMin(&span_lo, lo), atomicMax(&span_hi, hi);
    }
    __syncthreads();
    const int first = max(zb, span_lo), last = min(zb + nz, span_hi);
    if (last <= first) return;  // the whole block: nothing of the chunk is needed
    zb = first, nz = last - first;
  }
  const int planes = nz + 2 * R;  // plane t is z = zb - R + t
  auto is_centre = [&](int t) { return t >= R && t < nz + R; };

  if constexpr (Indexed)
    for (int i = threadIdx.x; i < a.coef_table_size; i += blockDim.x) table[i] = a.coef_table[i];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S::Slots; ++s) {
      mbar_init(&full[s], 1);
      mbar_init(&empty[s], BY);
    }
    mbar_init_fence();
  }
  __syncthreads();

  if (warp == BY) {  // producer: one thread issues every copy of this block's stream
    if (lane == 0) {
      for (int t = 0; t < planes; ++t) {
        const int s = t % S::Slots;
        if (t >= S::Slots) mbar_wait(&empty[s], ((t / S::Slots) - 1) & 1);
        const bool with_prev = StagePrev && is_centre(t);
        mbar_arrive_expect_tx(&full[s], S::BoxBytes + (with_prev ? S::StagedBytes : 0));
        tma_load_plane(slot(s), &u_map, o0 + x0 - S::XL, o1 + y0 - R, o2 + zb - R + t, &full[s]);
        if (with_prev) tma_load_plane(prev_slot(s), &prev_map, o0 + x0, o1 + y0, o2 + zb - R + t, &full[s]);
        if (with_prev && Coef)
          tma_load_plane(coef_slot(s), &coef_map, Indexed ? (o0 + x0) & ~15 : o0 + x0, o1 + y0, o2 + zb - R + t, &full[s]);
      }
    }
    return;
  }

  const int x = x0 + lane * V, y = y0 + warp;
  const bool active = x < a.hi[0] && y < a.hi[1];
  const std::int64_t col = a.origin + x + std::int64_t(y) * sy;
  const int own = (warp + R) * S::RowLen + S::XL + lane * V;  // this thread's points in a slot
  // The x halo read: whole vectors (the slot's starts on 16 bytes for the copy: 8 values in 16 bits).
  constexpr int XR = (R + V - 1) / V * V;
  const auto img = a.images.template column<V>(x, y);
  auto arrived = [&](int t) { mbar_wait(&full[t % S::Slots], (t / S::Slots) & 1); };
  auto release_slot = [&](int s) {
    __syncwarp();
    if (lane == 0) mbar_arrive(&empty[s]);
  };
  auto release = [&](int t) { release_slot(t % S::Slots); };

  A w[2 * R + 1][V];  // w[j] = u(x.., y, z - R + j)
#pragma unroll
  for (int t = 0; t < 2 * R; ++t) {
    arrived(t);
    load_widened<T, V>(slot(t % S::Slots) + own, w[t]);
    if (!is_centre(t)) release(t);
  }
  T prev[V] = {};  // without staging: u- and the coefficient loaded one plane ahead
  A vp[V] = {};
  if (!StagePrev && active && nz > 0) {
    load_ro<T, V>(u_prev + col + std::int64_t(zb) * sz, prev);
    if constexpr (Coef) load_ro<A, V>(coef + col + std::int64_t(zb) * sz, vp);
  }
  // With the PML (pml_column.cuh): eta's profiles at this thread's points, loaded once. phi as one
  // vector is copied PhiAhead planes ahead into the thread's own buffers: read when the update
  // needs it, it left every warp of a layer row waiting (minimod 1000^3, three-domain work: the
  // core's 944 M points took 5.73 ms per step, 1.17 ms more than at the inner box's rate, H200).
  const PmlColumn<A, V> pml(a.pml, x, y, Pml && active);  // phi in the arithmetic, as the coefficient
  auto phi_vector_at = [&](int z) -> std::int64_t { return Pml && active ? pml.phi_vector_at(z) : -1; };
  auto phi_buffer = [&](int k) { return phi_ahead + ((k % (S::PhiAhead + 1)) * BY * 32 + threadIdx.x) * V; };
  auto fetch_phi = [&](int k) {  // plane zb + k; one group per plane, empty where nothing is copied
    if constexpr (Pml) {
      const std::int64_t q0 = k < nz ? phi_vector_at(zb + k) : -1;
      if (q0 >= 0) copy_async_vectors<A, V>(phi_buffer(k), a.pml.phi + q0);
      copy_async_commit();
    }
  };
  for (int k = 0; k < S::PhiAhead; ++k) fetch_phi(k);

  // The 16-bit kernels without the PML: unrolled 2R + 1 times, the z window shifts by renaming
  // registers, not by 8R moves a plane. They were bound by issuing instructions (H200, minimod
  // 1000^3 in half: 2.02 -> 1.64 G instructions and 2.62 -> 2.43 ms per step, 91 % of copy by its
  // DRAM bytes; star M=4 512^3 in half, with the images as runs below: full step 0.4185 -> 0.2933
  // ms). Only there: float's gained 0.5 % (it is bound by DRAM), and each unrolled kernel adds
  // compile time (the PML branch's long body 2R + 1 times over).
  // Its ring holds 2R + 1 planes too (kUnroll), so that each unrolled plane's slots and phases are
  // constants: 9 % fewer instructions (R = 4, the slots' and barriers' address arithmetic; H200,
  // minimod 1000^3 in half: 1.79 -> 1.66 G a step, inner box 2.20 -> 2.06 ms per step).
  constexpr int Unroll = S::Unroll;
  constexpr bool Grouped = S::Grouped;  // else computed slots, unrolled with a coefficient
  // Whether this column's images are whole runs (GhostImages::runs_only), and those. The others'
  // come from the column: kept in registers by the rolled loop, found again by the unrolled one,
  // which has none to spare and rarely needs it.
  const bool runs_only = Coef || GhostImages::runs_only(img);
  const GhostImages::Runs runs = a.images.runs(img);
  auto column = [&] {
    if constexpr (Grouped) return a.images.template column<V>(x, y);
    else return img;
  };
  // Plane k, its lead plane's slot (k + 2R) and phase, and its centre plane's slot (k + R);
  // p: the flat index of the plane's points (the callers step it by sz); RunsOnly
  // (std::true_type): the plane's images are `runs`.
  auto plane = [&](int k, int lead_slot, unsigned lead_phase, int centre_slot, std::int64_t p, auto RunsOnly) {
    fetch_phi(k + S::PhiAhead);
    mbar_wait(&full[lead_slot], lead_phase);
    load_widened<T, V>(slot(lead_slot) + own, w[2 * R]);
    if (k + R >= nz) release_slot(lead_slot);  // the lead plane, k + 2R, is no centre
    A cur_prev[V];
    [[maybe_unused]] A cur_vp[V] = {};
    if constexpr (StagePrev) {
      load_widened<T, V>(prev_slot(centre_slot) + warp * S::TX + lane * V, cur_prev);
      if constexpr (Indexed) {
        const auto* at = reinterpret_cast<const unsigned char*>(coef_slot(centre_slot)) + warp * S::IndexRow +
                         ((o0 + x0) & 15) + lane * V;
        unsigned char index[V];
        load<unsigned char, V>(at, index);
#pragma unroll
        for (int v = 0; v < V; ++v) cur_vp[v] = table[index[v]];
      } else if constexpr (Coef) {
        load<A, V>(coef_slot(centre_slot) + warp * S::TX + lane * V, cur_vp);
      }
    } else {
#pragma unroll
      for (int v = 0; v < V; ++v) cur_prev[v] = widen(prev[v]), cur_vp[v] = vp[v];
      if (active && k + 1 < nz) {
        load_ro<T, V>(u_prev + p + sz, prev);
        if constexpr (Coef) load_ro<A, V>(coef + p + sz, vp);
      }
    }

    previous_from_second<Velocity>(w[R], cur_prev);
    const T* c = slot(centre_slot) + own;
    A row[2 * XR + V];  // u(x - XR .. x + V - 1 + XR); the middle V are w[R]
#pragma unroll
    for (int n = 0; n < XR / V; ++n) {
      A l[V], r[V];
      load_widened<T, V>(c - XR + n * V, l);
      load_widened<T, V>(c + V + n * V, r);
#pragma unroll
      for (int v = 0; v < V; ++v) row[n * V + v] = l[v], row[XR + V + n * V + v] = r[v];
    }
#pragma unroll
    for (int v = 0; v < V; ++v) row[XR + v] = w[R][v];
    A out[V];
#pragma unroll
    for (int v = 0; v < V; ++v) out[v] = Coef ? a.c[0] * row[XR + v] : a.c[0] * row[XR + v] - cur_prev[v];
    A up1[V], down1[V];  // u(y - 1), u(y + 1): the PML's gradient
#pragma unroll
    for (int m = 1; m <= R; ++m) {
      A up[V], down[V];
      load_widened<T, V>(c - m * S::RowLen, up);
      load_widened<T, V>(c + m * S::RowLen, down);
#pragma unroll
      for (int v = 0; v < V; ++v) {
        out[v] = fma(a.c[m], (row[XR + v - m] + row[XR + v + m]) + (up[v] + down[v]) + (w[R - m][v] + w[R + m][v]),
                     out[v]);
        if (m == 1) up1[v] = up[v], down1[v] = down[v];
      }
    }
    if constexpr (Pml) {
      const int z = zb + k;
      const bool slab_row = pml.layer_row(z);  // a z or y slab's row is layer points only
      if (active && pml.touches(slab_row)) {
        const std::int64_t q0 = phi_vector_at(z);
        A ph[V] = {};
        std::int64_t q[V];
        if (q0 >= 0) {
          copy_async_wait<S::PhiAhead>();
          load_vectors<A, V>(phi_buffer(k), ph);
        } else {
          pml.phi_points(z, slab_row, q);
#pragma unroll
          for (int v = 0; v < V; ++v)
            if (q[v] >= 0) ph[v] = a.pml.phi[q[v]];
        }
        pml.template update<XR>(slab_row, a.pml.eta[2][z + 1], a.pml.eta_step(2, z), row, up1, down1, w[R - 1], w[R],
                                w[R + 1], cur_vp, cur_prev, ph, out);
        if (q0 >= 0) {
          store_vectors<A, V>(a.pml.phi + q0, ph);
        } else {
#pragma unroll
          for (int v = 0; v < V; ++v)
            if (q[v] >= 0) a.pml.phi[q[v]] = ph[v];
        }
      } else {
#pragma unroll
        for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(w[R][v], out[v], cur_vp[v], cur_prev[v]);
      }
    } else if constexpr (Coef) {
#pragma unroll
      for (int v = 0; v < V; ++v) out[v] = kernels::coefficient_update(w[R][v], out[v], cur_vp[v], cur_prev[v]);
    }
    release_slot(centre_slot);
    if (active) {
      T stored[V];
      store_update<Velocity>(u_prev, next, p, out, w[R], stored);
      // A coefficient comes without images (star_tma_usable)
      if constexpr (!Coef) {
        if constexpr (decltype(RunsOnly)::value)
          GhostImages::store_runs<typename Vec<T, V>::type>(u_prev, runs, p, stored);
        else
          a.images.template store<typename Vec<T, V>::type>(u_prev, column(), x, y, zb + k, p, stored);
      }
    }
#pragma unroll
    for (int j = 0; j < 2 * R; ++j)
#pragma unroll
      for (int v = 0; v < V; ++v) w[j][v] = w[j + 1][v];
  };
  // Plane k with its slots computed. In the unrolled kernels its images are `runs` where they
  // are (the last planes of a chunk), else found by the general store.
  std::int64_t p = col + std::int64_t(zb) * sz;
  auto plane_at = [&](int k) {
    const int lead_slot = (k + 2 * R) % S::Slots, centre_slot = (k + R) % S::Slots;
    const unsigned lead_phase = unsigned((k + 2 * R) / S::Slots) & 1u;
    if (Grouped && (Coef || (runs_only && !a.images.z_near_any(zb + k, zb + k + 1))))
      plane(k, lead_slot, lead_phase, centre_slot, p, std::true_type{});
    else
      plane(k, lead_slot, lead_phase, centre_slot, p, std::false_type{});
    p += sz;
  };
  // Planes k .. k + Unroll - 1 (k a multiple of Unroll), unrolled, their images `runs`.
  auto group = [&](int k) {
    const unsigned g = unsigned(k / Unroll);
#pragma unroll
    for (int j = 0; j < Unroll; ++j) {
      plane(k + j, (j + 2 * R) % Unroll, (g + (j + 2 * R) / Unroll) & 1u, (j + R) % Unroll, p, std::true_type{});
      p += sz;
    }
  };
  if constexpr (Grouped && Coef) {  // no images: every whole group unrolled
    const int groups = nz / Unroll;
    for (int g = 0; g < groups; ++g) group(g * Unroll);
    for (int k = groups * Unroll; k < nz; ++k) plane_at(k);
  } else if constexpr (Grouped) {
    // Whole groups of Unroll planes whose images are whole runs take the unrolled body, which
    // stores only those: the general store in each of its 2R + 1 copies made the constant-coefficient
    // star slower unrolled than rolled (H200, 512^3 in half, 0.4466 against 0.4183 ms a step). The
    // other planes (near a z face, beside reflecting x faces or packed sends, the last few of a
    // chunk) go one at a time; a group of 2R + 1 leaves the window in the registers it found.
    for (int k = 0; k < nz;) {
      if (k % Unroll == 0 && k + Unroll <= nz && runs_only && !a.images.z_near_any(zb + k, zb + k + Unroll)) {
        group(k);
        k += Unroll;
      } else {
        plane_at(k++);
      }
    }
  } else {
#pragma unroll(Coef ? Unroll : 1)
    for (int k = 0; k < nz; ++k) plane_at(k);
  }
#else
  __trap();  // launched only on sm_90 and newer (star_tma checks the device)
#endif
}

constexpr const char* kKernel = "cuda star-tma";

template <class T, int R, int BY, int Ahead, int MinBlocks, bool StagePrev, bool Coef, bool Pml, bool Indexed = false,
          bool Velocity = false>
void launch(const native::StarArgs<T>& a) {
  using S = tma::Shape<T, R, BY, Ahead, MinBlocks, StagePrev, Coef, Pml, Indexed>;
  const std::int64_t rows = a.sz / a.sy;
  const std::int64_t o0 = a.origin % a.sy, o1 = (a.origin / a.sy) % rows, o2 = a.origin / a.sz;
  // The maps end at the box's last column (u's at its halo's): the last tile column's copies past
  // it are zero-filled, not read (minimod's 944-column inner box = 7 x 128 + 48: 0.35 of 12.47 GB
  // read per step on an H100, ncu). On the seismic inner box a miss fetches 128 bytes, not 256
  // (H100, 8-row tiles: loop 7.05 against 7.10 s).
  const std::int64_t end = o0 + a.hi[0];
  const CUtensorMapL2promotion fetch = Coef && !Pml ? CU_TENSOR_MAP_L2_PROMOTION_L2_128B : CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  const CUtensorMap u_map = plane_map<T>(a.u, end + S::XL, a.sy, a.sz, a.alloc, S::RowLen, S::Rows, fetch, kKernel);
  const CUtensorMap prev_map = plane_map<T>(a.u_prev, end, a.sy, a.sz, a.alloc, S::TX, BY, fetch, kKernel);
  const CUtensorMap coef_map =
      Indexed ? plane_map<std::uint8_t>(a.coef_index, end, a.sy, a.sz, a.alloc, S::IndexRow, BY, fetch, kKernel)
      : Coef  ? plane_map<arithmetic_t<T>>(a.coef, end, a.sy, a.sz, a.alloc, S::TX, BY, fetch, kKernel)
              : prev_map;

  auto kernel = star_tma_kernel<T, R, BY, Ahead, MinBlocks, StagePrev, Coef, Pml, Indexed, Velocity>;
  static const bool sized = [&] {
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(S::SmemBytes)), kKernel,
          "shared memory size");
    return true;
  }();
  (void)sized;

  const int nx = a.hi[0] - a.lo[0], ny = a.hi[1] - a.lo[1], nz = a.hi[2] - a.lo[2];
  const int tiles = ((nx + S::TX - 1) / S::TX) * ((ny + BY - 1) / BY);
  // By default about sixteen blocks per SM slot in all (132 SMs; with four, 512^3 streamed 103
  // planes a block, and an SM that another kernel held for a while left a tail of such long blocks:
  // H100, star M=4 float, 512^3, full step 0.6545 against 0.6676-0.6738 ms on one GPU, the 1 x 2 x 2
  // grid of 512^3 per GPU 0.763 against 0.767 ms, the z split 0.682 against 0.701 ms), streams of
  // at least 16 R and at most 128 planes; on the seismic inner box (a coefficient, no PML branch)
  // 16 R with two blocks per SM, 8 R with one.
  // Longer streams were slower there: the blocks of neighbouring tiles drift apart, and fewer of
  // the rows and granules they share are still in L2 (minimod's 944 x 946 x 946 inner box on an
  // H100, 16-row tiles, ncu: 12.32 / 12.47 / 12.88 / 13.89 GB read per step in chunks of 32 / 64 /
  // 128 / 946 planes; loop 7.18 against 7.26 s in 32 and 64; 8-row tiles: 7.21 / 7.12 / 7.10 s in
  // 32 / 48 / 64).
  // A box of few tiles (the shell's y slabs: 4 tiles of 16 rows on a 512-point row) streams chunks
  // down to 4 R planes, so that it still spreads over the SMs (at 16 R: 32 blocks per slab), unless
  // it runs beside the core: then its many short blocks took the SMs from the core (4 H100s, 512^3
  // per GPU on 1 x 2 x 2 through peer: 0.687 ms a step in chunks of 16 R, 0.704-0.708 in 4 R; through
  // nccl, whose ghosts arrive late, 0.716-0.719 in 4 R, 0.740-0.742 in 16 R).
  // The unrolled 16-bit star (no coefficient) takes about one block per SM slot, in chunks of up
  // to 64 R planes: its 2R planes of start and the planes after its last whole group cost a block
  // more than a wave's tail costs the step (H200, star M=4 512^3 in half, chunks of 64 / 128 / 256
  // / 512 planes: full step 0.3114 / 0.3017 / 0.2935 / 0.2933 ms). The inner box unrolled in 16
  // bits gains from 32 R for the same reason (H200, minimod 1000^3 in half, 8-row tiles: inner box
  // 2.015-2.018 / 1.971 / 1.978 ms a step in chunks of 64 / 128 / 256 planes).
  constexpr bool UnrolledStar = S::Grouped && !Coef;
  const int longest = UnrolledStar ? 64 * R
                      : S::Grouped ? 32 * R
                      : Coef && !Pml ? (MinBlocks > 1 ? 16 : 8) * R
                                     : 128;
  const int shortest = tiles < 16 && !a.beside_larger_update ? 4 * R : 16 * R;
  const int chunk = a.z_chunk > 0 ? a.z_chunk
                                  : automatic_z_chunk(nz, tiles, 132 * MinBlocks * (UnrolledStar ? 1 : 16), shortest, longest);
  const dim3 grid((nx + S::TX - 1) / S::TX, (ny + BY - 1) / BY, (nz + chunk - 1) / chunk);
  kernel<<<grid, S::Threads, S::SmemBytes, static_cast<cudaStream_t>(a.stream)>>>(u_map, prev_map, coef_map, a,
                                                                                  int(o0), int(o1), int(o2), chunk);
  check(cudaGetLastError(), kKernel, "launch");
}

// Tiles of 16 rows (the default, one block per SM), 8 rows (two blocks per SM: the default with a
// coefficient and no PML, the seismic inner box: minimod 1000^3 on an H100, loop 7.10 against 7.18 s
// with 16 rows, each in its best chunks; not in the velocity form, whose fourth stream gains from
// 16 rows' fewer halo rows per point: H200, minimod 1000^3 in half, inner box 2.586 against 2.797 ms
// per step, 2.682 ms in chunks of 64), 15 rows (one block per SM of 16 warps, which
// may hold 128 registers per thread where 17 warps hold 96: the PML branch's default; H200,
// minimod's 1000^3 in unified work: 8.3 ms per step against 10.4 ms with 16 rows, which spill),
// with u- (and the coefficient) staged where the larger ring fits in
// shared memory, else loaded by the threads (R >= 7 in double; with a coefficient from R = 6 in
// float).
// Indexed: the coefficient by its byte index where the staged ring fits, else by its values.
// Three planes ahead; the unrolled kernel (kUnroll) R ahead from R = 3, a ring of 2R + 1 slots.
template <class T, int R, bool Coef, bool Pml = false, bool Indexed = false, bool Velocity = false>
void launch_rows(const native::StarArgs<T>& a) {
  const int rows = a.rows != 0 ? a.rows : Pml ? 15 : Coef && !Velocity ? 8 : 16;
  constexpr int Ahead = tma::kUnroll<T, R, Coef, Pml> > 1 && R >= 3 ? R : 3;
  if constexpr (tma::Shape<T, R, 8, Ahead, 2, true, Coef, Pml, Indexed>::Fits)
    if (rows == 8) return launch<T, R, 8, Ahead, 2, true, Coef, Pml, Indexed, Velocity>(a);
  if constexpr (tma::Shape<T, R, 15, Ahead, 1, true, Coef, Pml, Indexed>::Fits)
    if (rows == 15) return launch<T, R, 15, Ahead, 1, true, Coef, Pml, Indexed, Velocity>(a);
  if constexpr (tma::Shape<T, R, 16, Ahead, 1, true, Coef, Pml, Indexed>::Fits)
    return launch<T, R, 16, Ahead, 1, true, Coef, Pml, Indexed, Velocity>(a);
  else if constexpr (Indexed)
    return launch_rows<T, R, Coef, Pml, false, Velocity>(a);
  else
    return launch<T, R, 16, 3, 1, false, Coef, Pml, false, Velocity>(a);
}

}  // namespace

// The box's x extent in whole vectors of the threads' width (4 points in 16 bits, not 8: the room's
// 2 cm hall, 1500 cells along x, had fallen back to cuda-star-stream's scalar path, 5.53 against
// 2.67 ms per step in half on an H200).
template <class T>
bool star_tma_usable(const native::StarArgs<T>& a) {
  return star_tma_device() && reinterpret_cast<std::uintptr_t>(a.u) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(a.u_prev) % 16 == 0 &&
         (!a.coef || reinterpret_cast<std::uintptr_t>(a.coef) % 16 == 0) &&
         (!a.coef_index || reinterpret_cast<std::uintptr_t>(a.coef_index) % 16 == 0) &&
         native::vector_aligned(a, tma::Shape<T, 1, 8, 3, 2, true>::V) &&
         a.sz % a.sy == 0 && a.alloc > 0 && !(a.coef && a.images.active);
}

template <class T>
void star_tma(const native::StarArgs<T>& a) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  if (a.pml.active() && !a.coef) throw std::runtime_error("cuda star-tma: the PML needs the coefficient");
  if (a.next && (!a.coef || !kSixteenBit<T>))  // CudaStarTma::stores_velocity
    throw std::logic_error("cuda star-tma: the velocity form is compiled with the coefficient in 16 bits");
  native::with_star_radius(a.radius, "cuda star-tma", [&](auto R) {
    constexpr int r = decltype(R)::value;
    const auto with_coefficient = [&](auto velocity) {
      constexpr bool Velocity = decltype(velocity)::value;
      if (a.pml.active())
        launch_rows<T, r, true, true, false, Velocity>(a);
      else if (a.coef_index && a.coef_table_size <= 256)
        launch_rows<T, r, true, false, true, Velocity>(a);
      else
        launch_rows<T, r, true, false, false, Velocity>(a);
    };
    if (!a.coef) return launch_rows<T, r, false>(a);
    if constexpr (kSixteenBit<T>)
      if (a.next) return with_coefficient(std::true_type{});
    with_coefficient(std::false_type{});
  });
}

}  // namespace wavefd::cuda

// The instantiations for one precision (star_tma_<precision>.cu, one translation unit each).
#define WAVEFD_STAR_TMA_INSTANCES(T)                                                   \
  template bool wavefd::cuda::star_tma_usable<T>(const wavefd::native::StarArgs<T>&); \
  template void wavefd::cuda::star_tma<T>(const wavefd::native::StarArgs<T>&);
