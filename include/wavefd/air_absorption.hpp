#pragma once
// Air absorption as post-processing of a room's impulse responses (the scheme itself is lossless in
// the air): ISO 9613-1's attenuation coefficient, and its time-varying filter. Part of the optional
// audio support (`audio_support`, include/wavefd/audio_file.hpp): the filter needs kissfft. Plain C++.
#include <vector>

namespace wavefd {

// ISO 9613-1's pure-tone attenuation of sound in air, in dB per metre, at f Hz, `celsius` degrees,
// `humidity` percent relative humidity and `kilopascal` of pressure (valid 50 Hz .. 10 kHz, -20 ..
// 50 degrees C, 10 .. 100 %, up to 200 kPa; the formula holds its trend beyond).
double air_attenuation_db_per_m(double f, double celsius, double humidity, double kilopascal = 101.325);

struct AirConditions {
  double celsius = 20, humidity = 50, kilopascal = 101.325;
};

// `response` sampled at `rate` Hz, emitted at t = 0: each part arriving at time t has travelled
// speed * t metres, so its spectrum is scaled by 10^(-a(f) speed t / 20). Short-time Fourier
// frames (about 20 ms, square-root Hann windows, hop a quarter frame; kissfft's real transform),
// each scaled by the attenuation at its centre's time, overlapped and added. Throws Error for a
// rate or speed that is not positive.
std::vector<double> apply_air_absorption(const std::vector<double>& response, double rate, double speed,
                                         const AirConditions& air);

}  // namespace wavefd
