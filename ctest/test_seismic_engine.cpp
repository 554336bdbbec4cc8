// The seismic engine (Kokkos) against the independent CPU reference (plain loops, double), and
// its three decompositions of the work against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "wavefd/seismic_model.hpp"
#include "wavefd/seismic_step.hpp"
#include "wavefd/time_step.hpp"

namespace {

using namespace wavefd;

// A small model with everything switched on: layered speeds, an off-grid source and off-grid
// receivers (sinc), a PML of 5 cells on a grid whose axes differ.
SeismicModel small_model(Absorbing absorbing, OuterBoundary outer, int M = 4) {
  SeismicModel m;
  m.n = {26, 22, 24};
  m.h = 10;
  m.stencil = make_star(M);
  m.velocity = make_layered_velocity({{0, 1500}, {90, 2500}, {160, 3200}});
  m.dt = seismic_time_step(m.stencil, m.h, 3200, 0.8).dt;
  m.steps = 70;
  m.outer = outer;
  m.absorbing = absorbing;
  m.width = absorbing == Absorbing::none ? 0 : 5;
  m.peak = m.width > 0 ? pml_peak(m.dt, 3200, m.width, m.h) : 0;
  m.profile = PmlProfile::symmetric;
  m.sources.push_back({{11.3, 9.6, 8.2}, Spreading::sinc, make_ricker(40, 0.03), 1e6});
  m.sources.push_back({{6, 15, 17}, Spreading::trilinear, make_ricker(30, 0.04), -5e5});
  m.receivers.positions = {{12.5, 10.25, 3.0}, {20, 4, 20}, {2.5, 18.7, 12.1}};
  m.receivers.spreading = Spreading::sinc;
  m.receivers.every = 3;
  return m;
}

struct EngineResult {
  std::vector<double> u;
  std::vector<std::vector<double>> traces;
  bool branch_by_inner = false;  // unified work's box or three-domain work's core by the inner variant's PML branch
  bool pairs = false;
  index_t vp_table = 0;  // SeismicStep::coefficient_table_size()
};

template <class T>
EngineResult run_engine(const SeismicModel& m, SeismicWork work, const Variant* inner, StepPairs pairs = StepPairs::off,
                        Tile tile = {}, const Variant* layer = nullptr, SecondField second = SecondField::previous) {
  SeismicRun run;
  run.second_field = second;
  run.work = work;
  run.inner = inner;
  run.layer = layer;
  run.pairs = pairs;
  run.tile = tile;
  const Subdomain sub = seismic_subdomain(m, run.parallel);
  SeismicStep<T> engine(m, run, m.velocity->fill(sub.box(), m.h));
  engine.advance(m.steps);
  EngineResult r;
  r.u = interior_values(engine.u());
  for (double& x : r.u) x /= engine.scale();  // 16-bit fields hold the wavefield scaled
  r.traces = engine.partial_traces();
  r.branch_by_inner = engine.branch_by_inner();
  r.pairs = engine.pairs();
  r.vp_table = engine.coefficient_table_size();
  return r;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// max |a - b| / max |b|
double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d / max_abs(b);
}

// The tolerance of docs/seismic.md: rounding of the precision, accumulated over the steps.
template <class T>
double tolerance(long steps) {
  return 10.0 * double(steps) * double(std::numeric_limits<T>::epsilon());
}

template <class T>
void expect_matches_reference(const SeismicModel& m, SeismicWork work, const Variant* inner) {
  const SeismicResult ref = seismic_reference(m);
  const EngineResult got = run_engine<T>(m, work, inner);
  ASSERT_GT(max_abs(ref.u), 0) << "the reference field is zero: nothing would be tested";
  const double tol = tolerance<T>(m.steps);
  const double field = relative_difference(got.u, ref.u);
  EXPECT_LT(field, tol) << to_string(work) << (inner ? " " + inner->name() : "");
  ASSERT_EQ(got.traces.size(), ref.traces.size());
  double worst_trace = 0;
  for (std::size_t r = 0; r < ref.traces.size(); ++r) {
    ASSERT_GT(max_abs(ref.traces[r]), 0) << "receiver " << r << " recorded nothing";
    const double off = relative_difference(got.traces[r], ref.traces[r]);
    EXPECT_LT(off, tol) << "receiver " << r;
    worst_trace = std::max(worst_trace, off);
  }
  // The figures docs/seismic.md states (bench/results/epyc-2core/seismic-minimod-checks/).
  std::printf("  measured: %s, %s, %s: field %.2g, traces %.2g of the reference's peak (limit %.2g)\n",
              sizeof(T) == 4 ? "float" : "double", std::string(to_string(work)).c_str(),
              inner ? inner->name().c_str() : "layer kernel", field, worst_trace, tol);
}

// The inner kernels of seven-domain work in this build: the layer kernel's own path (nullptr) and
// every variant with a variable-coefficient form (on GPU builds the native kernels too).
std::vector<const Variant*> inner_kernels(const Stencil& s, Precision p = Precision::f32) {
  std::vector<const Variant*> all{nullptr};
  for (const auto& v : variants())
    if (v->takes_coefficient() && v->supports(s, p)) all.push_back(v.get());
  return all;
}
std::string name_of(const Variant* inner) { return inner ? inner->name() : "layer kernel"; }

TEST(SeismicEngine, UnifiedMatchesTheReference) {
  for (Absorbing a : {Absorbing::pml, Absorbing::sponge, Absorbing::none})
    for (OuterBoundary o : {OuterBoundary::zero, OuterBoundary::rigid}) {
      SCOPED_TRACE(std::string(to_string(a)) + ", outer " + std::string(to_string(o)));
      const SeismicModel m = small_model(a, o);
      expect_matches_reference<double>(m, SeismicWork::unified, nullptr);
      expect_matches_reference<float>(m, SeismicWork::unified, nullptr);
    }
}

// Unified work by the inner variants (those with a PML branch take the whole box in one launch).
TEST(SeismicEngine, UnifiedByEachInnerKernelMatchesTheReference) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  m.n[0] = 28;  // rows of whole 16-byte packs, which the native PML branch needs
  for (const Variant* inner : inner_kernels(m.stencil)) {
    SCOPED_TRACE(name_of(inner));
    expect_matches_reference<double>(m, SeismicWork::unified, inner);
    expect_matches_reference<float>(m, SeismicWork::unified, inner);
  }
}

