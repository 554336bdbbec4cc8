#include "bench/variant_timing.hpp"

#include <algorithm>
#include <sstream>

#include "bench/time_in_step.hpp"
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
  Kokkos::deep_copy(engine.u().data, T(0.5f));
  Kokkos::deep_copy(engine.u_prev().data, T(0.25f));
  auto per_step = [steps](Stats st) {
    st.mean /= steps, st.sd /= steps, st.min /= steps, st.max /= steps;
    return st;
  };
  VariantTiming t;
  t.ghosts_by_kernel = engine.ghosts_by_kernel();
  t.packs_by_kernel = engine.packs_by_kernel();
  // Each part timed with the ranks in step: this rank's times, and each repetition's slowest rank.
  auto time_part = [&](auto&& f, Stats& slowest, Stats& mine, int* fastest = nullptr) {
    Stats worst;
    mine = per_step(time_in_step(f, warmup, reps, &worst, fastest));
    slowest = per_step(worst);
  };
  time_part([&] { for (int i = 0; i < steps; ++i) engine.update_interior(); }, t.slowest.kernel, t.this_rank.kernel);
  // The halo's host phases of each repetition of the full step; reported for the one the headline
  // comes from, so that the breakdown adds up to the step it explains.
  std::vector<HaloTimes> phases;
  int fastest = 0;
  time_part([&] {
    engine.halo().reset_times();
    engine.advance(steps);
    phases.push_back(engine.halo().times());
  }, t.slowest.step, t.this_rank.step, &fastest);
  t.phases = phases[std::size_t(warmup + fastest)];
  t.phases.pack /= steps, t.phases.wait /= steps, t.phases.unpack /= steps;
  {  // Where the full step's time goes: its marks over one more run of `steps` steps, ranks lined up.
    StepTimeline timeline(steps);
    (void)max_over_ranks(0.0);
    engine.record_steps(&timeline);
    engine.advance(steps);
    engine.record_steps(nullptr);
    t.timeline = timeline.mean_offsets();
    Kokkos::fence("wavefd::step timeline");
  }
  const TwoStepArgs<T> a = engine.args();
  time_part([&] {
    for (int i = 0; i < steps; ++i) engine.halo().start(engine.u()), engine.halo().finish(engine.u());
  }, t.slowest.halo, t.this_rank.halo);
  time_part([&] {
    for (int i = 0; i < steps; ++i)
      if (!engine.core().empty()) v.apply(a, engine.core());
  }, t.slowest.core, t.this_rank.core);
  time_part([&] {
    for (int i = 0; i < steps; ++i)
      for (const Box& b : engine.shell()) v.apply(a, b);
  }, t.slowest.shell, t.this_rank.shell);
  return t;
}

}  // namespace

EigenmodeResult verify_before_timing(const Stencil& s, const Variant& v, const Tile& tile, Precision p,
                                     const Index3& timed, const ParallelSpec& par) {
  // Every verification grid (small and padded, unpadded, rigid, and one spanning several GPU tiles
  // and z chunks), so that the kernel paths the timed run takes are among those checked; the
  // result is the worst grid's, relative to its tolerance.
  EigenmodeResult worst;
  bool first = true;
  std::vector<EigenmodeSpec> specs = verification_specs();
  specs.push_back(EigenmodeSpec{.n = timed, .parallel = par});
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
  return with_precision(p, [&]<class T>(std::type_identity<T>) {
    return time_in<T>(s, v, tile, n, steps, warmup, reps, par);
  });
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
