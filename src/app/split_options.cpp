#include "app/split_options.hpp"

#include <utility>

#include "wavefd/parallel.hpp"

namespace wavefd::app {

void SplitOptions::add_to(CLI::App& sub) {
  sub.add_option("--ranks", ranks, "Rank grid px py pz (or px,py,pz) over which --n is split under mpirun; 0 = chosen")
      ->expected(3)
      ->delimiter(',')
      ->capture_default_str();
  sub.add_option("--gpu-aware", gpu_aware, "Whether MPI takes device pointers (mpi-gpu): auto | yes | no")
      ->capture_default_str();
}

void with_flag_names(const std::function<void()>& check) {
  try {
    check();
  } catch (const Error& e) {
    std::string text = e.what();
    for (const auto& [key, flag] : {std::pair{"grid.n", "--n"}, {"parallel.ranks", "--ranks"},
                                    {"parallel.transport", "--transport"}, {"parallel.gpu_aware", "--gpu-aware"},
                                    {"grid.boundary", "--boundary"}, {"scheme.precision", "--precision"}})
      for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1))
        text.replace(at, std::string(key).size(), flag);
    throw Error(text);
  }
}

Index3 SplitOptions::requested() const {
  if (ranks.size() != 3)
    throw Error("--ranks needs 3 values; accepted: px py pz with px * py * pz = the ranks (0 = chosen by wavefd)");
  return {ranks[0], ranks[1], ranks[2]};
}

ParallelSpec SplitOptions::resolve(const Index3& grid, int halo, bool periodic, const std::string& transport,
                                   const std::string& overlap) const {
  ParallelSpec par;
  const int size = world_size();
  with_flag_names([&] {
    (void)make_layout(grid, halo, true, 4);  // every extent at least the halo
    par.rank_grid = choose_rank_grid(size, grid, requested(), halo);
    par.rank = world_rank();
    (void)Decomposition(grid, par.rank_grid, size, periodic, halo);  // no subdomain thinner than the halo
    par.transport = choose_transport(transport, size, gpu_aware, true, &par.transport_choice);
    par.overlap = resolve_overlap(overlap, par.transport, size, "--overlap");
  });
  return par;
}

void check_repetitions(long long count, long long reps, long long warmup, const std::string& count_flag) {
  auto at_least = [](const std::string& flag, long long value, long long min, const std::string& what) {
    if (value < min)
      throw Error(flag + " = " + std::to_string(value) + " is outside " + flag.substr(2) + " >= " + std::to_string(min) +
                  "; accepted: " + what);
  };
  at_least(count_flag, count, 1, count_flag == "--iters" ? "exchanges per repetition, >= 1" : "steps per repetition, >= 1");
  at_least("--reps", reps, 1, "timed repetitions, >= 1");
  at_least("--warmup", warmup, 0, "untimed repetitions first, >= 0");
}

Index3 largest_subdomain(const Index3& grid, const Index3& rank_grid) {
  const int ranks = int(rank_grid[0] * rank_grid[1] * rank_grid[2]);
  return Decomposition(grid, rank_grid, ranks, true, 0).subdomain(0).local;
}

}  // namespace wavefd::app
