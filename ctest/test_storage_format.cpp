// The 16-bit storage formats (include/wavefd/storage_format.hpp) against a reference that finds the
// nearest value by exact comparison in double: every half and bfloat16 bit pattern, floats across
// the whole range, the ties between neighbours, the edges of the range. Half's conversions are
// checked as this build makes them (F16C instructions on x86 hosts that have them) and as the
// integer code that other backends run (detail::).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "wavefd/stochastic_rounding.hpp"
#include "wavefd/storage_format.hpp"

namespace {

using wavefd::BFloat16;
using wavefd::Half;

// The 16-bit value nearest to x among the finite ones of `values` (sorted by magnitude, positive,
// from 0 up), ties to the even bit pattern; infinity past the largest finite value's rounding edge
// `overflow`, halfway to the next power of two (a tie there goes up: the largest finite value is odd).
template <class Format>
std::uint16_t nearest(float x, const std::vector<std::pair<double, std::uint16_t>>& values, double overflow) {
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(double(x));
  if (a >= overflow) return std::uint16_t(sign | (std::is_same_v<Format, Half> ? 0x7c00 : 0x7f80));
  const auto above = std::lower_bound(values.begin(), values.end(), std::make_pair(a, std::uint16_t(0)));
  if (above == values.end()) return std::uint16_t(sign | values.back().second);
  if (above->first == a || above == values.begin()) return std::uint16_t(sign | above->second);
  const auto below = above - 1;
  const double up = above->first - a, down = a - below->first;
  if (up < down) return std::uint16_t(sign | above->second);
  if (down < up) return std::uint16_t(sign | below->second);
  return std::uint16_t(sign | ((below->second & 1) == 0 ? below->second : above->second));
}

// Every non-negative finite value of the format, by magnitude.
template <class Format>
std::vector<std::pair<double, std::uint16_t>> finite_values() {
  std::vector<std::pair<double, std::uint16_t>> v;
  for (std::uint32_t b = 0; b < 0x8000; ++b) {
    const float f = wavefd::to_float(Format::from_bits(std::uint16_t(b)));
    if (std::isfinite(f)) v.push_back({double(f), std::uint16_t(b)});
  }
  return v;
}

TEST(StorageFormat, HalfDecodesEveryPatternAsBinary16AndBack) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const Half h = Half::from_bits(std::uint16_t(b));
    const float f = wavefd::to_float(h);
    const std::uint32_t exponent = (b >> 10) & 0x1f, fraction = b & 0x3ff;
    const double magnitude = exponent == 0 ? std::ldexp(double(fraction), -24)
                                           : std::ldexp(1.0 + double(fraction) / 1024, int(exponent) - 15);
    if (exponent == 0x1f && fraction != 0) {
      EXPECT_TRUE(std::isnan(f)) << b;
      EXPECT_TRUE(std::isnan(wavefd::to_float(wavefd::to_half(f)))) << b;
      EXPECT_TRUE(std::isnan(wavefd::detail::half_bits_to_float(wavefd::detail::float_to_half_bits(f)))) << b;
      continue;
    }
    if (exponent == 0x1f) EXPECT_TRUE(std::isinf(f)) << b;
    else EXPECT_EQ(double(std::fabs(f)), magnitude) << b;
    EXPECT_EQ(std::signbit(f), (b & 0x8000) != 0) << b;
    EXPECT_EQ(wavefd::to_half(f).bits, b) << b;  // every half survives the trip through float
    EXPECT_EQ(std::bit_cast<std::uint32_t>(wavefd::detail::half_bits_to_float(std::uint16_t(b))),
              std::bit_cast<std::uint32_t>(f))
        << b;
    EXPECT_EQ(wavefd::detail::float_to_half_bits(f), b) << b;
  }
}

TEST(StorageFormat, BFloat16DecodesEveryPatternAsFloatsUpperHalfAndBack) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const float f = wavefd::to_float(BFloat16::from_bits(std::uint16_t(b)));
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f), b << 16) << b;
    if (std::isnan(f)) EXPECT_TRUE(std::isnan(wavefd::to_float(wavefd::to_bfloat16(f)))) << b;
    else EXPECT_EQ(wavefd::to_bfloat16(f).bits, b) << b;
  }
}

