#include "bench/host_roofline.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <Kokkos_Core.hpp>

#include "kernels/fused.hpp"

namespace wavefd {

namespace {

std::string read_line(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return s;
}

// "32768K" -> bytes
std::size_t parse_size(const std::string& s) {
  std::size_t pos = 0;
  double v = 0;
  try {
    v = std::stod(s, &pos);
  } catch (...) {
    return 0;
  }
  const char unit = pos < s.size() ? s[pos] : ' ';
  const double scale = unit == 'K' ? 1024.0 : unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1.0;
  return std::size_t(v * scale);
}

// One thread's work: `chains` independent accumulators (8 vector registers' worth), `iters`
// rounds of a fused multiply-add each.
template <class T>
struct FmaChains {
  static constexpr int kChains = 512 / int(sizeof(T));  // 8 registers of 512 bits
  Kokkos::View<T*, Kokkos::HostSpace> out;
  int iters;
  T a, b;

  void operator()(int thread) const {
    T acc[kChains];
    for (int k = 0; k < kChains; ++k) acc[k] = T(thread + k) * T(1e-3);
    for (int i = 0; i < iters; ++i)
#ifdef _OPENMP
#pragma omp simd
#endif
      for (int k = 0; k < kChains; ++k) acc[k] = kernels::fused(acc[k], a, b);
    T sum = 0;
    for (int k = 0; k < kChains; ++k) sum += acc[k];
    out(thread) = sum;  // kept, so that the chains are not optimised away
  }
};

template <class T>
FmaProbe fma_rate(int reps) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const int threads = Host().concurrency();
  // a < 1 and b small keep the chains finite and away from denormals.
  FmaChains<T> f{Kokkos::View<T*, Kokkos::HostSpace>("wavefd::fma_probe", threads), 1 << 20, T(0.999), T(1e-3)};
  const auto run = [&] {
    Kokkos::parallel_for("wavefd::fma_probe", Kokkos::RangePolicy<Host, Kokkos::Schedule<Kokkos::Static>>(0, threads), f);
  };
  FmaProbe p;
  p.fmas = double(threads) * f.iters * FmaChains<T>::kChains;
  p.seconds = time_repeated(run, 1, reps);
  p.fma_per_s = p.seconds.min > 0 ? p.fmas / p.seconds.min : 0;
  return p;
}

}  // namespace

std::size_t last_level_cache_bytes() {
  namespace fs = std::filesystem;
  int top = 0;
  std::size_t size = 0;
  std::set<std::string> instances;  // shared_cpu_list of each instance of the top level
  std::error_code ec;
  for (const auto& cpu : fs::directory_iterator("/sys/devices/system/cpu", ec)) {
    const std::string name = cpu.path().filename();
    if (name.rfind("cpu", 0) != 0 || name.size() < 4 || !std::isdigit(static_cast<unsigned char>(name[3]))) continue;
    for (const auto& index : fs::directory_iterator(cpu.path() / "cache", ec)) {
      if (index.path().filename().string().rfind("index", 0) != 0) continue;
      const std::string type = read_line(index.path() / "type");
      if (type == "Instruction") continue;
      const int level = std::atoi(read_line(index.path() / "level").c_str());
      const std::size_t bytes = parse_size(read_line(index.path() / "size"));
      if (level > top) top = level, size = bytes, instances.clear();
      if (level == top) instances.insert(read_line(index.path() / "shared_cpu_list"));
    }
  }
  if (size > 0) return size * instances.size();
  for (int name : {_SC_LEVEL4_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    const long bytes = sysconf(name);
    if (bytes > 0) return std::size_t(bytes);
  }
  return 0;
}

std::size_t host_copy_probe_bytes(std::size_t field_bytes, int ranks) {
  const std::size_t floor = std::size_t(256) << 20;
  std::size_t all = std::min(std::max(floor, 4 * last_level_cache_bytes()), std::size_t(1) << 30);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) all = std::min(all, std::max(floor, std::size_t(pages) * std::size_t(page) / 8));
  // Under an address-space limit (ulimit -v) the two buffers take at most a quarter of it: a VM that
  // reports a 300 MiB L3 otherwise asks for 2 x 1 GiB and fails under a 2 GB limit.
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    all = std::min(all, std::max(floor, std::size_t(limit.rlim_cur) / 8));
  return std::max(field_bytes, all / std::size_t(std::max(1, ranks)));
}

namespace {
// STREAM's copy loop, vectorised.
void copy_words(const double* __restrict__ from, double* __restrict__ to, std::size_t n) {
#ifdef _OPENMP
#pragma omp simd
#endif
  for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
}
}  // namespace

CopyProbe probe_host_copy_bandwidth(std::size_t bytes, int reps) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  using Static = Kokkos::RangePolicy<Host, Kokkos::Schedule<Kokkos::Static>>;
  const int threads = Host().concurrency();
  const std::size_t line = 4096, part = (bytes / std::size_t(threads) + line - 1) / line * line;
  Kokkos::View<char*, Kokkos::HostSpace> a(Kokkos::view_alloc("wavefd::host_copy_probe.a", Kokkos::WithoutInitializing),
                                           part * threads);
  Kokkos::View<char*, Kokkos::HostSpace> b(Kokkos::view_alloc("wavefd::host_copy_probe.b", Kokkos::WithoutInitializing),
                                           part * threads);
  const std::size_t words = part / sizeof(double);
  double* pa = reinterpret_cast<double*>(a.data());
  double* pb = reinterpret_cast<double*>(b.data());
  Kokkos::parallel_for("wavefd::host_copy_probe.touch", Static(0, threads), [=](int t) {
    for (std::size_t i = t * words; i < (t + 1) * words; ++i) pa[i] = 1.0, pb[i] = 2.0;
  });
  CopyProbe p;
  p.bytes = part * threads;
  p.seconds = time_repeated(
      [&] {
        Kokkos::parallel_for("wavefd::host_copy_probe", Static(0, threads),
                             [=](int t) { copy_words(pa + t * words, pb + t * words, words); });
      },
      2, reps);
  p.gbs = p.seconds.min > 0 ? 2.0 * double(p.bytes) / p.seconds.min / 1e9 : 0;
  return p;
}

FmaProbe probe_fma_rate(int bytes, int reps) { return bytes == 4 ? fma_rate<float>(reps) : fma_rate<double>(reps); }

}  // namespace wavefd
