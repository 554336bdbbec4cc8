// Unit tests of seismic decks (include/wavefd/seismic_deck.hpp): reading TOML, overrides, every
// error form, the expansion of receiver lines and planes, the model a deck builds, and the decks in inputs/.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "wavefd/pml_profile.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/seismic_deck.hpp"
#include "wavefd/time_step.hpp"
#include "wavefd/velocity.hpp"

#ifndef WAVEFD_SOURCE_DIR
#define WAVEFD_SOURCE_DIR "."
#endif

namespace {

using namespace wavefd;
namespace fs = std::filesystem;
using Words = std::vector<std::string>;

// The smallest deck that reads: what every test starts from, adding its own sections.
const std::string kBase = R"([grid]
n = [40, 40, 40]
spacing = 10
[scheme]
steps = 10
[velocity]
speed = 2000
)";

// Each test writes its decks into a directory of its own, removed afterwards.
class SeismicDeck : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("wavefd-deck-" + std::to_string(::getpid()) + "-" + info->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& text, const std::string& name = "deck.toml") const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  wavefd::SeismicDeck read(const std::string& extra, const Words& overrides = {}) const {
    return read_seismic_deck(write(kBase + extra), overrides);
  }
  // Expects the base deck plus `extra`, with `overrides`, to be refused with a message holding `part`.
  void refused(const std::string& extra, const Words& overrides, const std::string& part) const {
    expect_error([&] { read(extra, overrides); }, part);
  }

  fs::path dir_;
};

// --- reading --------------------------------------------------------------------------------------

TEST_F(SeismicDeck, DefaultsFillWhatTheDeckLeavesOut) {
  const wavefd::SeismicDeck d = read("");
  EXPECT_EQ(d.n, (Index3{40, 40, 40}));
  EXPECT_EQ(d.spacing, 10);
  EXPECT_EQ(d.M, 4);
  EXPECT_EQ(d.precision, "float");
  EXPECT_FALSE(d.cfl);
  EXPECT_FALSE(d.dt);
  EXPECT_EQ(d.steps, 10);
  EXPECT_FALSE(d.time);
  EXPECT_FALSE(d.vmax);
  EXPECT_EQ(d.variant, "auto");
  EXPECT_EQ(d.work, "seven-domain");
  EXPECT_EQ(d.source_term, "scaled");
  EXPECT_EQ(d.velocity_model, "constant");
  EXPECT_EQ(d.speed, 2000);
  EXPECT_EQ(d.gradient, 0);
  EXPECT_TRUE(d.layers.empty());
  EXPECT_EQ(d.velocity_file, "");
  EXPECT_EQ(d.absorbing, "pml");
  EXPECT_EQ(d.outer, "zero");
  EXPECT_FALSE(d.width);
  EXPECT_EQ(d.wavelengths, 3);
  EXPECT_FALSE(d.fmax);
  EXPECT_EQ(d.profile, "symmetric");
  EXPECT_TRUE(d.sources.empty());
  EXPECT_TRUE(d.receiver_positions.empty());
  EXPECT_EQ(d.every, 1);
  EXPECT_EQ(d.receiver_spreading, "sinc");
  EXPECT_EQ(d.traces, "");
  EXPECT_EQ(d.trace_format, "auto");
  EXPECT_EQ(d.summary, "wavefd-seismic.json");
  EXPECT_EQ(d.progress, "auto");
  EXPECT_EQ(d.status_interval, 10);
  EXPECT_EQ(d.check_interval, 100);
  EXPECT_EQ(d.slices, "");
  EXPECT_EQ(d.slice_every, 0);
  EXPECT_EQ(d.slice_axis, "y");
  EXPECT_FALSE(d.slice_position);
  EXPECT_EQ(d.ranks, (std::vector<long long>{0, 0, 0}));
  EXPECT_EQ(d.transport, "auto");
  EXPECT_EQ(d.overlap, "auto");
  EXPECT_EQ(d.gpu_aware, "auto");
  // A source takes its own defaults for what it leaves out.
  const wavefd::SeismicDeck s = read("[[source]]\nposition = [100, 100, 100]\n");
  ASSERT_EQ(s.sources.size(), 1u);
  EXPECT_EQ(s.sources[0].wavelet, "ricker");
  EXPECT_EQ(s.sources[0].frequency, 10);
  EXPECT_FALSE(s.sources[0].delay);
  EXPECT_EQ(s.sources[0].amplitude, 1);
  EXPECT_EQ(s.sources[0].spreading, "sinc");
}

