// The 16-bit storage formats (include/wavefd/storage_format.hpp) against a reference that finds the
// nearest value by exact comparison in double: every half and bfloat16 bit pattern, floats across
// the whole range, the ties between neighbours, the edges of the range. Half's conversions are
// checked as this build makes them (F16C instructions on x86 hosts that have them) and as the
// integer code that other backends run (detail::).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

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
