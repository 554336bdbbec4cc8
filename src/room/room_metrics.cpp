// ISO 3382-1 parameters of impulse responses, and Sabine's and Eyring's reverberation times.
#include "wavefd/room_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>

#include "wavefd/room.hpp"

namespace wavefd {

namespace {

constexpr double kPi = 3.14159265358979323846;

// One second-order section b = (1, 0, -1) (the band-pass's zeros at z = 1 and z = -1) over a1, a2.
struct Section {
  double a1 = 0, a2 = 0;
};

// Butterworth band-pass of order 3 per edge: the low-pass prototype's poles moved to the band
// (s = (p B +- sqrt(p^2 B^2 - 4 w0^2)) / 2, edges prewarped), then z = (2 fs + s) / (2 fs - s).
std::vector<Section> band_pass(double rate, double low, double high, double& gain) {
  const double w1 = 2 * rate * std::tan(kPi * low / rate), w2 = 2 * rate * std::tan(kPi * high / rate);
  const double w0 = std::sqrt(w1 * w2), bandwidth = w2 - w1;
  std::vector<Section> sections;
  std::vector<std::complex<double>> poles;
  for (int k = 0; k < 3; ++k) {
    const std::complex<double> p = std::polar(1.0, kPi * (2 * k + 4) / 6.0);
    const std::complex<double> root = std::sqrt(p * p * bandwidth * bandwidth - 4 * w0 * w0);
    for (const auto& s : {(p * bandwidth + root) / 2.0, (p * bandwidth - root) / 2.0}) {
      const std::complex<double> z = (2 * rate + s) / (2 * rate - s);
      if (z.imag() > 0) poles.push_back(z);  // one of each conjugate pair
    }
  }
  for (const auto& z : poles) sections.push_back({-2 * z.real(), std::norm(z)});
  // Unit gain at the band's centre.
  const double wd = 2 * std::atan(w0 / (2 * rate));
  const std::complex<double> e = std::polar(1.0, -wd);
  std::complex<double> h = 1;
  for (const Section& q : sections) h *= (1.0 - e * e) / (1.0 + q.a1 * e + q.a2 * e * e);
  gain = 1 / std::abs(h);
  return sections;
}

// The onset: the first sample within 20 dB of the peak energy.
std::size_t onset(const std::vector<double>& x) {
  double peak = 0;
  for (double v : x) peak = std::max(peak, v * v);
  for (std::size_t n = 0; n < x.size(); ++n)
    if (x[n] * x[n] >= 0.01 * peak) return n;
  return 0;
}

// The decay time from a fit of Schroeder's curve (dB) between `from` and `to` dB, extrapolated to
// 60 dB; none where the curve does not fall below `to`.
std::optional<double> decay_time(const std::vector<double>& level, double rate, double from, double to) {
  std::size_t first = level.size(), last = level.size();
  for (std::size_t n = 0; n < level.size(); ++n) {
    if (first == level.size() && level[n] <= from) first = n;
    if (level[n] <= to) {
      last = n;
      break;
    }
  }
  if (last == level.size() || last <= first + 1) return std::nullopt;
  double st = 0, sl = 0, stt = 0, stl = 0;
  const double count = double(last - first + 1);
  for (std::size_t n = first; n <= last; ++n) {
    const double t = double(n) / rate;
    st += t, sl += level[n], stt += t * t, stl += t * level[n];
  }
  const double slope = (count * stl - st * sl) / (count * stt - st * st);  // dB per second
  if (!(slope < 0)) return std::nullopt;
  return -60 / slope;
}

}  // namespace

std::vector<double> octave_band(const std::vector<double>& x, double rate, double centre) {
  double gain = 1;
  const std::vector<Section> sections = band_pass(rate, centre / std::sqrt(2.0), centre * std::sqrt(2.0), gain);
  std::vector<double> y(x.size());
  for (std::size_t n = 0; n < x.size(); ++n) y[n] = gain * x[n];
  for (const Section& q : sections) {  // direct form II transposed, b = (1, 0, -1)
    double s1 = 0, s2 = 0;
    for (double& v : y) {
      const double in = v, out = in + s1;
      s1 = -q.a1 * out + s2;
      s2 = -in - q.a2 * out;
      v = out;
    }
  }
  return y;
}

DecayParameters decay_parameters(const std::vector<double>& response, double rate, double centre) {
  DecayParameters p;
  const std::size_t start = onset(response);
  const std::vector<double> x = centre > 0 ? octave_band(response, rate, centre) : response;
  std::vector<double> energy(x.size() - std::min(start, x.size()));
  for (std::size_t n = start; n < x.size(); ++n) energy[n - start] = x[n] * x[n];
  if (energy.empty()) return p;
  std::vector<double> level(energy.size());  // Schroeder: the energy still to come, in dB of the total
  double rest = 0;
  for (std::size_t n = energy.size(); n-- > 0;) rest += energy[n], level[n] = rest;
  const double total = level[0];
  if (!(total > 0)) return p;
  for (double& l : level) l = 10 * std::log10(std::max(l / total, 1e-300));
  p.t20 = decay_time(level, rate, -5, -25);
  p.t30 = decay_time(level, rate, -5, -35);
  p.edt = decay_time(level, rate, 0, -10);
  const auto before = [&](double seconds) {
    const std::size_t end = std::min(energy.size(), std::size_t(std::lround(seconds * rate)));
    return std::accumulate(energy.begin(), energy.begin() + std::ptrdiff_t(end), 0.0);
  };
  const double e50 = before(0.05), e80 = before(0.08);
  p.c50 = 10 * std::log10(e50 / std::max(total - e50, 1e-300));
  p.c80 = 10 * std::log10(e80 / std::max(total - e80, 1e-300));
  p.d50 = e50 / total;
  return p;
}

Reverberation reverberation(double volume, const std::vector<double>& area, const std::vector<double>& alpha,
                            double speed) {
  double total = 0, absorption = 0;
  for (std::size_t f = 0; f < area.size(); ++f) total += area[f], absorption += area[f] * alpha[f];
  const double k = 24 * std::log(10.0) / speed;
  Reverberation r;
  r.mean_absorption = absorption / total;
  r.sabine = absorption > 0 ? k * volume / absorption : INFINITY;
  r.eyring = absorption > 0 ? k * volume / (-total * std::log1p(-r.mean_absorption)) : INFINITY;
  return r;
}

}  // namespace wavefd
