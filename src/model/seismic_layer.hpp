#pragma once
// The seismic layer kernel: the update of seismic_model.hpp at every point of a box, the inner
// formula inside the inner box and the absorbing layer's (PML or sponge) outside it.
//
// It streams like mdrange-stream: one index per column of V points (a 16-byte pack where the
// box's rows allow it, else V = 1) and z chunk, u's 2R+1 values along z in registers, the in-plane
// neighbours through L1. Why: the point-per-index MDRange version re-read every z neighbour from
// L2 and took 5.4 ms per step for the 15 % of minimod's 1000^3 points in the layer (H200), as long
// as the inner box's 85 %; streaming one point per index took 3.1 ms.
// Every point's update is pml_point.hpp's (layer) or coefficient_update's (inner), so that packs
// and single points, the inner variants and the native kernels with a PML branch give the same bits.
// Fields stored in 16 bits (S = Half, BFloat16) are widened to float as they are read and the
// window keeps them stored (as mdrange-stream); the coefficient, phi and eta are in the arithmetic.
#include "kernels/kokkos/pack.hpp"
#include "pml_point.hpp"
#include "wavefd/grid.hpp"
#include "wavefd/pml_layer.hpp"
#include "wavefd/stochastic_rounding.hpp"

namespace wavefd::seismic {

enum LayerKind { kNoLayer, kPml, kSponge };

template <class S, int R, int V, int Kind>
struct LayerStream {
  using T = arithmetic_t<S>;
  using P = kernels::Pack<S, V>;   // stored
  using PA = kernels::Pack<T, V>;  // in the arithmetic
  static constexpr int XL = (R + V - 1) / V * V;  // x halo read on each side, whole packs

  const S* u;
  const S* v;    // u^{n-1}, or the velocity u^n - u^{n-1} where `velocity` is set
  S* into;       // u^{n+1}: v itself for a step in place, another field in a pair's steps or the
                 // velocity form
  const T* vp;
  PmlLayer<T> layer;  // phi (the PML's only), eta and the inner box
  Layout l;
  Kokkos::Array<T, R + 1> c;
  Box box;            // what this launch updates (x extent: whole packs)
  index_t z_chunk;
  // 16 bits: u^{n+1} rounded stochastically, its bits drawn from the global point and the step
  // that writes it (scheme.rounding), else to nearest.
  bool stochastic = false;
  index_t offset[3] = {0, 0, 0};  // global index of local point (0, 0, 0)
  index_t step = 0;
  // The velocity form (SecondField): v (this same field) holds u^n - u^{n-1} and receives
  // u^{n+1} - u^n, each point's after it read its own; u^{n-1} is u - v, in the arithmetic.
  S* velocity = nullptr;

