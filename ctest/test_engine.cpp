// Layout, ghost fill and engine contracts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "comm/ghost_shell.hpp"
#include "kernels/host/star_rows.hpp"
#include "pseudo_random.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {
namespace {

TEST(Layout, PaddedRowsStartOnAlignedLines) {
  for (std::size_t bytes : {4u, 8u})
    for (int halo : {1, 3, 4, 8}) {
      const Layout l = make_layout({37, 11, 9}, halo, true, bytes);
      const index_t align = kRowAlignBytes / index_t(bytes);
      EXPECT_EQ(l.sy % align, 0);
      EXPECT_EQ(l.origin % align, 0) << "halo " << halo;
      EXPECT_GE(l.sy, 37 + 2 * halo);
      EXPECT_EQ(l.sz, l.sy * (11 + 2 * halo));
      EXPECT_EQ(l.at(-halo, -halo, -halo), l.origin - halo * (1 + l.sy + l.sz));
      EXPECT_GE(l.at(-halo, -halo, -halo), 0);
      EXPECT_LT(l.at(36 + halo, 10 + halo, 8 + halo), l.alloc);
    }
}

TEST(Layout, UnpaddedRowsAreTight) {
  const Layout l = make_layout({10, 7, 5}, 2, false, 4);
  EXPECT_EQ(l.sy, 14);
  EXPECT_EQ(l.sz, 14 * 11);
  EXPECT_EQ(l.alloc, 14 * 11 * 9);
  EXPECT_EQ(l.at(-2, -2, -2), 0);
}

TEST(Layout, RejectsBadExtents) {
  EXPECT_THROW(make_layout({0, 8, 8}, 1, true, 4), Error);
  EXPECT_THROW(make_layout({8, -1, 8}, 1, true, 4), Error);
  EXPECT_THROW(make_layout({8, 8, 3}, 4, true, 4), Error);
  EXPECT_NO_THROW(make_layout({4, 4, 4}, 4, true, 4));
}

// Fill the interior with a code of the global index, fill ghosts, compare with the rule.
void check_ghosts(Boundary b, const Index3& n = {6, 5, 7}, int h = 3) {
  const Layout l = make_layout(n, h, true, 8);
  Field<double> f = make_field<double>("f", l);
  Kokkos::deep_copy(f.data, std::numeric_limits<double>::quiet_NaN());
  auto host = Kokkos::create_mirror_view(f.data);
  Kokkos::deep_copy(host, f.data);
  auto code = [](index_t i, index_t j, index_t k) { return 1.0 + i + 10.0 * j + 100.0 * k; };
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) host(l.at(i, j, k)) = code(i, j, k);
  Kokkos::deep_copy(f.data, host);
  auto halo = make_local_halo<double>(b);
  halo->start(f);
  halo->finish(f);
  Kokkos::deep_copy(host, f.data);
  // Expected value at any (possibly ghost) index: map each coordinate back into the interior.
  auto expect = [&](index_t i, index_t j, index_t k) {
    index_t c[3] = {i, j, k};
    double sign = 1;
    for (int d = 0; d < 3; ++d) {
      const index_t N = n[d];
      if (b == Boundary::periodic) {
        c[d] = (c[d] % N + N) % N;
      } else if (c[d] < 0 || c[d] >= N) {
        if (c[d] == -1 || c[d] == N) return 0.0;  // wall node
        c[d] = c[d] < 0 ? -2 - c[d] : 2 * N - c[d];
        sign = -sign;
      }
    }
    return sign * code(c[0], c[1], c[2]);
  };
  for (index_t k = -h; k < n[2] + h; ++k)
    for (index_t j = -h; j < n[1] + h; ++j)
      for (index_t i = -h; i < n[0] + h; ++i)
        ASSERT_EQ(host(l.at(i, j, k)), expect(i, j, k)) << to_string(b) << " at " << i << "," << j << "," << k;
}

TEST(LocalHalo, PeriodicFillsFacesEdgesAndCorners) { check_ghosts(Boundary::periodic); }
TEST(LocalHalo, RigidIsOddReflectionAboutWallNodes) { check_ghosts(Boundary::rigid); }
TEST(LocalHalo, HaloAsWideAsTheGrid) {
  check_ghosts(Boundary::periodic, {4, 5, 4}, 4);
  check_ghosts(Boundary::rigid, {4, 5, 4}, 4);
}