TEST(SeismicEngine, SevenDomainMatchesTheReference) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  for (const Variant* inner : inner_kernels(m.stencil)) {
    SCOPED_TRACE(name_of(inner));
    expect_matches_reference<double>(m, SeismicWork::seven_domain, inner);
    expect_matches_reference<float>(m, SeismicWork::seven_domain, inner);
  }
}

// Three-domain work: the core by the inner variant's PML branch where it has one (else the layer
// kernel), the x slabs by the layer kernel; 28 points across x: rows of whole 16-byte packs.
TEST(SeismicEngine, ThreeDomainMatchesTheReference) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  m.n[0] = 28;
  for (const Variant* inner : inner_kernels(m.stencil)) {
    SCOPED_TRACE(name_of(inner));
    expect_matches_reference<double>(m, SeismicWork::three_domain, inner);
    expect_matches_reference<float>(m, SeismicWork::three_domain, inner);
  }
  m.absorbing = Absorbing::sponge;  // no PML branch: the core by the layer kernel
  expect_matches_reference<double>(m, SeismicWork::three_domain, inner_kernels(m.stencil).back());
}

TEST(SeismicEngine, OtherRadiiMatchTheReference) {
  for (int M : {1, 2, 8}) {
    SCOPED_TRACE("star M=" + std::to_string(M));
    SeismicModel m = small_model(Absorbing::pml, OuterBoundary::rigid, M);
    if (M == 8) m.n = {40, 38, 36}, m.width = 9, m.sources[0].position = {19.5, 18.2, 17.1};
    for (const Variant* inner : inner_kernels(m.stencil)) {
      SCOPED_TRACE(name_of(inner));
      expect_matches_reference<double>(m, SeismicWork::seven_domain, inner);
    }
  }
}