  KOKKOS_FORCEINLINE_FUNCTION static P load(const S* p) { return kernels::load_pack<S, V>(p); }
  KOKKOS_FORCEINLINE_FUNCTION static PA load_wide(const S* p) {
    const P stored = load(p);
    PA a;
    for (int i = 0; i < V; ++i) a.v[i] = widen(stored.v[i]);
    return a;
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t pack, index_t y, index_t chunk) const {
    const index_t x0 = box.lo[0] + pack * V;
    const index_t zb = box.lo[2] + chunk * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const index_t col = l.at(x0, y, 0), sy = l.sy, sz = l.sz;
    const PmlLayer<T>& L = layer;
    const bool inner_row = L.inner_row(y);
    // eta's x profile at this column's points and its y profile at this row are constant along the
    // stream: loaded once, not per point and plane.
    T eta_x[V] = {}, step_x[V] = {}, eta_y = 0, step_y = 0;
    if (Kind != kNoLayer) {
      for (int i = 0; i < V; ++i) eta_x[i] = L.eta[0][x0 + i + 1], step_x[i] = L.eta_step(0, x0 + i);
      eta_y = L.eta[1][y + 1], step_y = L.eta_step(1, y);
    }
    P w[2 * R + 1];  // w[k] = u(x0.., y, z - R + k)
    for (int k = 0; k < 2 * R; ++k) w[k] = load(u + col + (zb - R + k) * sz);
    P lead = load(u + col + (zb + R) * sz);
    for (index_t z = zb; z < ze; ++z) {
      const index_t p = col + z * sz;
      w[2 * R] = lead;
      if (z + 1 < ze) lead = load(u + p + (R + 1) * sz);  // in flight during this plane's arithmetic
      T row[2 * XL + V];  // u(x0 - XL .. x0 + V - 1 + XL, y, z); the centre pack is w[R]
      for (int n = 0; n < XL / V; ++n) {
        const P left = load(u + p - XL + n * V), right = load(u + p + V + n * V);
        for (int i = 0; i < V; ++i) row[n * V + i] = widen(left.v[i]), row[XL + V + n * V + i] = widen(right.v[i]);
      }
      for (int i = 0; i < V; ++i) row[XL + i] = widen(w[R].v[i]);
      T lap[V];
      for (int i = 0; i < V; ++i) lap[i] = c[0] * row[XL + i];
      PA up1{}, down1{};  // u(y - 1), u(y + 1): the PML's gradient
      for (int m = 1; m <= R; ++m) {
        const PA up = load_wide(u + p - m * sy), down = load_wide(u + p + m * sy);
        if (m == 1) up1 = up, down1 = down;
        for (int i = 0; i < V; ++i)
          lap[i] = kernels::fused(
              c[m], ((row[XL + i - m] + row[XL + i + m]) + (up.v[i] + down.v[i])) + (widen(w[R - m].v[i]) + widen(w[R + m].v[i])),
              lap[i]);
      }
      const PA vpp = kernels::load_pack<T, V>(vp + p);
      PA old = load_wide(v + p);
      if (velocity != nullptr)
        for (int i = 0; i < V; ++i) old.v[i] = row[XL + i] - old.v[i];
      const bool inner_plane = inner_row && z >= L.ilo[2] && z < L.ihi[2];
      const T eta_z = Kind != kNoLayer ? L.eta[2][z + 1] : T(0), step_z = Kind != kNoLayer ? L.eta_step(2, z) : T(0);
      PA out;
      // Off the inner planes the pack lies in one z or y slab: its phi as one pack where the
      // slab's rows allow (one 16-byte load and store instead of V strided ones per lane).
      const bool phi_pack = Kind == kPml && V > 1 && !inner_plane && L.slab_fields(x0, y, z)[kSlabPacked] != 0;
      const index_t q0 = phi_pack ? L.phi_at(x0, y, z) : 0;
      PA ph_in{}, ph_out{};
      if (phi_pack) ph_in = kernels::load_pack<T, V>(L.phi + q0);
      for (int i = 0; i < V; ++i) {
        const index_t x = x0 + i;
        const T centre = row[XL + i];
        if (Kind == kNoLayer || (inner_plane && x >= L.ilo[0] && x < L.ihi[0])) {
          out.v[i] = kernels::coefficient_update(centre, lap[i], vpp.v[i], old.v[i]);
          continue;
        }
        const T e = PmlLayer<T>::eta_sum(eta_x[i], eta_y, eta_z);
        if (Kind == kSponge) {
          out.v[i] = kernels::fused(e - T(1), old.v[i], kernels::fused(vpp.v[i], lap[i], T(2) * centre)) / (T(1) + e);
          continue;
        }
        const index_t q = phi_pack ? q0 + i : L.phi_at(x, y, z);
        const T ph = phi_pack ? ph_in.v[i] : L.phi[q];
        const T de[3] = {step_x[i], step_y, step_z};
        const T du[3] = {row[XL + i + 1] - row[XL + i - 1], down1.v[i] - up1.v[i], widen(w[R + 1].v[i]) - widen(w[R - 1].v[i])};
        const PmlPoint<T> next = pml_point(centre, lap[i], vpp.v[i], old.v[i], ph, e, de, du);
        out.v[i] = next.u_next;
        if (phi_pack) ph_out.v[i] = next.phi_next;
        else L.phi[q] = next.phi_next;
      }
      if (phi_pack) kernels::store_pack<T, V>(L.phi + q0, ph_out);
      P stored;
      for (int i = 0; i < V; ++i) {
        if constexpr (kSixteenBit<S>)
          if (stochastic) {
            stored.v[i] = narrow_stochastic<S>(out.v[i], rounding_bits(offset[0] + x0 + i, offset[1] + y, offset[2] + z, step));
            continue;
          }
        stored.v[i] = narrow<S>(out.v[i]);
      }
      kernels::store_pack<S, V>(into + p, stored);
      if (velocity != nullptr) {
        P moved;
        for (int i = 0; i < V; ++i) moved.v[i] = narrow<S>(out.v[i] - row[XL + i]);
        kernels::store_pack<S, V>(velocity + p, moved);
      }
      for (int k = 0; k < 2 * R; ++k) w[k] = w[k + 1];
    }
  }
};

}  // namespace wavefd::seismic
