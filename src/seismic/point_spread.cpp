#include "wavefd/point_spread.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

namespace wavefd {
namespace {

constexpr int kSincHalfWidth = 4;
constexpr double kKaiserB = 6.31;  // Hicks (2002), table 1, for a half-width of 4 cells

// Modified Bessel function of the first kind, order 0 (power series; converges fast for x < 10).
double bessel_i0(double x) {
  double sum = 1, term = 1;
  for (int k = 1; k < 60; ++k) {
    term *= (x / (2 * k)) * (x / (2 * k));
    sum += term;
    if (term < 1e-17 * sum) break;
  }
  return sum;
}

double windowed_sinc(double d) {
  if (std::abs(d) >= kSincHalfWidth) return 0;
  const double s = d == 0 ? 1 : std::sin(std::numbers::pi * d) / (std::numbers::pi * d);
  const double r = d / kSincHalfWidth;
  return s * bessel_i0(kKaiserB * std::sqrt(1 - r * r)) / bessel_i0(kKaiserB);
}

struct AxisWeights {
  index_t first = 0;
  std::vector<double> w;
};

AxisWeights axis_weights(double x, Spreading kind) {
  const double base = std::floor(x), f = x - base;
  if (f == 0) return {index_t(base), {1.0}};  // on a grid plane: that plane alone
  if (kind == Spreading::trilinear) return {index_t(base), {1 - f, f}};
  AxisWeights a{index_t(base) - kSincHalfWidth + 1, {}};
  for (int k = 0; k < 2 * kSincHalfWidth; ++k) a.w.push_back(windowed_sinc(x - double(a.first + k)));
  return a;
}

}  // namespace

std::string_view to_string(Spreading s) { return s == Spreading::trilinear ? "trilinear" : "sinc"; }

Spreading parse_spreading(std::string_view name, std::string_view key) {
  if (name == "trilinear") return Spreading::trilinear;
  if (name == "sinc") return Spreading::sinc;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: trilinear, sinc");
}

std::vector<GridWeight> spread_weights(const std::array<double, 3>& position, Spreading kind, const Index3& n,
                                       std::string_view key) {
  for (int d = 0; d < 3; ++d)
    if (!(position[d] >= 0 && position[d] <= double(n[d] - 1))) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "[%c] = %.6g (grid units) is outside the grid; accepted: 0 .. %lld", axis_name(d),
                    position[d], static_cast<long long>(n[d] - 1));
      throw Error(std::string(key) + buf);
    }
  const AxisWeights ax = axis_weights(position[0], kind), ay = axis_weights(position[1], kind),
                    az = axis_weights(position[2], kind);
  std::vector<GridWeight> out;
  for (std::size_t k = 0; k < az.w.size(); ++k)
    for (std::size_t j = 0; j < ay.w.size(); ++j)
      for (std::size_t i = 0; i < ax.w.size(); ++i) {
        const Index3 at{ax.first + index_t(i), ay.first + index_t(j), az.first + index_t(k)};
        bool inside = true;
        for (int d = 0; d < 3; ++d) inside = inside && at[d] >= 0 && at[d] < n[d];
        const double w = ax.w[i] * ay.w[j] * az.w[k];
        if (inside && w != 0) out.push_back({at, w});
      }
  return out;
}

}  // namespace wavefd
