#pragma once
// Typed configuration for the subcommands. Every option is a CLI11 option; a deck (TOML) is read
// with toml++, as seismic decks are, and its keys become the same options, so `--grid.n 64 64 64`
// on the command line overrides `n = [...]` under `[grid]` in the deck. Unknown deck keys are errors.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wavefd/stencil.hpp"

namespace wavefd {

struct StencilConfig {
  std::string family = "star";
  int M = 4;                       // star: 6M+1 points, order 2M
  int R = 3;                       // compact: shells with |q|^2 <= R
  std::vector<int> q{1, 1, 1};     // box: shells up to q in lexicographic order
  std::string file;                // custom: "dx dy dz weight" per line
  std::string file_key = "stencil.file";  // how messages name `file` (set by add_stencil_options)
};

// Registers the stencil options as --<prefix>family, --<prefix>M, ... on `app`.
void add_stencil_options(CLI::App& app, StencilConfig& c, const std::string& prefix);
Stencil build_stencil(const StencilConfig& c);  // throws Error

// The precisions parse_precision accepts, as help text for the options that take one.
inline constexpr const char* kPrecisionHelp = "float, double, half or bfloat16 (16 bits stored, float arithmetic)";

// One of kPrecisionHelp's names; an Error names `key` (the option as its command spells it).
Precision parse_precision(std::string_view name, const std::string& key = "scheme.precision");

// Whether `name` is one of the comma-separated names in `list`.
bool name_in_list(const std::string& list, const std::string& name);

struct RunConfig {
  std::string deck;
  std::vector<long long> n{128, 128, 128};
  std::string boundary = "periodic";
  bool pad = true;
  StencilConfig stencil;
  std::optional<double> courant;  // unset: 0.9 x the stencil's stable limit
  std::string precision = "float";
  std::string variant = "auto";
  std::string tile = "default";   // the variant's block extents XxYxZ, or default (tuned, else its own)
  std::string tuning;             // tuning file consulted by variant = "auto" ('' = the default file)
  long steps = 100;
  std::string init = "pulse";     // pulse | mode
  double amplitude = 1;           // peak of the initial condition
  std::string summary = "wavefd-summary.json";
  std::string progress = "auto";  // auto | bar | line | none
  double status_interval = 10;    // seconds between status lines when not on a terminal
  long check_interval = 100;      // steps between checks that the field is finite (all ranks)
  std::vector<long long> ranks{0, 0, 0};  // rank grid px py pz; 0 = chosen by wavefd
  std::string transport = "auto";  // auto | local | mpi | mpi-gpu | nccl
  std::string overlap = "auto";    // update the core while ghosts are in flight: auto | true | false
  std::string gpu_aware = "auto";  // auto | yes | no: whether MPI takes device pointers
  std::string ghost_fill = "auto";  // auto | kernel | separate: who fills one rank's ghosts
  std::string pack = "auto";        // auto | kernel | separate: who packs the faces sent by message
};

void add_run_options(CLI::App& run, RunConfig& c);

// Turns `run DECK.toml [flags]` into the equivalent flags: deck keys first, so that explicit flags
// (later on the line) win; the deck path stays the first word. The deck is read once (a pipe
// works). Throws Error for an unreadable deck, a syntax error (file and line) or a key `run` does
// not know.
std::vector<std::string> expand_deck(const CLI::App& run, const std::string& deck,
                                     const std::vector<std::string>& rest);

}  // namespace wavefd
