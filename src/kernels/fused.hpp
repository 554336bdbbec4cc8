#pragma once
// a * b + c with one rounding where the machine has a fused multiply-add, written out so that
// the compiler has no choice left. Why: GPU compilers contract a * b + c * d into an FMA on either
// product, and which one can change with the code around it (the seismic layer kernel gave other
// bits in packs than one point at a time). Kernels that must agree bit for bit with each other
// (the seismic update, whatever computes it, Kokkos or native) write every multiply-add through
// fused(). Plain C++: the native kernels use it too.
#include <cmath>

#include "wavefd/host_device.hpp"

namespace wavefd::kernels {

#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
inline constexpr bool kHostFma = true;   // x86 with FMA (-march=native, -mfma), AArch64
#else
inline constexpr bool kHostFma = false;  // baseline x86-64: no FMA, so nothing to contract either
#endif

template <class T>
WAVEFD_HOST_DEVICE inline T fused(T a, T b, T c) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return fma(a, b, c);
#else
  if constexpr (kHostFma) return std::fma(a, b, c);
  else return a * b + c;
#endif
}

// The update with a variable coefficient (TwoStepArgs::coefficient): u+ = 2 u + vp lap - u-, in the
// one order of every kernel that takes the coefficient (Kokkos and native alike).
template <class T>
WAVEFD_HOST_DEVICE inline T coefficient_update(T centre, T lap, T vp, T old) {
  return fused(vp, lap, T(2) * centre) - old;
}

}  // namespace wavefd::kernels
