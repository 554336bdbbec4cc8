// velocity.model = segy: a SEG-Y velocity model read through segyio's C API (format in segy.hpp).
#include <cmath>
#include <limits>

#include "../io/input_file.hpp"
#include "segy_file.hpp"
#include "wavefd/raw_file.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/velocity.hpp"

namespace wavefd {
namespace {

std::string key_for(const std::string& path) { return "velocity.file = '" + path + "'"; }

std::string grid_text(const Index3& n) {
  return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
}

// What open_segy_velocity learnt from the headers.
struct Layout {
  int format = SEGY_IEEE_FLOAT_4_BYTE;  // 1 or 5
  bool lsb = false;                     // little-endian file
  long trace0 = 0;                      // bytes before the first trace header
  int bsize = 0;                        // bytes of samples per trace
};

segy::File open_for_reading(const std::string& path, const Layout& l) {
  segy::File f = segy::open(path, "rb");
  if (!f) throw Error(key_for(path) + " cannot be read");
  if (segy_set_format(f.get(), l.format | (l.lsb ? SEGY_LSB : SEGY_MSB)) != SEGY_OK)
    throw Error(key_for(path) + ": segyio refuses the sample format " + std::to_string(l.format));
  return f;
}

class SegyFile final : public VelocityModel {
 public:
  SegyFile(std::string path, Index3 n, Layout l) : path_(std::move(path)), n_(n), l_(l) {}
  std::string describe() const override { return "SEG-Y file " + path_; }

  // The box's columns, one sub-trace each: samples lo[2] .. hi[2] of trace x + nx * y.
  std::vector<double> fill(const Box& box, double) const override {
    const std::size_t ex = std::size_t(box.extent(0)), ey = std::size_t(box.extent(1)), ez = std::size_t(box.extent(2));
    std::vector<double> v(ex * ey * ez);
    if (v.empty()) return v;
    segy::File f = open_for_reading(path_, l_);
    std::vector<float> column(ez);
    for (index_t y = box.lo[1]; y < box.hi[1]; ++y)
      for (index_t x = box.lo[0]; x < box.hi[0]; ++x) {
        const int trace = int(x + n_[0] * y);
        if (segy_readsubtr(f.get(), trace, int(box.lo[2]), int(box.hi[2]), 1, column.data(), nullptr, l_.trace0,
                           l_.bsize) != SEGY_OK)
          throw Error(key_for(path_) + " cannot be read at trace " + std::to_string(trace) + " (the column (" +
                      std::to_string(x) + ", " + std::to_string(y) + "))");
        segy_to_native(l_.format, (long long)ez, column.data());
        for (std::size_t k = 0; k < ez; ++k) {
          const double s = column[k];
          if (!(std::isfinite(s) && s > 0))
            throw Error(key_for(path_) + " holds the speed " + format_number(s) + " at the point (" + std::to_string(x) +
                        ", " + std::to_string(y) + ", " + std::to_string(box.lo[2] + index_t(k)) +
                        "); accepted: finite speeds > 0 (m/s)");
          v[std::size_t(x - box.lo[0]) + ex * (std::size_t(y - box.lo[1]) + ey * k)] = s;
        }
      }
    return v;
  }

