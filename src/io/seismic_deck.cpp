// Seismic decks: the schema of their keys, read with the TOML reader and the command-line overrides
// of deck_schema.hpp, and the velocity model and SeismicModel a deck describes
// (include/wavefd/seismic_deck.hpp; docs/seismic-decks.md lists the keys).
//
// One schema (the tree of Key below) knows every section and key. The reader walks the parsed
// table against it, the overrides are checked against it before they are applied, and the messages
// list the accepted keys from it. Overrides are written into the parsed table before it is read, so
// a value given on the command line passes exactly the checks that a value in the deck passes.
#include "wavefd/seismic_deck.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

#include "deck_schema.hpp"
#include "wavefd/pml_profile.hpp"
#include "wavefd/point_spread.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/stencil.hpp"
#include "wavefd/time_step.hpp"
#include "wavefd/velocity.hpp"
#include "wavefd/wavelet.hpp"

namespace wavefd {
namespace {

using deck::above;
using deck::any_finite;
using deck::as_integer;
using deck::as_point;
using deck::at_least;
using deck::between;
using deck::check_range;
using deck::choice;
using deck::integer;
using deck::integers;
using deck::number;
using deck::point;
using deck::text;
using deck::wrong_type;

constexpr double kDefaultCfl = 0.8;  // minimod's, and the header's documented default
// Receivers a deck may place: their positions and traces must fit in memory long before this.
constexpr std::int64_t kMaxReceivers = 10'000'000;
constexpr std::string_view kExclusiveCflDt =
    "scheme.cfl and scheme.dt are exclusive; accepted: one of them (cfl, the fraction of the stable step, or dt in s)";
constexpr std::string_view kStepsOrTime =
    "scheme.steps or scheme.time is required; accepted: the number of steps, or the simulated time in s";

// --- the schema -----------------------------------------------------------------------------------

// The receivers' lines and planes as the deck gives them, before they are expanded into points.
struct ReceiverLine {
  std::array<double, 3> from{}, to{};
  long count = 0;
};
struct ReceiverPlane {
  std::array<double, 3> origin{}, to_a{}, to_b{};
  std::array<long, 2> count{};
};

// What the readers fill: the deck, and the entry of an array of tables being read.
struct Reading {
  SeismicDeck deck;
  ReceiverLine line;
  ReceiverPlane plane;

  const std::string& path() const { return deck.path; }

