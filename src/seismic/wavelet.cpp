#include "wavefd/wavelet.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "wavefd/types.hpp"

namespace wavefd {
namespace {

class Ricker final : public Wavelet {
 public:
  Ricker(double f, double delay) : f_(f), delay_(delay) {}
  std::string describe() const override {
    return "Ricker, peak " + format_number(f_) + " Hz, delay " + format_number(delay_) + " s";
  }
  double at(double t) const override {
    const double a = std::numbers::pi * f_ * (t - delay_);
    return (1 - 2 * a * a) * std::exp(-a * a);
  }
  double max_frequency() const override { return 3 * f_; }

 private:
  double f_, delay_;
};

class Minimod final : public Wavelet {
 public:
  explicit Minimod(double fmax) : fmax_(fmax), sigma_(0.6 * fmax) {}
  std::string describe() const override { return "minimod's wavelet, fmax " + format_number(fmax_) + " Hz"; }
  double at(double t) const override {
    constexpr double S = 8, tau = 1;
    const double d = sigma_ * t - tau;
    return -2 * S * sigma_ * (sigma_ - 2 * sigma_ * S * d * d) * std::exp(-S * d * d);
  }
  double max_frequency() const override { return fmax_; }

 private:
  double fmax_, sigma_;
};

void check_frequency(double f, const std::string& key) {
  if (!(std::isfinite(f) && f > 0)) throw Error(key + " = " + format_number(f) + " is outside frequency > 0; accepted: a finite frequency in Hz, > 0");
}

}  // namespace

std::unique_ptr<Wavelet> make_ricker(double peak_frequency, double delay) {
  check_frequency(peak_frequency, "source.frequency");
  if (!(std::isfinite(delay) && delay >= 0)) throw Error("source.delay = " + format_number(delay) + " is outside delay >= 0; accepted: a finite time in seconds, >= 0");
  return std::make_unique<Ricker>(peak_frequency, delay);
}

std::unique_ptr<Wavelet> make_minimod_wavelet(double fmax) {
  check_frequency(fmax, "source.frequency");
  return std::make_unique<Minimod>(fmax);
}

}  // namespace wavefd