TEST_F(SeismicDeck, EveryKeyIsRead) {
  const std::string deck = R"(
[grid]
n = [48, 40, 32]
spacing = 12.5
[stencil]
M = 3
[scheme]
precision = "double"
dt = 0.001
time = 0.5
vmax = 5000
variant = "kokkos-star"
work = "unified"
source_term = "minimod"
[velocity]
model = "gradient"
speed = 1800
gradient = 0.75
file = "v.raw"
[[velocity.layer]]
top = 0
speed = 1500
[[velocity.layer]]
top = 200.5
speed = 2500
[boundary]
absorbing = "sponge"
outer = "rigid"
width = 6
wavelengths = 2.5
fmax = 40
profile = "minimod"
[[source]]
position = [100, 110, 120]
wavelet = "minimod"
frequency = 20
delay = 0.05
amplitude = -2.5
spreading = "trilinear"
[[source]]
position = [50.5, 60, 70]
[receivers]
positions = [[10, 20, 30]]
every = 3
spreading = "trilinear"
file = "t.segy"
format = "segy"
[[receivers.line]]
from = [0, 0, 0]
to = [10, 0, 0]
count = 2
[output]
summary = "s.json"
progress = "line"
status_interval = 2.5
check_interval = 7
slices = "slice"
slice_every = 20
slice_axis = "z"
slice_position = 100
[parallel]
ranks = [2, 1, 0]
transport = "mpi"
overlap = false
gpu_aware = "yes"
)";
  const std::string path = write(deck);
  const wavefd::SeismicDeck d = read_seismic_deck(path, {});
  EXPECT_EQ(d.n, (Index3{48, 40, 32}));
  EXPECT_EQ(d.spacing, 12.5);
  EXPECT_EQ(d.M, 3);
  EXPECT_EQ(d.precision, "double");
  EXPECT_EQ(d.dt, 0.001);
  EXPECT_EQ(d.time, 0.5);
  EXPECT_FALSE(d.steps);
  EXPECT_EQ(d.vmax, 5000);
  EXPECT_EQ(d.variant, "kokkos-star");
  EXPECT_EQ(d.work, "unified");
  EXPECT_EQ(d.source_term, "minimod");
  EXPECT_EQ(d.velocity_model, "gradient");
  EXPECT_EQ(d.speed, 1800);
  EXPECT_EQ(d.gradient, 0.75);
  EXPECT_EQ(d.velocity_file, "v.raw");
  ASSERT_EQ(d.layers.size(), 2u);
  EXPECT_EQ(d.layers[1].top, 200.5);
  EXPECT_EQ(d.layers[1].speed, 2500);
  EXPECT_EQ(d.absorbing, "sponge");
  EXPECT_EQ(d.outer, "rigid");
  EXPECT_EQ(d.width, 6);
  EXPECT_EQ(d.wavelengths, 2.5);
  EXPECT_EQ(d.fmax, 40);
  EXPECT_EQ(d.profile, "minimod");
  ASSERT_EQ(d.sources.size(), 2u);
  EXPECT_EQ(d.sources[0].position, (std::array<double, 3>{100, 110, 120}));
  EXPECT_EQ(d.sources[0].wavelet, "minimod");
  EXPECT_EQ(d.sources[0].frequency, 20);
  EXPECT_EQ(d.sources[0].delay, 0.05);
  EXPECT_EQ(d.sources[0].amplitude, -2.5);
  EXPECT_EQ(d.sources[0].spreading, "trilinear");
  EXPECT_EQ(d.sources[1].position, (std::array<double, 3>{50.5, 60, 70}));
  EXPECT_EQ(d.sources[1].wavelet, "ricker");
  // The line's points come before the positions, whatever the order in the deck.
  EXPECT_EQ(d.receiver_positions,
            (std::vector<std::array<double, 3>>{{0, 0, 0}, {10, 0, 0}, {10, 20, 30}}));
  EXPECT_EQ(d.every, 3);
  EXPECT_EQ(d.receiver_spreading, "trilinear");
  EXPECT_EQ(d.traces, "t.segy");
  EXPECT_EQ(d.trace_format, "segy");
  EXPECT_EQ(d.summary, "s.json");
  EXPECT_EQ(d.progress, "line");
  EXPECT_EQ(d.status_interval, 2.5);
  EXPECT_EQ(d.check_interval, 7);
  EXPECT_EQ(d.slices, "slice");
  EXPECT_EQ(d.slice_every, 20);
  EXPECT_EQ(d.slice_axis, "z");
  EXPECT_EQ(d.slice_position, 100);
  EXPECT_EQ(d.ranks, (std::vector<long long>{2, 1, 0}));
  EXPECT_EQ(d.transport, "mpi");
  EXPECT_EQ(d.overlap, "false");
  EXPECT_EQ(d.gpu_aware, "yes");
  EXPECT_EQ(d.path, path);
}

TEST_F(SeismicDeck, IntegersAreAcceptedWhereNumbersAreExpected) {
  const wavefd::SeismicDeck d = read("[boundary]\nfmax = 30\nwavelengths = 2\n");
  EXPECT_EQ(d.spacing, 10.0);
  EXPECT_EQ(d.fmax, 30.0);
  EXPECT_EQ(d.wavelengths, 2.0);
}

// --- overrides ------------------------------------------------------------------------------------

TEST_F(SeismicDeck, OverridesWinOverTheDeck) {
  const wavefd::SeismicDeck d =
      read("[output]\nprogress = \"bar\"\n", {"--grid.n", "64", "48", "32", "--scheme.steps", "25", "--grid.spacing",
                                                "7.5", "--output.progress", "none", "--parallel.overlap", "true",
                                                "--output.summary", "runs/a b.json", "--scheme.precision", "double"});
  EXPECT_EQ(d.n, (Index3{64, 48, 32}));  // an array
  EXPECT_EQ(d.steps, 25);                // scalars
  EXPECT_EQ(d.spacing, 7.5);
  EXPECT_EQ(d.progress, "none");
  EXPECT_EQ(d.overlap, "true");          // TOML's true, stored by name
  EXPECT_EQ(d.summary, "runs/a b.json");  // a word that is no TOML value is a string
  EXPECT_EQ(d.precision, "double");
  // A section the deck lacks is created; the last of two overrides of one key wins.
  const wavefd::SeismicDeck e = read("", {"--boundary.width", "5", "--stencil.M", "2", "--stencil.M", "3"});
  EXPECT_EQ(e.width, 5);
  EXPECT_EQ(e.M, 3);
  // The model can be switched when the deck gives what the other model needs.
  const wavefd::SeismicDeck f =
      read("[[velocity.layer]]\ntop = 0\nspeed = 1500\n", {"--velocity.model", "layered"});
  EXPECT_EQ(f.velocity_model, "layered");
  ASSERT_EQ(f.layers.size(), 1u);
}