// The layer kernel's unified work, seven-domain work by `inner`, unified work by `inner` (one
// launch of its PML branch where it has one, else the layer kernel's again) and three-domain work
// by `inner`.
template <class T>
void expect_same_bits(const SeismicModel& m, const Variant* inner) {
  const EngineResult a = run_engine<T>(m, SeismicWork::unified, nullptr);
  const EngineResult b = run_engine<T>(m, SeismicWork::seven_domain, inner);
  const EngineResult c = run_engine<T>(m, SeismicWork::unified, inner);
  const EngineResult d = run_engine<T>(m, SeismicWork::three_domain, inner);
  ASSERT_GT(max_abs(a.u), 0);
  EXPECT_EQ(a.u, b.u) << name_of(inner);
  EXPECT_EQ(a.traces, b.traces);
  EXPECT_EQ(a.u, c.u) << name_of(inner) << (c.branch_by_inner ? " (its PML branch)" : "");
  EXPECT_EQ(a.traces, c.traces);
  EXPECT_EQ(a.u, d.u) << name_of(inner) << " three-domain" << (d.branch_by_inner ? " (its PML branch)" : "");
  EXPECT_EQ(a.traces, d.traces);
  for (const auto& [r, work] : {std::pair{&c, "unified work"}, std::pair{&d, "three-domain work's core"}})
    if (r->branch_by_inner)
      std::printf("  %s by %s's PML branch, %s, %lld points across x: same bits\n", work, name_of(inner).c_str(),
                  sizeof(T) == 4 ? "float" : "double", (long long)m.n[0]);
}

TEST(SeismicEngine, UnifiedAndSevenDomainGiveTheSameBits) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  for (const index_t nx : {26, 28})  // 28: rows of whole 16-byte packs in float too
    for (const Variant* inner : inner_kernels(m.stencil)) {
      m.n[0] = nx;
      expect_same_bits<float>(m, inner);
      expect_same_bits<double>(m, inner);
    }
}

// The layer's boxes by a variant's PML branch (scheme.layer_variant) give the layer kernel's bits,
// with the layer kernel's inner path and with the variant's own inner box; a variant without a
// PML branch for this layer (every variant of a host build) is refused by the key's name.
TEST(SeismicEngine, LayerVariantsGiveTheLayerKernelsBits) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  for (const index_t nx : {26, 28})
    for (const Variant* v : inner_kernels(m.stencil)) {
      if (v == nullptr) continue;
      m.n[0] = nx;
      SCOPED_TRACE(name_of(v) + ", " + std::to_string(nx) + " points across x");
      for (const Variant* inner : {static_cast<const Variant*>(nullptr), v}) {
        const EngineResult ref = run_engine<float>(m, SeismicWork::seven_domain, inner);
        const EngineResult ref_d = run_engine<double>(m, SeismicWork::seven_domain, inner);
        EngineResult got, got_d;
        try {
          got = run_engine<float>(m, SeismicWork::seven_domain, inner, StepPairs::off, {}, v);
          got_d = run_engine<double>(m, SeismicWork::seven_domain, inner, StepPairs::off, {}, v);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("scheme.layer_variant = '" + v->name() + "'"), std::string::npos) << e.what();
          EXPECT_NE(v->name(), "cuda-star-stream") << "its PML branch takes every box";
          break;
        }
        ASSERT_GT(max_abs(ref.u), 0);
        EXPECT_EQ(ref.u, got.u);
        EXPECT_EQ(ref.traces, got.traces);
        EXPECT_EQ(ref_d.u, got_d.u);
        EXPECT_EQ(ref_d.traces, got_d.traces);
        // 16-bit fields (phi and the coefficient in float) the same way, where the variant's PML
        // branch takes the layer's boxes in them (cuda-star-tma's wants rows on 16 bytes)
        const auto sixteen_bits = [&]<class S>() {
          if (!v->supports(m.stencil, precision_of<S>)) return;
          const EngineResult ref_s = run_engine<S>(m, SeismicWork::seven_domain, inner);
          EngineResult got_s;
          try {
            got_s = run_engine<S>(m, SeismicWork::seven_domain, inner, StepPairs::off, {}, v);
          } catch (const Error& e) {
            EXPECT_NE(std::string(e.what()).find("scheme.layer_variant = '" + v->name() + "'"), std::string::npos) << e.what();
            EXPECT_NE(v->name(), "cuda-star-stream") << "its PML branch takes every box";
            return;
          }
          EXPECT_EQ(ref_s.u, got_s.u) << to_string(precision_of<S>);
          EXPECT_EQ(ref_s.traces, got_s.traces) << to_string(precision_of<S>);
          std::printf("  %s: the layer by %s's PML branch gives the layer kernel's bits\n",
                      std::string(to_string(precision_of<S>)).c_str(), name_of(v).c_str());
        };
        sixteen_bits.template operator()<Half>();
        sixteen_bits.template operator()<BFloat16>();
        std::printf("  the layer by %s's PML branch, inner box by %s: the layer kernel's bits\n", name_of(v).c_str(),
                    name_of(inner).c_str());
      }
    }
}

