#pragma once
// Numbers kept in 16 bits and computed on in float (issue 40: fields stored below the fp32 floor):
//   Half:     IEEE 754 binary16, 11 significant bits (rounding 2^-11), normal from 2^-14 to 65504,
//             subnormal down to 2^-24: small values need a scale;
//   BFloat16: float's upper half, 8 significant bits (rounding 2^-8), float's range.
// Conversions from float round to nearest, ties to even, as IEEE 754 asks; overflow gives infinity,
// a NaN stays a (quiet) NaN. They are integer operations on the bits (detail::), the same on every
// backend and host, so that every rank and device stores the same bits (a distributed run equals a
// single rank bit for bit): Kokkos' half_t is a plain float in host builds. On NVIDIA GPUs the same
// roundings are one conversion instruction each (cvt.rn, IEEE round to nearest even), and so are
// half's on x86 hosts built with F16C (-march=native on any x86-64-v3 machine: vcvtps2ph with
// round to nearest even, vcvtph2ps), where the integer code took 8-13 x bfloat16's run time.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#if defined(__F16C__) && !defined(__CUDA_ARCH__) && !defined(__HIP_DEVICE_COMPILE__)
#include <immintrin.h>
#define WAVEFD_HOST_F16C 1
// Where the compiler has _Float16 (GCC >= 12, Clang), conversions through it, which a loop over a
// row vectorizes (vcvtph2ps / vcvtps2ph on 8 values at a time); the scalar intrinsics do not.
#if defined(__FLT16_MAX__)
#define WAVEFD_HOST_FLOAT16 1
#endif
#endif

#include "wavefd/host_device.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

// std::bit_cast for host and device code (memcpy, as Kokkos::bit_cast: no Kokkos here, so that the
// native .cu kernels can include this).
template <class To, class From>
WAVEFD_HOST_DEVICE inline To bit_cast(const From& from) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

struct Half;
struct BFloat16;
WAVEFD_HOST_DEVICE inline float to_float(Half h);
WAVEFD_HOST_DEVICE inline Half to_half(float x);
WAVEFD_HOST_DEVICE inline float to_float(BFloat16 b);
WAVEFD_HOST_DEVICE inline BFloat16 to_bfloat16(float x);

// The two formats as storage: a value is made from a float explicitly (rounded), read back as a
// float explicitly, and has no arithmetic of its own but the sign flips and products by +-1, 0 that
// the ghost fills and images apply (exact, as in float): a kernel must widen, compute in float and
// narrow (widen(), narrow<S>() below), so that no sum is rounded to 16 bits on the way.
template <class Format>
struct Stored16 {
  std::uint16_t bits;
  WAVEFD_HOST_DEVICE static Format from_bits(std::uint16_t b) {
    Format f;
    f.bits = b;
    return f;
  }
  WAVEFD_HOST_DEVICE explicit operator float() const { return to_float(static_cast<const Format&>(*this)); }
  WAVEFD_HOST_DEVICE explicit operator double() const { return double(to_float(static_cast<const Format&>(*this))); }
};

struct Half : Stored16<Half> {
  Half() = default;
  WAVEFD_HOST_DEVICE inline explicit Half(float x);
};

struct BFloat16 : Stored16<BFloat16> {
  BFloat16() = default;
  WAVEFD_HOST_DEVICE inline explicit BFloat16(float x);
};

namespace detail {
// Half's conversions as integer operations on the bits: every backend's reference, and the code of
// those without a conversion instruction.
WAVEFD_HOST_DEVICE inline float half_bits_to_float(std::uint16_t bits) {
  const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu, fraction = bits & 0x3ffu;
  if (exponent == 0x1fu) return bit_cast<float>(sign | 0x7f800000u | (fraction << 13));  // inf, NaN
  if (exponent == 0) {  // zero or subnormal: fraction * 2^-24, exact in float
    const float magnitude = float(fraction) * 5.9604644775390625e-8f;
    return bit_cast<float>(sign | bit_cast<std::uint32_t>(magnitude));
  }
  return bit_cast<float>(sign | ((exponent + 112u) << 23) | (fraction << 13));
}

WAVEFD_HOST_DEVICE inline std::uint16_t float_to_half_bits(float x) {
  const std::uint32_t bits = bit_cast<std::uint32_t>(x);
  const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return std::uint16_t(sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (magnitude >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // 65520 and up: infinity
  const auto round_shift = [](std::uint32_t value, int shift) {  // value / 2^shift, to nearest even
    const std::uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1u), half = 1u << (shift - 1);
    return kept + (rest > half || (rest == half && (kept & 1u)) ? 1u : 0u);
  };
  const int exponent = int(magnitude >> 23);
  if (exponent >= 113) {  // a normal half (2^-14 and up); a carry may lift the exponent: still right
    return std::uint16_t(sign | round_shift(magnitude - 0x38000000u, 13));
  }
  if (exponent < 102) return sign;  // below 2^-25: rounds to zero
  // A subnormal half: the 24-bit significand in units of 2^-24 (it may round up to 2^-14, the
  // smallest normal, whose bits follow on).
  return std::uint16_t(sign | round_shift((magnitude & 0x7fffffu) | 0x800000u, 126 - exponent));
}
}  // namespace detail

WAVEFD_HOST_DEVICE inline float to_float(Half h) {
#if defined(__CUDA_ARCH__)
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
#elif defined(WAVEFD_HOST_FLOAT16)
  return static_cast<float>(bit_cast<_Float16>(h.bits));
#elif defined(WAVEFD_HOST_F16C)
  return _cvtsh_ss(h.bits);
#else
  return detail::half_bits_to_float(h.bits);
#endif
}

WAVEFD_HOST_DEVICE inline Half to_half(float x) {
#if defined(__CUDA_ARCH__)
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  return Half::from_bits(h);
#elif defined(WAVEFD_HOST_FLOAT16)
  return Half::from_bits(bit_cast<std::uint16_t>(static_cast<_Float16>(x)));  // to nearest even, as MXCSR's default
#elif defined(WAVEFD_HOST_F16C)
  return Half::from_bits(std::uint16_t(_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT)));
#else
  return Half::from_bits(detail::float_to_half_bits(x));
#endif
}