TEST_F(SeismicDeck, AnOverrideOfOneOfTwoExclusiveKeysReplacesTheOther) {
  const wavefd::SeismicDeck d = read("", {"--scheme.time", "0.25"});  // the deck has steps = 10
  EXPECT_EQ(d.time, 0.25);
  EXPECT_FALSE(d.steps);
  // Both given by overrides: refused, as in a deck.
  refused("", {"--scheme.steps", "5", "--scheme.time", "1"}, "scheme.steps and scheme.time are exclusive");
}

TEST_F(SeismicDeck, OverridesGoThroughTheDecksChecks) {
  refused("", {"--grid.n", "64"}, "grid.n = 64 is an integer; accepted: 3 integers, n >= 1");
  refused("", {"--grid.n", "64", "0", "64"}, "grid.n[1] = 0 is outside n >= 1");
  refused("", {"--scheme.steps", "ten"}, "scheme.steps = 'ten' is a string; accepted: an integer, steps >= 0");
  refused("", {"--scheme.cfl", "1.5"}, "scheme.cfl = 1.5 is outside 0 < cfl <= 1");
  refused("", {"--scheme.cfl", "0.5", "--scheme.dt", "0.001"}, "scheme.cfl and scheme.dt are exclusive");
}

TEST_F(SeismicDeck, BadOverridesAreRefused) {
  auto starts_with = [&](const Words& overrides, const std::string& start) {
    try {
      read("", overrides);
      ADD_FAILURE() << "no Error; expected one starting: " << start;
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(start, 0), 0u) << e.what();
    }
  };
  // The same message as in a deck, without the deck's path: the key is not in the deck.
  starts_with({"--scheme.stpes", "10"}, "unknown key 'scheme.stpes'; accepted: precision, rounding, second_field, cfl, dt, steps");
  starts_with({"--shceme.steps", "10"}, "unknown key 'shceme'; accepted: the sections grid, stencil, scheme, velocity");
  starts_with({"--steps", "10"}, "unknown key 'steps'; accepted: the sections ");
  expect_error([&] { read("", {"--source.position", "1", "2", "3"}); },
               "--source is an array of tables; accepted: [[source]] tables in the deck, not a flag");
  expect_error([&] { read("", {"--velocity.layer.top", "0"}); },
               "--velocity.layer is an array of tables; accepted: [[velocity.layer]] tables in the deck");
  expect_error([&] { read("", {"--receivers.line", "1"}); },
               "--receivers.line is an array of tables; accepted: [[receivers.line]] tables in the deck");
  expect_error([&] { read("", {"--receivers.positions", "1", "2", "3"}); },
               "--receivers.positions is a list of points; accepted: receivers.positions in the deck");
  expect_error([&] { read("", {"--grid", "3"}); }, "--grid is a section; accepted: one of its keys, --grid.KEY VALUE");
  expect_error([&] { read("", {"--grid.n.x", "3"}); }, "unknown key 'grid.n.x': grid.n is a value, not a section; accepted: --grid.n VALUE");
  expect_error([&] { read("", {"--scheme.steps"}); }, "--scheme.steps needs a value");
  expect_error([&] { read("", {"--scheme.steps", "--grid.spacing", "5"}); }, "--scheme.steps needs a value");
  expect_error([&] { read("", {"scheme.steps", "10"}); }, "override 'scheme.steps' is not a flag");
}

// --- errors in the deck ---------------------------------------------------------------------------

TEST_F(SeismicDeck, ABrokenArrayIsASyntaxErrorWithFileAndLine) {
  // The array runs on over the line break (TOML allows it), so the parser stops at line 3.
  const std::string path = write("[grid]\nn = [16, 16\nspacing = 10\n[scheme]\nsteps = 4\n");
  expect_error([&] { read_seismic_deck(path, {}); }, path + ":3: Error while parsing array");
  const std::string at_end = write("[scheme]\nsteps = 4\n[grid]\nn = [16, 16\n", "end.toml");
  expect_error([&] { read_seismic_deck(at_end, {}); }, at_end + ":4: ");
  const std::string twice = write("[grid]\nspacing = 10\nspacing = 20\n", "twice.toml");
  expect_error([&] { read_seismic_deck(twice, {}); }, twice + ":3: ");
  expect_error([&] { read_seismic_deck((dir_ / "absent.toml").string(), {}); }, "absent.toml' cannot be read");
}

TEST_F(SeismicDeck, UnknownKeysAreRefusedWithTheAcceptedOnes) {
  const std::string path = write(kBase + "nq = 3\n");  // in [velocity]
  expect_error([&] { read_seismic_deck(path, {}); },
               path + ": unknown key 'velocity.nq'; accepted: model, speed, gradient, layer, file in [velocity]");
  refused("[gird]\nn = 3\n", {}, ": unknown key 'gird'; accepted: the sections grid, stencil, scheme, velocity, boundary, "
                                 "source, receivers, output, parallel");
  refused("[[source]]\nposition = [0, 0, 0]\nfrequncy = 5\n", {},
          ": unknown key 'source[0].frequncy'; accepted: position, wavelet, frequency, delay, amplitude, spreading in "
          "[[source]]");
  refused("[[velocity.layer]]\ntop = 0\nspeed = 1\ndepth = 3\n", {},
          ": unknown key 'velocity.layer[0].depth'; accepted: top, speed in [[velocity.layer]]");
  refused("[receivers.line]\nfrom = 1\n", {}, "receivers.line is a table; accepted: an array of tables ([[receivers.line]])");
}

