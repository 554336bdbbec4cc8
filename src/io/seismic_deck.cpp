// Seismic decks: the TOML reader, the command-line overrides, and the velocity model and
// SeismicModel a deck describes (include/wavefd/seismic_deck.hpp; docs/seismic-decks.md lists the keys).
//
// One schema (the tree of Key below) knows every section and key. The reader walks the parsed
// table against it, the overrides are checked against it before they are applied, and the messages
// list the accepted keys from it. Overrides are written into the parsed table before it is read, so
// a value given on the command line passes exactly the checks that a value in the deck passes.
#include "wavefd/seismic_deck.hpp"

#include <toml++/toml.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "input_file.hpp"
#include "wavefd/pml_profile.hpp"
#include "wavefd/point_spread.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/stencil.hpp"
#include "wavefd/time_step.hpp"
#include "wavefd/velocity.hpp"
#include "wavefd/wavelet.hpp"

namespace wavefd {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kDefaultCfl = 0.8;  // minimod's, and the header's documented default
// Receivers a deck may place: their positions and traces must fit in memory long before this.
constexpr std::int64_t kMaxReceivers = 10'000'000;
constexpr std::string_view kExclusiveCflDt =
    "scheme.cfl and scheme.dt are exclusive; accepted: one of them (cfl, the fraction of the stable step, or dt in s)";
constexpr std::string_view kStepsOrTime =
    "scheme.steps or scheme.time is required; accepted: the number of steps, or the simulated time in s";

// --- values as the deck gives them ----------------------------------------------------------------

// A value as messages show it: 64, 0.5, 'half', [16, 16]; long arrays are cut short.
std::string shown(const toml::node& v) {
  if (const auto* s = v.as_string()) return "'" + s->get() + "'";
  if (const auto* i = v.as_integer()) return std::to_string(i->get());
  if (const auto* f = v.as_floating_point()) {
    const std::string x = format_number(f->get());  // 4.0 shows as 4.0, not as the integer 4
    return x.find_first_not_of("-0123456789") == std::string::npos ? x + ".0" : x;
  }
  if (const auto* b = v.as_boolean()) return b->get() ? "true" : "false";
  if (v.is_table()) return "a table";
  if (const auto* a = v.as_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < a->size(); ++i) {
      if (s.size() > 60) return s + "...]";
      s += (i ? ", " : "") + shown(*a->get(i));
    }
    return s + "]";
  }
  return "a date or time";
}

// What a value is, for a message about its type: "a string", "an array of 2 integers".
std::string value_kind(const toml::node& v) {
  if (v.is_string()) return "a string";
  if (v.is_integer()) return "an integer";
  if (v.is_floating_point()) return "a float";
  if (v.is_boolean()) return "a boolean";
  if (v.is_table()) return "a table";
  if (const auto* a = v.as_array()) {
    if (a->empty()) return "an empty array";
    const std::string each = value_kind(*a->get(0));
    for (std::size_t i = 1; i < a->size(); ++i)
      if (value_kind(*a->get(i)) != each) return "an array of " + std::to_string(a->size()) + " mixed values";
    const std::string noun = each.substr(each.find(' ') + 1);
    return a->size() == 1 ? "an array of 1 " + noun : "an array of " + std::to_string(a->size()) + " " + noun + "s";
  }
  return "a date or time";
}

// "grid.spacing = 'ten' is a string; accepted: a number, spacing > 0 (a finite spacing in metres)".
[[noreturn]] void wrong_type(const std::string& key, const std::string& expected, const toml::node& v,
                             const std::string& range = "") {
  const std::string value = v.is_table() || v.is_date() || v.is_time() || v.is_date_time() ? "" : " = " + shown(v);
  throw Error(key + value + " is " + value_kind(v) + "; accepted: " + expected + (range.empty() ? "" : ", " + range));
}

// "grid.n[1]" -> "n", "source[0].frequency" -> "frequency": the name a range is written with.
std::string short_name(const std::string& key) {
  std::string name = key.substr(key.rfind('.') + 1);
  return name.substr(0, name.find('['));
}

// An interval of accepted numbers, always finite: "0 < cfl <= 1", "n >= 1".
struct Bounds {
  double lo = -kInfinity, hi = kInfinity;
  bool lo_open = false, hi_open = false;

