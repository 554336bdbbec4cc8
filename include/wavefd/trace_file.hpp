#pragma once
// Receiver traces on disk, the raw form (receivers.format = raw, and auto where segyio is not
// available; SEG-Y in segy.hpp): one line of JSON, then the traces as little-endian float32, one
// trace (all its samples) after another:
//   {"wavefd": "traces", "receivers": 3, "samples": 500, "interval": 0.004, "dtype": "float32",
//    "positions": [[x, y, z], ...]}                         (positions in metres, interval in s)
// numpy: `h = json.loads(f.readline()); d = np.fromfile(f, "<f4").reshape(h["receivers"], h["samples"])`.
// A file is written whole or not at all: into a temporary name beside it, then renamed.
#include <array>
#include <string>
#include <vector>

namespace wavefd {

struct Traces {
  double interval = 0;                          // seconds between samples
  std::vector<std::array<double, 3>> positions;  // metres, one per receiver
  std::vector<float> samples;                    // receivers x samples, trace after trace
  std::vector<std::array<double, 3>> sources;    // metres (SEG-Y's trace headers take the first)
  std::size_t samples_per_trace() const { return positions.empty() ? 0 : samples.size() / positions.size(); }
};

// Throws Error naming `key` (the deck key of the path) when the file cannot be written; then no
// file is left, neither the temporary one nor a partial `path`.
void write_raw_traces(const std::string& path, const Traces& t, const std::string& key);
Traces read_raw_traces(const std::string& path);  // throws Error for a file that is not one

}  // namespace wavefd