// Checks `encode` against `nearest` over every 2039th float of the whole range, the floats of
// [dense_from, dense_to) (bit patterns) in steps of 61, the ties between neighbouring values of the
// format and the floats either side of each, and `edges`, each with both signs. Returns how many.
template <class Format, class Encode>
long check_rounding(Encode encode, std::uint32_t dense_from, std::uint32_t dense_to, const std::vector<float>& edges) {
  const auto values = finite_values<Format>();
  const double overflow = (values.back().first + std::ldexp(1.0, std::is_same_v<Format, Half> ? 16 : 128)) / 2;
  long checked = 0;
  const auto check = [&](float x) {
    for (const float v : {x, -x}) {
      if (std::isnan(v)) continue;
      EXPECT_EQ(encode(v).bits, nearest<Format>(v, values, overflow)) << v;
      ++checked;
    }
  };
  for (std::uint64_t b = 0; b < (std::uint64_t(1) << 31); b += 2039) check(std::bit_cast<float>(std::uint32_t(b)));
  for (std::uint32_t b = dense_from; b < dense_to; b += 61) check(std::bit_cast<float>(b));
  for (std::size_t i = 0; i + 1 < values.size(); ++i) {
    const float tie = float((values[i].first + values[i + 1].first) / 2);  // exact: one bit more than the format
    for (const float x : {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 3e38f)}) check(x);
  }
  for (const float x : edges) check(x);
  return checked;
}

// Stochastic rounding (stochastic_rounding.hpp): over every value of the random bits below the
// format's last kept bit, x rounds up (away from zero) exactly as many times as the fraction it
// drops says, and down otherwise: unbiased, and always one of the two neighbours.
template <class Format>
void expect_rounds_up_by_the_dropped_fraction(float x, int drop) {
  const std::uint32_t magnitude = std::bit_cast<std::uint32_t>(std::fabs(x));
  std::uint32_t ups = 0, low = 0xffffffffu, high = 0;
  for (std::uint32_t r = 0; r < (1u << drop); ++r) {
    const std::uint16_t b = wavefd::narrow_stochastic<Format>(x, r).bits;
    low = std::min<std::uint32_t>(low, b), high = std::max<std::uint32_t>(high, b);
  }
  for (std::uint32_t r = 0; r < (1u << drop); ++r) ups += wavefd::narrow_stochastic<Format>(x, r).bits == high && high != low;
  const std::uint32_t implicit = drop > 13 && std::is_same_v<Format, Half> ? 0x800000u : 0u;  // half's subnormals
  const std::uint32_t dropped = ((magnitude & 0x7fffffu) | implicit) & ((1u << drop) - 1u);
  EXPECT_EQ(ups, dropped) << x;
  EXPECT_LE(high - low, 1u) << x << ": not two neighbours";
  // The two neighbours bracket x.
  const double lo = double(wavefd::to_float(Format::from_bits(std::uint16_t(low))));
  const double hi = double(wavefd::to_float(Format::from_bits(std::uint16_t(high))));
  EXPECT_LE(std::min(lo, hi), double(x));
  EXPECT_GE(std::max(lo, hi), double(x));
}

TEST(StorageFormat, StochasticRoundingIsUnbiased) {
  for (float x : {1.0f + 0x1.3p-9f, -3.14159f, 1234.567f, 65490.5f, 7.1e-5f, -2.0e-3f})
    expect_rounds_up_by_the_dropped_fraction<Half>(x, 13);
  for (float x : {3.3f * 0x1p-24f, -0x1.234p-20f})  // half's subnormals: 2^-24 apart
    expect_rounds_up_by_the_dropped_fraction<Half>(x, 126 - int(std::bit_cast<std::uint32_t>(std::fabs(x)) >> 23));
  for (float x : {1.0f + 0x1.3p-9f, -3.14159f, 1.0e30f, -7.7e-30f})
    expect_rounds_up_by_the_dropped_fraction<BFloat16>(x, 16);
}