  // Where a reader of `T`'s fields writes: the deck, or the entry being read.
  template <class T>
  T& at() {
    if constexpr (std::is_same_v<T, SeismicDeck>) return deck;
    else if constexpr (std::is_same_v<T, SeismicDeck::Source>) return deck.sources.back();
    else if constexpr (std::is_same_v<T, Layer>) return deck.layers.back();
    else if constexpr (std::is_same_v<T, ReceiverLine>) return line;
    else return plane;
  }
};

using Key = deck::Key<Reading>;

void read_grid_points(const toml::node& v, const std::string& key, Reading& r) {
  const auto n = integers<3>(v, key, at_least(1), "points per axis, the absorbing layer included");
  r.deck.n = {n[0], n[1], n[2]};
}

void read_line_count(const toml::node& v, const std::string& key, Reading& r) {
  const std::int64_t count = as_integer(v, key, "count >= 1 (receivers on the line)");
  check_range(double(count), std::to_string(count), key, at_least(1), "receivers on the line");
  if (count > kMaxReceivers)
    throw Error(key + " = " + std::to_string(count) + " is too large; accepted: at most " +
                std::to_string(kMaxReceivers) + " receivers");
  r.line.count = long(count);
}

void read_plane_counts(const toml::node& v, const std::string& key, Reading& r) {
  const auto c = integers<2>(v, key, at_least(1), "receivers along to_a and along to_b");
  if (c[0] > kMaxReceivers || c[1] > kMaxReceivers || c[0] * c[1] > kMaxReceivers)
    throw Error(key + " = [" + std::to_string(c[0]) + ", " + std::to_string(c[1]) + "] gives more than " +
                std::to_string(kMaxReceivers) + " receivers; accepted: at most " + std::to_string(kMaxReceivers));
  r.plane.count = {long(c[0]), long(c[1])};
}

void check_receiver_count(const Reading& r, std::int64_t more) {
  const auto total = std::int64_t(r.deck.receiver_positions.size()) + more;
  if (total > kMaxReceivers)
    throw Error("receivers: the lines, planes and positions give " + std::to_string(total) +
                " receivers; accepted: at most " + std::to_string(kMaxReceivers));
}

// A line's points: from + (to - from) i / (count - 1), i = 0 .. count - 1 (count 1: `from` alone).
void expand_line(Reading& r) {
  const ReceiverLine& l = r.line;
  check_receiver_count(r, l.count);
  for (long i = 0; i < l.count; ++i) {
    std::array<double, 3> p = l.from;
    if (l.count > 1)
      for (int d = 0; d < 3; ++d) p[d] += (l.to[d] - l.from[d]) * double(i) / double(l.count - 1);
    r.deck.receiver_positions.push_back(p);
  }
}

// A plane's points: origin + (to_a - origin) i / (na - 1) + (to_b - origin) j / (nb - 1), i fastest.
void expand_plane(Reading& r) {
  const ReceiverPlane& p = r.plane;
  check_receiver_count(r, p.count[0] * p.count[1]);
  auto fraction = [](long i, long count) { return count > 1 ? double(i) / double(count - 1) : 0.0; };
  for (long j = 0; j < p.count[1]; ++j)
    for (long i = 0; i < p.count[0]; ++i) {
      std::array<double, 3> x = p.origin;
      for (int d = 0; d < 3; ++d)
        x[d] += (p.to_a[d] - p.origin[d]) * fraction(i, p.count[0]) +
                (p.to_b[d] - p.origin[d]) * fraction(j, p.count[1]);
      r.deck.receiver_positions.push_back(x);
    }
}

using D = SeismicDeck;

// Every section and key of a seismic deck, in the order they are read (receivers: lines, planes,
// then positions, which is the order of the points) and listed in messages.
const Key& schema() {
  static const Key root{.name = "", .keys = {
    {.name = "grid", .keys = {
      {.name = "n", .read = read_grid_points},
      {.name = "spacing", .read = number<Reading>(&D::spacing, above(0), "a finite spacing in metres")},
    }},
    {.name = "stencil", .keys = {
      {.name = "M", .read = integer<Reading>(&D::M, between(1, 8), "the star stencil's radius, 1..8")},
    }},
    {.name = "scheme", .keys = {
      {.name = "precision", .read = choice<Reading>(&D::precision, {"float", "double", "half", "bfloat16"})},
      {.name = "rounding", .read = choice<Reading>(&D::rounding, {"nearest", "stochastic"})},
      {.name = "second_field", .read = choice<Reading>(&D::second_field, {"previous", "velocity"})},
      {.name = "cfl", .read = number<Reading>(&D::cfl, {0, 1, true, false}, "the fraction of the stable time step used")},
      {.name = "dt", .read = number<Reading>(&D::dt, above(0), "a time step in seconds")},
      {.name = "steps", .read = integer<Reading>(&D::steps, at_least(0), "a number of time steps")},
      {.name = "time", .read = number<Reading>(&D::time, above(0), "the simulated time in seconds")},
      {.name = "vmax", .read = number<Reading>(&D::vmax, above(0), "a speed in m/s, at least the model's fastest")},
      {.name = "variant", .read = text<Reading>(&D::variant)},
      {.name = "tile", .read = text<Reading>(&D::tile)},
      {.name = "layer_tile", .read = text<Reading>(&D::layer_tile)},
      {.name = "layer_variant", .read = text<Reading>(&D::layer_variant)},
      {.name = "work", .read = choice<Reading>(&D::work, {"seven-domain", "three-domain", "unified"})},
      {.name = "pairs", .read = choice<Reading>(&D::pairs, {"auto", "on", "off"})},
      {.name = "source_term", .read = choice<Reading>(&D::source_term, {"scaled", "minimod", "minimod-2021"})},
    }},
    {.name = "velocity", .keys = {
      {.name = "model", .read = choice<Reading>(&D::velocity_model, {"constant", "layered", "gradient", "file", "segy"})},
      {.name = "speed", .read = number<Reading>(&D::speed, above(0), "a speed in m/s")},
      {.name = "gradient", .read = number<Reading>(&D::gradient, any_finite(), "a finite gradient in 1/s")},
      {.name = "layer", .keys = {
         {.name = "top", .read = number<Reading>(&Layer::top, at_least(0), "a depth in metres")},
         {.name = "speed", .read = number<Reading>(&Layer::speed, above(0), "a speed in m/s")},
       },
       .array_of_tables = true, .required = {"top", "speed"},
       .begin = [](Reading& r) { r.deck.layers.emplace_back(); }},
      {.name = "file", .read = text<Reading>(&D::velocity_file)},
    }},
    {.name = "boundary", .keys = {
      {.name = "absorbing", .read = choice<Reading>(&D::absorbing, {"pml", "sponge", "none"})},
      {.name = "outer", .read = choice<Reading>(&D::outer, {"zero", "rigid"})},
      {.name = "width", .read = integer<Reading>(&D::width, at_least(0), "cells of the absorbing layer, 0 for none")},
      {.name = "wavelengths", .read = number<Reading>(&D::wavelengths, above(0), "the layer's width in wavelengths")},
      {.name = "fmax", .read = number<Reading>(&D::fmax, above(0), "a frequency in Hz")},
      {.name = "profile", .read = choice<Reading>(&D::profile, {"symmetric", "minimod", "minimod-2021"})},
    }},
    {.name = "source", .keys = {
       {.name = "position", .read = point<Reading>(&D::Source::position)},
       {.name = "wavelet", .read = choice<Reading>(&D::Source::wavelet, {"ricker", "minimod"})},
       {.name = "frequency", .read = number<Reading>(&D::Source::frequency, above(0), "a frequency in Hz")},
       {.name = "delay", .read = number<Reading>(&D::Source::delay, at_least(0), "a time in seconds")},
       {.name = "amplitude", .read = number<Reading>(&D::Source::amplitude, any_finite(), "a finite factor")},
       {.name = "spreading", .read = choice<Reading>(&D::Source::spreading, {"sinc", "trilinear"})},
     },
     .array_of_tables = true, .required = {"position"},
     .begin = [](Reading& r) { r.deck.sources.emplace_back(); }},
    {.name = "receivers", .keys = {
      {.name = "line", .keys = {
         {.name = "from", .read = point<Reading>(&ReceiverLine::from)},
         {.name = "to", .read = point<Reading>(&ReceiverLine::to)},
         {.name = "count", .read = read_line_count},
       },
       .array_of_tables = true, .required = {"from", "to", "count"},
       .begin = [](Reading& r) { r.line = {}; }, .end = expand_line},
      {.name = "plane", .keys = {
         {.name = "origin", .read = point<Reading>(&ReceiverPlane::origin)},
         {.name = "to_a", .read = point<Reading>(&ReceiverPlane::to_a)},
         {.name = "to_b", .read = point<Reading>(&ReceiverPlane::to_b)},
         {.name = "count", .read = read_plane_counts},
       },
       .array_of_tables = true, .required = {"origin", "to_a", "to_b", "count"},
       .begin = [](Reading& r) { r.plane = {}; }, .end = expand_plane},
      {.name = "positions", .read = deck::points<Reading>(&D::receiver_positions), .nested = true},
      {.name = "every", .read = integer<Reading>(&D::every, at_least(1), "steps between samples")},
      {.name = "spreading", .read = choice<Reading>(&D::receiver_spreading, {"sinc", "trilinear"})},
      {.name = "file", .read = text<Reading>(&D::traces)},
      {.name = "format", .read = choice<Reading>(&D::trace_format, {"auto", "raw", "segy"})},
    }},
    deck::output_section<Reading, D>({
      {.name = "slices", .read = text<Reading>(&D::slices)},
      {.name = "slice_every", .read = integer<Reading>(&D::slice_every, at_least(0), "steps between slices, 0 = the last")},
      {.name = "slice_axis", .read = choice<Reading>(&D::slice_axis, {"x", "y", "z"})},
      {.name = "slice_position", .read = number<Reading>(&D::slice_position, at_least(0), "a position in metres")},
    }),
    deck::parallel_section<Reading, D>(),
  }};
  return root;
}

// What a deck needs beyond each key's own checks: the required keys and the pairs of keys that
// exclude each other.
void check_whole_deck(const SeismicDeck& d) {
  if (d.n[0] == 0)
    throw Error("grid.n is required; accepted: the points per axis, e.g. n = [200, 200, 200] in [grid]");
  if (d.spacing == 0)
    throw Error("grid.spacing is required; accepted: the grid spacing in metres, e.g. spacing = 10 in [grid]");
  if (d.cfl && d.dt)
    throw Error(std::string(kExclusiveCflDt));
  if (d.steps && d.time)
    throw Error("scheme.steps and scheme.time are exclusive; accepted: one of them (steps, or the simulated time in s)");
  if (!d.steps && !d.time)
    throw Error(std::string(kStepsOrTime));
  const std::string model = "velocity.model = '" + d.velocity_model + "'";
  if ((d.velocity_model == "constant" || d.velocity_model == "gradient") && d.speed == 0)
    throw Error("velocity.speed is required for " + model + "; accepted: the speed in m/s" +
                (d.velocity_model == "gradient" ? " at depth 0" : "") + ", speed > 0");
  if (d.velocity_model == "layered" && d.layers.empty())
    throw Error("velocity.layer is required for " + model + "; accepted: at least one [[velocity.layer]] with top and speed");
  if ((d.velocity_model == "file" || d.velocity_model == "segy") && d.velocity_file.empty())
    throw Error("velocity.file is required for " + model + "; accepted: a " +
                (d.velocity_model == "file" ? "raw float32" : "SEG-Y") + " velocity file");
  if (d.slice_position) {
    const int axis = d.slice_axis[0] - 'x';
    const double extent = double(d.n[std::size_t(axis)] - 1) * d.spacing;
    check_range(*d.slice_position, format_number(*d.slice_position), "output.slice_position", between(0, extent),
                std::string("a position along ") + d.slice_axis + " within the grid, in metres");
  }
}

// Each key of an exclusive pair, and the other key of its pair (both in [scheme]): an override of
// one drops the other one where the deck, not another override, gave it.
const deck::Exclusive& exclusive_keys() {
  static const deck::Exclusive pairs = {
      {"scheme.cfl", "dt"}, {"scheme.dt", "cfl"}, {"scheme.steps", "time"}, {"scheme.time", "steps"}};
  return pairs;
}

// --- the model ------------------------------------------------------------------------------------

// Metres to grid units; a coordinate within 1e-9 of an integer is that grid plane exactly, so that
// 1000 m at a spacing of 20 m is the grid point 50 and gets the single weight 1.
std::array<double, 3> grid_position(const std::array<double, 3>& metres, double h) {
  std::array<double, 3> g{};
  for (int d = 0; d < 3; ++d) {
    g[d] = metres[d] / h;
    if (std::abs(g[d] - std::round(g[d])) <= 1e-9) g[d] = std::round(g[d]);
  }
  return g;
}

// Refuses a point outside the grid, naming `key` and the position in metres as the deck gave it.
void check_inside(const std::array<double, 3>& grid, const std::array<double, 3>& metres, Spreading spreading,
                  const SeismicModel& m, const std::string& key) {
  try {
    spread_weights(grid, spreading, m.n, key);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " (" + key + " = [" + format_number(metres[0]) + ", " +
                format_number(metres[1]) + ", " + format_number(metres[2]) + "] m at spacing " + format_number(m.h) +
                " m)");
  }
}

std::shared_ptr<const Wavelet> make_wavelet(const SeismicDeck::Source& s, const std::string& key) {
  if (s.wavelet == "ricker") return make_ricker(s.frequency, s.delay.value_or(1.2 / s.frequency));
  if (s.wavelet == "minimod") return make_minimod_wavelet(s.frequency);
  throw Error(key + ".wavelet = '" + s.wavelet + "' is unknown; accepted: ricker, minimod");
}

// The layer's width: boundary.width, else boundary.wavelengths of vmax / fmax over h (minimod's
// rule), with fmax from boundary.fmax or the sources' wavelets.
int layer_width(const SeismicDeck& d, const SeismicModel& m, double vmax) {
  if (d.width) {
    if (*d.width < 0)
      throw Error("boundary.width = " + std::to_string(*d.width) + " is outside width >= 0; accepted: cells of the "
                  "absorbing layer, 0 for none");
    return *d.width;
  }
  double fmax = d.fmax.value_or(0);
  if (!d.fmax)
    for (const SeismicSource& s : m.sources) fmax = std::max(fmax, s.wavelet->max_frequency());
  if (!(fmax > 0))
    throw Error("boundary.fmax is required when boundary.width is not given and there is no [[source]]; accepted: "
                "a frequency in Hz (the layer is boundary.wavelengths x vmax / fmax wide), or boundary.width");
  const double cells = d.wavelengths * vmax / fmax / m.h;
  if (!(cells >= 1))
    throw Error("boundary.wavelengths = " + format_number(d.wavelengths) + " gives a layer of " + format_number(cells) +
                " cells (vmax " + format_number(vmax) + " m/s, fmax " + format_number(fmax) + " Hz, spacing " +
                format_number(m.h) + " m); accepted: at least one cell, or boundary.width");
  return pml_width(vmax, fmax, m.h, d.wavelengths);
}

}  // namespace