  bool contains(double x) const {
    return std::isfinite(x) && (lo_open ? x > lo : x >= lo) && (hi_open ? x < hi : x <= hi);
  }
  std::string text(const std::string& name) const {
    const std::string low = lo_open ? " < " : " <= ", high = hi_open ? " < " : " <= ";
    if (std::isfinite(lo) && std::isfinite(hi)) return format_number(lo) + low + name + high + format_number(hi);
    if (std::isfinite(lo)) return name + (lo_open ? " > " : " >= ") + format_number(lo);
    if (std::isfinite(hi)) return name + high + format_number(hi);
    return "the finite numbers";
  }
};
constexpr Bounds above(double lo) { return {lo, kInfinity, true, false}; }
constexpr Bounds at_least(double lo) { return {lo, kInfinity, false, false}; }
constexpr Bounds between(double lo, double hi) { return {lo, hi, false, false}; }
constexpr Bounds any_finite() { return {}; }

void check_range(double x, const std::string& shown_value, const std::string& key, const Bounds& b,
                 const std::string& meaning) {
  if (!b.contains(x))
    throw Error(key + " = " + shown_value + " is outside " + b.text(short_name(key)) + "; accepted: " + meaning);
}

// `range` completes a type error's accepted part ("spacing > 0 (a finite spacing in metres)").
double as_number(const toml::node& v, const std::string& key, const std::string& range = "") {
  if (const auto* i = v.as_integer()) return double(i->get());  // integers are accepted where floats are
  if (const auto* f = v.as_floating_point()) return f->get();
  wrong_type(key, "a number", v, range);
}

std::int64_t as_integer(const toml::node& v, const std::string& key, const std::string& range = "") {
  if (const auto* i = v.as_integer()) return i->get();
  wrong_type(key, "an integer", v, range);
}

std::string as_string(const toml::node& v, const std::string& key, const std::string& range = "") {
  if (const auto* s = v.as_string()) return s->get();
  wrong_type(key, "a string", v, range);
}

// An array of exactly `count` elements of one kind ("3 integers", "3 numbers"). A pointer, never
// null: GCC takes a reference returned next to a temporary argument for a dangling one.
const toml::array* as_array(const toml::node& v, const std::string& key, std::size_t count, const std::string& what,
                            bool integers, const std::string& range = "") {
  const toml::array* a = v.as_array();
  bool fits = a && a->size() == count;
  for (std::size_t i = 0; fits && i < count; ++i) fits = integers ? a->get(i)->is_integer() : a->get(i)->is_number();
  if (!fits) wrong_type(key, what, v, range);
  return a;
}

std::array<double, 3> as_point(const toml::node& v, const std::string& key) {
  const toml::array* a = as_array(v, key, 3, "3 numbers [x, y, z]", false, "finite metres");
  std::array<double, 3> p{};
  for (std::size_t d = 0; d < 3; ++d) {
    p[d] = as_number(*a->get(d), key);
    check_range(p[d], format_number(p[d]), key + "[" + std::to_string(d) + "]", any_finite(), "finite metres");
  }
  return p;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

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
};

// Where a reader of `T`'s fields writes: the deck, or the entry being read.
template <class T>
T& target(Reading& r) {
  if constexpr (std::is_same_v<T, SeismicDeck>) return r.deck;
  else if constexpr (std::is_same_v<T, SeismicDeck::Source>) return r.deck.sources.back();
  else if constexpr (std::is_same_v<T, Layer>) return r.deck.layers.back();
  else if constexpr (std::is_same_v<T, ReceiverLine>) return r.line;
  else return r.plane;
}

using Reader = std::function<void(const toml::node& value, const std::string& key, Reading& r)>;

// One key of the schema: a value (`read` set), a table of keys, or an array of tables whose
// entries hold `keys`.
struct Key {
  std::string name;
  Reader read = nullptr;
  std::vector<Key> keys = {};
  bool array_of_tables = false;
  std::vector<std::string> required = {};         // array of tables: keys every entry must give
  std::function<void(Reading&)> begin = nullptr;  // array of tables: starts an entry ...
  std::function<void(Reading&)> end = nullptr;    // ... and takes it in once it is read
  bool nested = false;                            // a value that is an array of arrays: no override can give it
};

