// SEG-Y through segyio (a build with WAVEFD_HAVE_SEGYIO): receiver traces written by wavefd and read
// back with segyio's own C API, and velocity models written with the C API (IEEE and IBM floats,
// big- and little-endian) read by wavefd, each rank its own box; bad files refused in one line.
#include <gtest/gtest.h>
#include <segyio/segy.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/velocity.hpp"

namespace {

using namespace wavefd;
namespace fs = std::filesystem;

struct Closer {
  void operator()(segy_file* f) const { segy_close(f); }
};
using File = std::unique_ptr<segy_file, Closer>;

std::int32_t field(const char* header, int f) {
  std::int32_t v = 0;
  EXPECT_EQ(segy_get_field(header, f, &v), SEGY_OK) << "field " << f;
  return v;
}

std::int32_t bfield(const char* bin, int f) {
  std::int32_t v = 0;
  EXPECT_EQ(segy_get_bfield(bin, f, &v), SEGY_OK) << "field " << f;
  return v;
}

// A fresh directory of the test's own.
struct Segy : ::testing::Test {
  fs::path dir = fs::temp_directory_path() / ("wavefd_segy_" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string file(const std::string& name) const { return (dir / name).string(); }
  std::vector<std::string> files() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

// --- receiver traces ------------------------------------------------------------------------------

Traces three_receivers() {
  Traces t;
  t.interval = 0.004;
  t.positions = {{100, 200, 20}, {120.25, 200, 20.5}, {140, 210, 0}};
  t.sources = {{110, 205, 12.5}, {0, 0, 0}};
  for (int i = 0; i < 3 * 7; ++i) t.samples.push_back(float(i) * 0.5f - 3.25f);
  return t;
}

TEST_F(Segy, TracesRoundTripThroughSegyio) {
  const Traces t = three_receivers();
  write_segy_traces(file("r.sgy"), t, {"a note of the caller"}, "receivers.file");
  EXPECT_EQ(files(), (std::vector<std::string>{"r.sgy"}));

  File f(segy_open(file("r.sgy").c_str(), "rb"));
  ASSERT_TRUE(f);
  char text[SEGY_TEXT_HEADER_SIZE + 1] = {};
  ASSERT_EQ(segy_read_textheader(f.get(), text), SEGY_OK);
  const std::string textual(text);
  EXPECT_EQ(textual.substr(0, 4), "C 1 ");
  EXPECT_NE(textual.find("wavefd receiver traces"), std::string::npos);
  EXPECT_NE(textual.find("C 7 a note of the caller"), std::string::npos);
  EXPECT_EQ(textual.substr(39 * 80, 22), "C40 END TEXTUAL HEADER");

  char bin[SEGY_BINARY_HEADER_SIZE];
  ASSERT_EQ(segy_binheader(f.get(), bin), SEGY_OK);
  EXPECT_EQ(segy_format(bin), SEGY_IEEE_FLOAT_4_BYTE);
  EXPECT_EQ(segy_samples(bin), 7);
  EXPECT_EQ(bfield(bin, SEGY_BIN_INTERVAL), 4000);
  EXPECT_EQ(bfield(bin, SEGY_BIN_MEASUREMENT_SYSTEM), 1);
  EXPECT_EQ(bfield(bin, SEGY_BIN_EXT_HEADERS), 0);
  EXPECT_EQ(std::uint8_t(bin[SEGY_BIN_SEGY_REVISION - SEGY_TEXT_HEADER_SIZE - 1]), 1);  // rev 1.0
  float dt = 0;
  ASSERT_EQ(segy_sample_interval(f.get(), 1.0f, &dt), SEGY_OK);
  EXPECT_EQ(dt, 4000.0f);
  ASSERT_EQ(segy_set_format(f.get(), SEGY_IEEE_FLOAT_4_BYTE), SEGY_OK);
  const long trace0 = segy_trace0(bin);
  const int bsize = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, 7);
  int traces = 0;
  ASSERT_EQ(segy_traces(f.get(), &traces, trace0, bsize), SEGY_OK);
  ASSERT_EQ(traces, 3);

  const std::int32_t want_x[3] = {10000, 12025, 14000}, want_y[3] = {20000, 20000, 21000};
  const std::int32_t want_elevation[3] = {-2000, -2050, 0}, want_offset[3] = {11, 11, 30};
  for (int r = 0; r < 3; ++r) {
    SCOPED_TRACE("trace " + std::to_string(r));
    char h[SEGY_TRACE_HEADER_SIZE];
    ASSERT_EQ(segy_traceheader(f.get(), r, h, trace0, bsize), SEGY_OK);
    EXPECT_EQ(field(h, SEGY_TR_SEQ_LINE), r + 1);
    EXPECT_EQ(field(h, SEGY_TR_NUMBER_ORIG_FIELD), r + 1);
    EXPECT_EQ(field(h, SEGY_TR_SAMPLE_COUNT), 7);
    EXPECT_EQ(field(h, SEGY_TR_SAMPLE_INTER), 4000);
    EXPECT_EQ(field(h, SEGY_TR_SOURCE_GROUP_SCALAR), -100);
    EXPECT_EQ(field(h, SEGY_TR_ELEV_SCALAR), -100);
    EXPECT_EQ(field(h, SEGY_TR_GROUP_X), want_x[r]);
    EXPECT_EQ(field(h, SEGY_TR_GROUP_Y), want_y[r]);
    EXPECT_EQ(field(h, SEGY_TR_RECV_GROUP_ELEV), want_elevation[r]);
    EXPECT_EQ(field(h, SEGY_TR_SOURCE_X), 11000);  // the first source
    EXPECT_EQ(field(h, SEGY_TR_SOURCE_Y), 20500);
    EXPECT_EQ(field(h, SEGY_TR_SOURCE_DEPTH), 1250);
    EXPECT_EQ(field(h, SEGY_TR_OFFSET), want_offset[r]);
    std::vector<float> got(7);
    ASSERT_EQ(segy_readtrace(f.get(), r, got.data(), trace0, bsize), SEGY_OK);
    ASSERT_EQ(segy_to_native(SEGY_IEEE_FLOAT_4_BYTE, 7, got.data()), SEGY_OK);
    EXPECT_EQ(got, std::vector<float>(t.samples.begin() + 7 * r, t.samples.begin() + 7 * (r + 1)));
  }
}

TEST_F(Segy, TracesThatCannotBeWrittenLeaveNothing) {
  Traces t = three_receivers();
  expect_error([&] { write_segy_traces(file("no/such/dir/r.sgy"), t, {}, "receivers.file"); },
               "receivers.file = '" + file("no/such/dir/r.sgy") + "': the directory '" + file("no/such/dir") + "' does not exist");
  // A directory of that name is in the way: refused before anything is written.
  fs::create_directories(dir / "taken" / "inside");
  expect_error([&] { write_segy_traces(file("taken"), t, {}, "receivers.file"); },
               "receivers.file = '" + file("taken") + "' is a directory; accepted: ");
  EXPECT_EQ(files(), (std::vector<std::string>{"taken"}));
  t.interval = 0.05;
  expect_error([&] { write_segy_traces(file("r.sgy"), t, {}, "receivers.file"); },
               "receivers.file: SEG-Y rev 1 holds a sample interval of 1 .. 32767 us; these traces have 50000 us");
  t.interval = 0.001;
  t.samples.assign(3 * 32768, 0.0f);
  expect_error([&] { write_segy_traces(file("r.sgy"), t, {}, "receivers.file"); },
               "receivers.file: SEG-Y rev 1 holds at most 32767 samples per trace; these traces have 32768");
  EXPECT_EQ(files(), (std::vector<std::string>{"taken"}));
}

TEST(SegyLimits, SamplesAndIntervalOfRevision1) {
  EXPECT_EQ(segy_trace_limits(32767, 0.032767), "");
  EXPECT_EQ(segy_trace_limits(1, 0.6e-6), "");  // 1 us once rounded
  EXPECT_NE(segy_trace_limits(32768, 0.004), "");
  EXPECT_NE(segy_trace_limits(10, 0.4e-6), "");
  EXPECT_NE(segy_trace_limits(10, 0.032768), "");
}

// --- velocity models ------------------------------------------------------------------------------

// A model written with segyio's C API alone: trace i + nx * j holds the column (i, j), samples
// along z, in `format` (1 IBM, 5 IEEE, 3 two-byte integers), little-endian when `lsb`.
void write_model(const std::string& path, const Index3& n, const std::vector<float>& speeds, int format = 5,
                 bool lsb = false) {
  File f(segy_open(path.c_str(), "w+b"));
  ASSERT_TRUE(f);
  ASSERT_EQ(segy_set_format(f.get(), format | (lsb ? SEGY_LSB : SEGY_MSB)), SEGY_OK);
  const std::string text(SEGY_TEXT_HEADER_SIZE, ' ');
  ASSERT_EQ(segy_write_textheader(f.get(), 0, text.c_str()), SEGY_OK);
  char bin[SEGY_BINARY_HEADER_SIZE] = {};
  segy_set_bfield(bin, SEGY_BIN_SAMPLES, int(n[2]));
  segy_set_bfield(bin, SEGY_BIN_FORMAT, format);
  segy_set_bfield(bin, SEGY_BIN_INTERVAL, 4000);
  ASSERT_EQ(segy_write_binheader(f.get(), bin), SEGY_OK);
  const long trace0 = segy_trace0(bin);
  const int bsize = segy_trsize(format, int(n[2]));
  for (index_t j = 0; j < n[1]; ++j)
    for (index_t i = 0; i < n[0]; ++i) {
      const int trace = int(i + n[0] * j);
      char h[SEGY_TRACE_HEADER_SIZE] = {};
      segy_set_field(h, SEGY_TR_SAMPLE_COUNT, int(n[2]));
      ASSERT_EQ(segy_write_traceheader(f.get(), trace, h, trace0, bsize), SEGY_OK);
      if (format == SEGY_SIGNED_SHORT_2_BYTE) {
        std::vector<char> zeros(std::size_t(bsize), 0);
        ASSERT_EQ(segy_writetrace(f.get(), trace, zeros.data(), trace0, bsize), SEGY_OK);
        continue;
      }
      std::vector<float> column;
      for (index_t k = 0; k < n[2]; ++k) column.push_back(speeds[std::size_t(i + n[0] * (j + n[1] * k))]);
      ASSERT_EQ(segy_from_native(format, n[2], column.data()), SEGY_OK);
      ASSERT_EQ(segy_writetrace(f.get(), trace, column.data(), trace0, bsize), SEGY_OK);
    }
}

std::vector<float> graded(const Index3& n) {
  std::vector<float> speeds;
  for (index_t z = 0; z < n[2]; ++z)
    for (index_t y = 0; y < n[1]; ++y)
      for (index_t x = 0; x < n[0]; ++x) speeds.push_back(float(1000 + 100 * z + 10 * y + x));
  return speeds;
}

void expect_box(const VelocityModel& m, const Box& box) {
  const std::vector<double> v = m.fill(box, 25);
  ASSERT_EQ(v.size(), std::size_t(box.size()));
  std::size_t at = 0;
  for (index_t z = box.lo[2]; z < box.hi[2]; ++z)
    for (index_t y = box.lo[1]; y < box.hi[1]; ++y)
      for (index_t x = box.lo[0]; x < box.hi[0]; ++x)
        EXPECT_EQ(v[at++], double(1000 + 100 * z + 10 * y + x)) << "(" << x << ", " << y << ", " << z << ")";
}

TEST_F(Segy, EachRankReadsItsBoxOfAnyFloatFile) {
  const Index3 n{5, 4, 3};
  const std::vector<float> speeds = graded(n);
  struct Case {
    std::string name;
    int format;
    bool lsb;
  };
  for (const Case& c : {Case{"ieee.sgy", SEGY_IEEE_FLOAT_4_BYTE, false}, Case{"ibm.sgy", SEGY_IBM_FLOAT_4_BYTE, false},
                        Case{"ieee-lsb.sgy", SEGY_IEEE_FLOAT_4_BYTE, true}}) {
    SCOPED_TRACE(c.name);
    write_model(file(c.name), n, speeds, c.format, c.lsb);
    const auto m = open_segy_velocity(file(c.name), n, 25);
    expect_box(*m, Box{{1, 2, 1}, {4, 4, 3}});  // a rank's box: global indices
    expect_box(*m, Box{{0, 0, 0}, n});
  }
}

TEST_F(Segy, WrittenModelsReadBackAndFollowTheLayout) {
  const Index3 n{4, 3, 5};
  const std::vector<float> speeds = graded(n);
  write_segy_velocity(file("v.sgy"), n, 25, speeds);
  EXPECT_EQ(files(), (std::vector<std::string>{"v.sgy"}));
  expect_box(*open_segy_velocity(file("v.sgy"), n, 25), Box{{0, 1, 2}, {3, 3, 5}});
  // Checked with segyio itself: trace 2 + 4 * 1 is the column (2, 1), inline 2, crossline 3.
  File f(segy_open(file("v.sgy").c_str(), "rb"));
  ASSERT_TRUE(f);
  char bin[SEGY_BINARY_HEADER_SIZE], h[SEGY_TRACE_HEADER_SIZE];
  ASSERT_EQ(segy_binheader(f.get(), bin), SEGY_OK);
  ASSERT_EQ(segy_samples(bin), 5);
  const long trace0 = segy_trace0(bin);
  const int bsize = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, 5);
  ASSERT_EQ(segy_traceheader(f.get(), 6, h, trace0, bsize), SEGY_OK);
  EXPECT_EQ(field(h, SEGY_TR_INLINE), 2);
  EXPECT_EQ(field(h, SEGY_TR_CROSSLINE), 3);
  EXPECT_EQ(field(h, SEGY_TR_CDP_X), 5000);  // 2 x 25 m in cm
  std::vector<float> column(5);
  ASSERT_EQ(segy_readtrace(f.get(), 6, column.data(), trace0, bsize), SEGY_OK);
  ASSERT_EQ(segy_to_native(SEGY_IEEE_FLOAT_4_BYTE, 5, column.data()), SEGY_OK);
  EXPECT_EQ(column, (std::vector<float>{1012, 1112, 1212, 1312, 1412}));
}

TEST_F(Segy, BadModelFilesAreRefusedInOneLine) {
  const Index3 n{4, 3, 2};
  std::vector<float> ok(24, 1500.f);
  write_model(file("ok.sgy"), n, ok);
  expect_error([&] { open_segy_velocity(file("missing.sgy"), n, 10); },
               "velocity.file = '" + file("missing.sgy") + "' cannot be read");
  {
    std::ofstream out(file("short.sgy"));
    out << "1500 1500 1500\n";
  }
  expect_error([&] { open_segy_velocity(file("short.sgy"), n, 10); },
               "short.sgy' is not a SEG-Y file: it is shorter than the 3600 bytes of its headers");
  expect_error([&] { open_segy_velocity(file("ok.sgy"), {4, 3, 3}, 10); },
               "ok.sgy' has 2 samples per trace; grid.n[z] is 3; accepted: 3 samples per trace (one trace per (x, y) column, its "
               "samples along z)");
  expect_error([&] { open_segy_velocity(file("ok.sgy"), {4, 4, 2}, 10); },
               "ok.sgy' holds 12 traces; a 4 x 4 x 2 model has 16 (grid.n[x] x grid.n[y]");
  fs::copy_file(file("ok.sgy"), file("cut.sgy"));
  fs::resize_file(file("cut.sgy"), fs::file_size(file("ok.sgy")) - 4);
  expect_error([&] { open_segy_velocity(file("cut.sgy"), n, 10); },
               "cut.sgy' is not a whole number of traces of 2 samples; a 4 x 3 x 2 model has 12 of them");
  write_model(file("short-ints.sgy"), n, ok, SEGY_SIGNED_SHORT_2_BYTE);
  expect_error([&] { open_segy_velocity(file("short-ints.sgy"), n, 10); },
               "short-ints.sgy' holds samples of SEG-Y format 3; accepted: 4-byte floats, IBM (format 1) or IEEE (format 5)");
  std::vector<float> bad = ok;
  bad[13] = NAN;  // (1, 0, 1)
  write_model(file("nan.sgy"), n, bad);
  expect_error([&] { open_segy_velocity(file("nan.sgy"), n, 10)->fill(Box{{0, 0, 0}, n}, 10); },
               "nan.sgy' holds the speed nan at the point (1, 0, 1); accepted: finite speeds > 0 (m/s)");
  bad[13] = 0;
  write_model(file("zero.sgy"), n, bad);
  expect_error([&] { open_segy_velocity(file("zero.sgy"), n, 10)->fill(Box{{0, 0, 0}, n}, 10); },
               "holds the speed 0 at the point (1, 0, 1)");
  // A rank whose box misses the bad point reads its part without error.
  EXPECT_EQ(open_segy_velocity(file("zero.sgy"), n, 10)->fill(Box{{0, 0, 0}, {4, 3, 1}}, 10).size(), 12u);
}

}  // namespace
