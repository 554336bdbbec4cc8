#pragma once
// Native CUDA 2.5-D streaming kernel for star stencils (radius 1..8): plain CUDA C++ on raw
// pointers and strides, so it builds without Kokkos (CI compiles it with nvcc for sm_80/sm_90).
#include <cstdint>

namespace wavefd::cuda {

inline constexpr int kStarStreamMaxRadius = 8;

template <class T>
struct StarStreamArgs {
  const T* u = nullptr;     // u^n, flat array with x contiguous
  T* u_prev = nullptr;      // u^{n-1} in, u^{n+1} out
  std::int64_t sy = 0, sz = 0, origin = 0;  // strides and flat index of interior (0,0,0)
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // box to update, interior coordinates
  int radius = 1;
  T c[kStarStreamMaxRadius + 1] = {};         // c[0] centre weight, c[m] axis weight at distance m
  int z_chunk = 0;          // planes per block along z (0: automatic)
  int config = 0;           // tile configuration, see launch_config() in star_stream.cu
  void* stream = nullptr;   // cudaStream_t
};

// Updates the box. Throws std::runtime_error on a CUDA error or an unsupported radius.
template <class T>
void star_stream(const StarStreamArgs<T>& a);

}  // namespace wavefd::cuda