WAVEFD_HOST_DEVICE inline float to_float(BFloat16 b) { return bit_cast<float>(std::uint32_t(b.bits) << 16); }

WAVEFD_HOST_DEVICE inline BFloat16 to_bfloat16(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned short h;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
  return BFloat16::from_bits(h);
#else
  const std::uint32_t bits = bit_cast<std::uint32_t>(x);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return BFloat16::from_bits(std::uint16_t((bits >> 16) | 0x40u));  // quiet NaN
  return BFloat16::from_bits(std::uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16));  // to nearest even; overflow: inf
#endif
}

WAVEFD_HOST_DEVICE inline Half::Half(float x) { bits = to_half(x).bits; }
WAVEFD_HOST_DEVICE inline BFloat16::BFloat16(float x) { bits = to_bfloat16(x).bits; }

// The sign flip, the product (by the +-1 and 0 of ghost images), rounded as a float's would be, and
// comparison as floats compare (-0 equals 0, a NaN nothing).
WAVEFD_HOST_DEVICE inline Half operator-(Half h) { return Half::from_bits(std::uint16_t(h.bits ^ 0x8000u)); }
WAVEFD_HOST_DEVICE inline BFloat16 operator-(BFloat16 b) { return BFloat16::from_bits(std::uint16_t(b.bits ^ 0x8000u)); }
WAVEFD_HOST_DEVICE inline Half operator*(Half a, Half b) { return Half(to_float(a) * to_float(b)); }
WAVEFD_HOST_DEVICE inline BFloat16 operator*(BFloat16 a, BFloat16 b) { return BFloat16(to_float(a) * to_float(b)); }
WAVEFD_HOST_DEVICE inline bool operator==(Half a, Half b) { return to_float(a) == to_float(b); }
WAVEFD_HOST_DEVICE inline bool operator==(BFloat16 a, BFloat16 b) { return to_float(a) == to_float(b); }

// The arithmetic of a stored format: float for the 16-bit ones, the format itself otherwise.
template <class S>
struct Arithmetic {
  using type = S;
};
template <>
struct Arithmetic<Half> {
  using type = float;
};
template <>
struct Arithmetic<BFloat16> {
  using type = float;
};
template <class S>
using arithmetic_t = typename Arithmetic<S>::type;

template <class S>
inline constexpr bool kSixteenBit = sizeof(S) == 2;

// A stored value in its arithmetic, and back (rounded to nearest even); the identity for float and double.
template <class S>
WAVEFD_HOST_DEVICE inline arithmetic_t<S> widen(S x) {
  if constexpr (kSixteenBit<S>) return to_float(x);
  else return x;
}
template <class S>
WAVEFD_HOST_DEVICE inline S narrow(arithmetic_t<S> a) {
  if constexpr (kSixteenBit<S>) return S(a);
  else return a;
}

// The Precision of a stored type, and the other way: f(std::type_identity<T>{}) for p's type.
template <class T>
inline constexpr Precision precision_of = std::is_same_v<T, float>    ? Precision::f32
                                          : std::is_same_v<T, double> ? Precision::f64
                                          : std::is_same_v<T, Half>   ? Precision::f16
                                                                      : Precision::bf16;
template <class F>
decltype(auto) with_precision(Precision p, F&& f) {
  switch (p) {
    case Precision::f64: return f(std::type_identity<double>{});
    case Precision::f16: return f(std::type_identity<Half>{});
    case Precision::bf16: return f(std::type_identity<BFloat16>{});
    default: return f(std::type_identity<float>{});
  }
}

// A quiet NaN of the stored type: what fields are poisoned with before a run (never test on zeros).
template <class T>
T poison() {
  return narrow<T>(std::numeric_limits<arithmetic_t<T>>::quiet_NaN());
}

// The spacing of a precision's values just above 1 (its machine epsilon): 2^-10 for half, 2^-7 for
// bfloat16; rounding to nearest errs by at most half of it, relative.
inline double epsilon_of(Precision p) {
  switch (p) {
    case Precision::f64: return std::numeric_limits<double>::epsilon();
    case Precision::f16: return 0x1p-10;
    case Precision::bf16: return 0x1p-7;
    default: return std::numeric_limits<float>::epsilon();
  }
}

// The power of two that brings peak (a model's largest source value per step) to [1, 2): the scale
// 16-bit fields hold the wavefield at; 1 where there is no finite, positive peak.
inline double scale_to_unit(double peak) {
  if (!(peak > 0) || !std::isfinite(peak)) return 1;
  return std::ldexp(1.0, -std::ilogb(peak));
}

// The largest finite value a precision stores.
inline double largest_finite(Precision p) {
  switch (p) {
    case Precision::f64: return std::numeric_limits<double>::max();
    case Precision::f16: return 65504.0;
    case Precision::bf16: return 3.3895313892515355e38;  // (2 - 2^-7) 2^127
    default: return std::numeric_limits<float>::max();
  }
}

}  // namespace wavefd
