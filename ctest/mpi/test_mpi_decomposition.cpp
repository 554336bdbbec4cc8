// The decomposition as the ranks of a real MPI run see it: every rank derives the same rank grid,
// the subdomains tile the global grid, and the neighbour table is the one messages travel along.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "wavefd/decomposition.hpp"

namespace wavefd {
namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

class MpiDecomposition : public ::testing::TestWithParam<bool> {};  // periodic?

TEST_P(MpiDecomposition, SubdomainsTileTheGlobalGrid) {
  const Index3 global{23, 17, 19};
  const int ranks = world_size();
  const Index3 dims = choose_rank_grid(ranks, global, {0, 0, 0}, 2);
  const Decomposition d(global, dims, ranks, GetParam(), 2);
  const Subdomain mine = d.subdomain(world_rank());

  // Every rank chose the same grid.
  std::vector<long long> all_dims(3 * ranks);
  const long long my_dims[3] = {dims[0], dims[1], dims[2]};
  MPI_Allgather(my_dims, 3, MPI_LONG_LONG, all_dims.data(), 3, MPI_LONG_LONG, MPI_COMM_WORLD);
  for (int r = 0; r < ranks; ++r)
    for (int a = 0; a < 3; ++a) EXPECT_EQ(all_dims[3 * r + a], dims[a]);

  // The points of all ranks add up to the global grid, and no two ranks start at the same point.
  long long points = mine.local[0] * mine.local[1] * mine.local[2], total = 0;
  MPI_Allreduce(&points, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, global[0] * global[1] * global[2]);
  std::vector<long long> offsets(3 * ranks);
  const long long my_offset[3] = {mine.offset[0], mine.offset[1], mine.offset[2]};
  MPI_Allgather(my_offset, 3, MPI_LONG_LONG, offsets.data(), 3, MPI_LONG_LONG, MPI_COMM_WORLD);
  for (int r = 0; r < ranks; ++r)
    if (r != mine.rank)
      EXPECT_FALSE(offsets[3 * r] == mine.offset[0] && offsets[3 * r + 1] == mine.offset[1] &&
                   offsets[3 * r + 2] == mine.offset[2]);
}

TEST_P(MpiDecomposition, NeighboursAgreeAcrossEveryFace) {
  const Index3 global{23, 17, 19};
  const int ranks = world_size();
  const Decomposition d(global, choose_rank_grid(ranks, global, {0, 0, 0}, 2), ranks, GetParam(), 2);
  const Subdomain mine = d.subdomain(world_rank());
  for (int a = 0; a < 3; ++a) {
    // Send my rank and my extents across the upper face; what arrives over the lower face must
    // come from the lower neighbour, whose face has my extents in the other two axes.
    const int up = mine.neighbour[a][1], down = mine.neighbour[a][0];
    long long sent[3] = {mine.rank, mine.local[(a + 1) % 3], mine.local[(a + 2) % 3]};
    long long got[3] = {-7, -7, -7};  // poison: a message that never arrives is visible
    MPI_Sendrecv(sent, 3, MPI_LONG_LONG, up == kNoNeighbour ? MPI_PROC_NULL : up, a, got, 3, MPI_LONG_LONG,
                 down == kNoNeighbour ? MPI_PROC_NULL : down, a, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (down == kNoNeighbour) {
      EXPECT_EQ(got[0], -7) << "axis " << a;
      continue;
    }
    EXPECT_EQ(got[0], down) << "axis " << a;
    EXPECT_EQ(got[1], mine.local[(a + 1) % 3]) << "axis " << a;
    EXPECT_EQ(got[2], mine.local[(a + 2) % 3]) << "axis " << a;
  }
}

INSTANTIATE_TEST_SUITE_P(Boundaries, MpiDecomposition, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "periodic" : "rigid"; });

}  // namespace
}  // namespace wavefd
