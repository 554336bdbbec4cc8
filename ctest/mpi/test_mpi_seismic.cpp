// The seismic engine on every rank grid equals the single-rank engine bit for bit (the field), and
// its traces summed over the ranks equal the single-rank traces to double rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "wavefd/parallel.hpp"
#include "wavefd/seismic_step.hpp"
#include "wavefd/time_step.hpp"

namespace {

using namespace wavefd;

SeismicModel model(OuterBoundary outer) {
  SeismicModel m;
  m.n = {30, 26, 28};
  m.h = 10;
  m.stencil = make_star(4);
  m.velocity = make_layered_velocity({{0, 1500}, {110, 2500}, {200, 3200}});
  m.dt = seismic_time_step(m.stencil, m.h, 3200, 0.8).dt;
  m.steps = 60;
  m.outer = outer;
  m.absorbing = Absorbing::pml;
  m.width = 6;
  m.peak = pml_peak(m.dt, 3200, m.width, m.h);
  m.sources.push_back({{14.3, 12.6, 10.2}, Spreading::sinc, make_ricker(40, 0.03), 1e6});
  m.receivers.positions = {{15.5, 12.25, 4.0}, {24, 5, 22}, {3.5, 20.7, 14.1}};
  m.receivers.every = 2;
  return m;
}

struct Outcome {
  std::vector<double> u;  // global field, x fastest (rank 0)
  std::vector<std::vector<double>> traces;  // summed onto rank 0
  bool overlap = false;                     // SeismicStep::overlap()
};

template <class T>
Outcome run(const SeismicModel& m, const ParallelSpec& par, SeismicWork work, StepPairs pairs = StepPairs::off,
            Rounding rounding = Rounding::nearest, SecondField second = SecondField::previous) {
  Outcome o;
  SeismicRun r;
  r.parallel = par;
  r.work = work;
  r.pairs = pairs;
  r.rounding = rounding;
  r.second_field = second;
  // Stochastic rounding is the layer kernel's alone (mdrange-stream stores the velocity too).
  r.inner = rounding == Rounding::stochastic ? nullptr : &select_variant("mdrange-stream", m.stencil, precision_of<T>);
  const Subdomain sub = seismic_subdomain(m, par);
  SeismicStep<T> engine(m, r, m.velocity->fill(sub.box(), m.h));
  engine.advance(m.steps);
  o.overlap = engine.overlap();
  const Layout l = engine.layout();
  std::vector<double> values = interior_values(engine.u());
  for (double& x : values) x /= engine.scale();  // 16-bit fields hold it scaled (exact: a power of two)
  // Each rank's box as (global index, value) pairs, gathered onto rank 0.
  std::vector<double> mine;
  std::size_t q = 0;
  for (index_t k = 0; k < l.n[2]; ++k)
    for (index_t j = 0; j < l.n[1]; ++j)
      for (index_t i = 0; i < l.n[0]; ++i)
        mine.push_back(double((i + sub.offset[0]) + m.n[0] * ((j + sub.offset[1]) + m.n[1] * (k + sub.offset[2])))),
            mine.push_back(values[q++]);
  const int ranks = int(par.rank_grid[0] * par.rank_grid[1] * par.rank_grid[2]);
  const std::vector<double> all = ranks > 1 ? gather_onto_root(mine) : mine;
  o.u.assign(std::size_t(m.n[0] * m.n[1] * m.n[2]), 0.0);
  for (std::size_t q = 0; q + 1 < all.size(); q += 2) o.u[std::size_t(all[q])] = all[q + 1];
  for (const auto& t : engine.partial_traces()) o.traces.push_back(ranks > 1 ? sum_onto_root(t) : t);
  return o;
}

// The single rank takes single steps; `pairs` is for the distributed run (where each rank leaves
// the rims within R of its edges to the layer kernel and exchanges the first step's ghosts).
// `overlap`: the distributed run overlaps its halo with the core boxes, on `grid` (0: as chosen).
template <class T>
void expect_distributed_equals_single(OuterBoundary outer, SeismicWork work, StepPairs pairs = StepPairs::off,
                                      bool overlap = false, Index3 grid = {0, 0, 0}, Rounding rounding = Rounding::nearest,
                                      SecondField second = SecondField::previous) {
  const SeismicModel m = model(outer);
  for (int a = 0; a < 3; ++a)
    if (m.n[a] < grid[a] * m.stencil.radius) return;  // a subdomain thinner than the halo (8 ranks on one axis)
  ParallelSpec par;
  par.rank_grid = choose_rank_grid(world_size(), m.n, grid, m.stencil.radius);
  par.rank = world_rank();
  par.transport = world_size() > 1 ? Transport::mpi : Transport::local;
  par.overlap = overlap;
  const Outcome split = run<T>(m, par, work, pairs, rounding, second);
  // Overlap where the rank grid leaves x whole and ranks exchange (seven-domain single steps).
  if (overlap && work == SeismicWork::seven_domain && pairs == StepPairs::off)
    EXPECT_EQ(split.overlap, world_size() > 1 && par.rank_grid[0] == 1) << to_string(par.rank_grid);
  if (world_rank() != 0) return;
  const Outcome single = run<T>(m, ParallelSpec{}, work, StepPairs::off, rounding, second);
  double peak = 0;
  for (double x : single.u) peak = std::max(peak, std::abs(x));
  ASSERT_GT(peak, 0);
  EXPECT_EQ(split.u, single.u) << world_size() << " ranks as " << to_string(par.rank_grid);
  for (std::size_t r = 0; r < single.traces.size(); ++r)
    for (std::size_t j = 0; j < single.traces[r].size(); ++j)
      EXPECT_NEAR(split.traces[r][j], single.traces[r][j], 1e-13 * peak) << "receiver " << r << " sample " << j;
}

TEST(MpiSeismic, DistributedEqualsSingleRankBitForBit) {
  expect_distributed_equals_single<float>(OuterBoundary::zero, SeismicWork::seven_domain);
  expect_distributed_equals_single<double>(OuterBoundary::rigid, SeismicWork::seven_domain);
  expect_distributed_equals_single<float>(OuterBoundary::rigid, SeismicWork::unified);
  expect_distributed_equals_single<float>(OuterBoundary::zero, SeismicWork::three_domain);
}

// The halo beside the core boxes, the shell boxes after it: split along z, along y, and as chosen.
TEST(MpiSeismic, OverlappedStepsEqualSingleRankBitForBit) {
  const int n = world_size();
  for (const Index3& grid : {Index3{1, 1, n}, Index3{1, n, 1}, Index3{0, 0, 0}}) {
    expect_distributed_equals_single<float>(OuterBoundary::zero, SeismicWork::seven_domain, StepPairs::off, true, grid);
    expect_distributed_equals_single<double>(OuterBoundary::rigid, SeismicWork::seven_domain, StepPairs::off, true, grid);
  }
}

// Fields in 16 bits (the halo carries 2-byte values), rounded to nearest and stochastically (the
// random bits from the global point: the same on every rank grid), with and without overlap, the
// second field u^{n-1} or the velocity (u then takes turns in two fields: both exchanged).
TEST(MpiSeismic, SixteenBitFieldsOnEveryRankGridEqualSingleRankBitForBit) {
  expect_distributed_equals_single<Half>(OuterBoundary::zero, SeismicWork::seven_domain);
  expect_distributed_equals_single<BFloat16>(OuterBoundary::rigid, SeismicWork::unified);
  expect_distributed_equals_single<Half>(OuterBoundary::rigid, SeismicWork::seven_domain, StepPairs::off, true,
                                         {1, 1, world_size()});
  expect_distributed_equals_single<Half>(OuterBoundary::zero, SeismicWork::three_domain, StepPairs::off, false, {0, 0, 0},
                                         Rounding::stochastic);
  expect_distributed_equals_single<BFloat16>(OuterBoundary::zero, SeismicWork::seven_domain, StepPairs::off, false,
                                             {0, 0, 0}, Rounding::stochastic);
  expect_distributed_equals_single<Half>(OuterBoundary::rigid, SeismicWork::seven_domain, StepPairs::off, true,
                                         {1, 1, world_size()}, Rounding::nearest, SecondField::velocity);
  expect_distributed_equals_single<Half>(OuterBoundary::zero, SeismicWork::unified, StepPairs::off, false, {0, 0, 0},
                                         Rounding::nearest, SecondField::velocity);
}

TEST(MpiSeismic, PairsOfStepsOnEveryRankGridEqualSingleSteps) {
  expect_distributed_equals_single<float>(OuterBoundary::zero, SeismicWork::seven_domain, StepPairs::on);
  expect_distributed_equals_single<double>(OuterBoundary::rigid, SeismicWork::seven_domain, StepPairs::on);
}

}  // namespace
