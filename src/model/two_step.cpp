#include "wavefd/two_step.hpp"

#include <cstdio>
#include <utility>

namespace wavefd {

void check_courant(const Stencil& s, double courant) {
  char limit[32], value[32];
  std::snprintf(limit, sizeof limit, "%.6g", s.max_courant);
  std::snprintf(value, sizeof value, "%.6g", courant);
  // The limit is computed to ~1e-10; allow that much so that `courant = limit` is accepted.
  if (!(courant > 0) || courant > s.max_courant * (1 + 1e-9))
    throw Error(std::string("scheme.courant = ") + value + " is outside the stable range of " +
                s.name + "; accepted: 0 < courant <= " + limit);
}

template <class T>
TwoStep<T>::TwoStep(const Stencil& s, const SchemeSpec& spec, const Variant& v, const Tile& tile)
    : stencil_(s), spec_(spec), variant_(&v), tile_(tile) {
  check_courant(s, spec.courant);
  if (!v.supports(s, sizeof(T) == 4 ? Precision::f32 : Precision::f64))
    throw Error("scheme.variant = '" + v.name() + "' does not support " + s.name);
  v.check_tile(tile, "scheme.tile");
  layout_ = make_layout(spec.domain.local, s.radius, spec.pad_rows, sizeof(T));
  weights_ = make_device_stencil<T>(s, spec.courant, layout_);
  u_ = make_field<T>("wavefd::u", layout_);
  u_prev_ = make_field<T>("wavefd::u_prev", layout_);
  halo_ = make_local_halo<T>(spec.boundary);
}

template <class T>
TwoStepArgs<T> TwoStep<T>::args() const {
  return TwoStepArgs<T>{u_.data, u_prev_.data, layout_, &stencil_, &weights_, {}, tile_};
}

template <class T>
void TwoStep<T>::step() {
  halo_->start(u_);
  halo_->finish(u_);
  variant_->apply(args(), layout_.interior());
  std::swap(u_, u_prev_);
  ++steps_;
}

template <class T>
void TwoStep<T>::update_interior() {
  variant_->apply(args(), layout_.interior());
  std::swap(u_, u_prev_);
  ++steps_;
}

template class TwoStep<float>;
template class TwoStep<double>;

}  // namespace wavefd
