#pragma once
// Basic types shared by every part of wavefd.
#include <array>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace wavefd {

using index_t = std::int64_t;
using Index3 = std::array<index_t, 3>;

// The precision a field is stored in. half and bfloat16 store 16 bits and compute in float
// (include/wavefd/storage_format.hpp); float and double compute in themselves.
enum class Precision { f32, f64, f16, bf16 };

inline std::string_view to_string(Precision p) {
  return p == Precision::f32 ? "float" : p == Precision::f64 ? "double" : p == Precision::f16 ? "half" : "bfloat16";
}
// Bytes per stored value.
inline constexpr int bytes_of(Precision p) { return p == Precision::f64 ? 8 : p == Precision::f32 ? 4 : 2; }
inline constexpr bool is_16_bit(Precision p) { return p == Precision::f16 || p == Precision::bf16; }

// Axis d (0, 1, 2) as messages name it: x, y, z.
inline constexpr char axis_name(int d) { return "xyz"[d]; }

// A number as messages print it: 6 significant digits ("0.452856", "1e+39").
inline std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// A user-facing error: one line, naming the offending parameter and its accepted range.
// main() prints it as "wavefd: error: <what>" and exits with status 2.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Half-open index box [lo, hi) in local interior coordinates (0 = first interior point).
struct Box {
  Index3 lo{0, 0, 0};
  Index3 hi{0, 0, 0};
  index_t extent(int d) const { return hi[d] > lo[d] ? hi[d] - lo[d] : 0; }
  index_t size() const { return extent(0) * extent(1) * extent(2); }
  bool empty() const { return size() == 0; }
};

}  // namespace wavefd
