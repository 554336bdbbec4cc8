#pragma once
// Fenced timing with every rank of an mpirun in step: what bench, tune and probe time when the
// work exchanges messages with other ranks.
#include <algorithm>
#include <vector>

#include <Kokkos_Core.hpp>

#include "wavefd/measure.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd {

// Seconds per call of f() on this rank: `warmup` untimed calls, then `reps` calls each fenced on
// both sides, as time_repeated does. Each repetition starts once the previous one has ended on
// every rank (the reduction that finds the slowest rank lines the ranks up), so that no rank's wait
// for messages includes another rank's late start. `slowest`, when given, gets each repetition's
// time on the slowest rank: a step that exchanges ghosts is as slow as its slowest rank. On one
// rank both are the same. `fastest`, when given, gets the index (0 = the first timed one) of the
// repetition whose slowest rank was fastest: the one the headline minimum comes from, the same on
// every rank.
template <class F>
Stats time_in_step(F&& f, int warmup, int reps, Stats* slowest = nullptr, int* fastest = nullptr) {
  for (int w = 0; w < warmup; ++w) f();
  Kokkos::fence("wavefd::time_in_step warm-up");
  (void)max_over_ranks(0.0);
  std::vector<double> mine, worst;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer timer;
    f();
    Kokkos::fence("wavefd::time_in_step");
    mine.push_back(timer.seconds());
    worst.push_back(max_over_ranks(mine.back()));
  }
  if (slowest) *slowest = summarize(worst);
  if (fastest) *fastest = int(std::min_element(worst.begin(), worst.end()) - worst.begin());
  return summarize(mine);
}

}  // namespace wavefd
