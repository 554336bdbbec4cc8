#include "bench/variant_timing.hpp"

#include <algorithm>
#include <sstream>

#include "wavefd/two_step.hpp"

namespace wavefd {
namespace {

template <class T>
VariantTiming time_in(const Stencil& s, const Variant& v, const Tile& tile, const Index3& n, int steps, int warmup,
                      int reps, const ParallelSpec& par) {
  SchemeSpec spec;
  spec.domain = Domain::single(n);
  spec.courant = 0.9 * s.max_courant;
  spec.parallel = par;
  TwoStep<T> engine(s, spec, v, tile);
  Kokkos::deep_copy(engine.u().data, T(0.5));
  Kokkos::deep_copy(engine.u_prev().data, T(0.25));
  auto per_step = [steps](Stats st) {
    st.mean /= steps, st.sd /= steps, st.min /= steps, st.max /= steps;
    return st;
  };
  VariantTiming t;
  t.ghosts_by_kernel = engine.ghosts_by_kernel();
  t.kernel = per_step(time_repeated([&] { for (int i = 0; i < steps; ++i) engine.update_interior(); }, warmup, reps));
  engine.halo().reset_times();
  t.step = per_step(time_repeated([&] { engine.advance(steps); }, warmup, reps));
  const double n_steps = double(steps) * (warmup + reps);
  t.phases = engine.halo().times();
  t.phases.pack /= n_steps, t.phases.wait /= n_steps, t.phases.unpack /= n_steps;
  const TwoStepArgs<T> a = engine.args();
  t.halo = per_step(time_repeated([&] {
    for (int i = 0; i < steps; ++i) engine.halo().start(engine.u()), engine.halo().finish(engine.u());
  }, warmup, reps));
  t.core = per_step(time_repeated([&] {
    for (int i = 0; i < steps; ++i)
      if (!engine.core().empty()) v.apply(a, engine.core());
  }, warmup, reps));
  t.shell = per_step(time_repeated([&] {
    for (int i = 0; i < steps; ++i)
      for (const Box& b : engine.shell()) v.apply(a, b);
  }, warmup, reps));
  return t;
}

}  // namespace

EigenmodeResult verify_before_timing(const Stencil& s, const Variant& v, const Tile& tile, Precision p,
                                     const Index3& timed) {
  // Every verification grid (small and padded, unpadded, rigid, and one spanning several GPU tiles
  // and z chunks), so that the kernel paths the timed run takes are among those checked; the
  // result is the worst grid's, relative to its tolerance.
  EigenmodeResult worst;
  bool first = true;
  std::vector<EigenmodeSpec> specs = verification_specs();
  specs.push_back(EigenmodeSpec{.n = timed});
  for (EigenmodeSpec check : specs) {
    for (int d = 0; d < 3; ++d) check.n[d] = std::max<index_t>(check.n[d], s.radius);
    check.tile = tile;
    const EigenmodeResult r = verify_eigenmode(s, v, p, check);
    if (first || !r.passed() || (worst.passed() && r.max_error * worst.tolerance > worst.max_error * r.tolerance))
      worst = r;
    first = false;
  }
  return worst;
}

VariantTiming time_variant(const Stencil& s, const Variant& v, const Tile& tile, Precision p, const Index3& n,
                           int steps, int warmup, int reps, const ParallelSpec& par) {
  return p == Precision::f32 ? time_in<float>(s, v, tile, n, steps, warmup, reps, par)
                             : time_in<double>(s, v, tile, n, steps, warmup, reps, par);
}

TileSelection::TileSelection(const std::string& text, const std::string& what) : what_(what), all_(text == "all") {
  if (all_) return;
  // getline yields no empty last item, so "" and "32x4x4," are refused here, as the whole value.
  if (text.empty() || text.back() == ',') (void)parse_tile(text, what);  // throws
  std::stringstream items(text);
  for (std::string item; std::getline(items, item, ',');) list_.push_back(parse_tile(item, what));
}

std::vector<Tile> TileSelection::for_variant(const Variant& v, const Stencil& s, Precision p) const {
  if (all_) return searched_tiles(v, s, p);
  if (v.tile_candidates(s, p).empty()) return {Tile{}};
  for (const Tile& t : list_) v.check_tile(t, what_);
  return list_;
}

}  // namespace wavefd
