#pragma once
// The seismic PML as one thread of a native CUDA streaming kernel sees it: V consecutive points
// x .. x + V - 1 of row y, streamed along z. What is constant along the stream (eta's x profile at
// the points, its y profile at the row, and their steps) is loaded once, so that a layer point
// costs its arithmetic and phi; per plane, where the points' phi lies and their update by
// pml_point.hpp (the same bits as the Kokkos layer kernel). Shared by the PML branches of
// cuda-star-tma and cuda-star-stream. Plain CUDA C++.
#include <climits>
#include <cstdint>

#include "kernels/fused.hpp"
#include "model/pml_point.hpp"
#include "wavefd/pml_layer.hpp"

namespace wavefd::cuda {

template <class T, int V>
struct PmlColumn {
  const PmlLayer<T>& L;
  int x, y;
  T eta_x[V] = {}, step_x[V] = {}, eta_y = 0, step_y = 0;
  // What is fixed along the column, in 32 bits: which of the V points lie in an x slab (bit v), and
  // whether the row lies in a y slab. (The 64-bit bound tests, per plane and point, were about a
  // tenth of the PML branch's instructions.)
  unsigned x_layer = 0;
  bool y_layer = false;

  __device__ PmlColumn(const PmlLayer<T>& layer, int x_, int y_, bool active) : L(layer), x(x_), y(y_) {
    if (!active) return;
#pragma unroll
    for (int v = 0; v < V; ++v) {
      eta_x[v] = L.eta[0][x + v + 1], step_x[v] = L.eta_step(0, x + v);
      if (x + v < int(L.ilo[0]) || x + v >= int(L.ihi[0])) x_layer |= 1u << v;
    }
    eta_y = L.eta[1][y + 1], step_y = L.eta_step(1, y);
    y_layer = !L.inner_row(y);
  }

  // Whether the row lies in a z or y slab at plane z (then all its points are layer points).
  __device__ bool layer_row(int z) const { return y_layer || z < int(L.ilo[2]) || z >= int(L.ihi[2]); }
  __device__ bool layer_point(bool row, int v) const { return row || (x_layer >> v & 1u); }
  // Whether any of the V points is a layer point.
  __device__ bool touches(bool row) const { return row || x_layer != 0; }

  // Where the points' phi at plane z starts as one aligned vector (the layer points among the V all
  // in one slab whose rows of phi start on whole vectors; the x slabs' rows are widened to them), or -1.
  __device__ std::int64_t phi_vector_at(int z) const {
    const bool row = layer_row(z);
    if (!row && (x < int(L.ilo[0])) == (x + V > int(L.ihi[0]))) return -1;  // all inner, or points of both x slabs
    const std::int64_t q0 = L.phi_at(x, y, z);
    return L.slab_fields(x, y, z)[kSlabPacked] != 0 && q0 % V == 0 ? q0 : -1;
  }

  // phi_vector_at for planes taken one after the other (z, z + 1, ...). Below, within and above the
  // inner box's z range the column stays in one slab (or none), where its phi moves by one plane of
  // the slab per step: the slab table is read where a range starts, not per plane (it cost about 60
  // instructions per thread and plane, 64-bit).
  struct PhiCursor {
    std::int64_t at = -1, plane = 0;  // phi_vector_at the last plane, and the slab's plane of phi
    int until = INT_MIN;              // the first plane past the range
  };
  __device__ std::int64_t phi_vector_next(int z, PhiCursor& c) const {
    if (z < c.until) return c.at >= 0 ? c.at += c.plane : c.at;
    c.at = phi_vector_at(z);
    c.plane = c.at >= 0 ? L.phi_plane(x, y, z) : 0;
    const int lo = int(L.ilo[2]), hi = int(L.ihi[2]);
    c.until = c.plane % V != 0 ? z + 1 : z < lo ? lo : z < hi ? hi : INT_MAX;
    return c.at;
  }

  // phi's index of each point at plane z (-1 for inner points). The points of one slab are
  // consecutive in its phi: those in the left x slab (or all, in a z or y slab row) from x's index
  // on, those in the right x slab up to x + V - 1's; two lookups at most, not one per point.
  __device__ void phi_points(int z, bool row, std::int64_t (&q)[V]) const {
    const int lo = int(L.ilo[0]), hi = int(L.ihi[0]);
    const std::int64_t left = row || x < lo ? L.phi_at(x, y, z) : -1;
    const std::int64_t right = !row && x + V > hi ? L.phi_at(x + V - 1, y, z) : -1;
#pragma unroll
    for (int v = 0; v < V; ++v) q[v] = row || x + v < lo ? left + v : x + v >= hi ? right - (V - 1 - v) : -1;
  }

  // The update of the points at a plane whose eta_z and its step are given: the PML's at layer
  // points, the inner formula elsewhere. Both are computed and the point's kept, without a branch per
  // point, so that the points' latency chains interleave.
  // out: the Laplacian's weighted sums in, u^{n+1} out; ph: phi^n in, phi^{n+1} out (layer points).
  // r: the row u(x - XL .. x + V - 1 + XL); up1, down1: u(y -/+ 1); w: u(z - 1), u(z), u(z + 1).
  template <int XL>
  __device__ void update(bool row, T eta_z, T step_z, const T* r, const T (&up1)[V], const T (&down1)[V],
                         const T (&below)[V], const T (&centre)[V], const T (&above)[V], const T (&vp)[V],
                         const T (&old)[V], T (&ph)[V], T (&out)[V]) const {
#pragma unroll
    for (int v = 0; v < V; ++v) {
      const T inner = kernels::coefficient_update(centre[v], out[v], vp[v], old[v]);
      const T de[3] = {step_x[v], step_y, step_z};
      const T du[3] = {r[XL + v + 1] - r[XL + v - 1], down1[v] - up1[v], above[v] - below[v]};
      const T e = PmlLayer<T>::eta_sum(eta_x[v], eta_y, eta_z);
      const seismic::PmlPoint<T> next = seismic::pml_point(centre[v], out[v], vp[v], old[v], ph[v], e, de, du);
      const bool layer = layer_point(row, v);
      out[v] = layer ? next.u_next : inner;
      ph[v] = layer ? next.phi_next : ph[v];
    }
  }
};

}  // namespace wavefd::cuda