template <class F> struct Plain { using type = F; };
template <class F> struct Plain<std::optional<F>> { using type = F; };

template <class T, class F>
Reader number(F T::*field, Bounds b, std::string meaning) {
  return [=](const toml::node& v, const std::string& key, Reading& r) {
    const double x = as_number(v, key, b.text(short_name(key)) + " (" + meaning + ")");
    check_range(x, format_number(x), key, b, meaning);
    target<T>(r).*field = x;
  };
}

template <class T, class F>
Reader integer(F T::*field, Bounds b, std::string meaning) {
  return [=](const toml::node& v, const std::string& key, Reading& r) {
    using Stored = typename Plain<F>::type;
    const std::int64_t x = as_integer(v, key, b.text(short_name(key)) + " (" + meaning + ")");
    check_range(double(x), std::to_string(x), key, b, meaning);
    if (x > std::int64_t(std::numeric_limits<Stored>::max()))
      throw Error(key + " = " + std::to_string(x) + " is too large; accepted: at most " +
                  std::to_string(std::numeric_limits<Stored>::max()));
    target<T>(r).*field = Stored(x);
  };
}

// A name from a fixed list; "boolean_too" also takes TOML's true and false, stored as their names.
template <class T>
Reader choice(std::string T::*field, std::vector<std::string> accepted, bool boolean_too = false) {
  return [=](const toml::node& v, const std::string& key, Reading& r) {
    std::string name;
    if (const auto* b = v.as_boolean(); b && boolean_too) name = b->get() ? "true" : "false";
    else if (!v.is_string()) wrong_type(key, joined(accepted), v);
    else name = as_string(v, key);
    if (std::find(accepted.begin(), accepted.end(), name) == accepted.end())
      throw Error(key + " = '" + name + "' is unknown; accepted: " + joined(accepted));
    target<T>(r).*field = name;
  };
}

template <class T>
Reader text(std::string T::*field) {
  return [=](const toml::node& v, const std::string& key, Reading& r) { target<T>(r).*field = as_string(v, key); };
}

template <class T>
Reader point(std::array<double, 3> T::*field) {
  return [=](const toml::node& v, const std::string& key, Reading& r) { target<T>(r).*field = as_point(v, key); };
}

// Integers per axis, each within `b` ("grid.n[1] = 0 is outside n >= 1").
template <std::size_t N>
std::array<std::int64_t, N> integers(const toml::node& v, const std::string& key, Bounds b,
                                     const std::string& meaning) {
  const toml::array* a = as_array(v, key, N, std::to_string(N) + " integers", true,
                                  b.text(short_name(key)) + " (" + meaning + ")");
  std::array<std::int64_t, N> out{};
  for (std::size_t d = 0; d < N; ++d) {
    out[d] = a->get(d)->as_integer()->get();
    check_range(double(out[d]), std::to_string(out[d]), key + "[" + std::to_string(d) + "]", b, meaning);
  }
  return out;
}

void read_grid_points(const toml::node& v, const std::string& key, Reading& r) {
  const auto n = integers<3>(v, key, at_least(1), "points per axis, the absorbing layer included");
  r.deck.n = {n[0], n[1], n[2]};
}