TEST_F(SeismicDeck, WrongTypesNameTheKey) {
  refused("", {"--grid.n", "16", "16"}, "grid.n = [16, 16] is an array of 2 integers; accepted: 3 integers");
  refused("", {"--grid.n", "16", "16", "16.5"}, "grid.n = [16, 16, 16.5] is an array of 3 mixed values; accepted: 3 integers");
  refused("", {"--grid.spacing", "ten"}, "grid.spacing = 'ten' is a string; accepted: a number, spacing > 0");
  refused("", {"--stencil.M", "4.0"}, "stencil.M = 4.0 is a float; accepted: an integer, 1 <= M <= 8");
  refused("", {"--scheme.precision", "true"}, "scheme.precision = true is a boolean; accepted: float, double, half, bfloat16");
  refused("", {"--parallel.ranks", "2", "2"}, "parallel.ranks = [2, 2] is an array of 2 integers; accepted: 3 integers");
  refused("[[source]]\nposition = [0, 0, 0]\n[[source]]\nposition = [0, 0, 0]\n[[source]]\nposition = [1, 2]\n", {},
          "source[2].position = [1, 2] is an array of 2 integers; accepted: 3 numbers [x, y, z], finite metres");
  refused("[[velocity.layer]]\ntop = 0\nspeed = 1500\n[[velocity.layer]]\ntop = 100\nspeed = \"fast\"\n", {},
          "velocity.layer[1].speed = 'fast' is a string; accepted: a number, speed > 0");
  refused("[receivers]\npositions = [1, 2, 3]\n", {}, "receivers.positions[0] = 1 is an integer; accepted: 3 numbers");
  refused("[receivers]\npositions = 3\n", {}, "receivers.positions = 3 is an integer; accepted: an array of points");
  refused("[[receivers.plane]]\norigin = [0, 0, 0]\nto_a = [1, 0, 0]\nto_b = [0, 1, 0]\ncount = 4\n", {},
          "receivers.plane[0].count = 4 is an integer; accepted: 2 integers");
  refused("[[source]]\nposition = [0, 0, 0]\nposition = [1, 1, 1]\n", {}, ":10: ");  // a key twice: TOML's error
  expect_error([&] { read_seismic_deck(write("grid = 3\n"), {}); }, "grid = 3 is an integer; accepted: a table ([grid])");
  expect_error([&] { read_seismic_deck(write("[source]\nposition = [0, 0, 0]\n"), {}); },
               "source is a table; accepted: an array of tables ([[source]])");
}

