// wavefd: high-order finite-difference wave stencils on Kokkos.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "app/commands.hpp"
#include "wavefd/parallel.hpp"

namespace {

// Kokkos' own flags (--kokkos-...) go to Kokkos, everything else to CLI11.
void split_args(int argc, char** argv, std::vector<std::string>& ours, std::vector<std::string>& kokkos) {
  kokkos.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    (a.rfind("--kokkos-", 0) == 0 ? kokkos : ours).push_back(a);
  }
}

int fail(const std::string& what, int code) {
  std::fprintf(stderr, "wavefd: error: %s\n", what.c_str());
  return code;
}

// MPI for the commands that talk to other ranks (start-up costs over a second on some systems).
// Initialised before parsing, so that a bad flag or deck is reported once, by rank 0.
struct MpiSession {
  bool on = false;
  explicit MpiSession(bool want) {
#ifdef WAVEFD_HAVE_MPI
    if (want) MPI_Init(nullptr, nullptr), on = true;
#else
    (void)want;
#endif
  }
  ~MpiSession() {
#ifdef WAVEFD_HAVE_MPI
    if (on) MPI_Finalize();
#endif
  }
};

// An error only this rank has seen (allocation, MPI, internal): with other ranks waiting in
// collectives it must take them down, naming itself.
int fail_here(const std::string& what, int code) {
  if (wavefd::world_size() == 1) return fail(what, code);
  fail("rank " + std::to_string(wavefd::world_rank()) + ": " + what, code);
#ifdef WAVEFD_HAVE_MPI
  MPI_Abort(MPI_COMM_WORLD, code);
#endif
  return code;
}

// One rank per GPU: unless Kokkos is told the device, the node-local rank picks it.
void add_device_by_node_rank(std::vector<std::string>& kokkos_args) {
#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
  if (wavefd::world_size() == 1 || std::getenv("KOKKOS_DEVICE_ID") || std::getenv("KOKKOS_MAP_DEVICE_ID_BY")) return;
  for (const auto& a : kokkos_args)
    if (a.rfind("--kokkos-device-id", 0) == 0 || a.rfind("--kokkos-map-device-id-by", 0) == 0) return;
  const int devices = Kokkos::num_devices();
  if (devices > 0) kokkos_args.push_back("--kokkos-device-id=" + std::to_string(wavefd::node_local_rank() % devices));
#else
  (void)kokkos_args;
#endif
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args, kokkos_args;
  split_args(argc, argv, args, kokkos_args);

  CLI::App app{"wavefd: two-step finite-difference wave stencils on Kokkos (" WAVEFD_VERSION ")",
               "wavefd"};
  app.require_subcommand(1);
  app.set_version_flag("--version", WAVEFD_VERSION);
  using namespace wavefd::app;
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<RunCommand>(app));
  commands.push_back(std::make_unique<SeismicCommand>(app));
  auto* seismic = static_cast<SeismicCommand*>(commands.back().get());
  commands.push_back(std::make_unique<VerifyCommand>(app));
  commands.push_back(std::make_unique<BenchCommand>(app));
  commands.push_back(std::make_unique<TuneCommand>(app));
  commands.push_back(std::make_unique<ProbeCommand>(app));
  commands.push_back(std::make_unique<StencilCommand>(app));
  commands.push_back(std::make_unique<InfoCommand>(app));

  bool want_mpi = false;
  for (auto& cmd : commands) want_mpi = want_mpi || (!args.empty() && args[0] == cmd->sub->get_name() && cmd->needs_mpi());
  MpiSession mpi(want_mpi);
  const bool root = wavefd::world_rank() == 0;

  std::string parse_error;
  int parse_code = 0;
  try {
    // `run DECK.toml ...`: the deck's keys become options placed before the explicit ones.
    if (args.size() >= 2 && args[0] == "run" && !args[1].empty() && args[1][0] != '-') {
      auto* run = app.get_subcommand("run");
      std::vector<std::string> rest(args.begin() + 2, args.end());
      auto expanded = wavefd::expand_deck(*run, args[1], rest);
      args.resize(1);
      args.insert(args.end(), expanded.begin(), expanded.end());
    }
    // `seismic DECK.toml ...`: the words after the deck override its keys (read with the deck).
    if (args.size() >= 2 && args[0] == "seismic" && !args[1].empty() && args[1][0] != '-') {
      seismic->overrides.assign(args.begin() + 2, args.end());
      args.resize(2);
    }
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 wants them reversed
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return root ? app.exit(e) : 0;  // --help, --version
    parse_error = e.what(), parse_code = e.get_exit_code();
  } catch (const wavefd::Error& e) {
    parse_error = e.what(), parse_code = 2;
  }
  try {
    wavefd::agree([&] {
      if (!parse_error.empty()) throw wavefd::Error(parse_error);
    });
  } catch (const wavefd::AgreedError& e) {
    return root ? fail(e.what(), parse_code ? parse_code : 2) : (parse_code ? parse_code : 2);
  }

  for (auto& cmd : commands) {
    if (!cmd->sub->parsed()) continue;
    try {
      if (!cmd->needs_kokkos()) return cmd->execute();
      add_device_by_node_rank(kokkos_args);
      std::vector<char*> kargv;
      for (auto& a : kokkos_args) kargv.push_back(a.data());
      int kargc = int(kargv.size());
      Kokkos::ScopeGuard kokkos(kargc, kargv.data());
      return cmd->execute();
    } catch (const wavefd::AgreedError& e) {
      // Every rank has it: rank 0 prints it once and every rank exits normally.
      return root && *e.what() ? fail(e.what(), 2) : 2;
    } catch (const wavefd::Error& e) {
      return fail_here(e.what(), 2);
    } catch (const std::bad_alloc& e) {  // operator new; Kokkos 4's allocation failures
      return fail_here(std::string("memory allocation failed: ") + e.what(), 3);
#if KOKKOS_VERSION >= 50200
    } catch (const Kokkos::Experimental::BadAlloc& e) {  // Kokkos 5.2's (earlier 5.x: a runtime_error)
      return fail_here(std::string("memory allocation failed: ") + e.what(), 3);
#endif
    } catch (const std::exception& e) {
      return fail_here(std::string("internal: ") + e.what(), 3);
    }
  }
  return fail("no subcommand", 2);
}
