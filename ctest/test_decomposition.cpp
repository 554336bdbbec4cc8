// Cartesian decomposition: uneven splits, neighbours, rank-grid choice and its errors; which halo
// messages go in place.
#include <gtest/gtest.h>

#include <set>

#include "comm/exchange_plan.hpp"
#include "wavefd/decomposition.hpp"

namespace wavefd {
namespace {

TEST(Decomposition, RemainderGoesToTheFirstRanks) {
  const Decomposition d({10, 7, 9}, {3, 1, 2}, 6, true, 1);
  const index_t x_sizes[3] = {4, 3, 3}, x_offsets[3] = {0, 4, 7};
  for (int r = 0; r < 6; ++r) {
    const Subdomain s = d.subdomain(r);
    EXPECT_EQ(s.coords, (Index3{r % 3, 0, r / 3}));
    EXPECT_EQ(s.local[0], x_sizes[r % 3]);
    EXPECT_EQ(s.offset[0], x_offsets[r % 3]);
    EXPECT_EQ(s.local[1], 7);
    EXPECT_EQ(s.local[2], r / 3 == 0 ? 5 : 4);
    EXPECT_EQ(s.offset[2], r / 3 == 0 ? 0 : 5);
  }
}

TEST(Decomposition, SubdomainsTileTheGlobalGridExactly) {
  for (const Index3& dims : {Index3{1, 1, 1}, Index3{2, 1, 1}, Index3{1, 3, 1}, Index3{1, 1, 4},
                             Index3{2, 2, 2}, Index3{3, 2, 1}}) {
    const Index3 n{13, 11, 8};
    const int ranks = int(dims[0] * dims[1] * dims[2]);
    const Decomposition d(n, dims, ranks, false, 2);
    std::set<std::array<index_t, 3>> seen;
    index_t points = 0;
    for (int r = 0; r < ranks; ++r) {
      const Subdomain s = d.subdomain(r);
      EXPECT_EQ(d.rank_at(s.coords), r);
      points += s.local[0] * s.local[1] * s.local[2];
      seen.insert(s.offset);
      for (int a = 0; a < 3; ++a) EXPECT_LE(s.offset[a] + s.local[a], n[a]);
    }
    EXPECT_EQ(points, n[0] * n[1] * n[2]) << to_string(dims);
    EXPECT_EQ(seen.size(), std::size_t(ranks));
  }
}

TEST(Decomposition, PeriodicNeighboursWrapRigidOnesStopAtTheWalls) {
  const Decomposition periodic({16, 16, 16}, {2, 1, 3}, 6, true, 1);
  const Subdomain a = periodic.subdomain(0);  // coords (0, 0, 0)
  EXPECT_EQ(a.neighbour[0][0], 1);            // wraps to x = 1
  EXPECT_EQ(a.neighbour[0][1], 1);
  EXPECT_EQ(a.neighbour[1][0], 0);  // one rank along y: itself
  EXPECT_EQ(a.neighbour[1][1], 0);
  EXPECT_EQ(a.neighbour[2][0], 4);  // wraps to z = 2
  EXPECT_EQ(a.neighbour[2][1], 2);

  const Decomposition rigid({16, 16, 16}, {2, 1, 3}, 6, false, 1);
  const Subdomain b = rigid.subdomain(0);
  EXPECT_EQ(b.neighbour[0][0], kNoNeighbour);
  EXPECT_EQ(b.neighbour[0][1], 1);
  EXPECT_EQ(b.neighbour[1][0], kNoNeighbour);
  EXPECT_EQ(b.neighbour[1][1], kNoNeighbour);
  EXPECT_EQ(b.neighbour[2][0], kNoNeighbour);
  EXPECT_EQ(b.neighbour[2][1], 2);
}

TEST(Decomposition, ASubdomainExactlyOneHaloWideIsAccepted) {
  const Decomposition d({8, 16, 16}, {2, 1, 1}, 2, true, 4);
  EXPECT_EQ(d.subdomain(1).local[0], 4);
}

TEST(Decomposition, ThinSubdomainsAreRefusedNamingGridRanksAndAxis) {
  try {
    Decomposition({16, 16, 7}, {1, 1, 2}, 2, true, 4);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "grid.n = [16, 16, 7] over parallel.ranks = [1, 1, 2] leaves 3 points along z on some "
                 "ranks, fewer than the halo width 4; accepted: at most 1 ranks along z");
  }
}

TEST(Decomposition, RankGridMustMatchTheRanks) {
  EXPECT_THROW(Decomposition({16, 16, 16}, {2, 2, 1}, 3, true, 1), Error);
  try {
    Decomposition({16, 16, 16}, {2, 2, 1}, 3, true, 1);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("parallel.ranks = [2, 2, 1] does not match the 3 ranks"),
              std::string::npos);
  }
}