// The fill as the build runs it (rows on host backends) against the point-at-a-time shell, for
// every rule on every face (keep ghosts hold message-like values that must be copied, not
// replaced), and in the two parts a step splits it into for each set of late axes (z; y and z;
// all; none): the same bits everywhere.
TEST(GhostFill, BuildsFillEqualsThePointShellForEveryFaceRule) {
  const Index3 n{6, 5, 7};
  const int h = 3;
  const Layout l = make_layout(n, h, true, 8);
  const comm::GhostFill rules[3] = {comm::GhostFill::keep, comm::GhostFill::wrap, comm::GhostFill::reflect};
  auto start = Kokkos::create_mirror_view(Kokkos::View<double*>("start", l.alloc));
  for (index_t i = 0; i < l.alloc; ++i) start(i) = std::numeric_limits<double>::quiet_NaN();
  for (index_t k = -h; k < n[2] + h; ++k)
    for (index_t j = -h; j < n[1] + h; ++j)
      for (index_t i = -h; i < n[0] + h; ++i) start(l.at(i, j, k)) = 1.0 + i + 16.0 * j + 256.0 * k;
  for (int code = 0; code < 729; ++code) {
    comm::FaceFills fills;
    for (int face = 0, c = code; face < 6; ++face, c /= 3) fills[face / 2][face % 2] = rules[c % 3];
    Field<double> by_points = make_field<double>("points", l), by_build = make_field<double>("build", l);
    for (auto* f : {&by_points, &by_build}) Kokkos::deep_copy(f->data, start);
    const comm::GhostShell<double> shell(by_points.data, l, fills);
    Kokkos::parallel_for(Kokkos::RangePolicy<Kokkos::IndexType<index_t>>(0, shell.points()), shell);
    comm::fill_ghosts(Kokkos::DefaultExecutionSpace{}, by_build, fills);
    auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, by_points.data);
    auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, by_build.data);
    for (index_t k = -h; k < n[2] + h; ++k)
      for (index_t j = -h; j < n[1] + h; ++j)
        for (index_t i = -h; i < n[0] + h; ++i)
          ASSERT_EQ(a(l.at(i, j, k)), b(l.at(i, j, k))) << "faces code " << code << " at " << i << "," << j << "," << k;
    for (int late_axes = 0; late_axes <= 3; ++late_axes) {
      Field<double> by_parts = make_field<double>("parts", l);
      Kokkos::deep_copy(by_parts.data, start);
      comm::fill_ghosts(Kokkos::DefaultExecutionSpace{}, by_parts, fills, {comm::ShellPart::early, late_axes});
      auto early = Kokkos::create_mirror(Kokkos::HostSpace{}, by_parts.data);  // a copy, also on hosts
      Kokkos::deep_copy(early, by_parts.data);
      comm::fill_ghosts(Kokkos::DefaultExecutionSpace{}, by_parts, fills, {comm::ShellPart::late, late_axes});
      auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, by_parts.data);
      for (index_t k = -h; k < n[2] + h; ++k)
        for (index_t j = -h; j < n[1] + h; ++j)
          for (index_t i = -h; i < n[0] + h; ++i) {
            const index_t p = l.at(i, j, k);
            ASSERT_EQ(a(p), c(p)) << "faces code " << code << " (two parts, " << late_axes << " late axes) at " << i
                                  << "," << j << "," << k;
            // The early part writes no ghost beyond a late face: those wait for the messages.
            const index_t c3[3] = {i, j, k};
            bool beyond_late = false;
            for (int ax = 3 - late_axes; ax < 3; ++ax) beyond_late = beyond_late || c3[ax] < 0 || c3[ax] >= n[ax];
            if (beyond_late)
              ASSERT_EQ(std::memcmp(&early(p), &start(p), sizeof(double)), 0)
                  << "faces code " << code << " (early part, " << late_axes << " late axes) wrote " << i << "," << j
                  << "," << k;
          }
    }
  }
}

