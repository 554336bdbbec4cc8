#pragma once
// Numbers kept in 16 bits and computed on in float (issue 40: fields stored below the fp32 floor):
//   Half:     IEEE 754 binary16, 11 significant bits (rounding 2^-11), normal from 2^-14 to 65504,
//             subnormal down to 2^-24: small values need a scale;
//   BFloat16: float's upper half, 8 significant bits (rounding 2^-8), float's range.
// Conversions from float round to nearest, ties to even, as IEEE 754 asks; overflow gives infinity,
// a NaN stays a (quiet) NaN. They are integer operations on the bits, the same on every backend and
// host, so that every rank and device stores the same bits (a distributed run equals a single rank
// bit for bit): Kokkos' half_t is a plain float in host builds.
#include <Kokkos_BitManipulation.hpp>
#include <Kokkos_Macros.hpp>
#include <cstdint>

namespace wavefd {

struct Half {
  std::uint16_t bits = 0;
};

struct BFloat16 {
  std::uint16_t bits = 0;
};

KOKKOS_INLINE_FUNCTION float to_float(Half h) {
  const std::uint32_t sign = std::uint32_t(h.bits & 0x8000u) << 16;
  const std::uint32_t exponent = (h.bits >> 10) & 0x1fu, fraction = h.bits & 0x3ffu;
  if (exponent == 0x1fu) return Kokkos::bit_cast<float>(sign | 0x7f800000u | (fraction << 13));  // inf, NaN
  if (exponent == 0) {  // zero or subnormal: fraction * 2^-24, exact in float
    const float magnitude = float(fraction) * 5.9604644775390625e-8f;
    return Kokkos::bit_cast<float>(sign | Kokkos::bit_cast<std::uint32_t>(magnitude));
  }
  return Kokkos::bit_cast<float>(sign | ((exponent + 112u) << 23) | (fraction << 13));
}

KOKKOS_INLINE_FUNCTION Half to_half(float x) {
  const std::uint32_t bits = Kokkos::bit_cast<std::uint32_t>(x);
  const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return {std::uint16_t(sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u))};
  if (magnitude >= 0x477ff000u) return {std::uint16_t(sign | 0x7c00u)};  // 65520 and up: infinity
  const auto round_shift = [](std::uint32_t value, int shift) {  // value / 2^shift, to nearest even
    const std::uint32_t kept = value >> shift, rest = value & ((1u << shift) - 1u), half = 1u << (shift - 1);
    return kept + (rest > half || (rest == half && (kept & 1u)) ? 1u : 0u);
  };
  const int exponent = int(magnitude >> 23);
  if (exponent >= 113) {  // a normal half (2^-14 and up); a carry may lift the exponent: still right
    return {std::uint16_t(sign | round_shift(magnitude - 0x38000000u, 13))};
  }
  if (exponent < 102) return {sign};  // below 2^-25: rounds to zero
  // A subnormal half: the 24-bit significand in units of 2^-24 (it may round up to 2^-14, the
  // smallest normal, whose bits follow on).
  return {std::uint16_t(sign | round_shift((magnitude & 0x7fffffu) | 0x800000u, 126 - exponent))};
}

KOKKOS_INLINE_FUNCTION float to_float(BFloat16 b) { return Kokkos::bit_cast<float>(std::uint32_t(b.bits) << 16); }

KOKKOS_INLINE_FUNCTION BFloat16 to_bfloat16(float x) {
  const std::uint32_t bits = Kokkos::bit_cast<std::uint32_t>(x);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return {std::uint16_t((bits >> 16) | 0x40u)};  // quiet NaN
  return {std::uint16_t((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16)};  // to nearest even; overflow: inf
}

}  // namespace wavefd