TEST_F(SeismicDeck, EachRangeErrorNamesItsKey) {
  struct Case {
    Words overrides;
    std::string part;
  };
  const std::vector<Case> cases = {
      {{"--grid.n", "0", "4", "4"}, "grid.n[0] = 0 is outside n >= 1"},
      {{"--grid.spacing", "0"}, "grid.spacing = 0 is outside spacing > 0"},
      {{"--grid.spacing", "inf"}, "grid.spacing = inf is outside spacing > 0"},
      {{"--stencil.M", "9"}, "stencil.M = 9 is outside 1 <= M <= 8"},
      {{"--stencil.M", "0"}, "stencil.M = 0 is outside 1 <= M <= 8"},
      {{"--scheme.precision", "quarter"}, "scheme.precision = 'quarter' is unknown; accepted: float, double, half, bfloat16"},
      {{"--scheme.second_field", "u"}, "scheme.second_field = 'u' is unknown; accepted: previous, velocity"},
      {{"--scheme.cfl", "0"}, "scheme.cfl = 0 is outside 0 < cfl <= 1"},
      {{"--scheme.dt", "-1"}, "scheme.dt = -1 is outside dt > 0"},
      {{"--scheme.steps", "-1"}, "scheme.steps = -1 is outside steps >= 0"},
      {{"--scheme.time", "0"}, "scheme.time = 0 is outside time > 0"},
      {{"--scheme.vmax", "nan"}, "scheme.vmax = nan is outside vmax > 0"},
      {{"--scheme.work", "three"}, "scheme.work = 'three' is unknown; accepted: seven-domain, three-domain, unified"},
      {{"--scheme.source_term", "x"}, "scheme.source_term = 'x' is unknown; accepted: scaled, minimod"},
      {{"--velocity.model", "salt"}, "velocity.model = 'salt' is unknown; accepted: constant, layered, gradient, file, segy"},
      {{"--velocity.speed", "-3"}, "velocity.speed = -3 is outside speed > 0"},
      {{"--velocity.gradient", "inf"}, "velocity.gradient = inf is outside the finite numbers"},
      {{"--boundary.absorbing", "cpml"}, "boundary.absorbing = 'cpml' is unknown; accepted: pml, sponge, none"},
      {{"--boundary.outer", "free"}, "boundary.outer = 'free' is unknown; accepted: zero, rigid"},
      {{"--boundary.width", "-1"}, "boundary.width = -1 is outside width >= 0"},
      {{"--boundary.width", "9999999999"}, "boundary.width = 9999999999 is too large; accepted: at most 2147483647"},
      {{"--boundary.wavelengths", "0"}, "boundary.wavelengths = 0 is outside wavelengths > 0"},
      {{"--boundary.fmax", "0"}, "boundary.fmax = 0 is outside fmax > 0"},
      {{"--boundary.profile", "x"}, "boundary.profile = 'x' is unknown; accepted: symmetric, minimod"},
      {{"--receivers.every", "0"}, "receivers.every = 0 is outside every >= 1"},
      {{"--receivers.spreading", "cubic"}, "receivers.spreading = 'cubic' is unknown; accepted: sinc, trilinear"},
      {{"--receivers.format", "su"}, "receivers.format = 'su' is unknown; accepted: auto, raw, segy"},
      {{"--output.progress", "dots"}, "output.progress = 'dots' is unknown; accepted: auto, bar, line, none"},
      {{"--output.status_interval", "0"}, "output.status_interval = 0 is outside status_interval > 0"},
      {{"--output.check_interval", "0"}, "output.check_interval = 0 is outside check_interval >= 1"},
      {{"--output.slice_every", "-1"}, "output.slice_every = -1 is outside slice_every >= 0"},
      {{"--output.slice_axis", "w"}, "output.slice_axis = 'w' is unknown; accepted: x, y, z"},
      {{"--output.slice_position", "391"}, "output.slice_position = 391 is outside 0 <= slice_position <= 390"},
      {{"--output.slice_axis", "z", "--output.slice_position", "-1"}, "output.slice_position = -1 is outside"},
      {{"--parallel.ranks", "1", "-1", "1"}, "parallel.ranks[1] = -1 is outside ranks >= 0"},
      {{"--parallel.transport", "tcp"}, "parallel.transport = 'tcp' is unknown; accepted: auto, local, mpi, mpi-gpu"},
      {{"--parallel.overlap", "maybe"}, "parallel.overlap = 'maybe' is unknown; accepted: auto, true, false"},
      {{"--parallel.gpu_aware", "true"}, "parallel.gpu_aware = true is a boolean; accepted: auto, yes, no"},
      {{"--parallel.gpu_aware", "perhaps"}, "parallel.gpu_aware = 'perhaps' is unknown; accepted: auto, yes, no"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.overrides[0]);
    refused("", c.overrides, c.part);
  }
  // The keys of the arrays of tables.
  const std::string source = "[[source]]\nposition = [0, 0, 0]\n";
  refused(source + "frequency = 0\n", {}, "source[0].frequency = 0 is outside frequency > 0");
  refused(source + "delay = -0.1\n", {}, "source[0].delay = -0.1 is outside delay >= 0");
  refused(source + "wavelet = \"gabor\"\n", {}, "source[0].wavelet = 'gabor' is unknown; accepted: ricker, minimod");
  refused(source + "spreading = \"nearest\"\n", {},
          "source[0].spreading = 'nearest' is unknown; accepted: sinc, trilinear");
  refused(source + "amplitude = nan\n", {}, "source[0].amplitude = nan is outside the finite numbers");
  refused("[[source]]\nposition = [0, inf, 0]\n", {}, "source[0].position[1] = inf is outside the finite numbers");
  refused("[[velocity.layer]]\ntop = -5\nspeed = 1500\n", {}, "velocity.layer[0].top = -5 is outside top >= 0");
  refused("[[velocity.layer]]\ntop = 0\nspeed = 0\n", {}, "velocity.layer[0].speed = 0 is outside speed > 0");
  refused("[[receivers.line]]\nfrom = [0, 0, 0]\nto = [1, 0, 0]\ncount = 0\n", {},
          "receivers.line[0].count = 0 is outside count >= 1");
  refused("[[receivers.plane]]\norigin = [0, 0, 0]\nto_a = [1, 0, 0]\nto_b = [0, 1, 0]\ncount = [2, 0]\n", {},
          "receivers.plane[0].count[1] = 0 is outside count >= 1");
}

TEST_F(SeismicDeck, RequiredKeysAreNamed) {
  expect_error([&] { read_seismic_deck(write("[grid]\nspacing = 10\n[scheme]\nsteps = 1\n"), {}); },
               "grid.n is required");
  expect_error([&] { read_seismic_deck(write("[grid]\nn = [8, 8, 8]\n[scheme]\nsteps = 1\n"), {}); },
               "grid.spacing is required");
  expect_error([&] { read_seismic_deck(write("[grid]\nn = [8, 8, 8]\nspacing = 1\n[scheme]\nsteps = 1\n"), {}); },
               "velocity.speed is required for velocity.model = 'constant'");
  refused("", {"--velocity.model", "gradient", "--velocity.speed", "0"}, "velocity.speed = 0 is outside speed > 0");
  refused("", {"--velocity.model", "layered"}, "velocity.layer is required for velocity.model = 'layered'");
  refused("", {"--velocity.model", "file"}, "velocity.file is required for velocity.model = 'file'");
  refused("", {"--velocity.model", "segy"}, "velocity.file is required for velocity.model = 'segy'; accepted: a SEG-Y velocity file");
  refused("[[source]]\nfrequency = 5\n", {}, "source[0].position is required; accepted: every [[source]] gives position");
  refused("[[velocity.layer]]\ntop = 0\n", {}, "velocity.layer[0].speed is required");
  refused("[[receivers.line]]\nfrom = [0, 0, 0]\ncount = 3\n", {}, "receivers.line[0].to is required");
  refused("[[receivers.plane]]\norigin = [0, 0, 0]\nto_a = [1, 0, 0]\nto_b = [0, 1, 0]\n", {},
          "receivers.plane[0].count is required");
}

TEST_F(SeismicDeck, CflAndDtExcludeEachOther) {
  const std::string both = "[grid]\nn = [8, 8, 8]\nspacing = 1\n[velocity]\nspeed = 1\n[scheme]\nsteps = 1\n";
  expect_error([&] { read_seismic_deck(write(both + "cfl = 0.5\ndt = 0.001\n"), {}); },
               "scheme.cfl and scheme.dt are exclusive");
  EXPECT_EQ(read_seismic_deck(write(both + "cfl = 0.5\n"), {}).cfl, 0.5);
  EXPECT_EQ(read_seismic_deck(write(both + "dt = 0.001\n"), {}).dt, 0.001);
  // An override of one replaces the other from the deck.
  const wavefd::SeismicDeck d = read_seismic_deck(write(both + "cfl = 0.5\n"), {"--scheme.dt", "0.002"});
  EXPECT_EQ(d.dt, 0.002);
  EXPECT_FALSE(d.cfl);
}

