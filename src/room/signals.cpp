// Source signals of the room model, sampled at the grid's rate (include/wavefd/room.hpp).
#include <algorithm>
#include <cmath>

#include "wavefd/room.hpp"

namespace wavefd {

std::vector<double> impulse_signal(long steps) {
  std::vector<double> s(std::size_t(std::min<long>(steps, 2)), 0.0);
  if (!s.empty()) s[0] = 1;
  if (s.size() > 1) s[1] = -1;
  return s;
}

std::vector<double> hann_signal(double duration, double dt, long steps, bool differentiate) {
  constexpr double kPi = 3.14159265358979323846;
  const long length = std::min<long>(steps, long(std::ceil(duration / dt)) + 1);
  std::vector<double> s(std::size_t(std::max<long>(length, 0)), 0.0);
  for (long n = 0; n < length; ++n) {
    const double t = double(n) * dt;
    s[std::size_t(n)] = t < duration ? 0.5 * (1 - std::cos(2 * kPi * t / duration)) : 0.0;
  }
  if (differentiate)  // backward difference: sums to zero over the pulse (it ends at 0)
    for (long n = length - 1; n > 0; --n) s[std::size_t(n)] -= s[std::size_t(n - 1)];
  return s;
}

}  // namespace wavefd
