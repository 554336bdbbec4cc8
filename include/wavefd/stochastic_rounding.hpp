#pragma once
// Stochastic rounding of a float to a 16-bit format (scheme.rounding = stochastic): x rounds to
// one of the two stored values around it, away from zero with probability (|x| - |down|) / ulp,
// so that the rounding error is zero on average. Round to nearest errs alike wherever neighbouring
// points hold about the same value, and over many steps such errors add up (issue 40: half's
// eigenmode amplitude off by 7 % after 10^4 steps, 100 x what independent errors would give).
// Stochastic rounding's errors are independent: on minimod's 100^3 deck half's traces come within
// 0.97 % of double's instead of 1.48 %, but the noise adds energy (docs/seismic.md).
//
// The random bits come from a hash of the point's global index and the step, not from a
// generator's state: every kernel, rank grid and device draws the same bits for a point and step,
// so a distributed run still equals a single rank bit for bit. Plain integer operations, the same
// on every backend and host.
#include <cstdint>

#include "wavefd/storage_format.hpp"

namespace wavefd {

// 32 well-mixed bits of a point (global indices) and a step: each coordinate multiplied by its own
// odd constant, then murmur3's finaliser.
WAVEFD_HOST_DEVICE inline std::uint32_t rounding_bits(std::int64_t x, std::int64_t y, std::int64_t z, std::int64_t step) {
  std::uint32_t h = std::uint32_t(x) * 0x9e3779b1u ^ std::uint32_t(y) * 0x85ebca77u ^ std::uint32_t(z) * 0xc2b2ae3du ^
                    std::uint32_t(step) * 0x27d4eb2fu;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

namespace detail {
// |x|'s float bits plus `random` below the 16-bit format's last kept bit, truncated: rounds up
// with the probability of the fraction dropped. `drop` = float bits below that bit.
WAVEFD_HOST_DEVICE inline std::uint32_t dithered(std::uint32_t magnitude, std::uint32_t random, int drop) {
  return (magnitude + (random & ((1u << drop) - 1u))) >> drop;
}
}  // namespace detail

template <class S>
WAVEFD_HOST_DEVICE inline S narrow_stochastic(float x, std::uint32_t random);

// bfloat16 keeps float's upper 16 bits: 16 bits dropped everywhere but in NaNs (quiet, as
// to_bfloat16 makes them) and infinities (kept). A carry can reach infinity from the largest value.
template <>
WAVEFD_HOST_DEVICE inline BFloat16 narrow_stochastic<BFloat16>(float x, std::uint32_t random) {
  const std::uint32_t bits = bit_cast<std::uint32_t>(x), magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) return to_bfloat16(x);
  return BFloat16::from_bits(std::uint16_t(((bits >> 16) & 0x8000u) | detail::dithered(magnitude, random, 16)));
}

// half: 13 bits dropped from a normal half's float (2^-14 and up), more below, where half's spacing
// is fixed at 2^-24; the truncated value is then re-based on half's exponent. Values beyond 65504
// (rounding up or not) become infinity, as round to nearest does from 65520.
template <>
WAVEFD_HOST_DEVICE inline Half narrow_stochastic<Half>(float x, std::uint32_t random) {
  const std::uint32_t bits = bit_cast<std::uint32_t>(x), magnitude = bits & 0x7fffffffu;
  const std::uint16_t sign = std::uint16_t((bits >> 16) & 0x8000u);
  if (magnitude >= 0x7f800000u) return to_half(x);
  if (magnitude > 0x477fe000u) return Half::from_bits(std::uint16_t(sign | 0x7c00u));  // above 65504
  const int exponent = int(magnitude >> 23);
  if (exponent >= 113)  // a normal half: the carry may lift the exponent, which the bits allow
    return Half::from_bits(std::uint16_t(sign | detail::dithered(magnitude - 0x38000000u, random, 13)));
  if (exponent < 90) return Half::from_bits(sign);  // below 2^-37: under 2^-13 of half's spacing
  // Subnormal: the significand in units of 2^-24, from 24 bits scaled by 2^(exponent - 150).
  const int drop = 126 - exponent;  // 14 .. 36: more than 31 bits means the value is below 2^-24 / 2^7
  const std::uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
  if (drop > 31) return Half::from_bits(std::uint16_t(sign | ((random >> 8) < (significand >> (drop - 24)) ? 1u : 0u)));
  return Half::from_bits(std::uint16_t(sign | detail::dithered(significand, random, drop)));
}

}  // namespace wavefd
