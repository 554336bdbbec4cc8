#include "wavefd/config.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "wavefd/seismic_deck.hpp"

namespace wavefd {

void add_stencil_options(CLI::App& app, StencilConfig& c, const std::string& prefix) {
  app.add_option("--" + prefix + "family", c.family, "Stencil family: star, compact, box, custom")
      ->capture_default_str();
  app.add_option("--" + prefix + "M", c.M, "star: radius M (6M+1 points, order 2M), 1..20")
      ->capture_default_str();
  app.add_option("--" + prefix + "R", c.R, "compact: largest squared shell radius |q|^2, 1..30")
      ->capture_default_str();
  app.add_option("--" + prefix + "q", c.q, "box: last shell q1 >= q2 >= q3 >= 0 (lexicographic), q1 <= 6")
      ->expected(3)
      ->capture_default_str();
  app.add_option("--" + prefix + "file", c.file,
                 "custom: file with lines 'dx dy dz weight' (Laplacian weights, h = 1)");
  c.file_key = prefix.empty() ? "--file" : prefix + "file";
}

namespace {
// load_custom's messages name "custom stencil file 'x'"; the command's own option reads better.
Stencil load_custom_as(const StencilConfig& c) {
  try {
    return load_custom(c.file);
  } catch (const Error& e) {
    std::string text = e.what();
    const std::string from = "custom stencil file '" + c.file + "'";
    if (text.rfind(from, 0) != 0) throw;
    text.replace(0, from.size(), c.file_key + " = '" + c.file + "'");
    if (const std::size_t at = text.find("': cannot be read"); at != std::string::npos) text.erase(at + 1, 1);
    throw Error(text);
  }
}
}  // namespace

Stencil build_stencil(const StencilConfig& c) {
  switch (parse_family(c.family)) {
    case Family::star: return make_star(c.M);
    case Family::compact: return make_compact(c.R);
    case Family::box:
      if (c.q.size() != 3) throw Error("stencil.q needs 3 integers; accepted: q1 q2 q3 with q1 >= q2 >= q3 >= 0, q1 <= 6");
      return make_box({c.q[0], c.q[1], c.q[2]});
    case Family::custom:
      if (c.file.empty())
        throw Error(c.file_key + " is required for the custom family; accepted: a file of lines 'dx dy dz weight'");
      return load_custom_as(c);
  }
  throw Error("stencil.family: unhandled family");
}

Precision parse_precision(std::string_view name, const std::string& key) {
  if (name == "float") return Precision::f32;
  if (name == "double") return Precision::f64;
  if (name == "half") return Precision::f16;
  if (name == "bfloat16") return Precision::bf16;
  throw Error(key + " = '" + std::string(name) +
              "' is unknown; accepted: " + kPrecisionHelp);
}

bool name_in_list(const std::string& list, const std::string& name) {
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');)
    if (item == name) return true;
  return false;
}

void add_run_options(CLI::App& run, RunConfig& c) {
  // No CLI11 file check: main() has read the deck (a pipe too) before the options are parsed.
  run.add_option("deck", c.deck, "Input deck (TOML); its keys are the options below without '--'");
  run.add_option("--grid.n", c.n, "Global interior points nx ny nz (each >= the stencil radius)")
      ->expected(3)
      ->capture_default_str();
  run.add_option("--grid.boundary", c.boundary, "periodic | rigid (odd reflection, u = 0 on walls)")
      ->capture_default_str();
  run.add_option("--grid.pad", c.pad, "Pad rows to whole lines: 128 bytes on GPU builds, 64 on CPU builds (true | false)")->capture_default_str();
  add_stencil_options(run, c.stencil, "stencil.");
  run.add_option("--scheme.courant", c.courant,
                 "Courant number lambda = cT/X, 0 < lambda <= stable limit (default 0.9 x limit)");
  run.add_option("--scheme.precision", c.precision, kPrecisionHelp)->capture_default_str();
  run.add_option("--scheme.variant", c.variant, "Kernel variant (see `wavefd info`) or auto")
      ->capture_default_str();
  run.add_option("--scheme.tile", c.tile,
                 "Block extents XxYxZ of variants with tunable tiles (mdrange-star, mdrange-general), or default "
                 "(with variant = auto the tuned tile, else the variant's own)")
      ->capture_default_str();
  run.add_option("--scheme.tuning", c.tuning,
                 "Tuning file that variant = auto consults for the variant and tile (default $WAVEFD_TUNING_FILE or "
                 "~/.cache/wavefd/tuning.json; written by `wavefd tune`)");
  run.add_option("--scheme.steps", c.steps, "Time steps, >= 1")->capture_default_str();
  run.add_option("--scheme.init", c.init,
                 "pulse (Gaussian at the centre) | mode (exact eigenmode: the run reports its error)")
      ->capture_default_str();
  run.add_option("--scheme.amplitude", c.amplitude,
                 "Peak of the initial condition, 0 < a <= the largest number of the precision (near it the run "
                 "overflows and the finiteness check stops it; tiny values reach subnormal numbers)")
      ->capture_default_str();
  run.add_option("--output.summary", c.summary, "JSON summary written at the end ('' for none)")
      ->capture_default_str();
  run.add_option("--output.progress", c.progress, "auto | bar | line | none")->capture_default_str();
  run.add_option("--output.status_interval", c.status_interval,
                 "Seconds between status lines when not on a terminal, > 0")
      ->capture_default_str();
  run.add_option("--output.check_interval", c.check_interval,
                 "Steps between checks (on every rank) that the field is finite; a run that is not stops, >= 1")
      ->capture_default_str();
  run.add_option("--parallel.ranks", c.ranks,
                 "Rank grid px py pz with px * py * pz = the MPI ranks; 0 entries are chosen by wavefd")
      ->expected(3)
      ->capture_default_str();
  run.add_option("--parallel.transport", c.transport,
                 "Halo transport: auto | local (one rank) | mpi (host-staged) | mpi-gpu (GPU-aware MPI) | nccl | peer (copy engines, one node)")
      ->capture_default_str();
  run.add_option("--parallel.overlap", c.overlap,
                 "Update the core of each subdomain while its ghosts are in flight: auto (on with several ranks) | "
                 "true | false")
      ->capture_default_str();
  run.add_option("--parallel.ghost_fill", c.ghost_fill,
                 "Who fills the ghosts of one rank: auto (kernel where possible) | kernel (the kernel also stores "
                 "each point's periodic/rigid images) | separate (a fill pass before each step)")
      ->capture_default_str();
  run.add_option("--parallel.pack", c.pack,
                 "Who packs the faces sent by message: auto (kernel where possible) | kernel (the update kernel "
                 "also stores them into the send buffer) | separate (a pack kernel before the messages)")
      ->capture_default_str();
  run.add_option("--parallel.gpu_aware", c.gpu_aware,
                 "Whether MPI takes device pointers: auto (ask the library) | yes | no")
      ->capture_default_str();
}

namespace {
// A deck value of the TOML type the option takes: CLI11 alone would read true as 1 and "5" as 5.
// A text option takes booleans too (parallel.overlap = true).
void check_deck_type(const DeckWords& v, const CLI::Option& opt, const std::string& deck) {
  const std::string cli = opt.get_type_name();
  const bool integer = cli.rfind("INT", 0) == 0 || cli.rfind("UINT", 0) == 0, number = cli.rfind("FLOAT", 0) == 0,
             boolean = cli.rfind("BOOLEAN", 0) == 0;
  const std::string wanted = integer ? "an integer" : number ? "a number" : boolean ? "true or false" : "a string";
  for (std::size_t i = 0; i < v.words.size(); ++i) {
    const std::string& t = v.types[i];
    const bool fits = integer ? t == "integer"
                      : number ? t == "integer" || t == "float"
                      : boolean ? t == "boolean"
                                : t == "string" || t == "boolean";
    if (fits) continue;
    const std::string key = v.words.size() > 1 ? v.key + "[" + std::to_string(i) + "]" : v.key;
    const std::string shown = t == "string" ? "'" + v.words[i] + "'" : v.words[i];
    throw Error("deck '" + deck + "': " + key + " = " + shown + " is " + (t == "integer" ? "an " : "a ") + t +
                "; accepted: " + wanted + " (" + opt.get_description() + ")");
  }
}

// "n, boundary, pad in [grid]" when `key`'s section exists, else the sections: what a deck may hold.
std::string accepted_deck_keys(const CLI::App& run, const std::string& key) {
  const std::string section = key.substr(0, key.find('.'));
  std::vector<std::string> sections;
  std::string in_section;
  for (const CLI::Option* opt : run.get_options()) {
    for (const std::string& name : opt->get_lnames()) {
      const std::size_t dot = name.find('.');
      if (dot == std::string::npos) continue;
      const std::string s = name.substr(0, dot);
      if (std::find(sections.begin(), sections.end(), s) == sections.end()) sections.push_back(s);
      if (s == section) in_section += (in_section.empty() ? "" : ", ") + name.substr(dot + 1);
    }
  }
  if (!in_section.empty() && key.find('.') != std::string::npos) return in_section + " in [" + section + "]";
  std::string all;
  for (const std::string& s : sections) all += (all.empty() ? "" : ", ") + s;
  return "the sections " + all;
}
}  // namespace

std::vector<std::string> expand_deck(const CLI::App& run, const std::string& deck,
                                     const std::vector<std::string>& rest) {
  const std::vector<DeckWords> values = read_deck_words(deck);
  // Keys given on the command line win: their deck values are dropped, so a flag never merges
  // with the deck's values (`--grid.n 16 16` stays an error rather than borrowing a third value).
  std::set<std::string> explicit_keys;
  for (const auto& a : rest)
    if (a.rfind("--", 0) == 0) explicit_keys.insert(a.substr(2, a.find('=') - 2));
  std::vector<std::string> args{deck};
  std::string unknown, first_unknown;
  for (const DeckWords& v : values) {
    const CLI::Option* opt = run.get_option_no_throw("--" + v.key);
    if (opt == nullptr || v.key == "help") {
      if (unknown.empty()) first_unknown = v.key;
      unknown += (unknown.empty() ? "" : ", ") + v.key;
      continue;
    }
    if (explicit_keys.count(v.key)) continue;
    check_deck_type(v, *opt, deck);
    // One value as --key=value, so that a string starting with '-' stays a value (CLI11 reads
    // `--key=` as no value: '' is a word of its own).
    if (v.words.size() == 1 && !v.words[0].empty()) args.push_back("--" + v.key + "=" + v.words[0]);
    else args.push_back("--" + v.key), args.insert(args.end(), v.words.begin(), v.words.end());
  }
  if (!unknown.empty())
    throw Error("deck '" + deck + "': unknown key(s) " + unknown + "; accepted: " + accepted_deck_keys(run, first_unknown) +
                " (see `wavefd run --help`)");
  args.insert(args.end(), rest.begin(), rest.end());
  return args;
}

}  // namespace wavefd