// A speed of its own at every point: 1500 .. 3189.5 m/s on the 32 x 22 x 24 grid below.
class EveryPointItsSpeed final : public VelocityModel {
 public:
  std::string describe() const override { return "a speed of its own at every point"; }
  std::vector<double> fill(const Box& box, double) const override {
    std::vector<double> v;
    for (index_t k = box.lo[2]; k < box.hi[2]; ++k)
      for (index_t j = box.lo[1]; j < box.hi[1]; ++j)
        for (index_t i = box.lo[0]; i < box.hi[0]; ++i) v.push_back(1500 + 0.1 * double(i + 32 * (j + 22 * k)));
    return v;
  }
};

// vp as a byte index into its values (TwoStepArgs::coefficient_index) for the inner variants that
// read it: the layered model's three speeds (and 0 in the ghosts) make a table of 4, whose values
// give the layer kernel's bits in float and half; a speed at every point is more than 256: no
// index, and the same bits again.
TEST(SeismicEngine, ByteIndexOfVpWhereTheModelHasFewSpeeds) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  m.n[0] = 32;  // rows of whole 16-byte packs in every format
  int indexed = 0;
  for (const Variant* inner : inner_kernels(m.stencil)) {
    if (inner == nullptr || !inner->takes_coefficient_index()) continue;
    SCOPED_TRACE(inner->name());
    for (const bool every_point : {false, true}) {
      if (every_point) m.velocity = std::make_shared<EveryPointItsSpeed>();
      const EngineResult ref = run_engine<float>(m, SeismicWork::unified, nullptr);
      const EngineResult got = run_engine<float>(m, SeismicWork::seven_domain, inner);
      EXPECT_EQ(got.vp_table, every_point ? 0 : 4);
      EXPECT_EQ(ref.vp_table, 0) << "the layer kernel reads vp's values";
      ASSERT_GT(max_abs(ref.u), 0);
      EXPECT_EQ(ref.u, got.u);
      EXPECT_EQ(ref.traces, got.traces);
      const EngineResult ref_h = run_engine<Half>(m, SeismicWork::unified, nullptr);
      const EngineResult got_h = run_engine<Half>(m, SeismicWork::seven_domain, inner);
      EXPECT_EQ(got_h.vp_table, every_point ? 0 : 4);
      EXPECT_EQ(ref_h.u, got_h.u);
      EXPECT_EQ(ref_h.traces, got_h.traces);
    }
    m.velocity = small_model(Absorbing::pml, OuterBoundary::zero).velocity;
    ++indexed;
  }
  EXPECT_GT(indexed, 0) << "no inner variant of this build reads vp's byte index";
}

