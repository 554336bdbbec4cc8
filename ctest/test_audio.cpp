// Room responses as audio: libsoxr's resampling keeps a tone's amplitude and frequency, a WAV file
// written by libsndfile reads back sample for sample, a room's source reads one, and air absorption
// follows ISO 9613-1.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <filesystem>

#include "wavefd/air_absorption.hpp"
#include "wavefd/audio_file.hpp"
#include "wavefd/room_deck.hpp"
#include "wavefd/types.hpp"

namespace wavefd {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<float> tone(double frequency, double rate, double seconds) {
  std::vector<float> s(std::size_t(seconds * rate));
  for (std::size_t n = 0; n < s.size(); ++n) s[n] = float(std::sin(2 * kPi * frequency * double(n) / rate));
  return s;
}

TEST(Audio, ResamplingKeepsAToneFromTheGridRateTo48kHz) {
  const double grid_rate = 12001.9;  // inputs/room-shoebox.toml's
  const std::vector<float> in = tone(1000, grid_rate, 0.2);
  const std::vector<float> out = resample(in, grid_rate, 48000);
  EXPECT_NEAR(double(out.size()), double(in.size()) * 48000 / grid_rate, 2);
  // Away from the ends (the filter's transients), the samples are the tone at 48 kHz.
  double worst = 0;
  for (std::size_t n = 2000; n + 2000 < out.size(); ++n) {
    const double exact = std::sin(2 * kPi * 1000 * double(n) / 48000);
    worst = std::max(worst, std::abs(double(out[n]) - exact));
  }
  EXPECT_LT(worst, 1e-4);
}

TEST(Audio, WavFilesReadBackSampleForSample) {
  const std::string path = (std::filesystem::temp_directory_path() / "wavefd-test-audio.wav").string();
  const std::vector<float> s = tone(440, 48000, 0.05);
  write_wav(path, s, 48000, "receivers.wav");
  int rate = 0;
  EXPECT_EQ(read_wav(path, rate), s);
  EXPECT_EQ(rate, 48000);
  std::filesystem::remove(path);
  EXPECT_THROW(write_wav("/nonexistent-dir/x.wav", s, 48000, "receivers.wav"), Error);
  EXPECT_THROW(resample(s, 0, 48000), Error);
}

// A room source from a WAV file: its samples resampled to the grid's rate (a 300 Hz tone burst at
// 48 kHz onto the 5 cm grid's 12001.9 Hz), injected as they are unless differentiated; a stereo or
// missing file is refused naming the key.
TEST(Audio, RoomSourceFromAWavFile) {
  const std::string path = (std::filesystem::temp_directory_path() / "wavefd-test-source.wav").string();
  std::vector<float> burst = tone(300, 48000, 0.05);
  for (std::size_t n = 0; n < burst.size(); ++n) burst[n] *= float(0.5 - 0.5 * std::cos(2 * kPi * double(n) / double(burst.size())));
  write_wav(path, burst, 48000, "test");
  RoomDeck d;
  d.size = {1, 1, 1};
  d.spacing = 0.05;
  d.steps = 2000;
  RoomDeck::Source source;
  source.position = {0.525, 0.525, 0.525};
  source.signal = "wav";
  source.file = path;
  d.sources = {source};
  const RoomModel m = make_room_model(d, make_star(1));
  const std::vector<double>& s = m.sources[0].signal;
  ASSERT_NEAR(double(s.size()), 0.05 / m.dt, 2);
  double worst = 0;
  for (std::size_t n = 0; n < s.size(); ++n) {
    const double t = double(n) * m.dt, exact = std::sin(2 * kPi * 300 * t) * (0.5 - 0.5 * std::cos(2 * kPi * t / 0.05));
    worst = std::max(worst, std::abs(s[n] - exact));
  }
  EXPECT_LT(worst, 2e-3);
  d.sources[0].differentiate = true;
  const RoomModel differentiated = make_room_model(d, make_star(1));
  const std::vector<double>& ds = differentiated.sources[0].signal;
  for (std::size_t n = 1; n < ds.size(); ++n) ASSERT_NEAR(ds[n], s[n] - s[n - 1], 1e-12);
  d.sources[0].file = path + ".missing";
  EXPECT_THROW(make_room_model(d, make_star(1)), Error);
  d.sources[0].file = "";
  EXPECT_THROW(make_room_model(d, make_star(1)), Error);  // signal = 'wav' without a file
  std::filesystem::remove(path);
}

// ISO 9613-1 at 20 degrees C, 50 % and 101.325 kPa against the standard's table (dB/km), and the
// filter: an impulse arriving at 0.5 s (171.5 m travelled) leaves with its spectrum scaled by the
// attenuation over that distance, within 1 % from 250 Hz to 16 kHz.
TEST(Audio, AirAbsorptionFollowsIso9613) {
  EXPECT_NEAR(air_attenuation_db_per_m(125, 20, 50) * 1e3, 0.44, 0.005);
  EXPECT_NEAR(air_attenuation_db_per_m(500, 20, 50) * 1e3, 2.73, 0.01);
  EXPECT_NEAR(air_attenuation_db_per_m(1000, 20, 50) * 1e3, 4.66, 0.01);
  EXPECT_GT(air_attenuation_db_per_m(1000, 20, 10), air_attenuation_db_per_m(1000, 20, 50));  // dry air absorbs more here
  const double rate = 48000, speed = 343, arrival = 0.5;
  std::vector<double> h(std::size_t(rate), 0.0);
  h[std::size_t(arrival * rate)] = 1;
  const std::vector<double> y = apply_air_absorption(h, rate, speed, {});
  ASSERT_EQ(y.size(), h.size());
  for (double f : {250.0, 1000.0, 4000.0, 8000.0, 16000.0}) {
    std::complex<double> sum = 0;
    for (std::size_t n = 0; n < y.size(); ++n) sum += y[n] * std::polar(1.0, -2 * kPi * f * double(n) / rate);
    const double expected = std::pow(10.0, -air_attenuation_db_per_m(f, 20, 50) * speed * arrival / 20);
    EXPECT_NEAR(std::abs(sum), expected, 0.01 * expected) << f << " Hz";
  }
  EXPECT_THROW(apply_air_absorption(h, 0, speed, {}), Error);
}

}  // namespace
}  // namespace wavefd
