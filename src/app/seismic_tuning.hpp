#pragma once
// The tuning-file entry of a seismic deck's inner box: written by `wavefd tune --seismic`, read by
// `wavefd seismic` with scheme.variant = auto.
#include "io/tuning.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/seismic_model.hpp"

namespace wavefd::app {

// Keyed by the stencil (", variable coefficient"), precision and the size class of rank 0's inner
// box, so that every rank of a run finds the same entry.
TuningKey seismic_tuning_key(const SeismicModel& m, Precision p, const ParallelSpec& par);

}  // namespace wavefd::app
