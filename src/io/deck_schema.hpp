#pragma once
// TOML decks read against a schema (toml++): the checks of values as the deck gives them, the tree
// of Key that knows every section and key of one kind of deck, the reader that walks a parsed table
// against it, and the command-line overrides (`--section.key value...`), checked against the same
// schema before they are written into the parsed table. A kind of deck (seismic_deck.cpp) brings
// its schema, the struct its readers fill, and its checks of the whole deck.
//
// R, the struct the readers fill, provides:
//   const std::string& path() const;  // the deck's path, which unknown-key messages start with
//   template <class T> T& at();        // the object a field reader of T's members writes into
// Host-only: nvcc cannot parse toml++, so only the plain C++ of the seismic library includes this.
#include <toml++/toml.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd::deck {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Full keys and the sibling each one drops when an override sets it: {"scheme.cfl", "dt"}.
using Exclusive = std::vector<std::pair<std::string, std::string>>;

// --- values as the deck gives them ----------------------------------------------------------------

// A value as messages show it: 64, 0.5, 'half', [16, 16]; long arrays are cut short.
std::string shown(const toml::node& v);

// What a value is, for a message about its type: "a string", "an array of 2 integers".
std::string value_kind(const toml::node& v);

// "grid.spacing = 'ten' is a string; accepted: a number, spacing > 0 (a finite spacing in metres)".
[[noreturn]] void wrong_type(const std::string& key, const std::string& expected, const toml::node& v,
                             const std::string& range = "");

// "grid.n[1]" -> "n", "source[0].frequency" -> "frequency": the name a range is written with.
std::string short_name(const std::string& key);

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
                 const std::string& meaning);

// `range` completes a type error's accepted part ("spacing > 0 (a finite spacing in metres)").
double as_number(const toml::node& v, const std::string& key, const std::string& range = "");
std::int64_t as_integer(const toml::node& v, const std::string& key, const std::string& range = "");
std::string as_string(const toml::node& v, const std::string& key, const std::string& range = "");

// An array of exactly `count` elements of one kind ("3 integers", "3 numbers"). A pointer, never
// null: GCC takes a reference returned next to a temporary argument for a dangling one.
const toml::array* as_array(const toml::node& v, const std::string& key, std::size_t count, const std::string& what,
                            bool integers, const std::string& range = "");

std::array<double, 3> as_point(const toml::node& v, const std::string& key);

std::string joined(const std::vector<std::string>& names);

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

// --- the schema -----------------------------------------------------------------------------------

template <class R>
using Reader = std::function<void(const toml::node& value, const std::string& key, R& r)>;

// One key of the schema: a value (`read` set), a table of keys, or an array of tables whose
// entries hold `keys`.
template <class R>
struct Key {
  std::string name;
  Reader<R> read = nullptr;
  std::vector<Key> keys = {};
  bool array_of_tables = false;
  std::vector<std::string> required = {};   // array of tables: keys every entry must give
  std::function<void(R&)> begin = nullptr;  // array of tables: starts an entry ...
  std::function<void(R&)> end = nullptr;    // ... and takes it in once it is read
  bool nested = false;                      // a value that is an array of arrays: no override can give it
};

template <class F> struct Plain { using type = F; };
template <class F> struct Plain<std::optional<F>> { using type = F; };

template <class R, class T, class F>
Reader<R> number(F T::*field, Bounds b, std::string meaning) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    const double x = as_number(v, key, b.text(short_name(key)) + " (" + meaning + ")");
    check_range(x, format_number(x), key, b, meaning);
    r.template at<T>().*field = x;
  };
}

template <class R, class T, class F>
Reader<R> integer(F T::*field, Bounds b, std::string meaning) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    using Stored = typename Plain<F>::type;
    const std::int64_t x = as_integer(v, key, b.text(short_name(key)) + " (" + meaning + ")");
    check_range(double(x), std::to_string(x), key, b, meaning);
    if (x > std::int64_t(std::numeric_limits<Stored>::max()))
      throw Error(key + " = " + std::to_string(x) + " is too large; accepted: at most " +
                  std::to_string(std::numeric_limits<Stored>::max()));
    r.template at<T>().*field = Stored(x);
  };
}

