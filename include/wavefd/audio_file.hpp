#pragma once
// Impulse responses as audio: WAV files through libsndfile, resampled through libsoxr. Both are
// optional, like segyio: the functions below exist only in a build that found them
// (`audio_support`); callers test the constant first. Plain C++.
#include <string>
#include <vector>

namespace wavefd {

#ifdef WAVEFD_HAVE_AUDIO
inline constexpr bool audio_support = true;
#else
inline constexpr bool audio_support = false;
#endif

// `samples` at `rate_in` Hz resampled to `rate_out` Hz by libsoxr at its very-high quality (a
// linear-phase low-pass at 0.91 of the lower Nyquist frequency, 175 dB of stop band). Throws Error.
std::vector<float> resample(const std::vector<float>& samples, double rate_in, double rate_out);

// A mono WAV file of 32-bit float samples at `rate` Hz (an integer, as WAV headers hold). Throws Error
// naming `key` when it cannot be written; a partial file is removed.
void write_wav(const std::string& path, const std::vector<float>& samples, int rate, const std::string& key);

// The samples and rate of a mono audio file (WAV, or any format libsndfile reads): a room's
// sources. Throws Error naming `key` (when given) for a file that cannot be read or is not mono.
std::vector<float> read_wav(const std::string& path, int& rate, const std::string& key = "");

}  // namespace wavefd
