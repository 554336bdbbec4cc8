// Frequency-dependent walls fitted to octave-band absorption coefficients (include/wavefd/room.hpp):
// one resonant RLC branch per octave band, as PFFDTD fits its materials (docs/room.md).
#include <algorithm>
#include <cmath>

#include "wavefd/room.hpp"
#include "wavefd/room_metrics.hpp"

namespace wavefd {

namespace {

// The branches' quality factor: broad branches (half-power bandwidth 1.4 times the centre
// frequency), so that neighbours overlap smoothly. With Q = sqrt(2) the absorption between the band
// centres dipped by up to 0.1 below the targets (the branches' reactances); at 1 / sqrt(2) it stays
// within 0.02 (ctest/test_room.cpp, Room.OctaveAbsorptionFitMatchesTheBands).
constexpr double kQuality = 0.7071067811865476;
// Branch centres 1000 * 2^k Hz, k = kLowestBand .. kHighestBand (16 Hz .. 16 kHz): the 8 target bands
// and the ones beside them, which hold the ends of the fit flat.
constexpr int kLowestBand = -6, kHighestBand = 4;
// The fit's frequencies (and branches) stay below this fraction of the grid's Nyquist frequency,
// where the bilinear warp (a tangent) is still moderate.
constexpr double kNyquistFraction = 0.8;

// A branch of unit admittance at omega (rad/s, continuous time), 1 / (m s + 1 + k / s): the end
// branches hold their side flat, so that the walls absorb below the lowest band and above the fit's
// limit as they do at the ends (above it a band-pass would leave the walls nearly rigid, and the
// energy near the scheme's cutoff would ring on):
//   lowest:  a low-pass, m = Q / omega, k = 0;
//   highest: a high-pass, m = 0, k = Q omega;
//   others:  a band-pass, m = Q / omega and k = Q omega, whose real part peaks at 1 at omega.
enum class Shape { low_pass, band_pass, high_pass };
WallBranch unit_branch(double omega, Shape shape) {
  return {shape == Shape::high_pass ? 0 : kQuality / omega, 1, shape == Shape::low_pass ? 0 : kQuality * omega};
}

// Solves the normal equations of the columns in `use` (Gaussian elimination with partial pivoting;
// at most 11 unknowns). Returns the coefficients in `use`'s order.
std::vector<double> least_squares(const std::vector<std::vector<double>>& a, const std::vector<double>& b,
                                  const std::vector<std::size_t>& use) {
  const std::size_t n = use.size();
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0));
  for (std::size_t r = 0; r < a.size(); ++r)
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) m[i][j] += a[r][use[i]] * a[r][use[j]];
      m[i][n] += a[r][use[i]] * b[r];
    }
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r][c]) > std::abs(m[pivot][c])) pivot = r;
    std::swap(m[c], m[pivot]);
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || m[c][c] == 0) continue;
      const double f = m[r][c] / m[c][c];
      for (std::size_t k = c; k <= n; ++k) m[r][k] -= f * m[c][k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = m[i][i] != 0 ? m[i][n] / m[i][i] : 0;
  return x;
}

// Lawson and Hanson's non-negative least squares: min |a x - b| subject to x >= 0.
std::vector<double> nonnegative_least_squares(const std::vector<std::vector<double>>& a, const std::vector<double>& b) {
  const std::size_t n = a.empty() ? 0 : a[0].size();
  std::vector<double> x(n, 0);
  std::vector<bool> passive(n, false);
  const auto gradient = [&] {
    std::vector<double> w(n, 0);
    for (std::size_t r = 0; r < a.size(); ++r) {
      double residual = b[r];
      for (std::size_t j = 0; j < n; ++j) residual -= a[r][j] * x[j];
      for (std::size_t j = 0; j < n; ++j) w[j] += a[r][j] * residual;
    }
    return w;
  };
  constexpr double kTolerance = 1e-12;
  for (std::size_t outer = 0; outer < 3 * n + 3; ++outer) {
    const std::vector<double> w = gradient();
    std::size_t best = n;
    for (std::size_t j = 0; j < n; ++j)
      if (!passive[j] && w[j] > kTolerance && (best == n || w[j] > w[best])) best = j;
    if (best == n) break;
    passive[best] = true;
    for (std::size_t inner = 0; inner < 3 * n + 3; ++inner) {
      std::vector<std::size_t> use;
      for (std::size_t j = 0; j < n; ++j)
        if (passive[j]) use.push_back(j);
      const std::vector<double> z = least_squares(a, b, use);
      double step = 1;
      bool feasible = true;
      for (std::size_t i = 0; i < use.size(); ++i)
        if (z[i] <= 0) {
          feasible = false;
          step = std::min(step, x[use[i]] / (x[use[i]] - z[i]));
        }
      if (feasible) {
        for (std::size_t i = 0; i < use.size(); ++i) x[use[i]] = z[i];
        break;
      }
      for (std::size_t i = 0; i < use.size(); ++i) {
        x[use[i]] += step * (z[i] - x[use[i]]);
        if (x[use[i]] <= kTolerance) x[use[i]] = 0, passive[use[i]] = false;
      }
    }
  }
  return x;
}

