#pragma once
// Source wavelets of the seismic model: the source term's time function s(t), t in seconds from
// the start of the run. Evaluated on the host once per step (a handful of values).
#include <memory>
#include <string>

namespace wavefd {

class Wavelet {
 public:
  virtual ~Wavelet() = default;
  virtual std::string describe() const = 0;
  virtual double at(double t) const = 0;
  // The highest frequency with a significant share of the energy (Hz): the grid must resolve it.
  virtual double max_frequency() const = 0;
};

// Ricker wavelet, peak 1 at t = delay: (1 - 2 a^2) exp(-a^2), a = pi f (t - delay). Its spectrum
// peaks at f and falls to about 1 % of the peak at 3 f. Throws Error for f <= 0 or delay < 0
// (source.frequency, source.delay).
std::unique_ptr<Wavelet> make_ricker(double peak_frequency, double delay);

// The reference code's wavelet (minimod, constants fmax): with S = 8, sigma = 0.6 fmax, tau = 1,
// s(t) = -2 S sigma (sigma - 2 sigma S (sigma t - tau)^2) exp(-S (sigma t - tau)^2), so that
// s(tau / sigma) = -2 S sigma^2 (-3600 for fmax = 25 Hz).
std::unique_ptr<Wavelet> make_minimod_wavelet(double fmax);

}  // namespace wavefd
