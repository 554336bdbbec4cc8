#pragma once
// One seismic run, fully described on the host: what the engine (Kokkos, any rank grid) and the
// independent CPU reference (plain loops, one process) both compute. Everything is in grid units
// except the speeds and times: positions are global grid indices (metres / h), the Laplacian
// weights are those of the unit grid, and the stored coefficient is vp = (V dt / h)^2.
//
// One step, u = u^n, v = u^{n-1} on entry and u^{n+1} on exit (docs/seismic.md):
//   inner:  v = 2 u + vp L u - v
//   pml:    v = ((2 + 2e - e^2) u + vp (L u + phi) - v) / (1 + 2e)
//           phi = (phi - sum_d (eta_d(+1) - eta_d(-1)) (u(+d) - u(-d)) / 4) / (1 + e)
//   sponge: v = (2 u + vp L u - (1 - e) v) / (1 + e)
// where e = eta_x(i) + eta_y(j) + eta_z(k) (the 1-D profiles of pml_profile.hpp), phi lives in
// the absorbing layer only and starts at 0; then the sources are added to v (the value of each
// wavelet at t_n = n dt; see source_one_step_late), receivers sample v every `every` steps, and u and
// v swap.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "wavefd/pml_profile.hpp"
#include "wavefd/point_spread.hpp"
#include "wavefd/stencil.hpp"
#include "wavefd/velocity.hpp"
#include "wavefd/wavelet.hpp"

namespace wavefd {

// What the ghosts beyond the global grid hold.
enum class OuterBoundary {
  zero,   // 0 at all times: a Dirichlet frame R cells deep (minimod's)
  rigid,  // odd reflection about a wall node one cell out (u = 0 there), as grid.boundary = rigid
};

enum class Absorbing { none, pml, sponge };

std::string_view to_string(OuterBoundary b);
std::string_view to_string(Absorbing a);
// Each throws Error naming `key` and the accepted values.
OuterBoundary parse_outer_boundary(std::string_view name, std::string_view key);
Absorbing parse_absorbing(std::string_view name, std::string_view key);

struct SeismicSource {
  std::array<double, 3> position{};  // grid units of the global grid
  Spreading spreading = Spreading::sinc;
  std::shared_ptr<const Wavelet> wavelet;
  double amplitude = 1;              // the wavelet is scaled by this
};

struct SeismicReceivers {
  std::vector<std::array<double, 3>> positions;  // grid units
  Spreading spreading = Spreading::sinc;
  long every = 1;                                // a sample every `every` steps, the first at t = 0
};

struct SeismicModel {
  Index3 n{0, 0, 0};          // global grid points per axis, absorbing layer included
  double h = 0;               // spacing (m)
  double dt = 0;              // time step (s)
  long steps = 0;
  Stencil stencil;            // a star stencil: Laplacian weights on the unit grid
  std::shared_ptr<const VelocityModel> velocity;
  OuterBoundary outer = OuterBoundary::zero;
  Absorbing absorbing = Absorbing::pml;
  int width = 0;              // cells of the absorbing layer on each of the six sides (0: none)
  double peak = 0;            // eta at the outermost cell (pml_peak)
  PmlProfile profile = PmlProfile::symmetric;
  // Sources: added to v as amplitude * s(t_n) * (V dt)^2 / h^3 * w at each support point (a point
  // source of the continuous equation), or as amplitude * s(t_n) * w (minimod's source term).
  bool source_scaled = true;
  // The wavelet's time: s(t_n) after step n (t_n = n dt, the time of the field the update reads),
  // or s(t_{n+1}) as the code that printed minimod's results did.
  bool source_one_step_late = false;
  std::vector<SeismicSource> sources;
  SeismicReceivers receivers;

  // Samples per receiver trace: steps / every + 1 (t = 0 included).
  long samples() const { return receivers.positions.empty() ? 0 : steps / receivers.every + 1; }
  // The absorbing layer's global boxes: z low, z high (whole x, y), y low, y high (whole x, inner
  // z), x low, x high (inner y, z). Empty when width = 0.
  std::vector<Box> layer_boxes() const;
  // The global inner box (the grid less the layer).
  Box inner_box() const;
  // The 1-D damping profile along `axis`: n[axis] + 2 values, indices -1 .. n (zeros when none).
  std::vector<double> axis_profile(int axis) const;
  // c[0] the centre weight, c[m] the weight at distance m on each axis (m = 1..radius).
  std::vector<double> axis_weights() const;
};

// Final state and traces of a run.
struct SeismicResult {
  std::vector<double> u;                    // u^steps on the global grid (x fastest); reference only
  std::vector<std::vector<double>> traces;  // per receiver, samples() values
};

// The independent reference: plain loops in double, one process, no Kokkos, written apart from
// the engine (src/verify/seismic_reference.cpp). For small grids (tests and `wavefd verify`).
SeismicResult seismic_reference(const SeismicModel& m);

}  // namespace wavefd
