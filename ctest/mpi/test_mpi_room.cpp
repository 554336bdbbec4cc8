// The room engine on every rank grid equals the single-rank engine bit for bit, its fields in float,
// double or 16 bits: the field, and the responses summed over the ranks to double rounding (a
// receiver's support may span ranks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "wavefd/decomposition.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/room_step.hpp"

namespace {

using namespace wavefd;

RoomModel model(const Stencil& s) {
  RoomModel m;
  m.n = {26, 22, 24};
  m.h = 0.05;
  m.stencil = s;
  m.courant = 0.99 * s.max_courant;
  m.dt = m.courant * m.h / m.speed;
  m.steps = 50;
  const std::array<double, 6> beta{0.1, 0.0, 0.4, 1.0, 0.05, 2.0};
  for (std::size_t f = 0; f < 6; ++f) m.walls[f] = {"beta " + std::to_string(beta[f]), beta[f], {}, {}};
  // Frequency-dependent walls on two faces (one with a frequency-independent part beside).
  m.walls[0] = fit_octave_absorption("carpet", {0.02, 0.06, 0.14, 0.37, 0.60, 0.65, 0.65, 0.65}, m.dt, "carpet");
  m.walls[3].branches = m.walls[0].branches;
  RoomSource soft{{6.3, 10.6, 11.2}, hann_signal(20 * m.dt, m.dt, m.steps, true), false, "hann"};
  RoomSource hard{{20, 5, 3}, impulse_signal(m.steps), true, "impulse"};
  m.sources = {soft, hard};
  m.receivers = {{12.5, 10.25, 11.75}, {0, 0, 0}, {25, 21, 23}, {4.5, 17.5, 12}};
  return m;
}

// The same box as a voxelized room: a pillar, a thin wall over an opening and a corner block outside
// the air, one fitted material with a fixed part beside its branches, every term at voxel walls.
RoomModel voxel_model(const Stencil& s) {
  RoomModel m = model(s);
  m.courant = (on_the_axes(s) ? 0.99 : kVoxelWallsMaxCfl) * s.max_courant;
  m.dt = m.courant * m.h / m.speed;
  m.air.assign(std::size_t(m.n[0] * m.n[1] * m.n[2]), 1);
  for (index_t k = 0; k < m.n[2]; ++k)
    for (index_t j = 0; j < m.n[1]; ++j)
      for (index_t i = 0; i < m.n[0]; ++i) {
        const bool pillar = i >= 14 && i <= 17 && j >= 3 && j <= 8;
        const bool thin_wall = j == 15 && i <= 18 && k >= 4;
        const bool block = i >= 22 && j >= 18 && k <= 4;
        if (pillar || thin_wall || block) m.air[std::size_t(i + m.n[0] * (j + m.n[1] * k))] = 0;
      }
  m.materials = {fit_octave_absorption("carpet", {0.02, 0.06, 0.14, 0.37, 0.60, 0.65, 0.65, 0.65}, m.dt, "carpet")};
  m.materials[0].admittance = 0.1;
  for (index_t b : boundary_cells(m)) m.boundary_material.push_back({b, 0});
  return m;
}

struct Outcome {
  std::vector<double> u;                       // global field, x fastest (rank 0)
  std::vector<std::vector<double>> responses;  // summed onto rank 0
};

template <class T>
Outcome run(const RoomModel& m, const ParallelSpec& par) {
  RoomStep<T> room(m, par, *preferred_variant(m.stencil, precision_of<T>, false));
  room.advance(m.steps);
  const Layout l = room.engine().layout();
  const Index3 offset = room.engine().domain().offset;
  const std::vector<double> values = interior_values(room.engine().u());
  std::vector<double> mine;  // (global index, value) pairs
  std::size_t q = 0;
  for (index_t k = 0; k < l.n[2]; ++k)
    for (index_t j = 0; j < l.n[1]; ++j)
      for (index_t i = 0; i < l.n[0]; ++i)
        mine.push_back(double((i + offset[0]) + m.n[0] * ((j + offset[1]) + m.n[1] * (k + offset[2])))),
            mine.push_back(values[q++]);
  const int ranks = int(par.rank_grid[0] * par.rank_grid[1] * par.rank_grid[2]);
  const std::vector<double> all = ranks > 1 ? gather_onto_root(mine) : mine;
  Outcome o;
  o.u.assign(std::size_t(m.n[0] * m.n[1] * m.n[2]), 0.0);
  for (std::size_t p = 0; p + 1 < all.size(); p += 2) o.u[std::size_t(all[p])] = all[p + 1];
  for (const auto& r : room.partial_responses()) o.responses.push_back(ranks > 1 ? sum_onto_root(r) : r);
  return o;
}

template <class T>
void expect_distributed_equals_single(const Stencil& s, bool overlap, Index3 grid = {0, 0, 0}, bool voxels = false) {
  const RoomModel m = voxels ? voxel_model(s) : model(s);
  for (int a = 0; a < 3; ++a)
    if (m.n[a] < grid[a] * s.radius) return;  // a subdomain thinner than the halo (8 ranks on one axis)
  ParallelSpec par;
  par.rank_grid = choose_rank_grid(world_size(), m.n, grid, s.radius);
  par.rank = world_rank();
  par.transport = world_size() > 1 ? Transport::mpi : Transport::local;
  par.overlap = overlap;
  const Outcome split = run<T>(m, par);
  if (world_rank() != 0) return;
  const Outcome single = run<T>(m, ParallelSpec{});
  double peak = 0;
  for (double x : single.u) peak = std::max(peak, std::abs(x));
  ASSERT_GT(peak, 0);
  EXPECT_EQ(split.u, single.u) << s.name << ", " << world_size() << " ranks as " << to_string(par.rank_grid);
  ASSERT_EQ(split.responses.size(), single.responses.size());
  for (std::size_t r = 0; r < single.responses.size(); ++r) {
    double loudest = 0;
    for (double x : single.responses[r]) loudest = std::max(loudest, std::abs(x));
    EXPECT_GT(loudest, 0) << "receiver " << r << " heard nothing";
    for (std::size_t j = 0; j < single.responses[r].size(); ++j)
      EXPECT_NEAR(split.responses[r][j], single.responses[r][j], 1e-13 * peak) << "receiver " << r << " sample " << j;
  }
}

TEST(MpiRoom, DistributedEqualsSingleRankBitForBit) {
  expect_distributed_equals_single<float>(make_star(1), false);
  expect_distributed_equals_single<double>(make_star(4), false);
  expect_distributed_equals_single<float>(make_compact(3), false);
  expect_distributed_equals_single<Half>(make_star(1), false);  // 16-bit fields: their halos too
  expect_distributed_equals_single<BFloat16>(make_star(4), false);
}

TEST(MpiRoom, VoxelizedRoomsEqualSingleRankBitForBit) {
  for (bool overlap : {false, true}) {
    expect_distributed_equals_single<float>(make_star(1), overlap, {0, 0, 0}, true);
    expect_distributed_equals_single<double>(make_star(4), overlap, {0, 0, 0}, true);
    expect_distributed_equals_single<float>(make_compact(3), overlap, {0, 0, 0}, true);
  }
}

TEST(MpiRoom, OverlappedStepsEqualSingleRankBitForBit) {
  const int n = world_size();
  for (const Index3& grid : {Index3{1, 1, n}, Index3{n, 1, 1}, Index3{0, 0, 0}}) {
    expect_distributed_equals_single<float>(make_star(4), true, grid);
    expect_distributed_equals_single<double>(make_box({1, 1, 1}), true, grid);
  }
}

}  // namespace
