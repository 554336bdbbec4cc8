#pragma once
// The two-step engine: u+ = delta_{S,gamma} u - u-, with u+ overwriting u- in place (Hamilton
// eq. 2). One step is
//   without overlap: halo.start(u); halo.finish(u); variant.apply(interior); swap(u, u-)
//   with overlap:    halo.start(u); variant.apply(core) on the compute instance;
//                    halo.finish(u); variant.apply(the six shell boxes); swap(u, u-)
// where the core is the interior less the layers next to the faces whose ghosts are still in
// flight (R deep; along x a 128-byte line), updated while they travel. Both orders give the same
// bits.
#include <memory>
#include <vector>

#include "wavefd/halo.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

// How the global grid is split and how ghosts travel (parallel.* in the deck).
struct ParallelSpec {
  Index3 rank_grid{1, 1, 1};
  int rank = 0;  // this rank in the grid (x fastest)
  Transport transport = Transport::local;
  bool overlap = false;
};

struct SchemeSpec {
  Domain domain;  // global extents; local extents and offset follow from `parallel`
  Boundary boundary = Boundary::periodic;
  bool pad_rows = true;
  double courant = 0;  // lambda = c T / X; must be in (0, stencil.max_courant]
  ParallelSpec parallel;
};

// Throws Error unless 0 < courant <= the stencil's stable limit.
void check_courant(const Stencil& s, double courant);

template <class T>
class TwoStep {
 public:
  // Throws Error (before allocating) for an unstable Courant number, a stencil the variant does
  // not support, a tile it does not accept (the default tile always is) or a rank grid that does
  // not fit the grid.
  TwoStep(const Stencil& s, const SchemeSpec& spec, const Variant& v, const Tile& tile = {});

  Field<T>& u() { return u_; }            // u^n
  Field<T>& u_prev() { return u_prev_; }  // u^{n-1}
  const Layout& layout() const { return layout_; }
  const Domain& domain() const { return spec_.domain; }  // this rank's part
  const Subdomain& subdomain() const { return sub_; }
  const Stencil& stencil() const { return stencil_; }
  const DeviceStencil<T>& weights() const { return weights_; }
  const Variant& variant() const { return *variant_; }
  const Tile& tile() const { return tile_; }
  Halo<T>& halo() { return *halo_; }
  long steps_done() const { return steps_; }

  void step();
  // The kernel alone: update the interior and swap, without filling ghosts (for measurement).
  void update_interior();
  // The boxes an overlapped step updates: the core (empty when some axis is under 2R + 1 points)
  // and the shell around it.
  const Box& core() const { return core_; }
  const std::vector<Box>& shell() const { return shell_; }
  bool overlap() const { return spec_.parallel.overlap; }
  void advance(long n) {
    for (long s = 0; s < n; ++s) step();
  }
  TwoStepArgs<T> args() const;

 private:
  Stencil stencil_;
  SchemeSpec spec_;
  const Variant* variant_;
  Tile tile_;
  Layout layout_;
  DeviceStencil<T> weights_;
  Field<T> u_, u_prev_;
  Subdomain sub_;
  Kokkos::DefaultExecutionSpace compute_, halo_exec_;
  bool separate_instances_ = false;  // the halo runs on its own instance (GPU builds, overlap on)
  bool early_ghosts_ = false;        // start() completes some ghosts (the halo's late() is not all true)
  Box core_;
  std::vector<Box> shell_;
  std::unique_ptr<Halo<T>> halo_;
  long steps_ = 0;
};

}  // namespace wavefd
