#pragma once
// The execution space instance an overlapped step runs its halo on. On CUDA it is a stream of its
// own at the device's highest priority: the core's kernel is launched right after the halo's pack
// and transport kernels, and at equal priority the block scheduler hands out the core's waiting
// blocks first, so the exchange would run after the core instead of beside it. Elsewhere it is a
// partition of the compute instance (Kokkos sets no priorities).
#include <vector>

#include <Kokkos_Core.hpp>

namespace wavefd {

class HaloInstance {
 public:
  explicit HaloInstance(const Kokkos::DefaultExecutionSpace& compute);
  ~HaloInstance();
  HaloInstance(const HaloInstance&) = delete;
  HaloInstance& operator=(const HaloInstance&) = delete;
  const Kokkos::DefaultExecutionSpace& exec() const { return exec_; }
  // `n` more instances at the same priority, for work that may run beside each other and the core
  // (the shell's slabs: one after the other on one stream, each launch waited for the last one's
  // final block and then had to win its SMs back from the core's long blocks). On CUDA streams of
  // their own, made once and kept; elsewhere the halo's instance itself, n times.
  const std::vector<Kokkos::DefaultExecutionSpace>& lanes(int n);

  // Work enqueued on `waiter` from now on starts after the work enqueued on `done` so far. On CUDA
  // an event, so that the host does not wait and keeps the next kernels queued (a fence there left
  // the GPU idle while the host made the halo's calls); elsewhere a fence of `done`.
  void order(const Kokkos::DefaultExecutionSpace& waiter, const Kokkos::DefaultExecutionSpace& done);

 private:
  void* stream_ = nullptr;  // the stream this class made (CUDA), destroyed after exec_ lets go of it
  void* event_ = nullptr;   // order()'s event (CUDA)
  Kokkos::DefaultExecutionSpace exec_;
  std::vector<void*> lane_streams_;  // lanes()' streams (CUDA), destroyed after lanes_ let go of them
  std::vector<Kokkos::DefaultExecutionSpace> lanes_;
};

}  // namespace wavefd
