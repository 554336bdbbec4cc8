// Memory checked before a run allocates (include/wavefd/memory_budget.hpp).
#include "wavefd/memory_budget.hpp"

#include <sys/resource.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "wavefd/grid.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kUnlimited = std::numeric_limits<double>::infinity();

// A number from a /proc or /sys file: the value after `key` (bytes; "kB" multiplies), or infinity.
double number_in(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream words(line.substr(key.size()));
    double v = 0;
    std::string unit;
    if (!(words >> v)) return kUnlimited;  // "max"
    words >> unit;
    return unit == "kB" ? v * 1024 : v;
  }
  return kUnlimited;
}

// Where the limit came from, for the message.
struct Budget {
  double bytes = kUnlimited;
  std::string source = "no limit found";
  void at_most(double b, const std::string& why) {
    if (b < bytes) bytes = std::max(b, 0.0), source = why;
  }
};

// What one of `node` ranks on this node may take: a share of the node's available memory and of
// the cgroup's limit, within this process's own address-space limit.
Budget host_budget(int node) {
  Budget b;
  const std::string shared = node > 1 ? ", shared by " + std::to_string(node) + " ranks" : "";
  b.at_most(number_in("/proc/meminfo", "MemAvailable:") / node, "the host's available memory" + shared);
  b.at_most((number_in("/sys/fs/cgroup/memory.max", "") - number_in("/sys/fs/cgroup/memory.current", "")) / node,
            "the cgroup's memory limit" + shared);
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    b.at_most(double(as.rlim_cur) - number_in("/proc/self/status", "VmSize:"), "the address-space limit (ulimit -v)");
  return b;
}

Budget device_budget() {
  Budget b;
#if defined(KOKKOS_ENABLE_CUDA)
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) b.at_most(double(free), "the GPU's free memory");
#elif defined(KOKKOS_ENABLE_HIP)
  std::size_t free = 0, total = 0;
  if (hipMemGetInfo(&free, &total) == hipSuccess) b.at_most(double(free), "the GPU's free memory");
#endif
  return b;
}

std::string gib(double bytes) {
  char s[32];
  std::snprintf(s, sizeof s, bytes < 0.1 * kGiB ? "%.3g GiB" : "%.1f GiB", bytes / kGiB);
  return s;
}

Budget rank_budget() {
  const int node = node_ranks();
  if (kHostBuild) return host_budget(node);
  Budget b = device_budget();
  const int devices = std::max(1, Kokkos::num_devices());
  const int sharing = (node + devices - 1) / devices;
  b.bytes /= sharing;
  if (sharing > 1) b.source += ", shared by " + std::to_string(sharing) + " ranks";
  return b;
}

}  // namespace

void check_grid_extents(const Index3& n, int halo, const std::string& key) {
  double points = 1;
  for (int d = 0; d < 3; ++d) {
    if (n[d] > kMaxExtent)
      throw Error(key + "[" + axis_name(d) + "] = " + std::to_string(n[d]) + " is too large; accepted: 1.." +
                  std::to_string(kMaxExtent));
    points *= double(n[d] + 2 * halo + 64);  // halo and row padding
  }
  if (points >= 0x1p62)
    throw Error(key + " = [" + std::to_string(n[0]) + ", " + std::to_string(n[1]) + ", " + std::to_string(n[2]) +
                "] is " + format_number(points) + " points with the halo; accepted: fewer than 2^62 points");
}

double two_step_bytes(const Index3& local, int radius, bool pad, std::size_t elem_bytes) {
  const Layout l = make_layout(local, radius, pad, elem_bytes);
  const double faces = double(local[1]) * double(local[2]) + double(local[0]) * double(local[2]) +
                       double(local[0]) * double(local[1]);
  return (2.0 * double(l.alloc) + 8.0 * radius * faces) * double(elem_bytes);
}

double allocatable_bytes_per_rank() { return rank_budget().bytes; }

void check_memory(double bytes, const std::string& what, const std::string& contents) {
  const Budget b = rank_budget();
  if (bytes <= b.bytes) return;
  throw Error(what + " needs " + gib(bytes) + " per rank (" + contents + "); rank " + std::to_string(world_rank()) +
              " has " + gib(b.bytes) + " (" + b.source + "); accepted: a grid that fits, or more ranks");
}

}  // namespace wavefd