// The real admittance wanted at f Hz: `beta` per band of kOctaveBands, linear in log f between the
// band centres and flat beyond the ends.
double target_at(const std::vector<double>& beta, double f) {
  const double x = std::log2(f / kOctaveBands[0]);
  if (x <= 0) return beta.front();
  if (x >= double(beta.size() - 1)) return beta.back();
  const auto k = std::size_t(x);
  return beta[k] + (x - double(k)) * (beta[k + 1] - beta[k]);
}

}  // namespace

double octave_fit_limit_hz(double dt) { return kNyquistFraction * 0.5 / dt; }

Material fit_octave_absorption(const std::string& name, const std::vector<double>& alpha, double dt,
                               const std::string& key) {
  if (alpha.size() != kOctaveBands.size())
    throw Error(key + " has " + std::to_string(alpha.size()) + " values; accepted: 8 random-incidence absorption "
                "coefficients, one per octave band 63, 125, 250, 500, 1000, 2000, 4000, 8000 Hz");
  for (std::size_t k = 0; k < alpha.size(); ++k)
    if (!(alpha[k] >= 0 && alpha[k] <= 0.95))
      throw Error(key + "[" + std::to_string(k) + "] = " + format_number(alpha[k]) + " is outside 0 .. 0.95; accepted: a random-incidence absorption coefficient a locally "
                  "reactive wall can have");
  const double top = 2 * M_PI * octave_fit_limit_hz(dt);
  const auto warped = [dt](double omega) { return 2 / dt * std::tan(omega * dt / 2); };

  std::vector<double> centres;  // rad/s, the branches' (physical) centres below `top`
  for (int k = kLowestBand; k <= kHighestBand; ++k)
    if (2 * M_PI * 1000 * std::ldexp(1.0, k) < top) centres.push_back(2 * M_PI * 1000 * std::ldexp(1.0, k));
  std::vector<double> fit_hz;  // 12 per octave over the branches' range
  for (double x = kLowestBand - 0.5; x <= kHighestBand + 0.5 + 1e-9; x += 1.0 / 12)
    if (2 * M_PI * 1000 * std::exp2(x) < top) fit_hz.push_back(1000 * std::exp2(x));

  const auto shape = [&](std::size_t j) {
    return j == 0 ? Shape::low_pass : j + 1 == centres.size() ? Shape::high_pass : Shape::band_pass;
  };
  // Columns: each unit branch's real admittance as the scheme has it at the fit's frequencies.
  std::vector<std::vector<double>> columns(fit_hz.size(), std::vector<double>(centres.size()));
  for (std::size_t r = 0; r < fit_hz.size(); ++r)
    for (std::size_t j = 0; j < centres.size(); ++j) {
      Material unit;
      unit.branches = {unit_branch(warped(centres[j]), shape(j))};
      columns[r][j] = scheme_admittance(unit, 2 * M_PI * fit_hz[r], dt).real();
    }
  const auto fitted = [&](const std::vector<double>& beta) {
    std::vector<double> b(fit_hz.size());
    for (std::size_t r = 0; r < fit_hz.size(); ++r) b[r] = target_at(beta, fit_hz[r]);
    const std::vector<double> amplitude = nonnegative_least_squares(columns, b);
    Material m;
    m.name = name;
    m.octave_absorption = alpha;
    for (std::size_t j = 0; j < centres.size(); ++j)
      if (amplitude[j] > 0) {
        const WallBranch u = unit_branch(warped(centres[j]), shape(j));
        m.branches.push_back({u.mass / amplitude[j], u.resistance / amplitude[j], u.stiffness / amplitude[j]});
      }
    return m;
  };
  const auto achieved = [&](const Material& m, std::size_t k) {
    return random_incidence_absorption(scheme_admittance(m, 2 * M_PI * kOctaveBands[k], dt));
  };

  // Start from the real admittances Paris' formula gives, then scale each band's target by the
  // ratio of the wanted to the achieved absorption: the fit's reactance lowers the absorption a real
  // admittance would have. Keep the fit whose worst band is best.
  std::vector<double> beta(alpha.size());
  for (std::size_t k = 0; k < alpha.size(); ++k) beta[k] = admittance_from_random_absorption(alpha[k]);
  Material best;
  double best_error = INFINITY;
  for (int iteration = 0; iteration < 12; ++iteration) {
    const Material m = fitted(beta);
    double error = 0;
    for (std::size_t k = 0; k < alpha.size(); ++k) {
      if (2 * M_PI * kOctaveBands[k] >= top) continue;
      const double got = achieved(m, k);
      error = std::max(error, std::abs(got - alpha[k]));
      if (got > 0) beta[k] *= std::clamp(alpha[k] / got, 0.5, 2.0);
    }
    if (error < best_error) best = m, best_error = error;
  }
  return best;
}

}  // namespace wavefd
