// Air absorption of impulse responses (include/wavefd/air_absorption.hpp): ISO 9613-1 and a
// short-time Fourier filter through kissfft.
#include "wavefd/air_absorption.hpp"

#include <kiss_fftr.h>  // kissfft::kissfft-float adds <prefix>/include/kissfft

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>

#include "wavefd/types.hpp"

namespace wavefd {

double air_attenuation_db_per_m(double f, double celsius, double humidity, double kilopascal) {
  constexpr double kReferencePressure = 101.325, kReferenceTemperature = 293.15, kTriplePoint = 273.16;  // kPa, K
  const double t = celsius + 273.15, p = kilopascal / kReferencePressure, tr = t / kReferenceTemperature;
  const double saturation = std::pow(10.0, -6.8346 * std::pow(kTriplePoint / t, 1.261) + 4.6151);  // p_sat / p_r
  const double h = humidity * saturation / p;  // molar concentration of water vapour, %
  const double oxygen = p * (24 + 4.04e4 * h * (0.02 + h) / (0.391 + h));                                 // Hz
  const double nitrogen = p / std::sqrt(tr) * (9 + 280 * h * std::exp(-4.170 * (std::cbrt(1 / tr) - 1)));  // Hz
  const double f2 = f * f;
  return 8.686 * f2 *
         (1.84e-11 / p * std::sqrt(tr) +
          std::pow(tr, -2.5) * (0.01275 * std::exp(-2239.1 / t) / (oxygen + f2 / oxygen) +
                                0.1068 * std::exp(-3352.0 / t) / (nitrogen + f2 / nitrogen)));
}

std::vector<double> apply_air_absorption(const std::vector<double>& response, double rate, double speed,
                                         const AirConditions& air) {
  if (!(rate > 0 && speed > 0))
    throw Error("air absorption at " + format_number(rate) + " Hz and " + format_number(speed) +
                " m/s; accepted: a rate and a speed of sound above 0");
  int frame = 64;  // a power of two near 20 ms
  while (frame < rate * 0.02) frame *= 2;
  const int hop = frame / 4, bins = frame / 2 + 1;
  constexpr double kPi = 3.14159265358979323846;
  std::vector<float> window(static_cast<std::size_t>(frame));  // square root of the periodic Hann: analysis and synthesis
  for (int n = 0; n < frame; ++n) window[std::size_t(n)] = float(std::sin(kPi * n / frame));
  // The attenuation per metre (amplitude, nepers) of each bin.
  std::vector<double> nepers(static_cast<std::size_t>(bins));
  for (int k = 0; k < bins; ++k)
    nepers[std::size_t(k)] = air_attenuation_db_per_m(k * rate / frame, air.celsius, air.humidity, air.kilopascal) / 8.686;

  const auto release = [](kiss_fftr_cfg c) { kiss_fftr_free(c); };
  const std::unique_ptr<std::remove_pointer_t<kiss_fftr_cfg>, decltype(release)> forward(
      kiss_fftr_alloc(frame, 0, nullptr, nullptr), release);
  const std::unique_ptr<std::remove_pointer_t<kiss_fftr_cfg>, decltype(release)> inverse(
      kiss_fftr_alloc(frame, 1, nullptr, nullptr), release);
  if (!forward || !inverse) throw Error("air absorption: kissfft could not set up a transform of " + std::to_string(frame));

  // Padded by a frame on each side, so that every sample lies under four frames.
  const std::size_t n = response.size(), padded = n + 2 * std::size_t(frame);
  std::vector<double> out(padded, 0.0);
  std::vector<float> in(static_cast<std::size_t>(frame)), back(static_cast<std::size_t>(frame));
  std::vector<kiss_fft_cpx> spectrum(static_cast<std::size_t>(bins));
  for (std::size_t start = 0; start + std::size_t(frame) <= padded; start += std::size_t(hop)) {
    bool any = false;
    for (int i = 0; i < frame; ++i) {
      const std::ptrdiff_t at = std::ptrdiff_t(start) + i - frame;
      const double x = at >= 0 && at < std::ptrdiff_t(n) ? response[std::size_t(at)] : 0.0;
      in[std::size_t(i)] = float(x) * window[std::size_t(i)];
      any = any || x != 0;
    }
    if (!any) continue;
    kiss_fftr(forward.get(), in.data(), spectrum.data());
    const double travelled = speed * std::max(0.0, (double(start) + frame / 2.0 - frame) / rate);  // metres
    for (int k = 0; k < bins; ++k) {
      const float gain = float(std::exp(-nepers[std::size_t(k)] * travelled));
      spectrum[std::size_t(k)].r *= gain;
      spectrum[std::size_t(k)].i *= gain;
    }
    kiss_fftri(inverse.get(), spectrum.data(), back.data());
    // kissfft's inverse is unnormalised (x frame); the windows' product, a Hann, sums to 2 at this hop.
    for (int i = 0; i < frame; ++i)
      out[start + std::size_t(i)] += double(back[std::size_t(i)]) * window[std::size_t(i)] / (2.0 * frame);
  }
  return std::vector<double>(out.begin() + frame, out.begin() + frame + std::ptrdiff_t(n));
}

}  // namespace wavefd
