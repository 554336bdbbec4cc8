#pragma once
// Native HIP kernel for star stencils (radius 1..8) after AMD's fused xyz finite-difference
// kernel: plain HIP C++ on raw pointers and strides (no Kokkos), compiled by hipcc.
#include <cstdint>

namespace wavefd::hip {

inline constexpr int kStarFusedMaxRadius = 8;

template <class T>
struct StarFusedArgs {
  const T* u = nullptr;     // u^n, flat array with x contiguous
  T* u_prev = nullptr;      // u^{n-1} in, u^{n+1} out
  std::int64_t sy = 0, sz = 0, origin = 0;   // strides and flat index of interior (0,0,0)
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // box to update, interior coordinates
  int radius = 1;
  T c[kStarFusedMaxRadius + 1] = {};         // c[0] centre weight, c[m] axis weight at distance m
  void* stream = nullptr;   // hipStream_t
};

// Updates the box. Throws std::runtime_error on a HIP error or an unsupported radius.
template <class T>
void star_fused(const StarFusedArgs<T>& a);

}  // namespace wavefd::hip