void read_ranks(const toml::node& v, const std::string& key, Reading& r) {
  const auto p = integers<3>(v, key, at_least(0), "ranks per axis, 0 = chosen");
  r.deck.ranks.assign(p.begin(), p.end());
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

void read_positions(const toml::node& v, const std::string& key, Reading& r) {
  const toml::array* a = v.as_array();
  if (!a) wrong_type(key, "an array of points [[x, y, z], ...]", v, "finite metres");
  for (std::size_t i = 0; i < a->size(); ++i)
    r.deck.receiver_positions.push_back(as_point(*a->get(i), key + "[" + std::to_string(i) + "]"));
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
      {.name = "spacing", .read = number(&D::spacing, above(0), "a finite spacing in metres")},
    }},
    {.name = "stencil", .keys = {
      {.name = "M", .read = integer(&D::M, between(1, 8), "the star stencil's radius, 1..8")},
    }},
    {.name = "scheme", .keys = {
      {.name = "precision", .read = choice(&D::precision, {"float", "double"})},
      {.name = "cfl", .read = number(&D::cfl, {0, 1, true, false}, "the fraction of the stable time step used")},
      {.name = "dt", .read = number(&D::dt, above(0), "a time step in seconds")},
      {.name = "steps", .read = integer(&D::steps, at_least(0), "a number of time steps")},
      {.name = "time", .read = number(&D::time, above(0), "the simulated time in seconds")},
      {.name = "vmax", .read = number(&D::vmax, above(0), "a speed in m/s, at least the model's fastest")},
      {.name = "variant", .read = text(&D::variant)},
      {.name = "tile", .read = text(&D::tile)},
      {.name = "layer_tile", .read = text(&D::layer_tile)},
      {.name = "layer_variant", .read = text(&D::layer_variant)},
      {.name = "work", .read = choice(&D::work, {"seven-domain", "three-domain", "unified"})},
      {.name = "pairs", .read = choice(&D::pairs, {"auto", "on", "off"})},
      {.name = "source_term", .read = choice(&D::source_term, {"scaled", "minimod", "minimod-2021"})},
    }},
    {.name = "velocity", .keys = {
      {.name = "model", .read = choice(&D::velocity_model, {"constant", "layered", "gradient", "file", "segy"})},
      {.name = "speed", .read = number(&D::speed, above(0), "a speed in m/s")},
      {.name = "gradient", .read = number(&D::gradient, any_finite(), "a finite gradient in 1/s")},
      {.name = "layer", .keys = {
         {.name = "top", .read = number(&Layer::top, at_least(0), "a depth in metres")},
         {.name = "speed", .read = number(&Layer::speed, above(0), "a speed in m/s")},
       },
       .array_of_tables = true, .required = {"top", "speed"},
       .begin = [](Reading& r) { r.deck.layers.emplace_back(); }},
      {.name = "file", .read = text(&D::velocity_file)},
    }},
    {.name = "boundary", .keys = {
      {.name = "absorbing", .read = choice(&D::absorbing, {"pml", "sponge", "none"})},
      {.name = "outer", .read = choice(&D::outer, {"zero", "rigid"})},
      {.name = "width", .read = integer(&D::width, at_least(0), "cells of the absorbing layer, 0 for none")},
      {.name = "wavelengths", .read = number(&D::wavelengths, above(0), "the layer's width in wavelengths")},
      {.name = "fmax", .read = number(&D::fmax, above(0), "a frequency in Hz")},
      {.name = "profile", .read = choice(&D::profile, {"symmetric", "minimod", "minimod-2021"})},
    }},
    {.name = "source", .keys = {
       {.name = "position", .read = point(&D::Source::position)},
       {.name = "wavelet", .read = choice(&D::Source::wavelet, {"ricker", "minimod"})},
       {.name = "frequency", .read = number(&D::Source::frequency, above(0), "a frequency in Hz")},
       {.name = "delay", .read = number(&D::Source::delay, at_least(0), "a time in seconds")},
       {.name = "amplitude", .read = number(&D::Source::amplitude, any_finite(), "a finite factor")},
       {.name = "spreading", .read = choice(&D::Source::spreading, {"sinc", "trilinear"})},
     },
     .array_of_tables = true, .required = {"position"},
     .begin = [](Reading& r) { r.deck.sources.emplace_back(); }},
    {.name = "receivers", .keys = {
      {.name = "line", .keys = {
         {.name = "from", .read = point(&ReceiverLine::from)},
         {.name = "to", .read = point(&ReceiverLine::to)},
         {.name = "count", .read = read_line_count},
       },
       .array_of_tables = true, .required = {"from", "to", "count"},
       .begin = [](Reading& r) { r.line = {}; }, .end = expand_line},
      {.name = "plane", .keys = {
         {.name = "origin", .read = point(&ReceiverPlane::origin)},
         {.name = "to_a", .read = point(&ReceiverPlane::to_a)},
         {.name = "to_b", .read = point(&ReceiverPlane::to_b)},
         {.name = "count", .read = read_plane_counts},
       },
       .array_of_tables = true, .required = {"origin", "to_a", "to_b", "count"},
       .begin = [](Reading& r) { r.plane = {}; }, .end = expand_plane},
      {.name = "positions", .read = read_positions, .nested = true},
      {.name = "every", .read = integer(&D::every, at_least(1), "steps between samples")},
      {.name = "spreading", .read = choice(&D::receiver_spreading, {"sinc", "trilinear"})},
      {.name = "file", .read = text(&D::traces)},
      {.name = "format", .read = choice(&D::trace_format, {"auto", "raw", "segy"})},
    }},
    {.name = "output", .keys = {
      {.name = "summary", .read = text(&D::summary)},
      {.name = "progress", .read = choice(&D::progress, {"auto", "bar", "line", "none"})},
      {.name = "status_interval", .read = number(&D::status_interval, above(0), "seconds between status lines")},
      {.name = "check_interval", .read = integer(&D::check_interval, at_least(1), "steps between finiteness checks")},
      {.name = "slices", .read = text(&D::slices)},
      {.name = "slice_every", .read = integer(&D::slice_every, at_least(0), "steps between slices, 0 = the last")},
      {.name = "slice_axis", .read = choice(&D::slice_axis, {"x", "y", "z"})},
      {.name = "slice_position", .read = number(&D::slice_position, at_least(0), "a position in metres")},
    }},
    {.name = "parallel", .keys = {
      {.name = "ranks", .read = read_ranks},
      {.name = "transport", .read = choice(&D::transport, {"auto", "local", "mpi", "mpi-gpu", "nccl", "peer"})},
      {.name = "overlap", .read = choice(&D::overlap, {"auto", "true", "false"}, true)},
      {.name = "gpu_aware", .read = choice(&D::gpu_aware, {"auto", "yes", "no"})},
    }},
  }};
  return root;
}

