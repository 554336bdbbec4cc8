#pragma once
// First-derivative operators d/dx, d/dy, d/dz of even order on a periodic grid (the NVIDIA
// finite-difference blog's benchmark): accuracy against the analytic derivative and bandwidth.
#include "wavefd/measure.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

struct DerivativeSpec {
  int axis = 0;           // 0 = x, 1 = y, 2 = z
  int order = 8;          // 2, 4, ..., 16
  Index3 n{64, 64, 64};
  Precision precision = Precision::f32;
  int warmup = 2, reps = 10;
};

struct DerivativeResult {
  double rms_error = 0, max_error = 0;  // against the analytic derivative (amplitude 2 pi)
  Stats seconds;                        // per application
  double gbs = 0;                       // (read f + write df) / best time
  long long points = 0;
};

DerivativeResult run_derivative(const DerivativeSpec& spec);

}  // namespace wavefd
