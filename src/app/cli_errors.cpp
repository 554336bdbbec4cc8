#include "app/cli_errors.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>

#include "wavefd/types.hpp"

namespace wavefd::app {
namespace {

constexpr int kUnbounded = 1 << 20;  // CLI11's "any number of values" is far above this

// A flag, not a value: --name, -h; "-4" and "-.5" are numbers, "--" ends the options.
bool is_flag(const std::string& w) {
  if (w.size() < 2 || w[0] != '-') return false;
  if (w[1] == '-') return w.size() > 2;
  return !std::isdigit(static_cast<unsigned char>(w[1])) && w[1] != '.';
}

std::string joined(const std::vector<std::string>& words, const std::string& by) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : by) + w;
  return s;
}

// How messages name an option: run's are deck keys (scheme.steps), the other commands' flags (--n).
std::string key_of(const CLI::Option& opt, bool deck_keys) {
  const std::string name = opt.get_lnames().empty() ? opt.get_name() : opt.get_lnames().front();
  return deck_keys ? name : "--" + name;
}

enum class Kind { integer, natural, number, boolean, text };

// CLI11's type names, as its help shows them (INT, UINT, FLOAT, BOOLEAN, TEXT).
Kind kind_of(const CLI::Option& opt) {
  const std::string t = opt.get_type_name();
  if (t.rfind("INT", 0) == 0) return Kind::integer;
  if (t.rfind("UINT", 0) == 0) return Kind::natural;
  if (t.rfind("FLOAT", 0) == 0) return Kind::number;
  if (t.rfind("BOOLEAN", 0) == 0) return Kind::boolean;
  return Kind::text;
}

// Whether CLI11's own conversion takes `v` as that kind (for the widest type of the kind: a value
// beyond the option's own type is caught by CLI11 and mapped by explain()).
bool converts(Kind k, const std::string& v) {
  switch (k) {
    case Kind::integer: {
      long long x = 0;
      return CLI::detail::lexical_cast(v, x);
    }
    case Kind::natural: {
      unsigned long long x = 0;
      return CLI::detail::lexical_cast(v, x);
    }
    case Kind::number: {
      double x = 0;
      return CLI::detail::lexical_cast(v, x);
    }
    case Kind::boolean: {
      bool x = false;
      return CLI::detail::lexical_cast(v, x);
    }
    case Kind::text: return true;
  }
  return true;
}

std::string one(Kind k) {
  switch (k) {
    case Kind::integer: return "an integer";
    case Kind::natural: return "an integer >= 0";
    case Kind::number: return "a number";
    case Kind::boolean: return "true or false";
    case Kind::text: return "a value";
  }
  return "a value";
}

std::string several(Kind k) {
  switch (k) {
    case Kind::integer: return "integers";
    case Kind::natural: return "integers >= 0";
    case Kind::number: return "numbers";
    case Kind::boolean: return "booleans";
    case Kind::text: return "values";
  }
  return "values";
}

// "3 integers: Global interior points nx ny nz ...": the count and kind, then the option's description.
std::string accepted(const CLI::Option& opt) {
  const int max = opt.get_items_expected_max();
  const Kind k = kind_of(opt);
  std::string what = max == 0          ? "the flag alone, or =true|false"
                     : max >= kUnbounded ? "one or more " + several(k)
                     : max == 1          ? one(k)
                                         : std::to_string(max) + " " + several(k);
  const std::string& description = opt.get_description();
  return description.empty() ? what : what + ": " + description;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// " (did you mean --grid.n?)" when one of the command's options is a near miss of `flag`.
std::string nearest(const CLI::App& sub, const std::string& flag) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, flag.size() / 4) + 1;
  for (const CLI::Option* opt : sub.get_options())
    for (const std::string& l : opt->get_lnames())
      if (const std::size_t d = edit_distance(flag, "--" + l); d < best_distance) best = "--" + l, best_distance = d;
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

// wavefd's commands (CLI11's subcommands).
std::vector<const CLI::App*> commands_of(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

// The command named `name`, or nullptr. (CLI::App::get_subcommand_no_throw is newer than the CLI11
// of Ubuntu 24.04.)
const CLI::App* find_command(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : commands_of(app))
    if (sub->check_name(name)) return sub;
  return nullptr;
}

std::string command_list(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : commands_of(app)) names.push_back(sub->get_name());
  return joined(names, ", ");
}

// The positional option (run's and seismic's deck), if the command has one.
const CLI::Option* positional(const CLI::App& sub) {
  for (const CLI::Option* opt : sub.get_options())
    if (opt->get_positional()) return opt;
  return nullptr;
}

std::string usage(const CLI::App& sub) {
  const std::string name = "wavefd " + sub.get_name();
  if (positional(sub)) return name + " DECK.toml [--key value ...] (see `" + name + " --help`)";
  return "the options of `" + name + " --help`, each --name followed by its values";
}

