#pragma once
// Wavefield slices of the seismic model (output.slices): one plane of u at one step, raw float32
// after a one-line JSON header (raw_file.hpp), e.g.
//   {"wavefd": "slice", "normal": "y", "index": 40, "position": 400, "step": 100, "time": 0.12,
//    "axes": ["x", "z"], "n": [96, 72], "spacing": 10, "dtype": "float32"}
// values with the first of `axes` fastest. numpy: `h = json.loads(f.readline());
// s = np.fromfile(f, "<f4").reshape(h["n"][::-1])` (rows along the second axis: depth for y normals).
#include <array>
#include <string>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

struct Slice {
  int normal = 1;            // axis across the plane (0 = x, 1 = y, 2 = z)
  index_t index = 0;         // its global grid index
  long step = 0;
  double time = 0;           // s
  double spacing = 0;        // m
  std::array<index_t, 2> n{0, 0};  // points along the plane's two axes (the lower-numbered first)
  std::vector<float> values;       // n[0] * n[1], the first axis fastest
};

// The plane's two axes in order: {0, 1, 2} less `normal`.
std::array<int, 2> slice_axes(int normal);
// Throws Error naming `key` (output.slices) when it cannot be written; no partial file is left.
void write_raw_slice(const std::string& path, const Slice& s, const std::string& key);

}  // namespace wavefd