const Key* find_key(const Key& parent, std::string_view name) {
  for (const Key& k : parent.keys)
    if (k.name == name) return &k;
  return nullptr;
}

std::string child_path(const std::string& parent, std::string_view name) {
  return parent.empty() ? std::string(name) : parent + "." + std::string(name);
}

// "unknown key 'grid.nq'; accepted: n, spacing in [grid]" (`label` is "[grid]", "[[source]]", or
// empty at the top, where the keys are the sections).
std::string unknown_key(const std::string& key, const Key& parent, const std::string& label) {
  std::vector<std::string> names;
  for (const Key& k : parent.keys) names.push_back(k.name);
  return "unknown key '" + key + "'; accepted: " + (label.empty() ? "the sections " + joined(names) : joined(names) + " in " + label);
}

// --- reading the table ----------------------------------------------------------------------------

void read_key(const toml::node& v, const std::string& key, const Key& spec, Reading& r);

// The keys of one table: every key must be known (a typo is reported as such, before anything
// else); then the known keys are read in the schema's order.
void read_table(const toml::table& table, const std::string& where, const std::string& label, const Key& spec,
                Reading& r) {
  for (auto&& [name, value] : table)
    if (!find_key(spec, name.str()))
      throw Error(r.deck.path + ": " + unknown_key(child_path(where, name.str()), spec, label));
  for (const Key& key : spec.keys)
    if (const toml::node* v = table.get(key.name)) read_key(*v, child_path(where, key.name), key, r);
}

void read_key(const toml::node& v, const std::string& key, const Key& spec, Reading& r) {
  if (spec.read) return spec.read(v, key, r);
  if (!spec.array_of_tables) {
    const toml::table* t = v.as_table();
    if (!t) wrong_type(key, "a table ([" + key + "])", v);
    return read_table(*t, key, "[" + key + "]", spec, r);
  }
  const std::string form = "[[" + key + "]]";
  const toml::array* entries = v.as_array();
  if (!entries) wrong_type(key, "an array of tables (" + form + ")", v);
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table* t = entries->get(i)->as_table();
    if (!t) wrong_type(key, "an array of tables (" + form + ")", v);
    const std::string entry = key + "[" + std::to_string(i) + "]";
    if (spec.begin) spec.begin(r);
    read_table(*t, entry, form, spec, r);
    for (const std::string& name : spec.required)
      if (!t->contains(name))
        throw Error(entry + "." + name + " is required; accepted: every " + form + " gives " + joined(spec.required));
    if (spec.end) spec.end(r);
  }
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

