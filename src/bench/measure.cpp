#include "wavefd/measure.hpp"

#include "wavefd/grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>

#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime.h>
#elif defined(KOKKOS_ENABLE_HIP)
#include <hip/hip_runtime.h>
#endif

namespace wavefd {

Stats summarize(const std::vector<double>& samples) {
  Stats s;
  s.reps = int(samples.size());
  if (samples.empty()) return s;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / s.reps;
  double var = 0;
  for (double x : samples) var += (x - s.mean) * (x - s.mean);
  s.sd = s.reps > 1 ? std::sqrt(var / (s.reps - 1)) : 0;
  s.min = *std::min_element(samples.begin(), samples.end());
  s.max = *std::max_element(samples.begin(), samples.end());
  return s;
}

nlohmann::json to_json(const Stats& s) {
  return {{"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}, {"reps", s.reps}};
}

CopyProbe probe_copy_bandwidth(std::size_t bytes, int reps) {
  const std::size_t n = bytes / sizeof(double);
  Kokkos::View<double*> a(Kokkos::view_alloc("wavefd::copy_probe.a", Kokkos::WithoutInitializing), n);
  Kokkos::View<double*> b(Kokkos::view_alloc("wavefd::copy_probe.b", Kokkos::WithoutInitializing), n);
  Kokkos::deep_copy(a, 1.0);  // touch both arrays first (first-touch placement, page faults)
  Kokkos::deep_copy(b, 2.0);
  CopyProbe p;
  p.bytes = n * sizeof(double);
  p.seconds = time_repeated([&] { Kokkos::deep_copy(b, a); }, 2, reps);
  p.gbs = p.seconds.min > 0 ? 2.0 * double(p.bytes) / p.seconds.min / 1e9 : 0;
  return p;
}

std::string device_name() {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaDeviceProp prop{};
  int dev = 0;
  cudaGetDevice(&dev);
  if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess) return prop.name;
#elif defined(KOKKOS_ENABLE_HIP)
  hipDeviceProp_t prop{};
  int dev = 0;
  (void)hipGetDevice(&dev);
  if (hipGetDeviceProperties(&prop, dev) == hipSuccess) return prop.name;
#endif
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(colon + 2);
    }
  return "unknown host CPU";
}

std::string execution_line() {
  std::string line = Kokkos::DefaultExecutionSpace::name();
  if (!kHostBuild) return line;
  const int threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  line += ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
#ifdef KOKKOS_ENABLE_OPENMP
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES"}) {
    const char* value = std::getenv(name);
    line += std::string(", ") + name + (value && *value ? std::string("=") + value : std::string(" unset"));
  }
#endif
  return line;
}

nlohmann::json execution_json() {
  nlohmann::json j;
  j["kokkos_version"] = std::to_string(KOKKOS_VERSION / 10000) + "." +
                        std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                        std::to_string(KOKKOS_VERSION % 100);
  j["execution_space"] = Kokkos::DefaultExecutionSpace::name();
  j["host_execution_space"] = Kokkos::DefaultHostExecutionSpace::name();
  j["concurrency"] = Kokkos::DefaultExecutionSpace().concurrency();
  j["device"] = device_name();
  j["execution"] = execution_line();
  return j;
}

}  // namespace wavefd
