#pragma once
// The options that split a timed grid over the ranks of an mpirun, shared by bench, tune and probe:
// --ranks and --gpu-aware, resolved and checked as run's parallel.ranks and parallel.gpu_aware
// are, with every error naming these commands' flags (--n, --ranks, --transport, --gpu-aware).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wavefd/two_step.hpp"

namespace wavefd::app {

struct SplitOptions {
  std::vector<long long> ranks{0, 0, 0};  // px py pz; 0 entries are chosen (choose_rank_grid)
  std::string gpu_aware = "auto";         // auto | yes | no, as parallel.gpu_aware

  void add_to(CLI::App& sub);
  // --ranks as a rank grid to complete (0 entries chosen). Throws Error unless it has 3 values.
  Index3 requested() const;
  // The split of the global grid `grid` (halo width `halo`, periodic or rigid) over the ranks of
  // this run, this rank's place in it, the transport (`transport`: auto | local | mpi | mpi-gpu |
  // nccl) and the overlap (`overlap`: auto | true | false). Throws Error before anything is
  // allocated: a rank grid that does not multiply up to the ranks, a subdomain thinner than the
  // halo (naming the axis), a transport this build or library lacks.
  ParallelSpec resolve(const Index3& grid, int halo, bool periodic, const std::string& transport,
                       const std::string& overlap) const;
};

// Runs `check`; an Error it throws is thrown again with run's key names (grid.n, parallel.ranks,
// parallel.transport, parallel.gpu_aware) replaced by these commands' flags.
void with_flag_names(const std::function<void()>& check);

// The timing loop's counts of bench, tune and probe: `count` (named by `count_flag`, --steps or
// --iters) and --reps at least 1, --warmup at least 0. Throws Error naming the flag.
void check_repetitions(long long count, long long reps, long long warmup, const std::string& count_flag);

// The largest subdomain of a split: rank 0's, since the first ranks of each axis take the remainder.
Index3 largest_subdomain(const Index3& grid, const Index3& rank_grid);

}  // namespace wavefd::app
