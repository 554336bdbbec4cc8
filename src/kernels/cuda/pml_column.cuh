#pragma once
// The seismic PML as one thread of a native CUDA streaming kernel sees it: V consecutive points
// x .. x + V - 1 of row y, streamed along z. What is constant along the stream (eta's x profile at
// the points, its y profile at the row, and their steps) is loaded once, so that a layer point
// costs its arithmetic and phi; per plane, where the points' phi lies and their update by
// pml_point.hpp (the same bits as the Kokkos layer kernel). Shared by the PML branches of
// cuda-star-tma and cuda-star-stream. Plain CUDA C++.
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

  __device__ PmlColumn(const PmlLayer<T>& layer, int x_, int y_, bool active) : L(layer), x(x_), y(y_) {
    if (!active) return;
#pragma unroll
    for (int v = 0; v < V; ++v) eta_x[v] = L.eta[0][x + v + 1], step_x[v] = L.eta_step(0, x + v);
    eta_y = L.eta[1][y + 1], step_y = L.eta_step(1, y);
  }

  // Whether the row lies in a z or y slab at plane z (then all its points are layer points).
  __device__ bool layer_row(int z) const { return !L.inner_plane(y, z); }
  __device__ bool layer_point(bool row, int v) const { return row || x + v < L.ilo[0] || x + v >= L.ihi[0]; }
  // Whether any of the V points is a layer point.
  __device__ bool touches(bool row) const { return row || x < L.ilo[0] || x + V > L.ihi[0]; }

  // Where the points' phi at plane z starts as one aligned vector (the layer points among the V all
  // in one slab whose rows of phi start on whole vectors; the x slabs' rows are widened to them), or -1.
  __device__ std::int64_t phi_vector_at(int z) const {
    const bool row = layer_row(z);
    if (!row && (x < L.ilo[0]) == (x + V > L.ihi[0])) return -1;  // all inner, or points of both x slabs
    const std::int64_t q0 = L.phi_at(x, y, z);
    return L.slabs[kSlabFields * L.slab_of(x, y, z) + kSlabPacked] != 0 && q0 % V == 0 ? q0 : -1;
  }

  // phi's index of each point at plane z (-1 for inner points). The points of one slab are
  // consecutive in its phi: those in the left x slab (or all, in a z or y slab row) from x's index
  // on, those in the right x slab up to x + V - 1's; two lookups at most, not one per point.
  __device__ void phi_points(int z, bool row, std::int64_t (&q)[V]) const {
    const std::int64_t left = row || x < L.ilo[0] ? L.phi_at(x, y, z) : -1;
    const std::int64_t right = !row && x + V > L.ihi[0] ? L.phi_at(x + V - 1, y, z) : -1;
#pragma unroll
    for (int v = 0; v < V; ++v)
      q[v] = row || x + v < L.ilo[0] ? left + v : x + v >= L.ihi[0] ? right - (V - 1 - v) : -1;
  }

  // The update of the points at plane z: the PML's at layer points, the inner formula elsewhere.
  // out: the Laplacian's weighted sums in, u^{n+1} out; ph: phi^n in, phi^{n+1} out (layer points).
  // r: the row u(x - XL .. x + V - 1 + XL); up1, down1: u(y -/+ 1); w: u(z - 1), u(z), u(z + 1).
  template <int XL>
  __device__ void update(int z, bool row, const T* r, const T (&up1)[V], const T (&down1)[V], const T (&below)[V],
                         const T (&centre)[V], const T (&above)[V], const T (&vp)[V], const T (&old)[V], T (&ph)[V],
                         T (&out)[V]) const {
    const T eta_z = L.eta[2][z + 1], step_z = L.eta_step(2, z);
#pragma unroll
    for (int v = 0; v < V; ++v) {
      if (!layer_point(row, v)) {
        out[v] = kernels::coefficient_update(centre[v], out[v], vp[v], old[v]);
        continue;
      }
      const T de[3] = {step_x[v], step_y, step_z};
      const T du[3] = {r[XL + v + 1] - r[XL + v - 1], down1[v] - up1[v], above[v] - below[v]};
      const T e = PmlLayer<T>::eta_sum(eta_x[v], eta_y, eta_z);
      const seismic::PmlPoint<T> next = seismic::pml_point(centre[v], out[v], vp[v], old[v], ph[v], e, de, du);
      out[v] = next.u_next;
      ph[v] = next.phi_next;
    }
  }
};

}  // namespace wavefd::cuda
