#pragma once
// The subcommands of the `wavefd` executable. Each registers its options on the CLI11 app and
// runs after parsing (and after Kokkos is initialised, where it needs Kokkos).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "split_options.hpp"  // beside this file (main.cpp has no src/ include path)
#include "wavefd/config.hpp"

namespace wavefd::app {

class Command {
 public:
  virtual ~Command() = default;
  CLI::App* sub = nullptr;
  virtual bool needs_kokkos() const { return true; }
  virtual int execute() = 0;
};

struct RunCommand : Command {
  RunConfig config;
  explicit RunCommand(CLI::App& app);
  int execute() override;
};

// A model's command on a TOML deck: `wavefd MODEL DECK.toml [--section.key value ...]`.
struct DeckCommand : Command {
  std::string deck;
  std::vector<std::string> overrides;  // the words after the deck, set by main() before parsing
};

// `wavefd seismic DECK.toml ...`: the seismic model (docs/seismic.md).
struct SeismicCommand : DeckCommand {
  explicit SeismicCommand(CLI::App& app);
  int execute() override;
};

// `wavefd room DECK.toml ...`: a room's impulse responses (docs/room.md).
struct RoomCommand : DeckCommand {
  explicit RoomCommand(CLI::App& app);
  int execute() override;
};

struct VerifyCommand : Command {
  bool quick = false;
  std::string variant = "all";
  std::vector<std::string> precisions{"float", "double"};
  std::string transport = "auto";  // under mpirun: as parallel.transport
  explicit VerifyCommand(CLI::App& app);
  int execute() override;
};

struct BenchCommand : Command {
  StencilConfig stencil;
  std::string variant = "all";
  std::string tiles = "default";  // default | all | a list of tiles (TileSelection)
  std::vector<std::string> precisions{"float", "double"};
  std::vector<long long> n{128, 128, 128};
  std::vector<long long> local;  // weak scaling: one rank's subdomain instead of n (choose_weak_rank_grid)
  int steps = 10, warmup = 1, reps = 5;
  std::string op;     // dx | dy | dz: the first-derivative benchmark instead
  int order = 8;
  std::string json;   // results file ('' for none)
  std::string sweep;  // hamilton: the first 20 stencils of each family instead of one stencil
  std::string overlap = "auto";    // the full step as `run` does it by default
  std::string transport = "auto";  // the full step's halo: auto, local, mpi, mpi-gpu, nccl, peer (one rank: self-exchange)
  SplitOptions split;              // under mpirun: --n split over the ranks
  std::string ghost_fill = "auto";  // the full step's ghosts on one rank: auto | kernel | separate
  std::string pack = "auto";        // who packs the faces sent by message: auto | kernel | separate
  explicit BenchCommand(CLI::App& app);
  int execute() override;
};

struct TuneCommand : Command {
  StencilConfig stencil;
  std::string variant = "all";  // kk-spmv (a baseline) is only tuned when named
  std::string tiles = "all";    // as bench --tiles
  std::vector<std::string> precisions{"float", "double"};
  std::vector<long long> n{256, 256, 256};
  int steps = 10, warmup = 1, reps = 5;
  std::string tuning_file;
  std::string overlap = "auto";    // ranked by the full step as `run` does it
  std::string transport = "auto";  // under mpirun: the halo transport, as parallel.transport
  SplitOptions split;              // under mpirun: --n split over the ranks; tuned for the subdomain
  std::string seismic;             // a seismic deck: tune its inner box instead (tune_seismic.cpp)
  explicit TuneCommand(CLI::App& app);
  int execute() override;
  int tune_seismic();
};

// `wavefd probe`: bandwidth and latency of halo-sized messages between neighbouring ranks.
struct ProbeCommand : Command {
  StencilConfig stencil;  // its radius is the halo width, which sizes the faces
  std::vector<long long> n{128, 128, 128};
  std::string boundary = "periodic";
  std::string precision = "float";
  std::string transports = "all";  // all (those available), or a list of mpi, mpi-gpu, nccl
  int iters = 10, warmup = 1, reps = 5;
  std::string json;
  SplitOptions split;
  explicit ProbeCommand(CLI::App& app);
  int execute() override;
};

struct StencilCommand : Command {
  StencilConfig stencil;
  bool print = false;
  double courant = 0;
  explicit StencilCommand(CLI::App& app);
  bool needs_kokkos() const override { return false; }
  int execute() override;
};

struct InfoCommand : Command {
  explicit InfoCommand(CLI::App& app);
  int execute() override;
};


}  // namespace wavefd::app
