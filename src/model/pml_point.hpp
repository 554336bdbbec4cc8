#pragma once
// The update of one PML point (minimod's equations, ../shared/references/minimod-pml.md and
// docs/seismic.md), shared by every kernel that updates layer points, so that all give the same
// bits: each multiply-add through fused(), in one order.
#include "kernels/fused.hpp"

namespace wavefd::seismic {

template <class T>
struct PmlPoint {
  T u_next, phi_next;
};

// centre = u, lap = the Laplacian's weighted sum, vp = (V dt / h)^2, old = u^{n-1}, ph = phi^n,
// e = eta at the point; per axis (x, y, z) de = eta(+1) - eta(-1) and du = u(+1) - u(-1).
template <class T>
WAVEFD_HOST_DEVICE inline PmlPoint<T> pml_point(T centre, T lap, T vp, T old, T ph, T e, const T (&de)[3],
                                                const T (&du)[3]) {
  using kernels::fused;
  const T keep = fused(-e, e, T(2) + T(2) * e);  // 2 + 2e - e^2
  // One division for both denominators, 1 + 2e and 1 + e: the divisions held the GPU's layer
  // kernel (latency-bound, 4 warps per scheduler; H200 minimod 1000^3: layer 2.25 -> 1.83 ms).
  // e >= 0, so a * b >= 1: reciprocal()'s range.
  const T a = T(1) + T(2) * e, b = T(1) + e, r = kernels::reciprocal(a * b);
  const T u_next = (fused(vp, lap + ph, keep * centre) - old) * (r * b);
  const T grad = fused(de[2], du[2], fused(de[1], du[1], de[0] * du[0]));
  return {u_next, (ph - grad / T(4)) * (r * a)};
}

}  // namespace wavefd::seismic