TEST(TwoStep, RefusesCourantAboveLimitBeforeAllocating) {
  const Stencil s = make_compact(3);
  SchemeSpec spec;
  spec.domain = Domain::single({8, 8, 8});
  spec.courant = s.max_courant * 1.0001;
  EXPECT_THROW((TwoStep<float>(s, spec, *variants().back())), Error);
  spec.courant = 0;
  EXPECT_THROW((TwoStep<float>(s, spec, *variants().back())), Error);
  spec.courant = s.max_courant;  // the limit itself is stable
  EXPECT_NO_THROW((TwoStep<float>(s, spec, *variants().back())));
}

TEST(TwoStep, StepOverwritesPreviousStateInPlace) {
  const Stencil s = make_star(1);
  SchemeSpec spec;
  spec.domain = Domain::single({8, 8, 8});
  spec.courant = 0.5;
  TwoStep<double> engine(s, spec, select_variant("mdrange-general", s, Precision::f64));
  Kokkos::deep_copy(engine.u().data, 1.0);
  Kokkos::deep_copy(engine.u_prev().data, 0.25);
  const double* before_prev = engine.u_prev().data.data();
  engine.step();
  // u+ = (sum gamma) * 1 - 0.25 = 2 - 0.25 for a constant field, written over u-, then swapped.
  EXPECT_EQ(engine.u().data.data(), before_prev);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), engine.u().data);
  EXPECT_NEAR(host(engine.layout().at(3, 4, 5)), 1.75, 1e-14);
  EXPECT_EQ(engine.steps_done(), 1);
}

// The step's marks (StepTimeline): with overlap every mark, in the order the step enqueues them
// (on host backends each mark fences, so the offsets follow that order); without, no shell.
TEST(TwoStep, TimelineRecordsEachPartOfTheStep) {
  const Stencil s = make_star(2);
  for (const bool overlap : {true, false}) {
    SchemeSpec spec;
    spec.domain = Domain::single({24, 20, 16});
    spec.courant = 0.5;
    spec.parallel.overlap = overlap;
    spec.parallel.ghost_fill = GhostFillMode::separate;
    TwoStep<double> engine(s, spec, select_variant("mdrange-star", s, Precision::f64));
    Kokkos::deep_copy(engine.u().data, 1.0);
    StepTimeline timeline(2);
    engine.record_steps(&timeline);
    engine.advance(3);  // the third is past the timeline's room and not recorded
    engine.record_steps(nullptr);
    const auto at = timeline.mean_offsets();
    EXPECT_EQ(at[StepTimeline::begin], 0.0);
    std::vector<StepTimeline::Mark> order{StepTimeline::started, StepTimeline::core_start, StepTimeline::core,
                                          StepTimeline::finished, StepTimeline::shell, StepTimeline::end};
    if (!overlap) order = {StepTimeline::started, StepTimeline::finished, StepTimeline::core, StepTimeline::end};
    double last = 0;
    for (StepTimeline::Mark m : order) {
      EXPECT_GE(at[m], last) << StepTimeline::name(m) << (overlap ? " with" : " without") << " overlap";
      last = at[m];
    }
    EXPECT_GT(at[StepTimeline::end], 0.0);
    if (!overlap) EXPECT_LT(at[StepTimeline::shell], 0.0);
    if (!overlap) EXPECT_LT(at[StepTimeline::core_start], 0.0);
  }
}

