// TOML decks read against a schema: the checks of values, the overrides and the deck as text
// (deck_schema.hpp; the templates of the schema and its reader are there).
#include "deck_schema.hpp"

#include <charconv>
#include <set>
#include <sstream>
#include <variant>

#include "input_file.hpp"

namespace wavefd::deck {

// --- values as the deck gives them ----------------------------------------------------------------

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

void wrong_type(const std::string& key, const std::string& expected, const toml::node& v, const std::string& range) {
  const std::string value = v.is_table() || v.is_date() || v.is_time() || v.is_date_time() ? "" : " = " + shown(v);
  throw Error(key + value + " is " + value_kind(v) + "; accepted: " + expected + (range.empty() ? "" : ", " + range));
}

std::string short_name(const std::string& key) {
  std::string name = key.substr(key.rfind('.') + 1);
  return name.substr(0, name.find('['));
}

void check_range(double x, const std::string& shown_value, const std::string& key, const Bounds& b,
                 const std::string& meaning) {
  if (!b.contains(x))
    throw Error(key + " = " + shown_value + " is outside " + b.text(short_name(key)) + "; accepted: " + meaning);
}

double as_number(const toml::node& v, const std::string& key, const std::string& range) {
  if (const auto* i = v.as_integer()) return double(i->get());  // integers are accepted where floats are
  if (const auto* f = v.as_floating_point()) return f->get();
  wrong_type(key, "a number", v, range);
}

std::int64_t as_integer(const toml::node& v, const std::string& key, const std::string& range) {
  if (const auto* i = v.as_integer()) return i->get();
  wrong_type(key, "an integer", v, range);
}

std::string as_string(const toml::node& v, const std::string& key, const std::string& range) {
  if (const auto* s = v.as_string()) return s->get();
  wrong_type(key, "a string", v, range);
}

const toml::array* as_array(const toml::node& v, const std::string& key, std::size_t count, const std::string& what,
                            bool integers, const std::string& range) {
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

std::string child_path(const std::string& parent, std::string_view name) {
  return parent.empty() ? std::string(name) : parent + "." + std::string(name);
}

// --- overrides ------------------------------------------------------------------------------------

namespace {

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

// Writes one override into the parsed deck. Setting one of a pair of exclusive keys drops the
// other one if the deck (not an earlier override) gave it, so that `--scheme.time 2` replaces the
// deck's steps.
void apply_override(toml::table& root, const std::vector<std::string>& parts, const std::vector<std::string>& words,
                    const Exclusive& exclusive, std::set<std::string>& overridden) {
  toml::table* table = &root;
  std::string key;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    key = child_path(key, parts[i]);
    toml::node* section = table->get(parts[i]);
    if (!section) section = &table->insert(parts[i], toml::table{}).first->second;
    table = section->as_table();
    if (!table) wrong_type(key, "a table ([" + key + "])", *section);
  }
  const std::string where = key;  // the table's key, where the exclusive sibling stands as well
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
  for (const auto& [set, other] : exclusive)
    if (key == set && !overridden.count(child_path(where, other))) table->erase(other);
}

}  // namespace

void apply_overrides(toml::table& root, const std::vector<std::string>& overrides,
                     const std::function<std::vector<std::string>(const std::string& flag)>& key_of,
                     const Exclusive& exclusive) {
  std::set<std::string> overridden;
  for (std::size_t i = 0; i < overrides.size();) {
    std::string flag = overrides[i];
    if (flag.rfind("--", 0) != 0 || flag.size() == 2)
      throw Error("override '" + flag + "' is not a flag; accepted: --section.key value...");
    std::vector<std::string> words;
    if (const auto eq = flag.find('='); eq != std::string::npos)  // --section.key=value
      words.push_back(flag.substr(eq + 1)), flag.resize(eq);
    for (++i; i < overrides.size() && overrides[i].rfind("--", 0) != 0; ++i) words.push_back(overrides[i]);
    const std::vector<std::string> parts = key_of(flag);
    if (words.empty()) throw Error(flag + " needs a value; accepted: " + flag + " VALUE or " + flag + "=VALUE");
    apply_override(root, parts, words, exclusive, overridden);
  }
}

// --- the deck as text ------------------------------------------------------------------------------

toml::table parse_deck(const std::string& path) {
  const std::string& text = read_input(path, "deck '" + path + "'");
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw Error("deck " + path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()) +
                "; accepted: TOML (toml.io)");
  }
}

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

std::string exact(double x) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, x).ptr;
  return std::string(buf, end);
}

std::optional<std::string> word(const toml::node& v) {
  if (const auto* s = v.as_string()) return s->get();
  if (const auto* i = v.as_integer()) return std::to_string(i->get());
  if (const auto* f = v.as_floating_point()) return exact(f->get());
  if (const auto* b = v.as_boolean()) return b->get() ? "true" : "false";
  return std::nullopt;
}

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

std::vector<std::pair<std::string, std::string>> settings(const toml::table& root) {
  std::vector<std::pair<std::string, std::string>> out;
  for_each_value(root, "", [&](const std::string& key, const toml::node& v) { out.emplace_back(key, full_text(v)); });
  return out;
}

}  // namespace wavefd::deck
