#include "comm/copy_marks.hpp"

#include <string>

#include "wavefd/types.hpp"

namespace wavefd::comm {

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
void check(cudaError_t rc, const char* call) {
  if (rc != cudaSuccess) throw Error(std::string("transport mpi: ") + call + ": " + cudaGetErrorString(rc));
}
#elif defined(KOKKOS_ENABLE_HIP)
void check(hipError_t rc, const char* call) {
  if (rc != hipSuccess) throw Error(std::string("transport mpi: ") + call + ": " + hipGetErrorString(rc));
}
#endif

}  // namespace

CopyMarks::CopyMarks(std::size_t count) : events_(count, nullptr) {
  for (void*& e : events_) {
#if defined(KOKKOS_ENABLE_CUDA)
    cudaEvent_t made = nullptr;
    check(cudaEventCreateWithFlags(&made, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    e = made;
#elif defined(KOKKOS_ENABLE_HIP)
    hipEvent_t made = nullptr;
    check(hipEventCreateWithFlags(&made, hipEventDisableTiming), "hipEventCreateWithFlags");
    e = made;
#else
    (void)e;
#endif
  }
}

CopyMarks::~CopyMarks() {
  for (void* e : events_) {
    if (e == nullptr) continue;
#if defined(KOKKOS_ENABLE_CUDA)
    cudaEventDestroy(static_cast<cudaEvent_t>(e));
#elif defined(KOKKOS_ENABLE_HIP)
    (void)hipEventDestroy(static_cast<hipEvent_t>(e));
#endif
  }
}

void CopyMarks::record(std::size_t i, const Kokkos::DefaultExecutionSpace& exec) {
#if defined(KOKKOS_ENABLE_CUDA)
  check(cudaEventRecord(static_cast<cudaEvent_t>(events_[i]), exec.cuda_stream()), "cudaEventRecord");
#elif defined(KOKKOS_ENABLE_HIP)
  check(hipEventRecord(static_cast<hipEvent_t>(events_[i]), exec.hip_stream()), "hipEventRecord");
#else
  exec.fence("wavefd::halo_copy_mark");  // host backends: the copies are done already; this is free
  (void)i;
#endif
}

bool CopyMarks::reached(std::size_t i) const {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaError_t rc = cudaEventQuery(static_cast<cudaEvent_t>(events_[i]));
  if (rc == cudaErrorNotReady) return false;
  check(rc, "cudaEventQuery");
  return true;
#elif defined(KOKKOS_ENABLE_HIP)
  const hipError_t rc = hipEventQuery(static_cast<hipEvent_t>(events_[i]));
  if (rc == hipErrorNotReady) return false;
  check(rc, "hipEventQuery");
  return true;
#else
  (void)i;
  return true;
#endif
}

}  // namespace wavefd::comm