// Pairs of steps (scheme.pairs) by every inner variant, fused where it fuses them, against single
// steps: the same bits, with the PML, the sponge and no layer (then the pair box is the interior
// less R on every side, and those rims go to the layer kernel), and an odd number of steps (the
// last one single). Against the reference as well.
TEST(SeismicEngine, PairsGiveTheBitsOfSingleSteps) {
  for (Absorbing a : {Absorbing::pml, Absorbing::sponge, Absorbing::none}) {
    SeismicModel m = small_model(a, a == Absorbing::none ? OuterBoundary::rigid : OuterBoundary::zero);
    m.n[0] = 28;
    for (const long steps : {70L, 71L})
      for (const Variant* inner : inner_kernels(m.stencil)) {
        if (inner == nullptr) continue;  // the layer kernel's own inner path takes no pairs
        m.steps = steps;
        SCOPED_TRACE(name_of(inner) + ", " + std::string(to_string(a)) + ", " + std::to_string(steps) + " steps");
        const EngineResult single = run_engine<float>(m, SeismicWork::seven_domain, inner);
        const EngineResult paired = run_engine<float>(m, SeismicWork::seven_domain, inner, StepPairs::on);
        ASSERT_FALSE(single.pairs);
        ASSERT_TRUE(paired.pairs);
        ASSERT_GT(max_abs(single.u), 0);
        EXPECT_EQ(single.u, paired.u);
        EXPECT_EQ(single.traces, paired.traces);
        const EngineResult single_d = run_engine<double>(m, SeismicWork::seven_domain, inner);
        const EngineResult paired_d = run_engine<double>(m, SeismicWork::seven_domain, inner, StepPairs::on);
        EXPECT_EQ(single_d.u, paired_d.u);
        EXPECT_EQ(single_d.traces, paired_d.traces);
        if (a == Absorbing::pml && steps == 71) {
          const SeismicResult ref = seismic_reference(m);
          EXPECT_LT(relative_difference(paired.u, ref.u), tolerance<float>(m.steps));
          EXPECT_LT(relative_difference(paired_d.u, ref.u), tolerance<double>(m.steps));
        }
        const bool fused = inner->fuses_pairs(m.stencil, Precision::f32);
        if (fused && steps == 71)  // every tile height of the fused kernel, in chunks of 8 planes (two per block column)
          for (const Tile& candidate : inner->tile_candidates(m.stencil, Precision::f32)) {
            const Tile tile{candidate.x, candidate.y, 8};
            if (candidate.z != 64 || !inner->accepts_tile(tile)) continue;
            SCOPED_TRACE("tile " + std::to_string(tile.x) + "x" + std::to_string(tile.y) + "x8");
            EXPECT_EQ(single.u, run_engine<float>(m, SeismicWork::seven_domain, inner, StepPairs::on, tile).u);
            EXPECT_EQ(single_d.u, run_engine<double>(m, SeismicWork::seven_domain, inner, StepPairs::on, tile).u);
          }
        const EngineResult automatic = run_engine<float>(m, SeismicWork::seven_domain, inner, StepPairs::automatic);
        EXPECT_EQ(automatic.pairs, fused) << "scheme.pairs = auto takes pairs exactly where the variant fuses them";
        if (fused) std::printf("  %s fuses pairs: same bits as single steps (%s)\n", name_of(inner).c_str(), std::string(to_string(a)).c_str());
      }
  }
}

// Pairs are seven-domain work's: unified work stays single.
TEST(SeismicEngine, PairsOnlyInSevenDomainWork) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  const Variant* inner = inner_kernels(m.stencil).back();
  EXPECT_FALSE(run_engine<float>(m, SeismicWork::unified, inner, StepPairs::on).pairs);
  EXPECT_FALSE(run_engine<float>(m, SeismicWork::seven_domain, nullptr, StepPairs::on).pairs);
}

// phi covers the layer's points and, in the x slabs, the columns that round their rows out to
// whole 16-byte packs; the memory report counts both, the layer's share only the layer's points.
TEST(SeismicEngine, PhiRowsOfTheXSlabsAreWholePacks) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);  // 26 x 22 x 24, width 5
  const Subdomain sub = seismic_subdomain(m, SeismicRun{}.parallel);
  const std::vector<double> speeds = m.velocity->fill(sub.box(), m.h);
  // z slabs 2 x 26 x 22 x 5, y slabs 2 x 26 x 5 x 14, x slabs 2 x 5 x 12 x 14 = 11040 points; the
  // x slabs' rows [0, 5) and [21, 26) widen to [0, 8) and [20, 28) in float, [0, 6) and [20, 26) in double.
  SeismicStep<float> f(m, SeismicRun{}, speeds);
  EXPECT_EQ(f.layer_points(), 26 * 22 * 24 - 16 * 12 * 14);
  EXPECT_EQ(f.phi_points(), 2 * 26 * 22 * 5 + 2 * 26 * 5 * 14 + 2 * 8 * 12 * 14);
  SeismicStep<double> d(m, SeismicRun{}, speeds);
  EXPECT_EQ(d.layer_points(), 26 * 22 * 24 - 16 * 12 * 14);
  EXPECT_EQ(d.phi_points(), 2 * 26 * 22 * 5 + 2 * 26 * 5 * 14 + 2 * 6 * 12 * 14);
}

