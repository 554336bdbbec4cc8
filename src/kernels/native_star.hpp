#pragma once
// What the native (plain CUDA / HIP) star kernels receive: raw pointers, strides, the box and the
// weights. No Kokkos here, so the .cu/.hip files build with nvcc/hipcc alone.
#include <cstdint>

namespace wavefd::native {

inline constexpr int kMaxStarRadius = 8;

template <class T>
struct StarArgs {
  const T* u = nullptr;     // u^n, flat array with x contiguous
  T* u_prev = nullptr;      // u^{n-1} in, u^{n+1} out
  std::int64_t sy = 0, sz = 0, origin = 0;   // strides and flat index of interior (0,0,0)
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // box to update, interior coordinates
  int radius = 1;
  T c[kMaxStarRadius + 1] = {};              // c[0] centre weight, c[m] axis weight at distance m
  int z_chunk = 0;          // planes per block along z (0: automatic), where the kernel splits z
  int config = 0;           // tile configuration, where the kernel has several
  void* stream = nullptr;   // cudaStream_t / hipStream_t
};

}  // namespace wavefd::native
