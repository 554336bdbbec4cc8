#pragma once
// Measurement shared by run, bench and tune: fenced timing with warm-up and repetitions,
// statistics, the device copy-bandwidth probe and a description of the execution space.
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#include <nlohmann/json.hpp>

namespace wavefd {

struct Stats {
  double mean = 0, sd = 0, min = 0, max = 0;
  int reps = 0;
};
Stats summarize(const std::vector<double>& samples);
nlohmann::json to_json(const Stats& s);


// Seconds per call of f(): `warmup` untimed calls, then `reps` calls each fenced on both sides.
template <class F>
Stats time_repeated(F&& f, int warmup, int reps) {
  for (int w = 0; w < warmup; ++w) f();
  Kokkos::fence("wavefd::time_repeated warm-up");
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    Kokkos::Timer timer;
    f();
    Kokkos::fence("wavefd::time_repeated");
    samples.push_back(timer.seconds());
  }
  return summarize(samples);
}

// Device copy bandwidth with Kokkos::deep_copy between two arrays of `bytes` each; GB/s counts
// the bytes read plus the bytes written (the STREAM convention).
struct CopyProbe {
  std::size_t bytes = 0;
  Stats seconds;
  double gbs = 0;  // 2 * bytes / best time
};
CopyProbe probe_copy_bandwidth(std::size_t bytes, int reps);

// The execution space for run lines: its name, and on host builds its threads and how they are
// bound ("OpenMP, 2 threads, OMP_PROC_BIND=spread, OMP_PLACES=cores"; unset variables say so,
// since unbound threads may migrate between cores and NUMA nodes mid-run).
std::string execution_line();

// Kokkos version, execution space, device name and concurrency.
nlohmann::json execution_json();
std::string device_name();

}  // namespace wavefd
