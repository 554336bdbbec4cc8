#include "wavefd/halo_instance.hpp"

#include <string>
#include <type_traits>

#include "wavefd/types.hpp"

namespace wavefd {

namespace {

#ifdef KOKKOS_ENABLE_CUDA
cudaStream_t priority_stream() {
  int least = 0, greatest = 0;
  cudaStream_t s = nullptr;
  cudaError_t rc = cudaDeviceGetStreamPriorityRange(&least, &greatest);
  if (rc == cudaSuccess) rc = cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest);
  if (rc != cudaSuccess) throw Error(std::string("the halo's CUDA stream: ") + cudaGetErrorString(rc));
  return s;
}
#endif

}  // namespace

HaloInstance::HaloInstance(const Kokkos::DefaultExecutionSpace& compute) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    cudaStream_t s = priority_stream();
    stream_ = s;
    exec_ = Kokkos::Cuda(s);
    cudaEvent_t e = nullptr;
    const cudaError_t rc = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    if (rc != cudaSuccess) throw Error(std::string("the halo's CUDA event: ") + cudaGetErrorString(rc));
    event_ = e;
    return;
  }
#endif
  exec_ = Kokkos::Experimental::partition_space(compute, 1)[0];
}

HaloInstance::~HaloInstance() {
  exec_ = Kokkos::DefaultExecutionSpace{};  // this instance's last reference to the stream
#ifdef KOKKOS_ENABLE_CUDA
  if (event_ != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(event_));
  if (stream_ != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
#endif
}

void HaloInstance::order(const Kokkos::DefaultExecutionSpace& waiter, const Kokkos::DefaultExecutionSpace& done) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace, Kokkos::Cuda>) {
    if (event_ != nullptr) {
      // The wait takes the event as recorded now, so one event serves every call.
      const auto e = static_cast<cudaEvent_t>(event_);
      cudaError_t rc = cudaEventRecord(e, done.cuda_stream());
      if (rc == cudaSuccess) rc = cudaStreamWaitEvent(waiter.cuda_stream(), e, 0);
      if (rc != cudaSuccess) throw Error(std::string("ordering the halo's stream: ") + cudaGetErrorString(rc));
      return;
    }
  }
#endif
  (void)waiter;
  done.fence("wavefd::halo_order");
}

}  // namespace wavefd
