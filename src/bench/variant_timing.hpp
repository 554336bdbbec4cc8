#pragma once
// Timing one kernel variant on a grid: shared by `wavefd bench` and `wavefd tune`.
#include "wavefd/measure.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

struct VariantTiming {
  Stats kernel;  // seconds per interior update (the variant alone)
  Stats step;    // seconds per full step (ghost fill + update)
};

// `warmup` + `reps` repetitions of `steps` steps on an n[0] x n[1] x n[2] periodic grid at 0.9 of
// the stable Courant number, with smooth non-zero data (values do not change the timing).
VariantTiming time_variant(const Stencil& s, const Variant& v, Precision p, const Index3& n, int steps,
                           int warmup, int reps);

}  // namespace wavefd
