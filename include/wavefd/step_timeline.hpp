#pragma once
// Where a step's time goes on the device: marks recorded as TwoStep::step enqueues its parts, each
// on the instance that runs the part, read back after the steps as offsets from the step's start.
// On CUDA they are events, so recording costs nothing and the halo's stream still runs beside the
// core's (what `bench` reports as `timeline_per_step_s`: does the exchange end before the core, does
// the shell trail it?). Elsewhere a mark fences its instance and reads the host clock, which would
// serialise concurrent instances; on host backends the step's instances are one anyway.
#include <array>
#include <vector>

#include <Kokkos_Core.hpp>

namespace wavefd {

class StepTimeline {
 public:
  // In the order an overlapped step enqueues them: begin (compute), started (the halo's instance,
  // after start(): with NCCL the messages have arrived there), core_start (compute, after start():
  // the update may begin; later than begin where it waits for ghosts sent first, peer's x faces),
  // core (compute: the core, or the whole interior without overlap), finished (after finish():
  // ghosts unpacked), shell (the halo's instance), end (compute, once both instances are done).
  enum Mark { begin, started, core_start, core, finished, shell, end, marks };
  static const char* name(Mark m);

  explicit StepTimeline(int steps);  // room for this many steps; later ones are not recorded
  ~StepTimeline();
  StepTimeline(const StepTimeline&) = delete;
  StepTimeline& operator=(const StepTimeline&) = delete;

  void record(const Kokkos::DefaultExecutionSpace& exec, Mark m);  // in the current step
  void next_step();

  // Per mark, the mean over the recorded steps of its offset from that step's begin, in seconds;
  // negative for a mark no step recorded. Waits for the recorded work.
  std::array<double, marks> mean_offsets() const;

 private:
  int capacity_;
  int step_ = 0;
  std::vector<std::array<bool, marks>> recorded_;
  std::vector<void*> events_;   // CUDA: capacity x marks events
  std::vector<double> host_s_;  // elsewhere: capacity x marks host clock readings
  Kokkos::Timer clock_;
};

}  // namespace wavefd