TEST_F(SeismicDeck, StepsOrTimeExactlyOne) {
  const std::string head = "[grid]\nn = [8, 8, 8]\nspacing = 1\n[velocity]\nspeed = 1\n[scheme]\n";
  expect_error([&] { read_seismic_deck(write(head), {}); }, "scheme.steps or scheme.time is required");
  expect_error([&] { read_seismic_deck(write(head + "steps = 3\ntime = 1\n"), {}); },
               "scheme.steps and scheme.time are exclusive");
  EXPECT_EQ(read_seismic_deck(write(head + "steps = 0\n"), {}).steps, 0);  // 0 steps: the initial state only
  const wavefd::SeismicDeck d = read_seismic_deck(write(head + "steps = 3\n"), {"--scheme.time", "2"});
  EXPECT_EQ(d.time, 2);
  EXPECT_FALSE(d.steps);
}

// --- receivers ------------------------------------------------------------------------------------

TEST_F(SeismicDeck, ReceiverLinesPlanesAndPositionsExpandInOrder) {
  const wavefd::SeismicDeck d = read(R"(
[receivers]
positions = [[1, 2, 3], [4, 5, 6]]
[[receivers.plane]]
origin = [0, 0, 100]
to_a = [20, 0, 100]
to_b = [0, 10, 100]
count = [3, 2]
[[receivers.line]]
from = [0, 0, 0]
to = [30, 60, 90]
count = 4
[[receivers.line]]
from = [7, 8, 9]
to = [100, 100, 100]
count = 1
[[receivers.plane]]
origin = [5, 5, 5]
to_a = [6, 6, 6]
to_b = [50, 5, 5]
count = [1, 2]
)");
  const std::vector<std::array<double, 3>> want = {
      // lines, in deck order: 4 points from `from` to `to`; count 1 is `from` alone
      {0, 0, 0}, {10, 20, 30}, {20, 40, 60}, {30, 60, 90}, {7, 8, 9},
      // planes, i (along to_a) fastest
      {0, 0, 100}, {10, 0, 100}, {20, 0, 100}, {0, 10, 100}, {10, 10, 100}, {20, 10, 100},
      {5, 5, 5}, {50, 5, 5},  // na = 1: i = 0 only
      // then the positions
      {1, 2, 3}, {4, 5, 6}};
  EXPECT_EQ(d.receiver_positions, want);
}

// --- the model ------------------------------------------------------------------------------------

TEST_F(SeismicDeck, PositionsInMetresLandExactlyOnGridPoints) {
  // 0.3 / 0.1 is 2.9999999999999996 in floating point: snapped to the grid point 3.
  const wavefd::SeismicDeck d = read_seismic_deck(write(R"([grid]
n = [10, 10, 60]
spacing = 0.1
[scheme]
steps = 1
[velocity]
speed = 1
[boundary]
absorbing = "none"
[[source]]
position = [0.3, 0.7, 0.15]
[receivers]
positions = [[0.6, 0.9, 5.9], [0.25, 0.35, 0.45]]
)"),
                                                  {});
  const SeismicModel m = make_seismic_model(d, make_velocity(d), 1);
  EXPECT_EQ(m.sources[0].position, (std::array<double, 3>{3, 7, 0.15 / 0.1}));
  EXPECT_EQ(m.receivers.positions[0], (std::array<double, 3>{6, 9, 59}));
  // Between grid points: unchanged.
  EXPECT_EQ(m.receivers.positions[1], (std::array<double, 3>{0.25 / 0.1, 0.35 / 0.1, 0.45 / 0.1}));
  EXPECT_NE(0.3 / 0.1, 3.0);  // what the snapping is for
}

TEST_F(SeismicDeck, TheModelTakesDtWidthAndPointsFromTheDeck) {
  // minimod's numbers on a smaller grid: 27 cells of layer, dt from cfl 0.8 at vmax 4500 m/s.
  const wavefd::SeismicDeck d = read_seismic_deck(write(R"([grid]
n = [100, 100, 100]
spacing = 20
[scheme]
cfl = 0.8
vmax = 4500
steps = 1000
source_term = "minimod"
[velocity]
speed = 2000
[boundary]
wavelengths = 3
fmax = 25
profile = "minimod"
outer = "rigid"
[[source]]
position = [1000, 1000, 1000]
wavelet = "minimod"
frequency = 25
amplitude = 2
spreading = "trilinear"
[receivers]
every = 5
spreading = "trilinear"
positions = [[1000, 1000, 500], [1010, 1000, 500]]
)"),
                                                  {});
  const SeismicModel m = make_seismic_model(d, make_velocity(d), 2000);
  const Stencil star = make_star(4);
  EXPECT_EQ(m.dt, seismic_time_step(star, 20, 4500, 0.8).dt);
  EXPECT_NEAR(m.dt, 1.610e-3, 1e-6);
  EXPECT_EQ(m.steps, 1000);
  EXPECT_EQ(m.width, 27);
  EXPECT_EQ(m.peak, pml_peak(m.dt, 4500, 27, 20));
  EXPECT_NEAR(m.peak, 0.139, 1e-3);
  EXPECT_EQ(m.profile, PmlProfile::minimod);
  EXPECT_EQ(m.outer, OuterBoundary::rigid);
  EXPECT_EQ(m.absorbing, Absorbing::pml);
  EXPECT_FALSE(m.source_scaled);
  EXPECT_EQ(m.n, (Index3{100, 100, 100}));
  EXPECT_EQ(m.h, 20);
  EXPECT_EQ(m.stencil.radius, 4);
  ASSERT_EQ(m.sources.size(), 1u);
  EXPECT_EQ(m.sources[0].position, (std::array<double, 3>{50, 50, 50}));
  EXPECT_EQ(m.sources[0].spreading, Spreading::trilinear);
  EXPECT_EQ(m.sources[0].amplitude, 2);
  EXPECT_NEAR(m.sources[0].wavelet->at(1.0 / 15), -3600, 1e-9);  // minimod's wavelet, s(tau / sigma)
  EXPECT_EQ(m.receivers.every, 5);
  EXPECT_EQ(m.receivers.spreading, Spreading::trilinear);
  EXPECT_EQ(m.receivers.positions,
            (std::vector<std::array<double, 3>>{{50, 50, 25}, {50.5, 50, 25}}));
  EXPECT_EQ(m.samples(), 201);
}

