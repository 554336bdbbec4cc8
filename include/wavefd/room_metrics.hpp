#pragma once
// Room-acoustic parameters of an impulse response (ISO 3382-1): per octave band, the reverberation
// times T20 and T30 and the early decay time EDT from Schroeder's backward-integrated energy decay,
// and the clarities C50, C80 and the definition D50 from the energy before and after 50 / 80 ms of
// the direct sound's arrival. Octave bands by 6th-order Butterworth band-pass filters (IEC 61260's
// usual realisation: three second-order sections from the bilinear transform). Plain C++.
#include <array>
#include <optional>
#include <vector>

namespace wavefd {

// Octave band centres (Hz), 63 Hz to 8 kHz (base 2: 1000 * 2^k).
inline constexpr std::array<double, 8> kOctaveBands = {62.5, 125, 250, 500, 1000, 2000, 4000, 8000};

struct DecayParameters {
  std::optional<double> t20, t30, edt;  // s; none where the decay does not reach the fit's range
  double c50 = 0, c80 = 0;               // dB
  double d50 = 0;                        // 0..1
};

// `response` sampled at `rate` Hz, filtered to the octave band of `centre` Hz (0: broadband, no
// filter). The direct sound arrives at the first sample within 20 dB of the broadband peak.
DecayParameters decay_parameters(const std::vector<double>& response, double rate, double centre);

// The octave band of `centre` Hz applied to `x` (causal): exposed for tests.
std::vector<double> octave_band(const std::vector<double>& x, double rate, double centre);

// Reverberation times of a room from its volume (m^3) and its surfaces' areas (m^2) and
// random-incidence absorption coefficients: Sabine 0.161 V / A and Eyring 0.161 V / (-S ln(1 - mean
// alpha)), in seconds (0.161 s/m = 24 ln(10) / c, written with `speed`).
struct Reverberation {
  double sabine = 0, eyring = 0, mean_absorption = 0;
};
Reverberation reverberation(double volume, const std::vector<double>& area, const std::vector<double>& absorption,
                            double speed);

}  // namespace wavefd
