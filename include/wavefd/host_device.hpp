#pragma once
// WAVEFD_HOST_DEVICE marks the few plain functions that Kokkos kernels and the native CUDA / HIP
// kernels share (no Kokkos macros, so that .cu files need no Kokkos).
#if defined(__CUDACC__) || defined(__HIPCC__)
#define WAVEFD_HOST_DEVICE __host__ __device__
#else
#define WAVEFD_HOST_DEVICE
#endif
