// WAV files through libsndfile (include/wavefd/audio_file.hpp).
#include <sndfile.h>

#include <cstdio>

#include "wavefd/audio_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

void write_wav(const std::string& path, const std::vector<float>& samples, int rate, const std::string& key) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  if (!f) throw Error(key + " = '" + path + "' cannot be written: " + sf_strerror(nullptr) + "; accepted: a writable path");
  const sf_count_t written = sf_write_float(f, samples.data(), sf_count_t(samples.size()));
  const std::string why = written == sf_count_t(samples.size()) ? "" : sf_strerror(f);
  if (sf_close(f) != 0 || !why.empty()) {
    std::remove(path.c_str());
    throw Error(key + " = '" + path + "' could not be written whole: " + (why.empty() ? "closing failed" : why) +
                "; accepted: a path with room for " + std::to_string(samples.size() * 4) + " bytes");
  }
}

std::vector<float> read_wav(const std::string& path, int& rate, const std::string& key) {
  const std::string named = key.empty() ? "'" + path + "'" : key + " = '" + path + "'";
  SF_INFO info{};
  SNDFILE* f = sf_open(path.c_str(), SFM_READ, &info);
  if (!f)
    throw Error(named + " cannot be read as audio: " + sf_strerror(nullptr) + "; accepted: a mono audio file (WAV, FLAC, ...)");
  if (info.channels != 1) {
    sf_close(f);
    throw Error(named + " has " + std::to_string(info.channels) + " channels; accepted: a mono audio file");
  }
  std::vector<float> samples(std::size_t(info.frames));
  const sf_count_t got = sf_read_float(f, samples.data(), info.frames);
  sf_close(f);
  if (got != info.frames) throw Error(named + " ended after " + std::to_string(got) + " of " + std::to_string(info.frames) + " samples");
  rate = info.samplerate;
  return samples;
}

}  // namespace wavefd
