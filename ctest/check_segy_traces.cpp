// check_segy_traces SEGY RAW: the SEG-Y receiver traces of a `wavefd seismic` run, read with
// segyio's C API, hold what the raw traces of the same run hold: the receivers' positions, the
// sample interval and every sample, bit for bit. Used by CTest where python3-segyio is missing
// (check_segy_traces.py is the same check in Python). Exit 0 with one line when they match.
#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "wavefd/trace_file.hpp"
#include "wavefd/types.hpp"

namespace {

struct Closer {
  void operator()(segy_file* f) const { segy_close(f); }
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "check_segy_traces: %s\n", what.c_str());
  std::exit(1);
}

void expect(bool ok, const std::string& what) {
  if (!ok) fail(what);
}

std::int32_t field(const char* header, int f) {
  std::int32_t v = 0;
  expect(segy_get_field(header, f, &v) == SEGY_OK, "trace header field " + std::to_string(f) + " unreadable");
  return v;
}

std::int32_t cm(double metres) { return std::int32_t(std::lround(metres * 100)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) fail("usage: check_segy_traces SEGY RAW");
  wavefd::Traces raw;
  try {
    raw = wavefd::read_raw_traces(argv[2]);
  } catch (const wavefd::Error& e) {
    fail(e.what());
  }
  const std::unique_ptr<segy_file, Closer> f(segy_open(argv[1], "rb"));
  expect(bool(f), std::string(argv[1]) + " cannot be opened");
  char bin[SEGY_BINARY_HEADER_SIZE];
  expect(segy_binheader(f.get(), bin) == SEGY_OK, "no binary header");
  expect(segy_format(bin) == SEGY_IEEE_FLOAT_4_BYTE, "format " + std::to_string(segy_format(bin)) + ", not 5");
  const int ns = segy_samples(bin);
  expect(std::size_t(ns) == raw.samples_per_trace(),
         std::to_string(ns) + " samples per trace, raw has " + std::to_string(raw.samples_per_trace()));
  const long trace0 = segy_trace0(bin);
  const int bsize = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, ns);
  int traces = 0;
  expect(segy_traces(f.get(), &traces, trace0, bsize) == SEGY_OK, "not a whole number of traces");
  expect(std::size_t(traces) == raw.positions.size(),
         std::to_string(traces) + " traces, raw has " + std::to_string(raw.positions.size()) + " receivers");
  float dt = 0;
  expect(segy_sample_interval(f.get(), 0, &dt) == SEGY_OK, "no sample interval");
  expect(long(dt) == std::lround(raw.interval * 1e6),
         "sample interval " + std::to_string(dt) + " us, raw has " + std::to_string(raw.interval) + " s");
  expect(segy_set_format(f.get(), SEGY_IEEE_FLOAT_4_BYTE) == SEGY_OK, "segyio refuses format 5");
  std::vector<float> samples(static_cast<std::size_t>(ns));
  double peak = 0;
  for (int r = 0; r < traces; ++r) {
    const std::string trace = "trace " + std::to_string(r) + ": ";
    char h[SEGY_TRACE_HEADER_SIZE];
    expect(segy_traceheader(f.get(), r, h, trace0, bsize) == SEGY_OK, trace + "no header");
    const auto& p = raw.positions[std::size_t(r)];
    expect(field(h, SEGY_TR_SOURCE_GROUP_SCALAR) == -100 && field(h, SEGY_TR_ELEV_SCALAR) == -100,
           trace + "coordinate scalars are not -100");
    expect(field(h, SEGY_TR_GROUP_X) == cm(p[0]) && field(h, SEGY_TR_GROUP_Y) == cm(p[1]) &&
               field(h, SEGY_TR_RECV_GROUP_ELEV) == cm(-p[2]),
           trace + "the receiver is not at " + wavefd::format_number(p[0]) + ", " + wavefd::format_number(p[1]) +
               ", " + wavefd::format_number(p[2]) + " m");
    expect(field(h, SEGY_TR_SAMPLE_COUNT) == ns, trace + "sample count");
    expect(segy_readtrace(f.get(), r, samples.data(), trace0, bsize) == SEGY_OK, trace + "samples unreadable");
    segy_to_native(SEGY_IEEE_FLOAT_4_BYTE, ns, samples.data());
    for (int s = 0; s < ns; ++s)
      expect(samples[std::size_t(s)] == raw.samples[std::size_t(r) * std::size_t(ns) + std::size_t(s)],
             trace + "sample " + std::to_string(s) + " differs from the raw trace");
    for (float s : samples) peak = std::max(peak, double(std::abs(s)));
  }
  expect(peak > 0, "every sample is 0");
  std::printf("check_segy_traces: %d traces x %d samples (%g us apart, peak |u| %g) match the raw traces\n", traces, ns,
              double(dt), peak);
  return 0;
}
