#pragma once
// The seismic layer kernel: the update of seismic_model.hpp at every point of a box, the inner
// formula inside the inner box and the absorbing layer's (PML or sponge) outside it.
//
// It streams like mdrange-stream: one index per (x, y) column and z chunk, u's 2R+1 values along
// z in registers, the in-plane neighbours through L1. Why: the point-per-index MDRange version
// re-read every z neighbour from L2 and took 5.4 ms per step for the 15 % of minimod's 1000^3
// points in the layer (H200), as long as the inner box's 85 %. One point per index (no packs):
// the layer's x extents (slabs of 27 cells, a rank's edges) are not whole 16-byte packs.
#include "wavefd/grid.hpp"

namespace wavefd::seismic {

enum LayerKind { kNoLayer, kPml, kSponge };

template <class T, int R, int Kind>
struct LayerStream {
  const T* u;
  T* v;
  const T* vp;
  T* phi;
  const T *ex, *ey, *ez;  // 1-D profiles at local index + 1
  Layout l;
  Kokkos::Array<T, R + 1> c;
  Index3 ilo, ihi;                     // the inner box, local coordinates (not clipped)
  Kokkos::Array<index_t, 6 * 4> slab;  // per slab: lo x, lo y, lo z, start in phi
  Kokkos::Array<index_t, 6 * 2> ext;   // per slab: extent x, extent y
  Box box;                             // what this launch updates
  index_t z_chunk;

  // phi of layer point (x, y, z): the slab it lies in follows SeismicModel::layer_boxes' rule
  // (z slabs, then y, then x).
  KOKKOS_INLINE_FUNCTION index_t phi_at(index_t x, index_t y, index_t z) const {
    const int s = z < ilo[2] ? 0 : z >= ihi[2] ? 1 : y < ilo[1] ? 2 : y >= ihi[1] ? 3 : x < ilo[0] ? 4 : 5;
    return slab[4 * s + 3] + (x - slab[4 * s]) + ext[2 * s] * ((y - slab[4 * s + 1]) + ext[2 * s + 1] * (z - slab[4 * s + 2]));
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t y, index_t chunk) const {
    const index_t x = box.lo[0] + i;
    const index_t zb = box.lo[2] + chunk * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const index_t col = l.at(x, y, 0), sy = l.sy, sz = l.sz;
    const bool inner_column = x >= ilo[0] && x < ihi[0] && y >= ilo[1] && y < ihi[1];
    T w[2 * R + 1];  // w[k] = u(x, y, z - R + k)
    for (int k = 0; k < 2 * R; ++k) w[k] = u[col + (zb - R + k) * sz];
    T lead = u[col + (zb + R) * sz];
    for (index_t z = zb; z < ze; ++z) {
      const index_t p = col + z * sz;
      w[2 * R] = lead;
      if (z + 1 < ze) lead = u[p + (R + 1) * sz];  // in flight during this plane's arithmetic
      const T centre = w[R];
      T lap = c[0] * centre;
      for (int m = 1; m <= R; ++m)
        lap += c[m] * (((u[p - m] + u[p + m]) + (u[p - m * sy] + u[p + m * sy])) + (w[R - m] + w[R + m]));
      if (Kind == kNoLayer || (inner_column && z >= ilo[2] && z < ihi[2])) {
        v[p] = T(2) * centre + vp[p] * lap - v[p];
      } else {
        const T e = (ex[x + 1] + ey[y + 1]) + ez[z + 1];
        if (Kind == kSponge) {
          v[p] = (T(2) * centre + vp[p] * lap - (T(1) - e) * v[p]) / (T(1) + e);
        } else {
          const index_t q = phi_at(x, y, z);
          const T ph = phi[q];
          v[p] = ((T(2) + T(2) * e - e * e) * centre + vp[p] * (lap + ph) - v[p]) / (T(1) + T(2) * e);
          const T grad = (ex[x + 2] - ex[x]) * (u[p + 1] - u[p - 1]) + (ey[y + 2] - ey[y]) * (u[p + sy] - u[p - sy]) +
                         (ez[z + 2] - ez[z]) * (w[R + 1] - w[R - 1]);
          phi[q] = (ph - grad / T(4)) / (T(1) + e);
        }
      }
      for (int k = 0; k < 2 * R; ++k) w[k] = w[k + 1];
    }
  }
};

}  // namespace wavefd::seismic