// --- overrides ------------------------------------------------------------------------------------

using Scalar = std::variant<std::int64_t, double, bool, std::string>;

// A command-line word as a TOML value: an integer, a float or a boolean as TOML writes them, else
// the word itself as a string (so paths and names need no quotes).
Scalar parse_word(const std::string& word) {
  if (word.find_first_of("#\n\r") != std::string::npos) return word;  // a comment would swallow part of it
  try {
    const toml::table t = toml::parse("v = " + word);
    if (t.size() == 1) {
      if (auto i = t["v"].value_exact<std::int64_t>()) return *i;
      if (auto f = t["v"].value_exact<double>()) return *f;
      if (auto b = t["v"].value_exact<bool>()) return *b;
    }
  } catch (const toml::parse_error&) {
  }
  return word;
}

// The schema's key that `--flag` names, or an Error saying why no override can set it.
std::vector<std::string> override_path(const std::string& flag) {
  std::vector<std::string> parts;
  for (std::size_t start = 2;;) {
    const std::size_t dot = flag.find('.', start);
    parts.push_back(flag.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const Key* spec = &schema();
  std::string key;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Key* child = find_key(*spec, parts[i]);
    const std::string label = key.empty() ? "" : "[" + key + "]";
    if (!child) throw Error(unknown_key(child_path(key, parts[i]), *spec, label));
    key = child_path(key, parts[i]);
    if (child->array_of_tables)
      throw Error("--" + key + " is an array of tables; accepted: [[" + key + "]] tables in the deck, not a flag");
    if (child->nested) throw Error("--" + key + " is a list of points; accepted: " + key + " in the deck, not a flag");
    const bool last = i + 1 == parts.size();
    if (child->read && !last)
      throw Error("unknown key '" + flag.substr(2) + "': " + key + " is a value, not a section; accepted: --" + key + " VALUE");
    if (!child->read && last) throw Error("--" + key + " is a section; accepted: one of its keys, --" + key + ".KEY VALUE");
    spec = child;
  }
  return parts;
}

// Writes one override into the parsed deck. Setting one of a pair of exclusive keys drops the
// other one if the deck (not an earlier override) gave it, so that `--scheme.time 2` replaces the
// deck's steps.
void apply_override(toml::table& root, const std::vector<std::string>& parts, const std::vector<std::string>& words,
                    std::set<std::string>& overridden) {
  toml::table* table = &root;
  std::string key;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    key = child_path(key, parts[i]);
    toml::node* section = table->get(parts[i]);
    if (!section) section = &table->insert(parts[i], toml::table{}).first->second;
    table = section->as_table();
    if (!table) wrong_type(key, "a table ([" + key + "])", *section);
  }
  const std::string& name = parts.back();
  key = child_path(key, name);
  auto insert = [&](auto&& into, const Scalar& s) { std::visit([&](const auto& x) { into(x); }, s); };
  if (words.size() == 1) {
    insert([&](const auto& x) { table->insert_or_assign(name, x); }, parse_word(words[0]));
  } else {
    toml::array values;
    for (const std::string& w : words) insert([&](const auto& x) { values.push_back(x); }, parse_word(w));
    table->insert_or_assign(name, std::move(values));
  }
  overridden.insert(key);
  // Each key of an exclusive pair, and the other key of its pair (both in [scheme]).
  static const std::vector<std::pair<std::string, std::string>> partner = {
      {"scheme.cfl", "dt"}, {"scheme.dt", "cfl"}, {"scheme.steps", "time"}, {"scheme.time", "steps"}};
  for (const auto& [set, other] : partner)
    if (key == set && !overridden.count("scheme." + other)) table->erase(other);
}

