#include "wavefd/time_step.hpp"

#include <cmath>
#include <cstdio>

namespace wavefd {
namespace {

void check_inputs(const Stencil& s, double h, double vmax) {
  if (!(std::isfinite(h) && h > 0))
    throw Error("grid.spacing = " + format_number(h) + " is outside spacing > 0; accepted: a finite length in metres, > 0");
  if (!(std::isfinite(vmax) && vmax > 0))
    throw Error("scheme.vmax = " + format_number(vmax) + " m/s is outside vmax > 0; accepted: the model's fastest speed, > 0");
  if (!(s.max_courant > 0)) throw Error("stencil " + s.name + " has no stable time step");
}

// "star M=4's stable limit 0.452856 allows dt <= 2.01 ms at vmax 4500 m/s, h 20 m"
std::string limit_text(const Stencil& s, double h, double vmax) {
  return s.name + "'s stable Courant number " + format_number(s.max_courant) + " allows dt <= " +
         format_number(s.max_courant * h / vmax) + " s at vmax " + format_number(vmax) + " m/s and spacing " + format_number(h) + " m";
}

}  // namespace

SeismicTimeStep seismic_time_step(const Stencil& s, double h, double vmax, double cfl) {
  check_inputs(s, h, vmax);
  if (!(std::isfinite(cfl) && cfl > 0 && cfl <= 1))
    throw Error("scheme.cfl = " + format_number(cfl) + " is outside 0 < cfl <= 1; accepted: the fraction of the stable "
                "limit (" + limit_text(s, h, vmax) + ")");
  const double dt = cfl * s.max_courant * h / vmax;
  return {dt, vmax * dt / h, s.max_courant};
}

SeismicTimeStep check_time_step(const Stencil& s, double h, double vmax, double dt) {
  check_inputs(s, h, vmax);
  if (!(std::isfinite(dt) && dt > 0 && vmax * dt / h <= s.max_courant))
    throw Error("scheme.dt = " + format_number(dt) + " s is not stable: " + limit_text(s, h, vmax) + "; accepted: 0 < dt <= " +
                format_number(s.max_courant * h / vmax) + " s");
  return {dt, vmax * dt / h, s.max_courant};
}

}  // namespace wavefd
