// Room responses as audio: libsoxr's resampling keeps a tone's amplitude and frequency, and a WAV
// file written by libsndfile reads back sample for sample.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "wavefd/audio_file.hpp"
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

}  // namespace
}  // namespace wavefd
