#pragma once
// Marks in an execution space instance's queue that the host can test one by one: the host learns
// that the copies enqueued before mark i are done without waiting for those after it, so that the
// host-staged `mpi` transport sends each face as soon as its own device-to-host copy has landed.
// CUDA and HIP events; on host backends work is done when enqueued, so every mark is reached.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <vector>

namespace wavefd::comm {

class CopyMarks {
 public:
  explicit CopyMarks(std::size_t count);
  ~CopyMarks();
  CopyMarks(const CopyMarks&) = delete;
  CopyMarks& operator=(const CopyMarks&) = delete;

  void record(std::size_t i, const Kokkos::DefaultExecutionSpace& exec);
  bool reached(std::size_t i) const;  // without waiting

 private:
  std::vector<void*> events_;
};

}  // namespace wavefd::comm