 private:
  std::string path_;
  Index3 n_;
  Layout l_;
};

}  // namespace

std::unique_ptr<VelocityModel> open_segy_velocity(const std::string& path, const Index3& n, double) {
  const std::string key = key_for(path);
  check_regular_input(path, key);
  segy::File f = segy::open(path, "rb");
  if (!f) throw Error(key + " cannot be read");
  char bin[SEGY_BINARY_HEADER_SIZE];
  if (segy_binheader(f.get(), bin) != SEGY_OK)
    throw Error(key + " is not a SEG-Y file: it is shorter than the 3600 bytes of its headers; accepted: a SEG-Y "
                "velocity model (4-byte float samples, one trace per (x, y) column)");
  Layout l;
  l.format = segy_format(bin);
  if ((l.format & 0xFF) == 0 && ((l.format >> 8) == SEGY_IBM_FLOAT_4_BYTE || (l.format >> 8) == SEGY_IEEE_FLOAT_4_BYTE)) {
    // A little-endian file (SEG-Y rev 2 allows it): read its binary header again, swapped.
    l.format >>= 8, l.lsb = true;
    if (segy_set_format(f.get(), l.format | SEGY_LSB) != SEGY_OK || segy_binheader(f.get(), bin) != SEGY_OK)
      throw Error(key + " cannot be read");
  }
  if (l.format != SEGY_IBM_FLOAT_4_BYTE && l.format != SEGY_IEEE_FLOAT_4_BYTE)
    throw Error(key + " holds samples of SEG-Y format " + std::to_string(l.format) +
                "; accepted: 4-byte floats, IBM (format 1) or IEEE (format 5)");
  const int samples = segy_samples(bin);
  if (samples != n[2])
    throw Error(key + " has " + std::to_string(samples) + " samples per trace; grid.n[z] is " + std::to_string(n[2]) +
                "; accepted: " + std::to_string(n[2]) + " samples per trace (one trace per (x, y) column, its samples along z)");
  l.trace0 = segy_trace0(bin);
  l.bsize = segy_trsize(l.format, samples);
  int traces = 0;
  const int err = segy_traces(f.get(), &traces, l.trace0, l.bsize);
  const long long want = (long long)n[0] * n[1];
  if (err == SEGY_TRACE_SIZE_MISMATCH || err == SEGY_INVALID_ARGS)
    throw Error(key + " is not a whole number of traces of " + std::to_string(samples) + " samples; a " + grid_text(n) +
                " model has " + std::to_string(want) + " of them (grid.n[x] x grid.n[y], x fastest)");
  if (err != SEGY_OK) throw Error(key + " cannot be read");
  if (traces != want)
    throw Error(key + " holds " + std::to_string(traces) + " traces; a " + grid_text(n) + " model has " +
                std::to_string(want) + " (grid.n[x] x grid.n[y], one per (x, y) column, x fastest)");
  return std::make_unique<SegyFile>(path, n, l);
}

void write_segy_velocity(const std::string& path, const Index3& n, double h, const std::vector<float>& speeds) {
  const std::string key = "'" + path + "'";
  if (speeds.size() != std::size_t(n[0] * n[1] * n[2]))
    throw Error(key + ": " + std::to_string(speeds.size()) + " speeds for a grid of " + std::to_string(n[0] * n[1] * n[2]) +
                " points");
  if (n[2] > 32767 || n[0] * n[1] > std::numeric_limits<int>::max())
    throw Error(key + ": a " + grid_text(n) + " model does not fit SEG-Y rev 1 (at most 32767 samples per trace)");
  const int nz = int(n[2]);
  const std::string textual = segy::textual_header(
      {"wavefd velocity model (m/s): SEG-Y rev 1, IEEE float (format 5), big-endian",
       "grid " + grid_text(n) + " points, spacing " + format_number(h) + " m",
       "trace i + nx * j holds the column (i, j), its samples along depth z",
       "inline (189) = j + 1, crossline (193) = i + 1; CDP X/Y (181, 185) in cm",
       "the sample interval field is unused (0): the spacing is in this header"});
  write_atomically(path, "velocity.file", [&](const std::string& tmp) {
    segy::File f = segy::open(tmp, "w+b");
    if (!f) return false;
    const std::vector<std::pair<int, int>> fields = {
        {SEGY_BIN_SAMPLES, nz}, {SEGY_BIN_SAMPLES_ORIG, nz}, {SEGY_BIN_SORTING_CODE, SEGY_INLINE_SORTING},
        {SEGY_BIN_MEASUREMENT_SYSTEM, 1}, {SEGY_BIN_TRACE_FLAG, 1}};
    const long trace0 = segy::write_file_headers(f, textual, fields);
    if (trace0 < 0) return false;
    const int bsize = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, nz);
    std::vector<float> column(static_cast<std::size_t>(nz));
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i < n[0]; ++i) {
        const int trace = int(i + n[0] * j);
        char th[SEGY_TRACE_HEADER_SIZE] = {};
        const std::pair<int, std::int32_t> fields[] = {
            {SEGY_TR_SEQ_LINE, trace + 1}, {SEGY_TR_SEQ_FILE, trace + 1}, {SEGY_TR_INLINE, std::int32_t(j + 1)},
            {SEGY_TR_CROSSLINE, std::int32_t(i + 1)}, {SEGY_TR_SOURCE_GROUP_SCALAR, segy::coordinate_scalar},
            {SEGY_TR_CDP_X, std::int32_t(std::lround(double(i) * h * 100))},
            {SEGY_TR_CDP_Y, std::int32_t(std::lround(double(j) * h * 100))}, {SEGY_TR_SAMPLE_COUNT, nz}};
        for (const auto& [field, value] : fields)
          if (segy_set_field(th, field, value) != SEGY_OK) return false;
        for (index_t k = 0; k < n[2]; ++k) column[std::size_t(k)] = speeds[std::size_t(i + n[0] * (j + n[1] * k))];
        if (segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, nz, column.data()) != SEGY_OK ||
            segy_write_traceheader(f.get(), trace, th, trace0, bsize) != SEGY_OK ||
            segy_writetrace(f.get(), trace, column.data(), trace0, bsize) != SEGY_OK)
          return false;
      }
    return segy::close(f);
  });
}

}  // namespace wavefd
