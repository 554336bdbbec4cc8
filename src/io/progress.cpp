#include "io/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "wavefd/types.hpp"

namespace wavefd {

Progress::Mode Progress::parse(const std::string& name) {
  if (name == "auto") return isatty(STDERR_FILENO) ? Mode::bar : Mode::line;
  if (name == "bar") return Mode::bar;
  if (name == "line") return Mode::line;
  if (name == "none") return Mode::none;
  throw Error("output.progress = '" + name + "' is unknown; accepted: auto, bar, line, none");
}

Progress::Progress(Mode mode, long total_steps, double points_per_step, double interval_s)
    : mode_(mode), total_(total_steps), points_per_step_(points_per_step),
      interval_(mode == Mode::bar ? 0.2 : interval_s), next_(interval_) {}

bool Progress::due(double elapsed_s) const { return mode_ != Mode::none && elapsed_s >= next_; }

namespace {
std::string clock(double s) {
  char buf[32];
  const long t = long(s + 0.5);
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  return buf;
}
}  // namespace

void Progress::report(long done, double elapsed) {
  next_ = elapsed + interval_;
  const double frac = total_ > 0 ? double(done) / double(total_) : 1;
  const double gpts = elapsed > 0 ? points_per_step_ * double(done) / elapsed / 1e9 : 0;
  const double eta = done > 0 ? elapsed * double(total_ - done) / double(done) : 0;
  char simulated[48] = "";
  if (dt_ > 0) std::snprintf(simulated, sizeof simulated, " t = %.4g/%.4g s", dt_ * double(done), dt_ * double(total_));
  if (mode_ == Mode::bar) {
    constexpr int width = 30;
    char bar[width + 1];
    for (int i = 0; i < width; ++i) bar[i] = i < int(frac * width) ? '#' : '.';
    bar[width] = 0;
    std::fprintf(stderr, "\r[%s] %3.0f%% step %ld/%ld%s  %.3f Gpts/s  ETA %s ", bar, 100 * frac, done,
                 total_, simulated, gpts, clock(eta).c_str());
  } else if (mode_ == Mode::line) {
    std::fprintf(stderr, "wavefd: step %ld/%ld (%.0f%%)%s, %.3f Gpts/s, elapsed %s, ETA %s\n", done,
                 total_, 100 * frac, simulated, gpts, clock(elapsed).c_str(), clock(eta).c_str());
  }
  std::fflush(stderr);
}

void Progress::finish(long done, double elapsed) {
  if (mode_ == Mode::none) return;
  report(done, elapsed);
  if (mode_ == Mode::bar) std::fputc('\n', stderr);
}

}  // namespace wavefd