// A name from a fixed list; "boolean_too" also takes TOML's true and false, stored as their names.
template <class R, class T>
Reader<R> choice(std::string T::*field, std::vector<std::string> accepted, bool boolean_too = false) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    std::string name;
    if (const auto* b = v.as_boolean(); b && boolean_too) name = b->get() ? "true" : "false";
    else if (!v.is_string()) wrong_type(key, joined(accepted), v);
    else name = as_string(v, key);
    if (std::find(accepted.begin(), accepted.end(), name) == accepted.end())
      throw Error(key + " = '" + name + "' is unknown; accepted: " + joined(accepted));
    r.template at<T>().*field = name;
  };
}

template <class R, class T>
Reader<R> text(std::string T::*field) {
  return [=](const toml::node& v, const std::string& key, R& r) { r.template at<T>().*field = as_string(v, key); };
}

template <class R, class T>
Reader<R> point(std::array<double, 3> T::*field) {
  return [=](const toml::node& v, const std::string& key, R& r) { r.template at<T>().*field = as_point(v, key); };
}

// An array of points [[x, y, z], ...] in metres, appended to `field` (receivers.positions).
template <class R, class T>
Reader<R> points(std::vector<std::array<double, 3>> T::*field) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    const toml::array* a = v.as_array();
    if (!a) wrong_type(key, "an array of points [[x, y, z], ...]", v, "finite metres");
    for (std::size_t i = 0; i < a->size(); ++i)
      (r.template at<T>().*field).push_back(as_point(*a->get(i), key + "[" + std::to_string(i) + "]"));
  };
}

// parallel.ranks: ranks per axis, 0 = chosen.
template <class R, class T>
Reader<R> rank_grid(std::vector<long long> T::*field) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    const auto p = integers<3>(v, key, at_least(0), "ranks per axis, 0 = chosen");
    (r.template at<T>().*field).assign(p.begin(), p.end());
  };
}

// true or false.
template <class R, class T>
Reader<R> boolean(bool T::*field) {
  return [=](const toml::node& v, const std::string& key, R& r) {
    const auto* b = v.as_boolean();
    if (!b) wrong_type(key, "true or false", v);
    r.template at<T>().*field = b->get();
  };
}

// The [parallel] section every model's deck has (D: ranks, transport, overlap, gpu_aware).
template <class R, class D>
Key<R> parallel_section() {
  return {.name = "parallel", .keys = {
    {.name = "ranks", .read = rank_grid<R>(&D::ranks)},
    {.name = "transport", .read = choice<R>(&D::transport, {"auto", "local", "mpi", "mpi-gpu", "nccl", "peer"})},
    {.name = "overlap", .read = choice<R>(&D::overlap, {"auto", "true", "false"}, true)},
    {.name = "gpu_aware", .read = choice<R>(&D::gpu_aware, {"auto", "yes", "no"})},
  }};
}

// The keys of [output] every model's deck has (D: summary, progress, status_interval, check_interval),
// followed by `more`.
template <class R, class D>
Key<R> output_section(std::vector<Key<R>> more = {}) {
  Key<R> k{.name = "output", .keys = {
    {.name = "summary", .read = text<R>(&D::summary)},
    {.name = "progress", .read = choice<R>(&D::progress, {"auto", "bar", "line", "none"})},
    {.name = "status_interval", .read = number<R>(&D::status_interval, above(0), "seconds between status lines")},
    {.name = "check_interval", .read = integer<R>(&D::check_interval, at_least(1), "steps between finiteness checks")},
  }};
  for (Key<R>& m : more) k.keys.push_back(std::move(m));
  return k;
}

template <class R>
const Key<R>* find_key(const Key<R>& parent, std::string_view name) {
  for (const Key<R>& k : parent.keys)
    if (k.name == name) return &k;
  return nullptr;
}

std::string child_path(const std::string& parent, std::string_view name);

// "unknown key 'grid.nq'; accepted: n, spacing in [grid]" (`label` is "[grid]", "[[source]]", or
// empty at the top, where the keys are the sections).
template <class R>
std::string unknown_key(const std::string& key, const Key<R>& parent, const std::string& label) {
  std::vector<std::string> names;
  for (const Key<R>& k : parent.keys) names.push_back(k.name);
  return "unknown key '" + key + "'; accepted: " + (label.empty() ? "the sections " + joined(names) : joined(names) + " in " + label);
}

