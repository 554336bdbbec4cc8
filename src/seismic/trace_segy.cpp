// Receiver traces as SEG-Y through segyio's C API (format in segy.hpp).
#include <cmath>
#include <limits>

#include "segy_file.hpp"
#include "wavefd/raw_file.hpp"
#include "wavefd/segy.hpp"

namespace wavefd {
namespace {

constexpr int max_short = 32767;  // SEG-Y rev 1's 2-byte counts, as segyio 1.8 reads them (signed)

long microseconds(double seconds) { return std::lround(seconds * 1e6); }

// A length in centimetres as a 4-byte header word; throws Error when it does not fit.
std::int32_t centimetres(double metres, const std::string& key) {
  const double cm = std::round(metres * 100);
  if (!(std::abs(cm) <= double(std::numeric_limits<std::int32_t>::max())))
    throw Error(key + ": the position " + format_number(metres) + " m does not fit a SEG-Y header word in centimetres");
  return std::int32_t(cm);
}

}  // namespace

std::string segy_trace_limits(std::size_t samples, double interval) {
  if (samples > std::size_t(max_short))
    return "SEG-Y rev 1 holds at most 32767 samples per trace; these traces have " + std::to_string(samples);
  const long us = microseconds(interval);
  if (us < 1 || us > max_short)
    return "SEG-Y rev 1 holds a sample interval of 1 .. 32767 us; these traces have " + format_number(interval * 1e6) + " us";
  return "";
}

void write_segy_traces(const std::string& path, const Traces& t, const std::vector<std::string>& notes,
                       const std::string& key) {
  if (t.positions.empty() || t.samples.size() % t.positions.size() != 0)
    throw Error(key + ": " + std::to_string(t.samples.size()) + " samples do not make whole traces of " +
                std::to_string(t.positions.size()) + " receivers");
  const std::size_t ns = t.samples_per_trace();
  if (const std::string why = segy_trace_limits(ns, t.interval); !why.empty()) throw Error(key + ": " + why);
  const int us = int(microseconds(t.interval));
  const std::array<double, 3> source = t.sources.empty() ? std::array<double, 3>{0, 0, 0} : t.sources.front();

  // Header words first (they may throw), then the file.
  struct Trace {
    std::int32_t x, y, elevation, offset;
  };
  std::vector<Trace> words;
  for (const auto& p : t.positions)
    words.push_back({centimetres(p[0], key), centimetres(p[1], key), centimetres(-p[2], key),
                     std::int32_t(std::lround(std::hypot(p[0] - source[0], p[1] - source[1])))});
  const std::int32_t sx = centimetres(source[0], key), sy = centimetres(source[1], key), sz = centimetres(source[2], key);

  std::vector<std::string> text = {
      "wavefd receiver traces: SEG-Y rev 1, IEEE float (format 5), big-endian",
      std::to_string(t.positions.size()) + " receivers x " + std::to_string(ns) + " samples, interval " +
          format_number(t.interval) + " s (" + std::to_string(us) + " us in the headers)",
      "receiver at GroupX, GroupY (81, 85); ReceiverGroupElevation (41) = -depth",
      "source: SourceX, SourceY (73, 77), SourceDepth (49); offset (37) in m",
      "coordinates and elevations in cm (scalars -100 at bytes 71 and 69)",
      t.sources.empty() ? std::string("no source")
                        : "source 1 of " + std::to_string(t.sources.size()) + " at x, y, z = " +
                              format_number(source[0]) + ", " + format_number(source[1]) + ", " +
                              format_number(source[2]) + " m"};
  text.insert(text.end(), notes.begin(), notes.end());
  const std::string textual = segy::textual_header(text);

  write_atomically(path, key, [&](const std::string& tmp) {
    segy::File f = segy::open(tmp, "w+b");
    if (!f) return false;
    const std::vector<std::pair<int, int>> fields = {
        {SEGY_BIN_JOB_ID, 1}, {SEGY_BIN_LINE_NUMBER, 1}, {SEGY_BIN_REEL_NUMBER, 1},
        {SEGY_BIN_TRACES, int(std::min<std::size_t>(t.positions.size(), max_short))},
        {SEGY_BIN_INTERVAL, us}, {SEGY_BIN_INTERVAL_ORIG, us}, {SEGY_BIN_SAMPLES, int(ns)},
        {SEGY_BIN_SAMPLES_ORIG, int(ns)}, {SEGY_BIN_ENSEMBLE_FOLD, 1},
        {SEGY_BIN_SORTING_CODE, 1},  // as recorded
        {SEGY_BIN_MEASUREMENT_SYSTEM, 1},  // metres
        {SEGY_BIN_TRACE_FLAG, 1},  // every trace of the same length
        {SEGY_BIN_EXT_HEADERS, 0}};
    const long trace0 = segy::write_file_headers(f, textual, fields);
    if (trace0 < 0) return false;
    const int bsize = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, int(ns));
    std::vector<float> samples(ns);
    for (std::size_t r = 0; r < t.positions.size(); ++r) {
      const int number = int(r + 1);
      char h[SEGY_TRACE_HEADER_SIZE] = {};
      const std::pair<int, std::int32_t> fields[] = {
          {SEGY_TR_SEQ_LINE, number}, {SEGY_TR_SEQ_FILE, number}, {SEGY_TR_FIELD_RECORD, 1},
          {SEGY_TR_NUMBER_ORIG_FIELD, number}, {SEGY_TR_TRACE_ID, 1}, {SEGY_TR_DATA_USE, 1},
          {SEGY_TR_OFFSET, words[r].offset}, {SEGY_TR_RECV_GROUP_ELEV, words[r].elevation},
          {SEGY_TR_SOURCE_DEPTH, sz}, {SEGY_TR_ELEV_SCALAR, segy::coordinate_scalar},
          {SEGY_TR_SOURCE_GROUP_SCALAR, segy::coordinate_scalar}, {SEGY_TR_SOURCE_X, sx}, {SEGY_TR_SOURCE_Y, sy},
          {SEGY_TR_GROUP_X, words[r].x}, {SEGY_TR_GROUP_Y, words[r].y}, {SEGY_TR_COORD_UNITS, 1},
          {SEGY_TR_SAMPLE_COUNT, std::int32_t(ns)}, {SEGY_TR_SAMPLE_INTER, us}};
      for (const auto& [field, value] : fields)
        if (segy_set_field(h, field, value) != SEGY_OK) return false;
      std::copy_n(t.samples.begin() + std::ptrdiff_t(r * ns), ns, samples.begin());
      if (segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, (long long)ns, samples.data()) != SEGY_OK ||
          segy_write_traceheader(f.get(), int(r), h, trace0, bsize) != SEGY_OK ||
          segy_writetrace(f.get(), int(r), samples.data(), trace0, bsize) != SEGY_OK)
        return false;
    }
    return segy::close(f);
  });
}

}  // namespace wavefd