SeismicDeck read_seismic_deck(const std::string& path, const std::vector<std::string>& overrides) {
  Reading r;
  r.deck.path = path;
  deck::read_deck(path, overrides, schema(), exclusive_keys(), r);
  check_whole_deck(r.deck);
  return std::move(r.deck);
}

std::vector<std::pair<std::string, std::string>> seismic_deck_settings(const std::string& path,
                                                                      const std::vector<std::string>& overrides) {
  return deck::deck_settings(path, overrides, schema(), exclusive_keys());
}

std::vector<DeckWords> read_deck_words(const std::string& path) {
  const toml::table root = deck::parse_deck(path);
  std::vector<DeckWords> values;
  deck::for_each_value(root, "", [&](const std::string& key, const toml::node& v) {
    DeckWords& out = values.emplace_back(DeckWords{key, {}});
    const toml::array* a = v.as_array();
    for (std::size_t i = 0; a ? i < a->size() : i == 0; ++i) {
      const auto w = deck::word(a ? *a->get(i) : v);
      if (!w)
        throw Error("deck " + path + ":" + std::to_string(v.source().begin.line) + ": " + key + " = " + deck::full_text(v) +
                    " cannot be given as a flag; accepted: a number, a string, true or false, or an array of them");
      const toml::node& element = a ? *a->get(i) : v;
      out.words.push_back(*w);
      out.types.push_back(element.is_integer() ? "integer" : element.is_floating_point() ? "float"
                          : element.is_boolean() ? "boolean" : "string");
    }
  });
  return values;
}