// First touch (Variant::touch): every variant writes zeros over whole pitches (padding and ghost
// columns too) of exactly the rows of the box it is given, whatever threads its update uses;
// the rest of a poisoned field stays poisoned. And TwoStep's fields come out of it zero.
TEST(FirstTouch, EachVariantZeroesWholePitchesOfTheBoxRows) {
  const Stencil s = make_star(2);
  const Layout l = make_layout({21, 13, 11}, s.radius, true, sizeof(float));
  const DeviceStencil<float> weights = make_device_stencil<float>(s, 0.5, l);
  const Box box{{0, 2, 1}, {21, 11, 9}};
  for (const auto& v : variants()) {
    if (!v->supports(s, Precision::f32)) continue;
    SCOPED_TRACE(v->name());
    Kokkos::View<float*> field("field", l.alloc), other("other", l.alloc);
    Kokkos::deep_copy(field, std::numeric_limits<float>::quiet_NaN());
    const TwoStepArgs<float> a{other, other, l, &s, &weights, {}, {}};
    v->touch(field, a, box);
    Kokkos::fence();
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field);
    long zeros = 0, poisoned = 0;
    for (index_t k = -l.halo; k < l.n[2] + l.halo; ++k)
      for (index_t j = -l.halo; j < l.n[1] + l.halo; ++j) {
        const bool in_box = j >= box.lo[1] && j < box.hi[1] && k >= box.lo[2] && k < box.hi[2];
        for (index_t i = 0; i < l.sy; ++i) {
          const float x = h(l.row_start(j, k) + i);
          if (in_box) zeros += x == 0.0f;
          else poisoned += std::isnan(x);
        }
      }
    const long rows_in = box.extent(1) * box.extent(2), rows_all = (l.n[1] + 2 * l.halo) * (l.n[2] + 2 * l.halo);
    EXPECT_EQ(zeros, rows_in * l.sy);
    EXPECT_EQ(poisoned, (rows_all - rows_in) * l.sy);
  }
}

TEST(FirstTouch, TwoStepFieldsStartAtZero) {
  const Stencil s = make_star(2);
  SchemeSpec spec;
  spec.domain = Domain::single({20, 12, 10});
  spec.courant = 0.5;
  for (const auto& v : variants()) {
    if (!v->supports(s, Precision::f64)) continue;
    SCOPED_TRACE(v->name());
    TwoStep<double> engine(s, spec, *v);
    for (const auto* f : {&engine.u(), &engine.u_prev()})
      for (double x : interior_values(*f)) ASSERT_EQ(x, 0.0);
  }
}

// The weights as the kernels hold them (stored_weights). Two-step weights in float sum to 2 exactly,
// for every family and Courant number here: the centre takes the sum less the others, and where
// that is no float, the others finer than the centre's ulp lie on its grid (rounded one by one they
// missed 2 by up to 6.7e-8, compact R = 3 at its limit; printed). Each off-centre weight lies within half
// the larger of its ulp and the centre's of its double value, the centre within their errors summed
// and half its ulp. The Laplacian's centre takes the others' sum with one rounding: its weights sum
// to 0 within half the centre's ulp, the others as rounded one by one. Double keeps the double
// weights, bit for bit.
TEST(DeviceStencil, WeightsSumToTheirTarget) {
  const Layout l = make_layout({24, 24, 24}, 4, true, sizeof(float));
  const auto ulp = [](double x) { return x == 0 ? 0.0 : std::ldexp(1.0, std::ilogb(x) - 23); };  // float's
  double missed = 0;  // by the weights rounded one by one
  std::string where;
  for (const Stencil& s : {make_star(1), make_star(2), make_star(4), make_compact(3), make_compact(6), make_box({1, 1, 1}),
                           make_box({2, 2, 2}), make_box({3, 2, 1})})
    for (double fraction : {0.1, 0.5, 0.8, 0.9, 0.99, 1.0})
      for (bool laplacian : {false, true}) {
        if (laplacian && fraction != 1.0) continue;  // no Courant number
        SCOPED_TRACE(s.name + (laplacian ? ", Laplacian" : ", courant " + std::to_string(fraction) + " of the limit"));
        const double courant = fraction * s.max_courant;
        const std::vector<double> w = laplacian ? s.weights : s.two_step_weights(courant);
        const std::vector<double> f = (laplacian ? make_laplacian_stencil<float>(s, l) : make_device_stencil<float>(s, courant, l)).host_gamma;
        const std::vector<double> d = (laplacian ? make_laplacian_stencil<double>(s, l) : make_device_stencil<double>(s, courant, l)).host_gamma;
        EXPECT_EQ(d, w);
        ASSERT_EQ(s.offsets[0], (Offset{0, 0, 0}));
        long double sum = 0, one_by_one = 0;  // of floats: exact
        double others = 0;                    // the errors off the centre
        for (std::size_t k = 0; k < f.size(); ++k) {
          sum += f[k], one_by_one += float(w[k]);
          EXPECT_EQ(f[k], double(float(f[k]))) << k;
          if (k == 0) continue;
          const double bound = laplacian ? ulp(w[k]) / 2 : std::max(ulp(w[k]), ulp(f[0])) / 2;
          EXPECT_LE(std::abs(f[k] - w[k]), bound) << k;
          others += std::abs(f[k] - w[k]);
        }
        EXPECT_LE(std::abs(f[0] - w[0]), others + ulp(f[0]) / 2 + 1e-15);
        if (laplacian) EXPECT_LE(std::abs(double(sum)), ulp(f[0]) / 2);
        else EXPECT_EQ(sum, 2.0L);
        if (!laplacian && std::abs(double(one_by_one - 2)) > missed)
          missed = std::abs(double(one_by_one - 2)), where = s.name + " at " + std::to_string(fraction);
      }
  std::printf("  measured: two-step weights rounded one by one miss 2 by up to %.2g (%s of the limit)\n", missed, where.c_str());
}

