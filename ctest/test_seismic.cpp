// Unit tests of the seismic model's parameters: velocity models, wavelets, time step, PML profile, off-grid points, trace files.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "wavefd/pml_profile.hpp"
#include "wavefd/point_spread.hpp"
#include "wavefd/time_step.hpp"
#include "wavefd/trace_file.hpp"
#include "wavefd/velocity.hpp"
#include "wavefd/wavelet.hpp"

namespace {

using namespace wavefd;

// --- velocity models ----------------------------------------------------------------------------

TEST(Velocity, ConstantFillsEveryPointOfTheBox) {
  const auto m = make_constant_velocity(2000);
  const Box box{{2, 3, 5}, {6, 5, 8}};
  const std::vector<double> v = m->fill(box, 20);
  ASSERT_EQ(v.size(), std::size_t(box.size()));
  for (double s : v) EXPECT_EQ(s, 2000);
}

TEST(Velocity, LayeredTakesTheLayerAtOrAboveEachDepth) {
  // Tops at 0, 100 and 250 m; spacing 50 m: z = 0, 1 -> 1500; z = 2..4 (100..200 m) -> 2500; z >= 5 -> 4000.
  const auto m = make_layered_velocity({{0, 1500}, {100, 2500}, {250, 4000}});
  const Box box{{0, 0, 0}, {3, 2, 7}};
  const std::vector<double> v = m->fill(box, 50);
  const double want[7] = {1500, 1500, 2500, 2500, 2500, 4000, 4000};
  for (index_t z = 0; z < 7; ++z)
    for (index_t i = 0; i < 6; ++i) EXPECT_EQ(v[std::size_t(z * 6 + i)], want[z]) << "z = " << z;
  // A box that starts deeper, as a rank below the top holds it: global z, not local.
  const std::vector<double> deep = m->fill(Box{{0, 0, 4}, {1, 1, 6}}, 50);
  EXPECT_EQ(deep, (std::vector<double>{2500, 4000}));
}

TEST(Velocity, BadLayersAreRefusedNamingTheKey) {
  expect_error([] { make_layered_velocity({}); }, "velocity.layer is empty; accepted: at least one [[velocity.layer]]");
  expect_error([] { make_layered_velocity({{10, 1500}}); }, "velocity.layer[0].top = 10 is not 0; accepted: top = 0");
  expect_error([] { make_layered_velocity({{0, 1500}, {200, 2000}, {200, 3000}}); },
               "velocity.layer[2].top = 200 is not below the layer above it; accepted: top > 200 m");
  expect_error([] { make_layered_velocity({{0, 1500}, {100, -2}}); },
               "velocity.layer[1].speed = -2 is outside speed > 0; accepted: a finite speed in m/s");
  expect_error([] { make_layered_velocity({{0, NAN}}); }, "velocity.layer[0].speed = nan is outside speed > 0");
  expect_error([] { make_constant_velocity(0); }, "velocity.speed = 0 is outside speed > 0");
}

TEST(Velocity, GradientGrowsWithDepthAndMustStayPositive) {
  const auto m = make_gradient_velocity(1500, 0.5);
  EXPECT_EQ(m->fill(Box{{0, 0, 0}, {1, 1, 4}}, 20), (std::vector<double>{1500, 1510, 1520, 1530}));
  const auto falling = make_gradient_velocity(1000, -2);
  EXPECT_EQ(falling->fill(Box{{0, 0, 24}, {1, 1, 25}}, 20), (std::vector<double>{40}));  // 1000 - 2 * 480
  expect_error([&] { falling->fill(Box{{0, 0, 90}, {2, 2, 100}}, 20); },
               "velocity.gradient = -2 gives -2600 m/s at the depth 1800 m (z = 90); accepted: speeds > 0");
  expect_error([] { make_gradient_velocity(1500, INFINITY); }, "velocity.gradient = inf is not finite; accepted: a finite gradient");
}

// A raw model file in a fresh directory of the test's own.
struct RawFileTest : ::testing::Test {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("wavefd_velocity_" + std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
};

TEST_F(RawFileTest, EachRankReadsItsBox) {
  const Index3 n{5, 4, 3};
  std::vector<float> speeds;
  for (index_t z = 0; z < n[2]; ++z)
    for (index_t y = 0; y < n[1]; ++y)
      for (index_t x = 0; x < n[0]; ++x) speeds.push_back(float(1000 + 100 * z + 10 * y + x));
  write_raw_velocity(file("m.f32"), n, 25, speeds);
  const auto m = open_raw_velocity(file("m.f32"), n, 25);
  const Box box{{1, 2, 1}, {4, 4, 3}};
  const std::vector<double> v = m->fill(box, 25);
  ASSERT_EQ(v.size(), std::size_t(box.size()));
  std::size_t at = 0;
  for (index_t z = 1; z < 3; ++z)
    for (index_t y = 2; y < 4; ++y)
      for (index_t x = 1; x < 4; ++x) EXPECT_EQ(v[at++], double(1000 + 100 * z + 10 * y + x));
}

TEST_F(RawFileTest, BadFilesAreRefusedInOneLine) {
  const Index3 n{4, 3, 2};
  std::vector<float> ok(24, 1500.f);
  write_raw_velocity(file("ok.f32"), n, 10, ok);
  expect_error([&] { open_raw_velocity(file("missing.f32"), n, 10); }, "missing.f32' cannot be read");
  expect_error([&] { open_raw_velocity(file("ok.f32"), {4, 3, 3}, 10); },
               "ok.f32' holds a 4 x 3 x 2 model; accepted: grid.n's 4 x 3 x 3");
  expect_error([&] { open_raw_velocity(file("ok.f32"), n, 12.5); },
               "ok.f32' has the spacing 10 m; accepted: grid.spacing's 12.5 m");
  {  // one speed short
    std::ofstream out(file("short.f32"), std::ios::binary);
    out << R"({"wavefd": "velocity", "n": [4, 3, 2], "spacing": 10, "dtype": "float32"})" << '\n';
    out.write(reinterpret_cast<const char*>(ok.data()), 23 * sizeof(float));
  }
  expect_error([&] { open_raw_velocity(file("short.f32"), n, 10); },
               "short.f32' has 92 bytes of speeds; a 4 x 3 x 2 float32 model has 96");
  {
    std::ofstream out(file("text.f32"));
    out << "1500 1500 1500\n";
  }
  expect_error([&] { open_raw_velocity(file("text.f32"), n, 10); }, "text.f32': the first line is not a JSON header");
  std::vector<float> bad = ok;
  bad[13] = NAN;    // (1, 0, 1)
  write_raw_velocity(file("nan.f32"), n, 10, bad);
  expect_error([&] { open_raw_velocity(file("nan.f32"), n, 10)->fill(Box{{0, 0, 0}, n}, 10); },
               "nan.f32' holds the speed nan at the point (1, 0, 1); accepted: finite speeds > 0 (m/s)");
  bad[13] = -3;
  write_raw_velocity(file("negative.f32"), n, 10, bad);
  expect_error([&] { open_raw_velocity(file("negative.f32"), n, 10)->fill(Box{{0, 0, 0}, n}, 10); },
               "holds the speed -3 at the point (1, 0, 1)");
  // A rank whose box misses the bad point reads its part without error.
  EXPECT_EQ(open_raw_velocity(file("negative.f32"), n, 10)->fill(Box{{0, 0, 0}, {4, 3, 1}}, 10).size(), 12u);
}

// --- wavelets -----------------------------------------------------------------------------------

TEST(Wavelet, RickerPeaksAtItsDelayAndCrossesZeroWhereTheFormulaSays) {
  const double f = 15, delay = 0.1;
  const auto w = make_ricker(f, delay);
  EXPECT_DOUBLE_EQ(w->at(delay), 1.0);
  const double zero = 1 / (std::numbers::sqrt2 * std::numbers::pi * f);  // 1 - 2 a^2 = 0
  EXPECT_NEAR(w->at(delay + zero), 0.0, 1e-15);
  EXPECT_NEAR(w->at(delay - zero), 0.0, 1e-15);
  EXPECT_LT(w->at(delay + 2 * zero), 0.0);  // the side lobes are negative
  // No net force: the integral over the pulse vanishes (trapezoid rule, 0 .. 2 delay).
  double sum = 0;
  const int n = 20000;
  for (int i = 0; i <= n; ++i) sum += (i == 0 || i == n ? 0.5 : 1.0) * w->at(2 * delay * i / n);
  EXPECT_NEAR(sum * 2 * delay / n, 0.0, 1e-6);
  EXPECT_EQ(w->max_frequency(), 45);
  expect_error([] { make_ricker(0, 0.1); }, "source.frequency = 0 is outside frequency > 0; accepted: a finite frequency in Hz");
  expect_error([] { make_ricker(10, -1); }, "source.delay = -1 is outside delay >= 0; accepted: a finite time in seconds");
}

TEST(Wavelet, MinimodsWaveletMatchesTheReferenceFormula) {
  const auto w = make_minimod_wavelet(25);
  const double sigma = 15, S = 8, tau = 1;
  EXPECT_DOUBLE_EQ(w->at(tau / sigma), -2 * S * sigma * sigma);  // -3600
  for (double t : {0.0, 0.03, 0.05, 0.08, 0.2}) {
    const double d = sigma * t - tau;
    EXPECT_DOUBLE_EQ(w->at(t), -2 * S * sigma * (sigma - 2 * sigma * S * d * d) * std::exp(-S * d * d));
  }
}

// --- time step ----------------------------------------------------------------------------------

TEST(TimeStep, StarStencilsGiveMinimodsTimeStep) {
  // minimod: dt = 2 CFL h / (sqrt(S) vmax), S = sum of |weights| (h = 1), CFL 0.8, h 20 m, vmax 4500.
  for (int M : {1, 2, 4, 8}) {
    const Stencil s = make_star(M);
    double S = 0;
    for (double a : s.weights) S += std::abs(a);
    const SeismicTimeStep t = seismic_time_step(s, 20, 4500, 0.8);
    EXPECT_NEAR(t.dt, 2 * 0.8 * 20 / (std::sqrt(S) * 4500), 1e-9 * t.dt) << s.name;
    EXPECT_NEAR(t.courant, 0.8 * s.max_courant, 1e-15);
  }
  EXPECT_NEAR(seismic_time_step(make_star(4), 20, 4500, 0.8).dt, 1.61e-3, 0.005e-3);  // minimod's "about 1.61 ms"
}

TEST(TimeStep, AboveTheLimitIsRefused) {
  const Stencil s = make_star(4);
  expect_error([&] { seismic_time_step(s, 20, 4500, 1.2); },
               "scheme.cfl = 1.2 is outside 0 < cfl <= 1; accepted: the fraction of the stable limit (star M=4's stable "
               "Courant number 0.452856 allows dt <= 0.00201269 s at vmax 4500 m/s and spacing 20 m)");
  expect_error([&] { seismic_time_step(s, 20, 4500, 0); }, "scheme.cfl = 0 is outside 0 < cfl <= 1");
  expect_error([&] { seismic_time_step(s, -5, 4500, 0.5); }, "grid.spacing = -5 is outside spacing > 0; accepted: a finite length in metres");
  const SeismicTimeStep ok = check_time_step(s, 20, 4500, 0.002);
  EXPECT_NEAR(ok.courant, 0.45, 1e-15);
  expect_error([&] { check_time_step(s, 20, 4500, 0.0021); },
               "scheme.dt = 0.0021 s is not stable: star M=4's stable Courant number 0.452856 allows dt <= 0.00201269 s");
}

// --- PML damping profile ---------------------------------------------------------------------

TEST(PmlProfile, MinimodsParameters) {
  EXPECT_EQ(pml_width(4500, 25, 20, 3), 27);  // 3 wavelengths of vmax / fmax at 20 m
  const double dt = seismic_time_step(make_star(4), 20, 4500, 0.8).dt;
  EXPECT_NEAR(pml_peak(dt, 4500, 27, 20), 0.139, 0.0005);  // "about 0.14"
  expect_error([] { pml_width(4500, 25, 20, 0.001); }, "pml.wavelengths = 0.001");
}

TEST(PmlProfile, SymmetricMirrorsTheLowEnd) {
  const index_t n = 100;
  const int w = 27;
  const double P = 0.5;
  const std::vector<double> eta = pml_profile(n, w, P, PmlProfile::symmetric);
  ASSERT_EQ(eta.size(), std::size_t(n + 2));
  auto at = [&](index_t i) { return eta[std::size_t(i + 1)]; };
  EXPECT_DOUBLE_EQ(at(0), P);                     // outermost: m = width
  EXPECT_DOUBLE_EQ(at(w - 1), P / (w * w));       // innermost: m = 1
  EXPECT_EQ(at(w), 0.0);
  EXPECT_DOUBLE_EQ(at(-1), P * (28.0 / 27) * (28.0 / 27));  // the ghost continues the parabola
  for (index_t i = -1; i <= n; ++i) EXPECT_EQ(at(i), at(n - 1 - i)) << "i = " << i;
  for (index_t i = w; i < n - w; ++i) EXPECT_EQ(at(i), 0.0);
}

TEST(PmlProfile, MinimodsPublishedProfileSitsOneCellIn) {
  // The code of minimod's printed results writes eta(m) one cell out from where it reads it.
  const index_t n = 100;
  const int w = 27;
  const double P = 0.5;
  const std::vector<double> eta = pml_profile(n, w, P, PmlProfile::minimod);
  auto at = [&](index_t i) { return eta[std::size_t(i + 1)]; };
  auto value = [&](double m) { return P * (m / w) * (m / w); };
  EXPECT_DOUBLE_EQ(at(-1), P);  // the ghost: m = width
  for (index_t i = 0; i < w; ++i) EXPECT_DOUBLE_EQ(at(i), value(double(w - 1 - i)));
  EXPECT_EQ(at(w - 1), 0.0);  // the innermost layer cell is not damped
  for (index_t i = -1; i <= n; ++i) EXPECT_EQ(at(i), at(n - 1 - i)) << "i = " << i;
  for (index_t i = w; i < n - w; ++i) EXPECT_EQ(at(i), 0.0);
}

TEST(PmlProfile, Minimod2021HighEndSitsTwoCellsOut) {
  const index_t n = 100;
  const int w = 27;
  const double P = 0.5;
  const std::vector<double> eta = pml_profile(n, w, P, PmlProfile::minimod_2021);
  auto at = [&](index_t i) { return eta[std::size_t(i + 1)]; };
  auto value = [&](double m) { return P * (m / w) * (m / w); };
  EXPECT_EQ(at(-1), 0.0);  // the reference code's ghost below the low end
  for (index_t i = 0; i < w; ++i) EXPECT_DOUBLE_EQ(at(i), value(double(w - i)));
  EXPECT_EQ(at(n - w), 0.0);      // the first cell of the high layer is not damped,
  EXPECT_EQ(at(n - w + 1), 0.0);  // nor the second,
  EXPECT_DOUBLE_EQ(at(n - w + 2), value(1));  // then m = 1 ..
  EXPECT_DOUBLE_EQ(at(n - 1), value(w - 2));  // .. to width - 2 at the outermost cell,
  EXPECT_DOUBLE_EQ(at(n), value(w - 1));      // width - 1 in the ghost
  expect_error([] { pml_profile(50, 26, 1, PmlProfile::symmetric); },
               "pml.width = 26 cells does not fit twice in an axis of 50 points");
}

// --- off-grid sources and receivers -------------------------------------------------------------

// sum of w f(at) over the weights: the interpolated value of f.
template <class F>
double interpolate(const std::vector<GridWeight>& ws, F f) {
  double v = 0;
  for (const GridWeight& g : ws) v += g.weight * f(double(g.at[0]), double(g.at[1]), double(g.at[2]));
  return v;
}

TEST(PointSpread, AGridPointGetsTheSingleWeightOne) {
  for (Spreading kind : {Spreading::trilinear, Spreading::sinc}) {
    const auto ws = spread_weights({10, 3, 7}, kind, {20, 20, 20}, "source[0].position");
    ASSERT_EQ(ws.size(), 1u) << to_string(kind);
    EXPECT_EQ(ws[0].at, (Index3{10, 3, 7}));
    EXPECT_EQ(ws[0].weight, 1.0);
  }
  // On a grid plane in one axis only: 4 trilinear points, 64 sinc points.
  EXPECT_EQ(spread_weights({10, 3.5, 7.25}, Spreading::trilinear, {20, 20, 20}, "r").size(), 4u);
  EXPECT_EQ(spread_weights({10, 9.5, 7.25}, Spreading::sinc, {20, 20, 20}, "r").size(), 64u);
}

TEST(PointSpread, TrilinearIsExactForLinearFields) {
  const std::array<double, 3> p{4.3, 7.75, 2.125};
  const auto ws = spread_weights(p, Spreading::trilinear, {16, 16, 16}, "r");
  EXPECT_EQ(ws.size(), 8u);
  auto f = [](double x, double y, double z) { return 1.5 + 2 * x - 3 * y + 0.5 * z; };
  EXPECT_NEAR(interpolate(ws, f), f(p[0], p[1], p[2]), 1e-12);
  EXPECT_NEAR(interpolate(ws, [](double, double, double) { return 1.0; }), 1.0, 1e-15);
}

TEST(PointSpread, SincInterpolatesBandLimitedFieldsBetterThanTrilinear) {
  // A wave of 8 cells per wavelength along each axis (k = pi/4, half of the half-Nyquist limit).
  const double k = std::numbers::pi / 4;
  auto f = [&](double x, double y, double z) { return std::cos(k * x) * std::cos(k * y) * std::cos(k * z); };
  const std::array<double, 3> p{20.5, 21.5, 22.5};  // half a cell off on every axis: the worst case
  const double exact = f(p[0], p[1], p[2]);
  const auto sinc = spread_weights(p, Spreading::sinc, {48, 48, 48}, "r");
  const auto lin = spread_weights(p, Spreading::trilinear, {48, 48, 48}, "r");
  EXPECT_EQ(sinc.size(), 512u);
  const double sinc_error = std::abs(interpolate(sinc, f) - exact), lin_error = std::abs(interpolate(lin, f) - exact);
  EXPECT_LT(sinc_error, 0.003) << "trilinear: " << lin_error;
  EXPECT_GT(lin_error, 0.02);  // 1 - cos(pi/8)^3 of a value ~0.3
  EXPECT_NEAR(interpolate(sinc, [](double, double, double) { return 1.0; }), 1.0, 0.01);
}

TEST(PointSpread, SupportOutsideTheGridIsLeftOutAndPositionsOutsideAreRefused) {
  const auto ws = spread_weights({1.5, 8, 8}, Spreading::sinc, {16, 16, 16}, "r");
  EXPECT_EQ(ws.size(), 6u);  // x nodes -2 .. 5, of which 0 .. 5 exist
  for (const GridWeight& g : ws) EXPECT_GE(g.at[0], 0);
  expect_error([] { spread_weights({3, 16.2, 3}, Spreading::sinc, {16, 16, 16}, "source[1].position"); },
               "source[1].position[y] = 16.2 (grid units) is outside the grid; accepted: 0 .. 15");
  expect_error([] { parse_spreading("cubic", "source.spreading"); },
               "source.spreading = 'cubic' is unknown; accepted: trilinear, sinc");
}

// --- receiver traces on disk -------------------------------------------------------------------

std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(RawFileTest, TracesRoundTripAndLeaveNoTemporaryFile) {
  Traces t;
  t.interval = 0.004;
  t.positions = {{100, 200, 20}, {120, 200, 20.5}};
  for (int i = 0; i < 2 * 7; ++i) t.samples.push_back(float(i) * 0.5f - 3);
  write_raw_traces(file("r.traces"), t, "receivers.file");
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"r.traces"}));
  const Traces back = read_raw_traces(file("r.traces"));
  EXPECT_EQ(back.interval, t.interval);
  EXPECT_EQ(back.positions, t.positions);
  EXPECT_EQ(back.samples, t.samples);
  EXPECT_EQ(back.samples_per_trace(), 7u);
}

