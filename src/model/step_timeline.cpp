#include "wavefd/step_timeline.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "wavefd/types.hpp"

namespace wavefd {

namespace {

#ifdef KOKKOS_ENABLE_CUDA
constexpr bool kEvents = std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>;
void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) throw Error(std::string("the step timeline's ") + what + ": " + cudaGetErrorString(rc));
}
#else
constexpr bool kEvents = false;
#endif

}  // namespace

const char* StepTimeline::name(Mark m) {
  static constexpr const char* names[marks] = {"begin", "started", "core_start", "core", "finished", "shell", "end"};
  return names[m];
}

StepTimeline::StepTimeline(int steps) : capacity_(steps), recorded_(std::size_t(steps)) {
  for (auto& r : recorded_) r.fill(false);
  if constexpr (kEvents) {
#ifdef KOKKOS_ENABLE_CUDA
    events_.resize(std::size_t(steps) * marks, nullptr);
    for (void*& e : events_) {
      cudaEvent_t ev = nullptr;
      check(cudaEventCreate(&ev), "event");
      e = ev;
    }
#endif
  } else {
    host_s_.resize(std::size_t(steps) * marks, 0.0);
  }
}

StepTimeline::~StepTimeline() {
#ifdef KOKKOS_ENABLE_CUDA
  for (void* e : events_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
#endif
}

void StepTimeline::record(const Kokkos::DefaultExecutionSpace& exec, Mark m) {
  if (step_ >= capacity_) return;
  const std::size_t at = std::size_t(step_) * marks + m;
  recorded_[std::size_t(step_)][m] = true;
  if constexpr (kEvents) {
#ifdef KOKKOS_ENABLE_CUDA
    check(cudaEventRecord(static_cast<cudaEvent_t>(events_[at]), exec.cuda_stream()), "record");
#endif
  } else {
    exec.fence("wavefd::step_timeline");
    host_s_[at] = clock_.seconds();
  }
}

void StepTimeline::next_step() { ++step_; }

std::array<double, StepTimeline::marks> StepTimeline::mean_offsets() const {
  std::array<double, marks> sum{}, mean{};
  std::array<int, marks> count{};
  for (int s = 0; s < std::min(step_, capacity_); ++s) {
    const auto& r = recorded_[std::size_t(s)];
    if (!r[begin]) continue;
    for (int m = 0; m < marks; ++m) {
      if (!r[m]) continue;
      const std::size_t at = std::size_t(s) * marks;
      double offset = 0;
      if constexpr (kEvents) {
#ifdef KOKKOS_ENABLE_CUDA
        const auto e = [&](int k) { return static_cast<cudaEvent_t>(events_[at + std::size_t(k)]); };
        float ms = 0;
        check(cudaEventSynchronize(e(m)), "wait");
        check(cudaEventElapsedTime(&ms, e(begin), e(m)), "elapsed time");
        offset = 1e-3 * ms;
#endif
      } else {
        offset = host_s_[at + std::size_t(m)] - host_s_[at + begin];
      }
      sum[std::size_t(m)] += offset;
      ++count[std::size_t(m)];
    }
  }
  for (int m = 0; m < marks; ++m) mean[std::size_t(m)] = count[std::size_t(m)] > 0 ? sum[std::size_t(m)] / count[std::size_t(m)] : -1.0;
  return mean;
}

}  // namespace wavefd
