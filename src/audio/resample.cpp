// Resampling through libsoxr (include/wavefd/audio_file.hpp).
#include <soxr.h>

#include <cmath>

#include "wavefd/audio_file.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

std::vector<float> resample(const std::vector<float>& samples, double rate_in, double rate_out) {
  if (!(rate_in > 0 && rate_out > 0))
    throw Error("resampling from " + format_number(rate_in) + " Hz to " + format_number(rate_out) +
                " Hz; accepted: rates above 0");
  std::vector<float> out(std::size_t(std::ceil(double(samples.size()) * rate_out / rate_in)));
  std::size_t done = 0;
  const soxr_io_spec_t io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I);
  const soxr_quality_spec_t quality = soxr_quality_spec(SOXR_VHQ, 0);
  const soxr_error_t error = soxr_oneshot(rate_in, rate_out, 1, samples.data(), samples.size(), nullptr, out.data(),
                                          out.size(), &done, &io, &quality, nullptr);
  if (error) throw Error(std::string("resampling failed (libsoxr): ") + error);
  out.resize(done);
  return out;
}

}  // namespace wavefd