TEST(RankGrid, CheapestHaloThenMostCompactThenZFirst) {
  EXPECT_EQ(choose_rank_grid(1, {64, 64, 64}, {0, 0, 0}, 4), (Index3{1, 1, 1}));
  EXPECT_EQ(choose_rank_grid(2, {64, 64, 64}, {0, 0, 0}, 4), (Index3{1, 1, 2}));
  // On a cube 4 slabs exchange as many points as 2 x 2 columns, which are more compact.
  EXPECT_EQ(choose_rank_grid(4, {64, 64, 64}, {0, 0, 0}, 4), (Index3{1, 2, 2}));
  EXPECT_EQ(choose_rank_grid(4, {1000, 1000, 1000}, {0, 0, 0}, 4), (Index3{1, 2, 2}));
  // x faces count four times: 2 x 2 x 2 exchanges fewer points than 1 x 2 x 4 but costs more.
  EXPECT_EQ(choose_rank_grid(8, {64, 64, 64}, {0, 0, 0}, 4), (Index3{1, 2, 4}));
  EXPECT_EQ(choose_rank_grid(16, {1024, 1024, 1024}, {0, 0, 0}, 4), (Index3{1, 4, 4}));
  EXPECT_EQ(choose_rank_grid(64, {1024, 1024, 1024}, {0, 0, 0}, 4), (Index3{1, 8, 8}));
  EXPECT_EQ(choose_rank_grid(27, {96, 96, 96}, {0, 0, 0}, 4), (Index3{1, 3, 9}));
  // Past slabs 8 times longer than wide, x is split too.
  EXPECT_EQ(choose_rank_grid(128, {1024, 1024, 1024}, {0, 0, 0}, 4), (Index3{2, 8, 8}));
  EXPECT_EQ(choose_rank_grid(512, {4096, 4096, 4096}, {0, 0, 0}, 4), (Index3{4, 8, 16}));
  EXPECT_EQ(choose_rank_grid(3, {64, 64, 64}, {0, 0, 0}, 4), (Index3{1, 1, 3}));
  // A long x axis is cut across x.
  EXPECT_EQ(choose_rank_grid(4, {512, 64, 64}, {0, 0, 0}, 4), (Index3{4, 1, 1}));
  // Fixed entries are kept, the others chosen.
  EXPECT_EQ(choose_rank_grid(4, {64, 64, 64}, {4, 0, 0}, 4), (Index3{4, 1, 1}));
  EXPECT_EQ(choose_rank_grid(8, {64, 64, 64}, {0, 1, 0}, 4), (Index3{1, 1, 8}));
  EXPECT_EQ(choose_rank_grid(8, {64, 64, 64}, {2, 0, 0}, 4), (Index3{2, 2, 2}));
  // Splits that leave a rank thinner than the halo are avoided while others exist.
  EXPECT_EQ(choose_rank_grid(4, {64, 64, 8}, {0, 0, 0}, 4), (Index3{1, 4, 1}));
}

// A weak point splits as a strong run of a grid shaped like its subdomain would.
TEST(RankGrid, WeakPointsSplitAsAGridOfTheSubdomainsShape) {
  EXPECT_EQ(choose_weak_rank_grid(1, {512, 512, 512}, {0, 0, 0}, 4), (Index3{1, 1, 1}));
  EXPECT_EQ(choose_weak_rank_grid(4, {512, 512, 512}, {0, 0, 0}, 4), (Index3{1, 2, 2}));
  EXPECT_EQ(choose_weak_rank_grid(8, {512, 512, 512}, {0, 0, 0}, 4), (Index3{1, 2, 4}));
  EXPECT_EQ(choose_weak_rank_grid(64, {512, 512, 512}, {0, 0, 0}, 4), (Index3{1, 8, 8}));
  // scripts/scaling_model.py project's default --grids are these (8: 1x2x4 above).
  EXPECT_EQ(choose_weak_rank_grid(512, {512, 512, 512}, {0, 0, 0}, 4), (Index3{4, 8, 16}));
  EXPECT_EQ(choose_weak_rank_grid(4096, {512, 512, 512}, {0, 0, 0}, 4), (Index3{8, 16, 32}));
  EXPECT_EQ(choose_weak_rank_grid(4, {512, 512, 512}, {0, 0, 4}, 4), (Index3{1, 1, 4}));
  // A flat subdomain keeps its thin axis whole.
  EXPECT_EQ(choose_weak_rank_grid(4, {256, 256, 16}, {0, 0, 0}, 4), (Index3{1, 4, 1}));
}

TEST(RankGrid, ImpossibleRequestsAreErrors) {
  EXPECT_THROW(choose_rank_grid(4, {64, 64, 64}, {3, 0, 0}, 4), Error);
  EXPECT_THROW(choose_rank_grid(4, {64, 64, 64}, {2, 2, 2}, 4), Error);
  EXPECT_THROW(choose_rank_grid(4, {64, 64, 64}, {-1, 0, 0}, 4), Error);
}

// The halo plan of `rank` in `ranks` for stencil s on a periodic 40 x 36 x 30 grid.
comm::ExchangePlan plan_of(const Stencil& s, const Index3& ranks, int rank, bool in_place, bool x_first = false) {
  const Decomposition d({40, 36, 30}, ranks, int(ranks[0] * ranks[1] * ranks[2]), true, s.radius);
  HaloSpec h{.boundary = Boundary::periodic, .transport = Transport::mpi, .decomposition = d,
             .sub = d.subdomain(rank), .offsets = s.offsets};
  h.layout = make_layout(h.sub.local, s.radius, true, sizeof(float));
  return comm::make_exchange_plan(h, in_place, x_first);
}

