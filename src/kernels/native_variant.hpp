#pragma once
// Wrapping a native star kernel as a registry variant: the arguments it needs from TwoStepArgs.
#include "kernels/native_star.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {

template <class T>
native::StarArgs<T> native_star_args(const TwoStepArgs<T>& a, const Box& box, void* stream) {
  native::StarArgs<T> n;
  n.u = a.u.data();
  n.u_prev = a.u_prev.data();
  n.sy = a.layout.sy;
  n.sz = a.layout.sz;
  n.origin = a.layout.origin;
  n.alloc = a.layout.alloc;
  for (int d = 0; d < 3; ++d) n.lo[d] = int(box.lo[d]), n.hi[d] = int(box.hi[d]);
  n.radius = a.weights->radius;
  const std::vector<T> c = star_axis_weights(*a.weights);
  for (int m = 0; m <= n.radius; ++m) n.c[m] = c[m];
  n.stream = stream;
  return n;
}

inline bool native_star_supports(const Stencil& s) {
  return s.family == Family::star && s.radius >= 1 && s.radius <= native::kMaxStarRadius;
}

}  // namespace wavefd::kernels