TEST_F(RawFileTest, TracesThatCannotBeWrittenLeaveNothing) {
  Traces t;
  t.interval = 0.01;
  t.positions = {{0, 0, 0}};
  t.samples = {1, 2, 3};
  expect_error([&] { write_raw_traces(file("no/such/dir/r.traces"), t, "receivers.file"); },
               "receivers.file = '" + file("no/such/dir/r.traces") + "': the directory '" + file("no/such/dir") + "' does not exist");
  // A directory of that name is in the way: refused before anything is written.
  std::filesystem::create_directories(dir / "taken" / "inside");
  expect_error([&] { write_raw_traces(file("taken"), t, "receivers.file"); },
               "receivers.file = '" + file("taken") + "' is a directory; accepted: ");
  EXPECT_EQ(files_in(dir), (std::vector<std::string>{"taken"}));
  t.samples = {1, 2, 3, 4};
  t.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
  expect_error([&] { write_raw_traces(file("r.traces"), t, "receivers.file"); },
               "receivers.file: 4 samples do not make whole traces of 3 receivers");
  {
    std::ofstream out(file("cut.traces"), std::ios::binary);
    out << R"({"wavefd": "traces", "receivers": 1, "samples": 3, "interval": 0.01, "dtype": "float32", "positions": [[0, 0, 0]]})"
        << '\n';
    const float two[2] = {1, 2};
    out.write(reinterpret_cast<const char*>(two), sizeof two);
  }
  expect_error([&] { read_raw_traces(file("cut.traces")); }, "does not hold the 3 samples its header names");
}

}  // namespace
