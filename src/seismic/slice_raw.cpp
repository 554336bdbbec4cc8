// Wavefield slices as raw float32 with a one-line JSON header (format in slice_file.hpp).
#include <nlohmann/json.hpp>

#include "wavefd/raw_file.hpp"
#include "wavefd/slice_file.hpp"

namespace wavefd {

std::array<int, 2> slice_axes(int normal) { return normal == 0 ? std::array{1, 2} : normal == 1 ? std::array{0, 2} : std::array{0, 1}; }

void write_raw_slice(const std::string& path, const Slice& s, const std::string& key) {
  const auto axes = slice_axes(s.normal);
  const nlohmann::json header = {{"wavefd", "slice"},
                                 {"normal", std::string(1, axis_name(s.normal))},
                                 {"index", s.index},
                                 {"position", double(s.index) * s.spacing},
                                 {"step", s.step},
                                 {"time", s.time},
                                 {"axes", {std::string(1, axis_name(axes[0])), std::string(1, axis_name(axes[1]))}},
                                 {"n", s.n},
                                 {"spacing", s.spacing},
                                 {"dtype", "float32"}};
  if (s.values.size() != std::size_t(s.n[0] * s.n[1]))
    throw Error(key + ": a slice of " + std::to_string(s.values.size()) + " values for a plane of " +
                std::to_string(s.n[0] * s.n[1]) + " points");
  write_raw_file(path, header.dump(), s.values, key, Sync::none);  // a failed run removes its slices
}

}  // namespace wavefd