std::shared_ptr<const VelocityModel> make_velocity(const SeismicDeck& d) {
  if (d.velocity_model == "constant") return make_constant_velocity(d.speed);
  if (d.velocity_model == "layered") return make_layered_velocity(d.layers);
  if (d.velocity_model == "gradient") return make_gradient_velocity(d.speed, d.gradient);
  if (d.velocity_model == "file") return open_raw_velocity(d.velocity_file, d.n, d.spacing);
  if (d.velocity_model == "segy") {
    if constexpr (segy_support) return open_segy_velocity(d.velocity_file, d.n, d.spacing);
    throw Error("velocity.model = 'segy' needs SEG-Y support, which this build lacks (segyio); accepted: constant, "
                "layered, gradient, file");
  }
  throw Error("velocity.model = '" + d.velocity_model + "' is unknown; accepted: constant, layered, gradient, file, segy");
}

SeismicModel make_seismic_model(const SeismicDeck& d, std::shared_ptr<const VelocityModel> velocity,
                                double model_vmax) {
  SeismicModel m;
  m.n = d.n;
  m.h = d.spacing;
  m.stencil = make_star(d.M);
  m.velocity = std::move(velocity);

  // The speed dt and the layer are built for: a deck's vmax may only be above the model's fastest.
  double vmax = model_vmax;
  if (d.vmax) {
    if (!(*d.vmax >= model_vmax))
      throw Error("scheme.vmax = " + format_number(*d.vmax) + " m/s is below the model's fastest speed " +
                  format_number(model_vmax) + " m/s, where dt would be unstable; accepted: scheme.vmax >= " +
                  format_number(model_vmax) + ", or none (the model's)");
    vmax = *d.vmax;
  }
  if (d.cfl && d.dt) throw Error(std::string(kExclusiveCflDt));
  m.dt = d.dt ? check_time_step(m.stencil, m.h, vmax, *d.dt).dt
              : seismic_time_step(m.stencil, m.h, vmax, d.cfl.value_or(kDefaultCfl)).dt;
  constexpr double kMaxSteps = 0x1p53;  // counted exactly in a double (progress, times)
  if (d.steps) m.steps = *d.steps;
  else if (d.time) {
    const double steps = std::ceil(*d.time / m.dt - 1e-9);
    if (!(steps <= kMaxSteps))
      throw Error("scheme.time = " + format_number(*d.time) + " s is " + format_number(steps) + " steps of " +
                  format_number(m.dt) + " s; accepted: at most 2^53 steps");
    m.steps = long(steps);
  } else throw Error(std::string(kStepsOrTime));
  if (double(m.steps) > kMaxSteps)
    throw Error("scheme.steps = " + std::to_string(m.steps) + " is too large; accepted: at most 2^53 steps");

  m.source_scaled = d.source_term == "scaled";
  m.source_one_step_late = d.source_term == "minimod";  // the code of minimod's printed results
  for (std::size_t i = 0; i < d.sources.size(); ++i) {
    const SeismicDeck::Source& s = d.sources[i];
    const std::string key = "source[" + std::to_string(i) + "]";
    SeismicSource& out = m.sources.emplace_back();
    out.position = grid_position(s.position, m.h);
    out.spreading = parse_spreading(s.spreading, key + ".spreading");
    out.wavelet = make_wavelet(s, key);
    out.amplitude = s.amplitude;
    check_inside(out.position, s.position, out.spreading, m, key + ".position");
  }

  m.outer = parse_outer_boundary(d.outer, "boundary.outer");
  m.absorbing = parse_absorbing(d.absorbing, "boundary.absorbing");
  m.profile = parse_pml_profile(d.profile, "boundary.profile");
  m.width = m.absorbing == Absorbing::none ? 0 : layer_width(d, m, vmax);
  for (int axis = 0; axis < 3; ++axis)
    if (2 * index_t(m.width) > m.n[std::size_t(axis)])
      throw Error("boundary.width = " + std::to_string(m.width) + " cells" +
                  (d.width ? "" : " (from boundary.wavelengths)") + " does not fit twice in grid.n[" +
                  std::to_string(axis) + "] = " + std::to_string(m.n[std::size_t(axis)]) + " points along " +
                  axis_name(axis) + "; accepted: width <= n / 2 on every axis");
  m.peak = m.width > 0 ? pml_peak(m.dt, vmax, m.width, m.h) : 0;

  m.receivers.spreading = parse_spreading(d.receiver_spreading, "receivers.spreading");
  if (d.every < 1)
    throw Error("receivers.every = " + std::to_string(d.every) + " is outside every >= 1; accepted: steps between samples");
  m.receivers.every = d.every;
  for (std::size_t i = 0; i < d.receiver_positions.size(); ++i) {
    const auto& metres = d.receiver_positions[i];
    m.receivers.positions.push_back(grid_position(metres, m.h));
    check_inside(m.receivers.positions.back(), metres, m.receivers.spreading, m,
                 "receivers.position[" + std::to_string(i) + "]");
  }
  return m;
}

}  // namespace wavefd