// The values one option was given (`words`: after '=' or the words up to the next flag): as
// many as it takes, each of its kind. `in_deck` says where they came from, if from run's deck.
void check_values(const CLI::App& sub, const CLI::Option& opt, const std::string& key,
                  const std::vector<std::string>& words, const std::string& in_deck) {
  const int min = opt.get_items_expected_min(), max = opt.get_items_expected_max();
  if (max == 0) {  // a flag: CLI11 takes =true|false (or a count) after it
    if (!words.empty() && !converts(Kind::boolean, words[0]) && !converts(Kind::integer, words[0]))
      throw Error(key + " = '" + words[0] + "' is not true or false" + in_deck + "; accepted: " + accepted(opt));
    return;
  }
  std::vector<std::string> items;  // the values, split at the option's delimiter (--ranks 1,1,3)
  for (const std::string& word : words)
    for (std::size_t from = 0;;) {
      const std::size_t at = opt.get_delimiter() == '\0' ? std::string::npos : word.find(opt.get_delimiter(), from);
      items.push_back(word.substr(from, at - from));
      if (at == std::string::npos) break;
      from = at + 1;
    }
  const auto count = int(items.size());
  if (count == 0) throw Error(key + " has no value" + in_deck + "; accepted: " + accepted(opt));
  // A deck after the options (`run --scheme.steps 5 deck.toml`): the deck comes first.
  if (count > max && positional(sub) && words.size() > std::size_t(max) && words[std::size_t(max)].ends_with(".toml"))
    throw Error("'" + words[std::size_t(max)] + "' is not expected here; accepted: " + usage(sub));
  if (count < min || count > max) {
    const int needed = count < min ? min : max;
    throw Error(key + " = " + joined(words, " ") + " has " + std::to_string(count) +
                (count == 1 ? " value, " : " values, ") + (max >= kUnbounded ? "at least " : "") +
                std::to_string(needed) + (needed == 1 ? " is" : " are") + " needed" + in_deck +
                "; accepted: " + accepted(opt));
  }
  const Kind kind = kind_of(opt);
  for (const std::string& item : items) {
    if (converts(kind, item) && !(item.empty() && kind != Kind::text)) continue;
    const std::size_t sign = item.find_first_of("+-") == 0 ? 1 : 0;
    const bool digits = item.size() > sign && item.find_first_not_of("0123456789", sign) == std::string::npos;
    if (digits && (kind == Kind::integer || kind == Kind::natural))
      throw Error(key + " = " + item + " is out of range" + in_deck + "; accepted: " + accepted(opt));
    throw Error(key + " = '" + item + "' is not " + one(kind) + in_deck + "; accepted: " + accepted(opt));
  }
}

}  // namespace

void check_words(const CLI::App& app, const std::vector<std::string>& args, std::size_t deck_end) {
  for (const std::string& w : args) {
    if (w == "--") break;
    if (w == "--help" || w == "-h") return;  // CLI11 prints the help, whatever else is there
  }
  const std::string commands = command_list(app);
  if (args.empty()) throw Error("command is missing; accepted: " + commands + " (see `wavefd --help`)");
  if (args[0] == "--version") return;
  if (is_flag(args[0]))
    throw Error(args[0] + " is not an option of wavefd; accepted: a command (" + commands + "), --help, --version");
  const CLI::App* sub = find_command(app, args[0]);
  if (!sub) throw Error("command = '" + args[0] + "' is unknown; accepted: " + commands + " (see `wavefd --help`)");
  const bool deck_keys = sub->get_name() == "run";
  const std::string command = "wavefd " + sub->get_name();

  std::map<const CLI::Option*, std::string> given;  // the values each option was given first
  bool deck_given = false;
  std::string previous;  // the flag before a stray word, if it takes no value
  for (std::size_t i = 1; i < args.size();) {
    const std::string& w = args[i];
    const std::string in_deck = i < deck_end ? " (in deck '" + args[1] + "')" : "";
    if (w == "--") throw Error("the words after '--' are not expected; accepted: " + usage(*sub));
    if (!is_flag(w)) {
      if (i == 1 && positional(*sub)) {
        deck_given = true, ++i;
        continue;
      }
      throw Error("'" + w + "' is not expected here" + previous + "; accepted: " + usage(*sub));
    }
    const std::size_t eq = w.find('=');
    const std::string flag = w.substr(0, eq);
    const CLI::Option* opt = sub->get_option_no_throw(flag);
    if (!opt || opt->get_positional())
      throw Error(flag + " is not an option of " + command + "; accepted: the options `" + command + " --help` lists" +
                  nearest(*sub, flag));
    const std::string key = key_of(*opt, deck_keys);
    const int max = opt->get_items_expected_max();
    std::vector<std::string> words;
    if (eq != std::string::npos) words.push_back(w.substr(eq + 1));
    for (++i; eq == std::string::npos && max > 0 && i < args.size() && !is_flag(args[i]) && args[i] != "--"; ++i)
      words.push_back(args[i]);
    previous = max == 0 ? " (" + key + " takes no value)" : "";
    check_values(*sub, *opt, key, words, in_deck);
    // Options that take one value (or a fixed number) are given once; lists may be given in parts.
    if (max < kUnbounded) {
      const std::string value = words.empty() ? "(alone)" : joined(words, " ");
      if (const auto [at, fresh] = given.emplace(opt, value); !fresh)
        throw Error(key + " is given twice (" + at->second + ", " + value + "); accepted: each key once");
    }
  }
  for (const CLI::Option* opt : sub->get_options()) {
    if (!opt->get_required()) continue;
    if (opt->get_positional() && !deck_given)
      throw Error(opt->get_name() + " is missing; accepted: " + opt->get_description() + ", as in " + usage(*sub));
    if (!opt->get_positional() && !given.count(opt))
      throw Error(key_of(*opt, deck_keys) + " is required; accepted: " + accepted(*opt));
  }
}