// The engine in T with `inner` for the inner box refuses it with `message`.
template <class T>
void expect_inner_refused(const std::string& inner, const std::string& message) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  SeismicRun run;
  run.inner = &select_variant(inner, m.stencil, precision_of<T>);
  const Subdomain sub = seismic_subdomain(m, run.parallel);
  expect_error([&] { SeismicStep<T>(m, run, std::vector<double>(std::size_t(sub.local[0] * sub.local[1] * sub.local[2]), 2000.0)); },
               message);
}

TEST(SeismicEngine, RefusesAVariantWithoutCoefficient) {
  expect_inner_refused<float>("mdrange-general", "cannot update the seismic inner box");
}

// Fields stored in 16 bits, computed on in float (issue 40): unified work by the layer kernel, and
// seven- and three-domain work with every inner kernel that stores them (the coefficient in float)
// give the same bits; against the double reference the traces' relative L2 misfit and the field at
// the end are within what the format's rounding gives over 70 steps (measured: docs/seismic.md;
// the limits are about twice the largest of the four models).
double relative_l2(const std::vector<std::vector<double>>& got, const std::vector<std::vector<double>>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t r = 0; r < ref.size(); ++r)
    for (std::size_t j = 0; j < ref[r].size(); ++j)
      diff += (got[r][j] - ref[r][j]) * (got[r][j] - ref[r][j]), norm += ref[r][j] * ref[r][j];
  return std::sqrt(diff / norm);
}

template <class S>
void expect_sixteen_bits_follow(const SeismicModel& m, const SeismicResult& ref, double trace_limit, double field_limit) {
  const EngineResult a = run_engine<S>(m, SeismicWork::unified, nullptr);
  for (const Variant* inner : inner_kernels(m.stencil, precision_of<S>))
    for (SeismicWork work : {SeismicWork::seven_domain, SeismicWork::three_domain, SeismicWork::unified}) {
      const EngineResult b = run_engine<S>(m, work, inner);
      EXPECT_EQ(a.u, b.u) << name_of(inner) << ", " << to_string(work);
      EXPECT_EQ(a.traces, b.traces) << name_of(inner) << ", " << to_string(work);
    }
  ASSERT_EQ(a.traces.size(), ref.traces.size());
  const double traces = relative_l2(a.traces, ref.traces), field = relative_difference(a.u, ref.u);
  EXPECT_LT(traces, trace_limit);
  EXPECT_LT(field, field_limit);
  std::printf("  measured: %s, %s, outer %s: traces' relative L2 misfit %.2g (limit %.2g), field %.2g of its peak (limit %.2g)\n",
              std::string(to_string(precision_of<S>)).c_str(), std::string(to_string(m.absorbing)).c_str(),
              std::string(to_string(m.outer)).c_str(), traces, trace_limit, field, field_limit);
}

TEST(SeismicEngine, SixteenBitFieldsFollowTheReference) {
  for (Absorbing a : {Absorbing::pml, Absorbing::sponge})
    for (OuterBoundary o : {OuterBoundary::zero, OuterBoundary::rigid}) {
      SCOPED_TRACE(std::string(to_string(a)) + ", outer " + std::string(to_string(o)));
      const SeismicModel m = small_model(a, o);
      const SeismicResult ref = seismic_reference(m);
      expect_sixteen_bits_follow<Half>(m, ref, 0.01, 0.012);
      expect_sixteen_bits_follow<BFloat16>(m, ref, 0.06, 0.09);
    }
}

// Every tile height an inner variant accepts for the seismic inner box in 16 bits gives the layer
// kernel's bits in both forms, in chunks of 8 planes, on a grid whose inner box spans two of
// cuda-star-tma's tiles along x (128 points wide; the box 136 columns).
TEST(SeismicEngine, SixteenBitInnerTilesGiveTheLayerKernelsBits) {
  SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  m.n[0] = 150;
  m.steps = 40;
  const auto compare = [&]<class S>() {
    for (SecondField second : {SecondField::previous, SecondField::velocity}) {
      const EngineResult a = run_engine<S>(m, SeismicWork::unified, nullptr, StepPairs::off, {}, nullptr, second);
      ASSERT_GT(max_abs(a.u), 0);
      for (const Variant* inner : inner_kernels(m.stencil, precision_of<S>)) {
        if (inner == nullptr || (second == SecondField::velocity && !inner->stores_velocity(precision_of<S>))) continue;
        for (const Tile tile : {Tile{32, 16, 8}, Tile{32, 8, 8}}) {
          if (!inner->accepts_tile(tile)) continue;
          SCOPED_TRACE(name_of(inner) + ", tile " + to_string(tile) + ", " + std::string(to_string(precision_of<S>)) +
                       (second == SecondField::velocity ? ", velocity" : ", u^{n-1}"));
          const EngineResult b = run_engine<S>(m, SeismicWork::seven_domain, inner, StepPairs::off, tile, nullptr, second);
          EXPECT_EQ(a.u, b.u);
          EXPECT_EQ(a.traces, b.traces);
        }
      }
    }
  };
  compare.template operator()<Half>();
  compare.template operator()<BFloat16>();
}