TEST_F(SeismicDeck, TheModelsDefaults) {
  // No vmax: the model's; no cfl: 0.8; the width from the sources' wavelets; a Ricker's delay 1.2 / f.
  const wavefd::SeismicDeck d = read("[[source]]\nposition = [200, 200, 200]\nfrequency = 25\n");
  const SeismicModel m = make_seismic_model(d, make_velocity(d), 2000);
  EXPECT_EQ(m.dt, seismic_time_step(make_star(4), 10, 2000, 0.8).dt);
  EXPECT_EQ(m.width, pml_width(2000, 75, 10, 3));  // the Ricker's max_frequency is 3 f
  EXPECT_EQ(m.width, 8);
  EXPECT_EQ(m.profile, PmlProfile::symmetric);
  EXPECT_TRUE(m.source_scaled);
  EXPECT_EQ(m.sources[0].spreading, Spreading::sinc);
  EXPECT_EQ(m.sources[0].wavelet->at(1.2 / 25), 1);  // the Ricker's peak at its delay
  // dt given outright; steps from time; no absorbing layer.
  const wavefd::SeismicDeck e = read("", {"--scheme.dt", "0.001", "--scheme.time", "0.0305",
                                          "--boundary.absorbing", "none"});
  const SeismicModel n = make_seismic_model(e, make_velocity(e), 2000);
  EXPECT_EQ(n.dt, 0.001);
  EXPECT_EQ(n.steps, 31);
  EXPECT_EQ(n.width, 0);
  EXPECT_EQ(n.peak, 0);
  // A time that is a whole number of steps gives that number, despite rounding in time / dt.
  const wavefd::SeismicDeck f =
      read("", {"--scheme.dt", "0.001", "--scheme.time", "0.3", "--boundary.absorbing", "none"});
  EXPECT_EQ(make_seismic_model(f, make_velocity(f), 2000).steps, 300);
  // An explicit width of 0: no layer.
  const wavefd::SeismicDeck g = read("", {"--boundary.width", "0"});
  EXPECT_EQ(make_seismic_model(g, make_velocity(g), 2000).width, 0);
}

TEST_F(SeismicDeck, TheModelRefusesWhatOnlyItCanCheck) {
  const std::string source = "[[source]]\nposition = [200, 200, 100]\n";  // a Ricker of 10 Hz: fmax 30 Hz
  auto model = [&](const std::string& extra, const Words& overrides, double model_vmax = 2000) {
    const wavefd::SeismicDeck d = read(extra, overrides);
    return make_seismic_model(d, make_velocity(d), model_vmax);
  };
  expect_error([&] { model(source, {"--scheme.vmax", "1999"}); },
               "scheme.vmax = 1999 m/s is below the model's fastest speed 2000 m/s");
  EXPECT_EQ(model(source, {"--scheme.vmax", "2000"}).dt, seismic_time_step(make_star(4), 10, 2000, 0.8).dt);
  expect_error([&] { model(source, {"--scheme.dt", "0.1"}); }, "scheme.dt = 0.1 s is not stable");
  expect_error([&] { model("", {}); }, "boundary.fmax is required");
  expect_error([&] { model(source, {"--boundary.width", "21"}); },
               "boundary.width = 21 cells does not fit twice in grid.n[0] = 40 points along x");
  EXPECT_EQ(model(source, {}).width, 20);  // 3 x 2000 / 30 / 10: twice 20 fits in 40
  expect_error([&] { model(source, {"--grid.n", "40", "40", "18", "--boundary.wavelengths", "1.5"}); },
               "boundary.width = 10 cells (from boundary.wavelengths) does not fit twice in grid.n[2] = 18 points "
               "along z");
  EXPECT_EQ(model(source, {"--grid.n", "40", "40", "20", "--boundary.wavelengths", "1.5"}).width, 10);
  expect_error([&] { model(source, {"--boundary.wavelengths", "0.01"}); },
               "boundary.wavelengths = 0.01 gives a layer of");
  expect_error([&] { model("[[source]]\nposition = [200, 391, 0]\n", {}); },
               "source[0].position[y] = 39.1 (grid units) is outside the grid; accepted: 0 .. 39 "
               "(source[0].position = [200, 391, 0] m at spacing 10 m)");
  expect_error([&] { model(source + "[receivers]\npositions = [[0, 0, 0], [0, 0, -1]]\n", {}); },
               "receivers.position[1][z] = -0.1 (grid units) is outside the grid");
}

