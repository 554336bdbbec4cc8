// Wall admittances from absorption coefficients, and the plane-wave reflection of an admittance.
#include <cmath>
#include <complex>

#include "wavefd/room.hpp"

namespace wavefd {

double admittance_from_normal_absorption(double alpha) {
  if (!(alpha >= 0 && alpha <= 1))
    throw Error("absorption = " + format_number(alpha) + " is outside 0 <= absorption <= 1; accepted: a normal-incidence "
                "absorption coefficient");
  const double r = std::sqrt(1 - alpha);  // |R| at normal incidence, R >= 0 for a real beta <= 1
  return (1 - r) / (1 + r);
}

double random_incidence_absorption(double beta) {
  if (beta <= 0) return 0;
  return 8 * beta * (1 + beta / (1 + beta) - 2 * beta * std::log1p(1 / beta));
}

double admittance_from_random_absorption(double alpha) {
  constexpr double kPeakBeta = 0.638;  // random_absorption peaks here (0.951): its rising branch is below
  if (!(alpha >= 0 && alpha <= 0.95))
    throw Error("random_absorption = " + format_number(alpha) + " is outside 0 <= random_absorption <= 0.95; accepted: "
                "a random-incidence absorption coefficient a locally reactive wall can have");
  double lo = 0, hi = kPeakBeta;
  for (int i = 0; i < 200 && hi - lo > 1e-15; ++i) {
    const double mid = (lo + hi) / 2;
    (random_incidence_absorption(mid) < alpha ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double random_incidence_absorption(std::complex<double> beta) {
  constexpr int kIntervals = 2048;  // even; the integrand is smooth on [0, pi/2]
  const double step = (M_PI / 2) / kIntervals;
  double sum = 0;
  for (int i = 0; i <= kIntervals; ++i) {
    const double theta = i * step;
    const double weight = i == 0 || i == kIntervals ? 1 : i % 2 ? 4 : 2;
    sum += weight * (1 - std::norm(reflection_coefficient(beta, theta))) * std::sin(2 * theta);
  }
  return sum * step / 3;
}

std::complex<double> reflection_coefficient(std::complex<double> admittance, double theta) {
  const double c = std::cos(theta);
  return (c - admittance) / (c + admittance);
}

std::complex<double> material_admittance(const Material& m, double omega) {
  const std::complex<double> s(0, omega);
  std::complex<double> beta = m.admittance;
  for (const WallBranch& b : m.branches) beta += 1.0 / (b.mass * s + b.resistance + b.stiffness / s);
  return beta;
}

std::complex<double> scheme_admittance(const Material& m, double omega, double dt) {
  return material_admittance(m, 2 / dt * std::tan(omega * dt / 2));
}

double reflection_coefficient(double admittance, double theta) {
  const double c = std::cos(theta);
  return (c - admittance) / (c + admittance);
}

}  // namespace wavefd