// The scale goes in at the sources and out at the receivers: sources 2^k times stronger give
// traces exactly 2^k times larger, down to amplitudes half could not hold unscaled (2^-60 of the
// model's: every value a source adds would round to 0).
TEST(SeismicEngine, SixteenBitScaleFollowsTheSources) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  const EngineResult base = run_engine<Half>(m, SeismicWork::unified, nullptr);
  ASSERT_GT(max_abs(base.traces[0]), 0);
  for (int k : {-60, 30}) {
    SeismicModel scaled = m;
    for (SeismicSource& s : scaled.sources) s.amplitude = std::ldexp(s.amplitude, k);
    const EngineResult got = run_engine<Half>(scaled, SeismicWork::unified, nullptr);
    for (std::size_t r = 0; r < base.traces.size(); ++r)
      for (std::size_t j = 0; j < base.traces[r].size(); ++j)
        ASSERT_EQ(got.traces[r][j], std::ldexp(base.traces[r][j], k)) << "2^" << k << ", receiver " << r << ", sample " << j;
  }
}

// The velocity form (scheme.second_field = velocity): unified, seven- and three-domain work by the
// layer kernel and by every inner variant that stores the velocity give the same bits; in double it follows the reference as closely as u^{n-1} does;
// in half and bfloat16 the traces and the field come closer to the reference than with u^{n-1}, whose
// rounding of u^{n+1} moves the velocity it implies by about 1 / (omega dt) times the velocity's own
// rounding (docs/seismic.md).
std::array<double, 2> misfits(const EngineResult& r, const SeismicResult& ref) {
  return {relative_l2(r.traces, ref.traces), relative_difference(r.u, ref.u)};
}

TEST(SeismicEngine, VelocityFormKeepsTheVelocitysBits) {
  constexpr SecondField velocity = SecondField::velocity;
  for (Absorbing a : {Absorbing::pml, Absorbing::sponge})
    for (OuterBoundary o : {OuterBoundary::zero, OuterBoundary::rigid}) {
      SCOPED_TRACE(std::string(to_string(a)) + ", outer " + std::string(to_string(o)));
      const SeismicModel m = small_model(a, o);
      const SeismicResult ref = seismic_reference(m);
      // Measured: the traces' misfit 2.8-7.2 x lower, the field's 1.7-2.2 x.
      const auto compare = [&]<class S>() {
        constexpr double gain[2] = {2.5, 1.5};
        const EngineResult v = run_engine<S>(m, SeismicWork::unified, nullptr, StepPairs::off, {}, nullptr, velocity);
        for (const Variant* inner : inner_kernels(m.stencil, precision_of<S>))
          for (SeismicWork work : {SeismicWork::seven_domain, SeismicWork::three_domain, SeismicWork::unified}) {
            if (inner != nullptr && !inner->stores_velocity(precision_of<S>)) continue;
            const EngineResult w = run_engine<S>(m, work, inner, StepPairs::off, {}, nullptr, velocity);
            EXPECT_EQ(v.u, w.u) << name_of(inner) << ", " << to_string(work);
            EXPECT_EQ(v.traces, w.traces) << name_of(inner) << ", " << to_string(work);
          }
        const auto with_velocity = misfits(v, ref);
        const auto with_previous = misfits(run_engine<S>(m, SeismicWork::unified, nullptr), ref);
        std::printf("  measured: %s, %s, outer %s: traces' misfit %.2g with the velocity, %.2g with u^{n-1}; field %.2g, %.2g\n",
                    std::string(to_string(precision_of<S>)).c_str(), std::string(to_string(a)).c_str(),
                    std::string(to_string(o)).c_str(), with_velocity[0], with_previous[0], with_velocity[1], with_previous[1]);
        for (int k = 0; k < 2; ++k) EXPECT_LT(with_velocity[k] * gain[k], with_previous[k]) << (k == 0 ? "traces" : "field");
      };
      compare.template operator()<Half>();
      compare.template operator()<BFloat16>();
      const auto in_double = misfits(run_engine<double>(m, SeismicWork::unified, nullptr, StepPairs::off, {}, nullptr, velocity), ref);
      EXPECT_LT(in_double[1], tolerance<double>(m.steps));
    }
}

