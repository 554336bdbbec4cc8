#pragma once
// a * b + c with one rounding where the machine has a fused multiply-add, written out so that
// the compiler has no choice left. Why: GPU compilers contract a * b + c * d into an FMA on either
// product, and which one can change with the code around it (the seismic layer kernel gave other
// bits in packs than one point at a time). Kernels that must agree bit for bit with each other
// (the seismic update, whatever computes it, Kokkos or native) write every multiply-add through
// fused(). Plain C++: the native kernels use it too.
#include <cmath>
#include <type_traits>

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

// 1 / x, correctly rounded, for normal x below 2^126 in magnitude (the PML's x >= 1). On NVIDIA
// GPUs in float: the division's own fast path (the approximate reciprocal refined by one fused
// multiply-add, the same bits), without its branch to the slow path that only denormal or huge x
// take. Why: each division's branch kept a thread's points apart, so that one point's latency
// chain could not hide behind another's (the PML branches, four points per thread).
template <class T>
WAVEFD_HOST_DEVICE inline T reciprocal(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same_v<T, float>) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return fmaf(r, -fmaf(x, r, -1.0f), r);
  }
#endif
  return T(1) / x;
}

// The update with a variable coefficient (TwoStepArgs::coefficient): u+ = 2 u + vp lap - u-, in the
// one order of every kernel that takes the coefficient (Kokkos and native alike).
template <class T>
WAVEFD_HOST_DEVICE inline T coefficient_update(T centre, T lap, T vp, T old) {
  return fused(vp, lap, T(2) * centre) - old;
}

}  // namespace wavefd::kernels