TEST(StorageFormat, StochasticRoundingKeepsExactValuesAndTheEdges) {
  for (std::uint32_t r : {0u, 1u, 0x1234567u, 0xffffffffu}) {
    for (float x : {0.0f, -0.0f, 1.0f, -65504.0f, 0x1p-24f, 0x1.8p-14f})
      EXPECT_EQ(wavefd::narrow_stochastic<Half>(x, r).bits, Half(x).bits) << x;
    for (float x : {0.0f, 1.0f, -0x1.fep+127f, 0x1p-126f})
      EXPECT_EQ(wavefd::narrow_stochastic<BFloat16>(x, r).bits, BFloat16(x).bits) << x;
    EXPECT_EQ(wavefd::narrow_stochastic<Half>(70000.0f, r).bits, 0x7c00u);  // beyond 65504: infinity
    EXPECT_EQ(wavefd::narrow_stochastic<Half>(-std::numeric_limits<float>::infinity(), r).bits, 0xfc00u);
    EXPECT_TRUE(std::isnan(wavefd::to_float(wavefd::narrow_stochastic<Half>(std::nanf(""), r))));
    EXPECT_TRUE(std::isnan(wavefd::to_float(wavefd::narrow_stochastic<BFloat16>(std::nanf(""), r))));
    EXPECT_EQ(wavefd::narrow_stochastic<Half>(1e-12f, r).bits, 0u);  // far below half's spacing
  }
}

// The rounding bits of neighbouring points and steps: each bit set about half the time.
TEST(StorageFormat, RoundingBitsAreEvenlySpread) {
  std::array<int, 32> set{};
  int n = 0;
  for (int z = 0; z < 20; ++z)
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 20; ++x)
        for (int step = 0; step < 10; ++step, ++n) {
          const std::uint32_t b = wavefd::rounding_bits(x, y, z, step);
          for (int k = 0; k < 32; ++k) set[std::size_t(k)] += int((b >> k) & 1u);
        }
  for (int k = 0; k < 32; ++k) EXPECT_NEAR(double(set[std::size_t(k)]) / n, 0.5, 0.01) << "bit " << k;
}

}  // namespace

TEST(StorageFormat, FloatsRoundToTheNearestHalfTiesToEven) {
  // Dense between 2^-26 and 2^-13: the subnormals and the first normals, where the rounding shift varies.
  const std::vector<float> edges{0.0f, 65504.0f, 65519.99f, 65520.0f, 65536.0f, 1e30f, 5.9604645e-8f,
                                 2.9802322e-8f, 2.98023259e-8f, 6.1035156e-5f,
                                 std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max()};
  const long checked = check_rounding<Half>([](float x) { return wavefd::to_half(x); }, 0x32800000, 0x39000000, edges);
  EXPECT_GT(checked, 5000000);
  const long portable = check_rounding<Half>([](float x) { return Half::from_bits(wavefd::detail::float_to_half_bits(x)); },
                                             0x32800000, 0x39000000, edges);
  EXPECT_EQ(portable, checked);
  EXPECT_EQ(wavefd::to_half(std::numeric_limits<float>::quiet_NaN()).bits & 0x7e00, 0x7e00);
  EXPECT_EQ(wavefd::detail::float_to_half_bits(std::numeric_limits<float>::quiet_NaN()) & 0x7e00, 0x7e00);
}

TEST(StorageFormat, FloatsRoundToTheNearestBFloat16TiesToEven) {
  // Dense over float's subnormals and first normals.
  const long checked = check_rounding<BFloat16>([](float x) { return wavefd::to_bfloat16(x); }, 0, 0x01000000,
                                                {0.0f, std::numeric_limits<float>::max(),
                                                 std::numeric_limits<float>::infinity(),
                                                 std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min()});
  EXPECT_GT(checked, 2000000);
  EXPECT_EQ(wavefd::to_bfloat16(std::numeric_limits<float>::quiet_NaN()).bits & 0x7fc0, 0x7fc0);
}

TEST(StorageFormat, RelativeRoundingIsHalfAnUnitInTheLastPlace) {
  // Over the normal range: |to_float(to_x(v)) - v| <= 2^-p |v|, p = 11 (half), 8 (bfloat16).
  double worst_half = 0, worst_bfloat16 = 0;
  for (std::uint32_t b = 0x38800000; b < 0x477fe000; b += 97) {
    const float v = std::bit_cast<float>(b);
    worst_half = std::max(worst_half, std::fabs(double(wavefd::to_float(wavefd::to_half(v))) - v) / v);
    worst_bfloat16 = std::max(worst_bfloat16, std::fabs(double(wavefd::to_float(wavefd::to_bfloat16(v))) - v) / v);
  }
  EXPECT_LE(worst_half, std::ldexp(1.0, -11));
  EXPECT_GT(worst_half, 0.95 * std::ldexp(1.0, -11) / (1 + std::ldexp(1.0, -11)));
  EXPECT_LE(worst_bfloat16, std::ldexp(1.0, -8));
  EXPECT_GT(worst_bfloat16, 0.95 * std::ldexp(1.0, -8) / (1 + std::ldexp(1.0, -8)));
}