// The velocity form is the layer kernel's and that of the variants that store it: another inner
// or layer variant, stochastic rounding and pairs are refused with it, each in one line.
TEST(SeismicEngine, VelocityFormRefusesVariantsStochasticRoundingAndPairs) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  const Subdomain sub = seismic_subdomain(m, SeismicRun{}.parallel);
  const std::vector<double> speeds = m.velocity->fill(sub.box(), m.h);
  SeismicRun run;
  run.second_field = SecondField::velocity;
  for (const Variant* other : inner_kernels(m.stencil, Precision::f16)) {
    if (other == nullptr || other->stores_velocity(Precision::f16)) continue;
    run.inner = other;
    expect_error([&] { SeismicStep<Half>(m, run, speeds); },
                 "scheme.variant = '" + other->name() + "' stores u^{n-1}; accepted with scheme.second_field = 'velocity': "
                 "auto, layer (the layer kernel) or a variant that stores the velocity");
    run.layer = other;
    run.inner = nullptr;
    expect_error([&] { SeismicStep<Half>(m, run, speeds); },
                 "scheme.layer_variant = '" + other->name() + "' stores u^{n-1}; accepted with scheme.second_field = "
                 "'velocity': auto, layer (the layer kernel) or a variant that stores the velocity");
    run.layer = nullptr;
  }
  run.rounding = Rounding::stochastic;
  expect_error([&] { SeismicStep<Half>(m, run, speeds); },
               "scheme.second_field = 'velocity' rounds to nearest; accepted with scheme.rounding = 'stochastic': previous");
  run.rounding = Rounding::nearest;
  run.pairs = StepPairs::on;
  expect_error([&] { SeismicStep<float>(m, run, speeds); },
               "scheme.pairs = 'on' steps u^{n-1}, not scheme.second_field = 'velocity'; accepted: auto or off");
  run.pairs = StepPairs::automatic;
  SeismicStep<Half> engine(m, run, speeds);
  EXPECT_EQ(engine.fields(), 4);
  expect_error([&] { static_cast<void>(engine.u_prev()); }, "u^{n-1} is not stored with scheme.second_field = 'velocity'");
}

// 16-bit fields take no pairs of steps, and stochastic rounding is the layer kernel's alone (no
// inner or layer variant).
TEST(SeismicEngine, SixteenBitFieldsRefusePairsAndStochasticInnerVariants) {
  const SeismicModel m = small_model(Absorbing::pml, OuterBoundary::zero);
  const Subdomain sub = seismic_subdomain(m, SeismicRun{}.parallel);
  SeismicRun run;
  run.inner = &select_variant("mdrange-stream", m.stencil, Precision::f16);
  run.pairs = StepPairs::on;
  expect_error([&] { SeismicStep<Half>(m, run, m.velocity->fill(sub.box(), m.h)); },
               "scheme.pairs = 'on' takes fields in float or double, not half; accepted: auto or off");
  run.pairs = StepPairs::automatic;
  run.rounding = Rounding::stochastic;
  expect_error([&] { SeismicStep<Half>(m, run, m.velocity->fill(sub.box(), m.h)); },
               "scheme.variant = 'mdrange-stream' rounds to nearest; accepted with scheme.rounding = 'stochastic': auto "
               "or layer (the layer kernel, which rounds stochastically)");
  run.layer = run.inner;
  run.inner = nullptr;
  expect_error([&] { SeismicStep<Half>(m, run, m.velocity->fill(sub.box(), m.h)); },
               "scheme.layer_variant = 'mdrange-stream' rounds to nearest; accepted with scheme.rounding = 'stochastic': "
               "auto or layer (the layer kernel, which rounds stochastically)");
}

}  // namespace