// --- reading the table ----------------------------------------------------------------------------

template <class R>
void read_key(const toml::node& v, const std::string& key, const Key<R>& spec, R& r);

// The keys of one table: every key must be known (a typo is reported as such, before anything
// else); then the known keys are read in the schema's order.
template <class R>
void read_table(const toml::table& table, const std::string& where, const std::string& label, const Key<R>& spec,
                R& r) {
  for (auto&& [name, value] : table)
    if (!find_key(spec, name.str()))
      throw Error(r.path() + ": " + unknown_key(child_path(where, name.str()), spec, label));
  for (const Key<R>& key : spec.keys)
    if (const toml::node* v = table.get(key.name)) read_key(*v, child_path(where, key.name), key, r);
}

template <class R>
void read_key(const toml::node& v, const std::string& key, const Key<R>& spec, R& r) {
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

// --- overrides ------------------------------------------------------------------------------------

// The schema's key that `--flag` names, or an Error saying why no override can set it.
template <class R>
std::vector<std::string> override_path(const std::string& flag, const Key<R>& schema) {
  std::vector<std::string> parts;
  for (std::size_t start = 2;;) {
    const std::size_t dot = flag.find('.', start);
    parts.push_back(flag.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  const Key<R>* spec = &schema;
  std::string key;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Key<R>* child = find_key(*spec, parts[i]);
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

// The overrides ("--grid.n", "64", "64", "64", "--scheme.time=2", ...) written into the parsed
// deck, each flag's key found by `key_of` (the parts of its key, or an Error). Setting a key of
// `exclusive` drops its sibling from the same table if the deck (not an earlier override) gave
// it, so that `--scheme.time 2` replaces the deck's steps.
void apply_overrides(toml::table& root, const std::vector<std::string>& overrides,
                     const std::function<std::vector<std::string>(const std::string& flag)>& key_of,
                     const Exclusive& exclusive);

// The same, each flag checked against `schema` before it is written.
template <class R>
void apply_overrides(toml::table& root, const std::vector<std::string>& overrides, const Key<R>& schema,
                     const Exclusive& exclusive) {
  apply_overrides(root, overrides, [&](const std::string& flag) { return override_path(flag, schema); }, exclusive);
}

// --- the deck as text ------------------------------------------------------------------------------

// The deck's table: read once (read_input), parsed from memory, so a pipe works.
toml::table parse_deck(const std::string& path);

// Every value of `table` under its full key ("grid.n", "source[0].position"): tables and arrays of
// tables are entered, every other node is a value.
void for_each_value(const toml::table& table, const std::string& where,
                    const std::function<void(const std::string&, const toml::node&)>& visit);

// A number as the shortest text that reads back to it exactly.
std::string exact(double x);

// A scalar as a command-line word (a string as it is); nullopt for dates, times, arrays, tables.
std::optional<std::string> word(const toml::node& v);

// A value in full, as the ranks compare it: 64, 0.5, 'half', [16, 16], [[0, 0, 0], [1, 1, 1]].
std::string full_text(const toml::node& v);

// Every value of `root` as (full key, full_text) in the table's order.
std::vector<std::pair<std::string, std::string>> settings(const toml::table& root);

// --- whole decks -----------------------------------------------------------------------------------

// Reads the deck at `path` with `overrides` into `r` (whose path() names the deck), key by key; the
// checks of the whole deck are the caller's.
template <class R>
void read_deck(const std::string& path, const std::vector<std::string>& overrides, const Key<R>& schema,
               const Exclusive& exclusive, R& r) {
  toml::table root = parse_deck(path);
  apply_overrides(root, overrides, schema, exclusive);
  read_table(root, "", "", schema, r);
}

// The deck's values after `overrides` as (key, value) text, "grid.n" = "[64, 64, 64]", every value
// in full and in a fixed order: what the ranks of one run compare.
template <class R>
std::vector<std::pair<std::string, std::string>> deck_settings(const std::string& path,
                                                               const std::vector<std::string>& overrides,
                                                               const Key<R>& schema, const Exclusive& exclusive) {
  toml::table root = parse_deck(path);
  apply_overrides(root, overrides, schema, exclusive);
  return settings(root);
}

}  // namespace wavefd::deck
