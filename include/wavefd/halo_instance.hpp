#pragma once
// The execution space instance an overlapped step runs its halo on. On CUDA it is a stream of its
// own at the device's highest priority: the core's kernel is launched right after the halo's pack
// and transport kernels, and at equal priority the block scheduler hands out the core's waiting
// blocks first, so the exchange would run after the core instead of beside it. Elsewhere it is a
// partition of the compute instance (Kokkos sets no priorities).
#include <Kokkos_Core.hpp>

namespace wavefd {

class HaloInstance {
 public:
  explicit HaloInstance(const Kokkos::DefaultExecutionSpace& compute);
  ~HaloInstance();
  HaloInstance(const HaloInstance&) = delete;
  HaloInstance& operator=(const HaloInstance&) = delete;
  const Kokkos::DefaultExecutionSpace& exec() const { return exec_; }

  // Work enqueued on `waiter` from now on starts after the work enqueued on `done` so far. On CUDA
  // an event, so that the host does not wait and keeps the next kernels queued (a fence there left
  // the GPU idle while the host made the halo's calls); elsewhere a fence of `done`.
  void order(const Kokkos::DefaultExecutionSpace& waiter, const Kokkos::DefaultExecutionSpace& done);

 private:
  void* stream_ = nullptr;  // the stream this class made (CUDA), destroyed after exec_ lets go of it
  void* event_ = nullptr;   // order()'s event (CUDA)
  Kokkos::DefaultExecutionSpace exec_;
};

}  // namespace wavefd