void apply_overrides(toml::table& root, const std::vector<std::string>& overrides) {
  std::set<std::string> overridden;
  for (std::size_t i = 0; i < overrides.size();) {
    std::string flag = overrides[i];
    if (flag.rfind("--", 0) != 0 || flag.size() == 2)
      throw Error("override '" + flag + "' is not a flag; accepted: --section.key value...");
    std::vector<std::string> words;
    if (const auto eq = flag.find('='); eq != std::string::npos)  // --section.key=value
      words.push_back(flag.substr(eq + 1)), flag.resize(eq);
    for (++i; i < overrides.size() && overrides[i].rfind("--", 0) != 0; ++i) words.push_back(overrides[i]);
    const std::vector<std::string> parts = override_path(flag);
    if (words.empty()) throw Error(flag + " needs a value; accepted: " + flag + " VALUE or " + flag + "=VALUE");
    apply_override(root, parts, words, overridden);
  }
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

// --- the deck as text ------------------------------------------------------------------------------

// The deck's table: read once (read_input), parsed from memory, so a pipe works.
toml::table parse_deck(const std::string& path) {
  const std::string& text = read_input(path, "deck '" + path + "'");
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw Error("deck " + path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()) +
                "; accepted: TOML (toml.io)");
  }
}

// Every value of `table` under its full key ("grid.n", "source[0].position"): tables and arrays of
// tables are entered, every other node is a value.
void for_each_value(const toml::table& table, const std::string& where,
                    const std::function<void(const std::string&, const toml::node&)>& visit) {
  for (auto&& [name, node] : table) {
    const std::string key = child_path(where, name.str());
    const toml::array* a = node.as_array();
    if (const toml::table* t = node.as_table()) for_each_value(*t, key, visit);
    else if (a && !a->empty() && a->is_array_of_tables())
      for (std::size_t i = 0; i < a->size(); ++i) for_each_value(*a->get(i)->as_table(), key + "[" + std::to_string(i) + "]", visit);
    else visit(key, node);
  }
}

// A number as the shortest text that reads back to it exactly.
std::string exact(double x) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;
  return std::string(buf, end);
}

// A scalar as a command-line word (a string as it is); nullopt for dates, times, arrays, tables.
std::optional<std::string> word(const toml::node& v) {
  if (const auto* s = v.as_string()) return s->get();
  if (const auto* i = v.as_integer()) return std::to_string(i->get());
  if (const auto* f = v.as_floating_point()) return exact(f->get());
  if (const auto* b = v.as_boolean()) return b->get() ? "true" : "false";
  return std::nullopt;
}

// A value in full, as the ranks compare it: 64, 0.5, 'half', [16, 16], [[0, 0, 0], [1, 1, 1]].
std::string full_text(const toml::node& v) {
  if (const auto* a = v.as_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < a->size(); ++i) s += (i ? ", " : "") + full_text(*a->get(i));
    return s + "]";
  }
  if (v.is_string()) return "'" + *word(v) + "'";
  if (const auto w = word(v)) return *w;
  std::ostringstream os;  // dates and times as TOML writes them
  if (const auto* d = v.as_date()) os << *d;
  else if (const auto* t = v.as_time()) os << *t;
  else if (const auto* dt = v.as_date_time()) os << *dt;
  else if (const auto* t = v.as_table()) os << *t;
  return os.str();
}

}  // namespace

SeismicDeck read_seismic_deck(const std::string& path, const std::vector<std::string>& overrides) {
  toml::table root = parse_deck(path);
  apply_overrides(root, overrides);
  Reading r;
  r.deck.path = path;
  read_table(root, "", "", schema(), r);
  check_whole_deck(r.deck);
  return std::move(r.deck);
}

std::vector<std::pair<std::string, std::string>> seismic_deck_settings(const std::string& path,
                                                                      const std::vector<std::string>& overrides) {
  toml::table root = parse_deck(path);
  apply_overrides(root, overrides);
  std::vector<std::pair<std::string, std::string>> settings;
  for_each_value(root, "", [&](const std::string& key, const toml::node& v) { settings.emplace_back(key, full_text(v)); });
  return settings;
}

std::vector<DeckWords> read_deck_words(const std::string& path) {
  const toml::table root = parse_deck(path);
  std::vector<DeckWords> values;
  for_each_value(root, "", [&](const std::string& key, const toml::node& v) {
    DeckWords& out = values.emplace_back(DeckWords{key, {}});
    const toml::array* a = v.as_array();
    for (std::size_t i = 0; a ? i < a->size() : i == 0; ++i) {
      const auto w = word(a ? *a->get(i) : v);
      if (!w)
        throw Error("deck " + path + ":" + std::to_string(v.source().begin.line) + ": " + key + " = " + full_text(v) +
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