TEST(Registry, SelectsByNameAndRejectsUnknown) {
  const Stencil star = make_star(4), big = make_star(12), box = make_box({2, 2, 2});
  // auto: the preferred variant for this kind of device that supports the stencil.
  for (const Stencil* s : {&star, &big, &box})
    for (Precision p : {Precision::f32, Precision::f64})
      EXPECT_TRUE(select_variant("auto", *s, p).supports(*s, p)) << s->name;
  EXPECT_EQ(select_variant("mdrange-general", box, Precision::f64).name(), "mdrange-general");
  EXPECT_THROW(select_variant("mdrange-star", box, Precision::f32), Error);
  EXPECT_THROW(select_variant("mdrange-star", big, Precision::f32), Error);
  EXPECT_THROW(select_variant("nope", box, Precision::f32), Error);
}

}  // namespace
}  // namespace wavefd

#if !defined(KOKKOS_ENABLE_CUDA) && !defined(KOKKOS_ENABLE_HIP)
namespace wavefd {
namespace {

// The host row update in runs of 64 points (float, radius >= 6) gives the point loop's bits, on
// rows of whole runs and a tail, with and without the coefficient.
template <int R, bool Coef>
void check_row_runs() {
  const int nx = 150, ny = 3, nz = 2, h = R;
  const std::int64_t sy = nx + 2 * h + 5, sz = sy * (ny + 2 * h), alloc = sz * (nz + 2 * h);
  std::vector<float> u(alloc), coef(alloc), by_rows(alloc), by_points(alloc);
  for (std::int64_t q = 0; q < alloc; ++q)
    u[q] = float(datum(q, 0, 0, 1)), coef[q] = float(datum(q, 0, 0, 2)), by_rows[q] = by_points[q] = float(datum(q, 0, 0, 3));
  native::StarArgs<float> a;
  a.u = u.data(), a.u_prev = by_rows.data(), a.coef = Coef ? coef.data() : nullptr;
  a.sy = sy, a.sz = sz, a.origin = h + h * sy + h * sz, a.alloc = alloc, a.radius = R;
  a.hi[0] = nx, a.hi[1] = ny, a.hi[2] = nz;
  for (int m = 0; m <= R; ++m) a.c[m] = float(datum(m, 7, 7, 4));
  const host::StarRows<float, R, Coef> rows(a, 1);
  static_assert(host::StarRows<float, R, Coef>::kRuns);
  for (int item = 0; item < rows.blocks.items; ++item) rows.update(item);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y) {
      const std::int64_t row = a.origin + y * sy + z * sz;
      rows.update_points(u.data() + row, by_points.data() + row, Coef ? coef.data() + row : nullptr, nx);
    }
  EXPECT_EQ(std::memcmp(by_rows.data(), by_points.data(), alloc * sizeof(float)), 0) << "R " << R << ", coef " << Coef;
}

TEST(HostStarRows, RunsOf64PointsGiveThePointLoopsBits) {
  check_row_runs<6, false>();
  check_row_runs<8, false>();
  check_row_runs<8, true>();
}

}  // namespace
}  // namespace wavefd
#endif
