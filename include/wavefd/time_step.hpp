#pragma once
// The time step of the seismic model. Stability of the two-step scheme with a speed that varies
// in space needs the Courant number vmax dt / h within the stencil's limit (Stencil::max_courant,
// exact over the Brillouin zone) at the fastest point.
#include "wavefd/stencil.hpp"

namespace wavefd {

struct SeismicTimeStep {
  double dt = 0;       // seconds
  double courant = 0;  // vmax dt / h
  double limit = 0;    // the stencil's stable Courant number
};

// dt = cfl * limit * h / vmax: `cfl` is the fraction of the stable limit used, 0 < cfl <= 1.
// For star stencils the limit equals 2 / sqrt(sum of |weights|), so this is minimod's
// dt = 2 CFL h / (sqrt(S) vmax). Throws Error naming scheme.cfl or grid.spacing.
SeismicTimeStep seismic_time_step(const Stencil& s, double h, double vmax, double cfl);

// A time step given outright (scheme.dt): throws Error naming the largest stable dt when above it.
SeismicTimeStep check_time_step(const Stencil& s, double h, double vmax, double dt);

}  // namespace wavefd