void check_given_once(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> given;
  for (std::size_t i = 0; i < overrides.size();) {
    const std::string& flag = overrides[i];
    if (flag.rfind("--", 0) != 0) return;  // read_seismic_deck names it
    const std::size_t eq = flag.find('=');
    std::vector<std::string> words;
    if (eq != std::string::npos) words.push_back(flag.substr(eq + 1));
    for (++i; i < overrides.size() && overrides[i].rfind("--", 0) != 0; ++i) words.push_back(overrides[i]);
    const std::string key = flag.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const std::string value = joined(words, " ");
    if (const auto [at, fresh] = given.emplace(key, value); !fresh)
      throw Error(key + " is given twice (" + at->second + ", " + value + "); accepted: each key once");
  }
}

Settings option_settings(const CLI::App& sub) {
  Settings settings{{"command", sub.get_name()}};
  const bool deck_keys = sub.get_name() == "run";
  for (const CLI::Option* opt : sub.get_options()) {
    if (opt->get_positional() || opt->get_lnames().empty() || opt == sub.get_help_ptr()) continue;
    std::vector<std::string> items = opt->results();
    if (opt->count() == 0) {  // the default, as the words that give it: [128,128,128] -> 128 128 128
      const std::string d = opt->get_default_str();
      if (d.empty()) continue;
      items = {d};
      if (d.size() >= 2 && d.front() == '[' && d.back() == ']') {
        items.clear();
        for (std::size_t from = 1;;) {
          const std::size_t at = d.find(',', from);
          items.push_back(d.substr(from, (at == std::string::npos ? d.size() - 1 : at) - from));
          if (at == std::string::npos) break;
          from = at + 1;
        }
      }
    }
    std::string value;
    for (const std::string& item : items) {
      std::string v = item;
      long long i = 0;
      double x = 0;
      bool b = false;
      switch (kind_of(*opt)) {
        case Kind::integer:
        case Kind::natural:
          if (CLI::detail::lexical_cast(item, i)) v = std::to_string(i);
          break;
        case Kind::number:
          if (CLI::detail::lexical_cast(item, x)) {
            char buf[64];
            v.assign(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
          }
          break;
        case Kind::boolean:
          if (CLI::detail::lexical_cast(item, b)) v = b ? "true" : "false";
          break;
        case Kind::text: break;
      }
      value += (value.empty() ? "" : " ") + v;
    }
    settings.emplace_back(key_of(*opt, deck_keys), value);
  }
  return settings;
}

std::string explain(const CLI::ParseError& e, const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* sub = args.empty() ? nullptr : find_command(app, args[0]);
  const std::string text = e.what();
  // "Could not convert: --M = 99999999999": check_words saw an integer, too large for the option's type.
  const std::string prefix = "Could not convert: ";
  if (const std::size_t eq = text.find(" = "); sub && text.rfind(prefix, 0) == 0 && eq != std::string::npos)
    if (const CLI::Option* opt = sub->get_option_no_throw(text.substr(prefix.size(), eq - prefix.size())))
      return key_of(*opt, sub->get_name() == "run") + " = " + text.substr(eq + 3) + " is out of range; accepted: " +
             accepted(*opt);
  return text + "; accepted: see `wavefd " + (sub ? sub->get_name() + " " : "") + "--help`";
}

std::string printable(const std::string& text) {
  std::string out;
  auto escape = [&](unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) escape(c);
      else out += char(c);
      ++i;
      continue;
    }
    // One UTF-8 sequence, checked as Unicode defines it (no overlong forms, no surrogates).
    const std::size_t length = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool valid = length > 0 && i + length <= text.size();
    char32_t point = length == 2 ? c & 0x1f : length == 3 ? c & 0x0f : c & 0x07;
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      valid = (next & 0xc0) == 0x80;
      point = (point << 6) | (next & 0x3f);
    }
    valid = valid && !(length == 3 && (point < 0x800 || (point >= 0xd800 && point <= 0xdfff))) &&
            !(length == 4 && (point < 0x10000 || point > 0x10ffff));
    // C1 controls, line and paragraph separators, bidirectional embeddings and isolates.
    const bool control = point <= 0x9f || (point >= 0x2028 && point <= 0x202e) || (point >= 0x2066 && point <= 0x2069);
    if (!valid) {
      escape(c), ++i;
      continue;
    }
    for (std::size_t k = 0; k < length; ++k) {
      if (control) escape(static_cast<unsigned char>(text[i + k]));
      else out += text[i + k];
    }
    i += length;
  }
  return out;
}

}  // namespace wavefd::app
