#include "bench/variant_timing.hpp"

#include "wavefd/two_step.hpp"

namespace wavefd {
namespace {

template <class T>
VariantTiming time_in(const Stencil& s, const Variant& v, const Index3& n, int steps, int warmup, int reps) {
  SchemeSpec spec;
  spec.domain = Domain::single(n);
  spec.courant = 0.9 * s.max_courant;
  TwoStep<T> engine(s, spec, v);
  Kokkos::deep_copy(engine.u().data, T(0.5));
  Kokkos::deep_copy(engine.u_prev().data, T(0.25));
  auto per_step = [steps](Stats st) {
    st.mean /= steps, st.sd /= steps, st.min /= steps, st.max /= steps;
    return st;
  };
  VariantTiming t;
  t.kernel = per_step(time_repeated([&] { for (int i = 0; i < steps; ++i) engine.update_interior(); }, warmup, reps));
  t.step = per_step(time_repeated([&] { engine.advance(steps); }, warmup, reps));
  return t;
}

}  // namespace

VariantTiming time_variant(const Stencil& s, const Variant& v, Precision p, const Index3& n, int steps,
                           int warmup, int reps) {
  return p == Precision::f32 ? time_in<float>(s, v, n, steps, warmup, reps)
                             : time_in<double>(s, v, n, steps, warmup, reps);
}

}  // namespace wavefd
