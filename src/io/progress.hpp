#pragma once
// Progress of a time loop: a live bar on a terminal, a status line every few seconds otherwise.
#include <string>

namespace wavefd {

class Progress {
 public:
  enum class Mode { bar, line, none };
  // "auto" is a bar when stderr is a terminal, lines otherwise. Throws Error for other values.
  static Mode parse(const std::string& name);

  Progress(Mode mode, long total_steps, double points_per_step, double interval_s);
  bool due(double elapsed_s) const;  // cheap: call every step, fence and report() when true
  void report(long steps_done, double elapsed_s);
  void finish(long steps_done, double elapsed_s);
  // Show the simulated time (steps x dt seconds) beside the steps (the seismic model).
  void set_time_step(double dt) { dt_ = dt; }

 private:
  Mode mode_;
  long total_;
  double points_per_step_, interval_, next_ = 0;
  double dt_ = 0;  // > 0: simulated seconds per step
};

}  // namespace wavefd
