#pragma once
// The two-step engine: u+ = delta_{S,gamma} u - u-, with u+ overwriting u- in place (Hamilton
// eq. 2). One step is: halo.start(u); halo.finish(u); variant.apply(interior); swap(u, u-).
#include <memory>

#include "wavefd/halo.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

struct SchemeSpec {
  Domain domain;
  Boundary boundary = Boundary::periodic;
  bool pad_rows = true;
  double courant = 0;  // lambda = c T / X; must be in (0, stencil.max_courant]
};

// Throws Error unless 0 < courant <= the stencil's stable limit.
void check_courant(const Stencil& s, double courant);

template <class T>
class TwoStep {
 public:
  // Throws Error (before allocating) for an unstable Courant number, a stencil the variant does
  // not support, or a tile it does not accept (the default tile always is).
  TwoStep(const Stencil& s, const SchemeSpec& spec, const Variant& v, const Tile& tile = {});

  Field<T>& u() { return u_; }            // u^n
  Field<T>& u_prev() { return u_prev_; }  // u^{n-1}
  const Layout& layout() const { return layout_; }
  const Domain& domain() const { return spec_.domain; }
  const Stencil& stencil() const { return stencil_; }
  const DeviceStencil<T>& weights() const { return weights_; }
  const Variant& variant() const { return *variant_; }
  const Tile& tile() const { return tile_; }
  Halo<T>& halo() { return *halo_; }
  long steps_done() const { return steps_; }

  void step();
  // The kernel alone: update the interior and swap, without filling ghosts (for measurement).
  void update_interior();
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
  std::unique_ptr<Halo<T>> halo_;
  long steps_ = 0;
};

}  // namespace wavefd