// A z split of a stencil that reads no edges sends whole planes from and into the field: R planes
// with their ghost rows and columns, from the last interior ones into the ghost planes beyond.
TEST(ExchangePlan, ZFacesAloneGoInPlaceAsWholePlanes) {
  const Stencil star = make_star(4);
  const comm::ExchangePlan p = plan_of(star, {1, 1, 3}, 1, true);
  ASSERT_EQ(p.messages.size(), 2u);
  EXPECT_EQ(p.send_count, 0);
  EXPECT_EQ(p.recv_count, 0);
  const Layout l = make_layout({40, 36, 10}, 4, true, sizeof(float));
  for (const comm::GhostMessage& m : p.messages) {
    EXPECT_TRUE(m.in_place);
    EXPECT_EQ(m.length, 4 * l.sz);
    const bool up = m.send.lo[2] > 0;
    EXPECT_EQ(m.send_at, l.row_start(-4, up ? 10 - 4 : 0));
    EXPECT_EQ(m.recv_at, l.row_start(-4, up ? 10 : -4));
  }
  EXPECT_EQ(comm::packed_boxes(p, true).count, 0);
}

// Beside faces across x and y, the z faces of a star stencil still go in place; only the others
// are packed, one after the other in the buffer.
TEST(ExchangePlan, ZFacesGoInPlaceBesideOtherFaces) {
  const comm::ExchangePlan p = plan_of(make_star(4), {1, 2, 2}, 3, true);
  ASSERT_EQ(p.messages.size(), 4u);
  const Layout l = make_layout({40, 18, 15}, 4, true, sizeof(float));
  index_t total = 0;
  int in_place = 0;
  for (const comm::GhostMessage& m : p.messages) {
    const bool z_face = m.send.extent(2) == 4;
    EXPECT_EQ(m.in_place, z_face);
    if (z_face) {
      ++in_place;
      EXPECT_EQ(m.length, 4 * l.sz);
      continue;
    }
    EXPECT_EQ(m.length, m.send.size());
    EXPECT_EQ(m.send_at, total);
    total += m.length;
  }
  EXPECT_EQ(in_place, 2);
  EXPECT_EQ(p.send_count, total);
  EXPECT_EQ(comm::packed_boxes(p, true).count, 2);
  EXPECT_EQ(comm::packed_boxes(p, true).total, total);
}

// Packed where messages cross z and another axis (edges of a box stencil), where none crosses z, or
// where the transport cannot take the field (host-staged MPI of GPU builds).
TEST(ExchangePlan, EdgesOtherFacesAndStagedTransportsArePacked) {
  const Stencil star = make_star(4), box = make_box({2, 2, 2});
  for (const comm::ExchangePlan& p : {plan_of(box, {1, 1, 2}, 0, true), plan_of(box, {1, 2, 2}, 3, true),
                                      plan_of(star, {1, 2, 1}, 0, true), plan_of(star, {1, 2, 2}, 3, false),
                                      plan_of(star, {1, 1, 2}, 0, false)}) {
    ASSERT_FALSE(p.messages.empty());
    index_t total = 0;
    for (const comm::GhostMessage& m : p.messages) {
      EXPECT_FALSE(m.in_place);
      EXPECT_EQ(m.length, m.send.size());
      EXPECT_EQ(m.send_at, total);
      total += m.length;
    }
    EXPECT_EQ(p.send_count, total);
    EXPECT_EQ(comm::packed_boxes(p, true).total, total);
  }
}

// x first (peer): the x faces of a star stencil are early and x is not late, so the shell has no x
// slabs; without x first, or for a stencil that reads edges, x is late as before.
TEST(ExchangePlan, XFacesFirstLeaveOnlyYAndZLate) {
  const Stencil star = make_star(4), box = make_box({2, 2, 2});
  const comm::ExchangePlan first = plan_of(star, {2, 1, 2}, 3, false, true);
  ASSERT_EQ(first.messages.size(), 4u);
  for (const comm::GhostMessage& m : first.messages) EXPECT_EQ(m.early, m.send.extent(0) == 4);
  EXPECT_EQ(first.late_axes, 1);
  EXPECT_EQ(comm::late_of(first.late_axes), (std::array<bool, 3>{false, false, true}));
  EXPECT_EQ(plan_of(star, {2, 1, 1}, 1, false, true).late_axes, 0);  // only x faces: nothing late
  EXPECT_EQ(plan_of(star, {2, 1, 2}, 3, false, false).late_axes, 3);
  const comm::ExchangePlan edges = plan_of(box, {2, 1, 2}, 3, false, true);
  EXPECT_EQ(edges.late_axes, 3);
  for (const comm::GhostMessage& m : edges.messages) EXPECT_FALSE(m.early);
}

}  // namespace
}  // namespace wavefd