TEST_F(SeismicDeck, MakeVelocityBuildsTheNamedModel) {
  const wavefd::SeismicDeck c = read("");
  EXPECT_EQ(make_velocity(c)->fill(Box{{0, 0, 3}, {1, 1, 4}}, 10), (std::vector<double>{2000}));
  const wavefd::SeismicDeck g = read("gradient = 0.5\nmodel = \"gradient\"\n");
  EXPECT_EQ(make_velocity(g)->fill(Box{{0, 0, 4}, {1, 1, 5}}, 10), (std::vector<double>{2020}));
  const wavefd::SeismicDeck l =
      read("model = \"layered\"\n[[velocity.layer]]\ntop = 0\nspeed = 1500\n"
           "[[velocity.layer]]\ntop = 20\nspeed = 3000\n");
  EXPECT_EQ(make_velocity(l)->fill(Box{{0, 0, 0}, {1, 1, 4}}, 10), (std::vector<double>{1500, 1500, 3000, 3000}));
  const wavefd::SeismicDeck bad = read("model = \"layered\"\n[[velocity.layer]]\ntop = 10\nspeed = 1500\n");
  expect_error([&] { make_velocity(bad); }, "velocity.layer[0].top = 10 is not 0; accepted: top = 0");
  // A raw file whose header matches grid.n and grid.spacing.
  const std::string raw = (dir_ / "v.raw").string();
  write_raw_velocity(raw, {2, 2, 2}, 10, std::vector<float>(8, 1750.0f));
  const wavefd::SeismicDeck f = read_seismic_deck(
      write("[grid]\nn = [2, 2, 2]\nspacing = 10\n[scheme]\nsteps = 1\n[velocity]\nmodel = \"file\"\nfile = \"" + raw +
            "\"\n"),
      {});
  EXPECT_EQ(make_velocity(f)->fill(Box{{0, 0, 0}, {2, 2, 2}}, 10), std::vector<double>(8, 1750));
  const wavefd::SeismicDeck wrong = read("", {"--velocity.model", "file", "--velocity.file", raw});
  EXPECT_THROW(make_velocity(wrong), Error);  // the file's n is not the deck's
  // A SEG-Y model: read where this build has segyio, refused in one line where it has not.
  const wavefd::SeismicDeck segy = read("", {"--velocity.model", "segy", "--velocity.file", raw});
  if constexpr (segy_support)
    expect_error([&] { make_velocity(segy); }, "v.raw' is not a SEG-Y file");
  else
    expect_error([&] { make_velocity(segy); }, "velocity.model = 'segy' needs SEG-Y support, which this build lacks");
}

// --- the decks in inputs/ -------------------------------------------------------------------------

TEST_F(SeismicDeck, TheDecksInInputsLoad) {
  struct Expected {
    std::string name;
    int width;
  };
  for (const Expected& e : {Expected{"seismic-minimod-1000.toml", 27}, Expected{"seismic-minimod-cpe21-1000.toml", 27},
                            Expected{"seismic-small.toml", 13}, Expected{"seismic-layered.toml", 15}}) {
    SCOPED_TRACE(e.name);
    const std::string path = std::string(WAVEFD_SOURCE_DIR) + "/inputs/" + e.name;
    ASSERT_TRUE(fs::exists(path)) << path;
    const wavefd::SeismicDeck d = read_seismic_deck(path, {});
    const auto velocity = make_velocity(d);
    // The fastest speed, as the ranks' boxes would give it: the model depends on depth only.
    double vmax = 0;
    for (double v : velocity->fill(Box{{0, 0, 0}, {1, 1, d.n[2]}}, d.spacing)) vmax = std::max(vmax, v);
    const SeismicModel m = make_seismic_model(d, velocity, vmax);
    EXPECT_EQ(m.width, e.width);
    EXPECT_GT(m.steps, 0);
    EXPECT_EQ(m.sources.size(), 1u);
  }
  const std::string dir = std::string(WAVEFD_SOURCE_DIR) + "/inputs/";
  const wavefd::SeismicDeck minimod = read_seismic_deck(dir + "seismic-minimod-1000.toml", {});
  const SeismicModel m = make_seismic_model(minimod, make_velocity(minimod), 2000);
  EXPECT_EQ(m.sources[0].position, (std::array<double, 3>{504, 504, 504}));  // the 2020 code's N/2 + 4
  EXPECT_EQ(m.steps, 1000);
  EXPECT_EQ(m.dt, seismic_time_step(make_star(4), 20, 4500, 0.8).dt);
  EXPECT_EQ(m.profile, PmlProfile::minimod);
  EXPECT_TRUE(m.source_one_step_late);
  // The same problem as the 2021 code computes it: its profile, its source term, the source at N/2.
  const wavefd::SeismicDeck cpe21 = read_seismic_deck(dir + "seismic-minimod-cpe21-1000.toml", {});
  const SeismicModel c = make_seismic_model(cpe21, make_velocity(cpe21), 2000);
  EXPECT_EQ(c.sources[0].position, (std::array<double, 3>{500, 500, 500}));
  EXPECT_EQ(c.profile, PmlProfile::minimod_2021);
  EXPECT_FALSE(c.source_one_step_late);
  EXPECT_FALSE(c.source_scaled);
  EXPECT_EQ(c.steps, 1000);
  const wavefd::SeismicDeck layered = read_seismic_deck(dir + "seismic-layered.toml", {});
  const SeismicModel l = make_seismic_model(layered, make_velocity(layered), 3500);
  EXPECT_NEAR(double(l.steps) * l.dt, 1.5, l.dt);
  EXPECT_EQ(l.receivers.positions.size(), 112u);
  EXPECT_EQ(l.receivers.positions[1], (std::array<double, 3>{18, 32, 16}));
}

}  // namespace
