// wavefd: high-order finite-difference wave stencils on Kokkos.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "app/commands.hpp"

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
  commands.push_back(std::make_unique<VerifyCommand>(app));
  commands.push_back(std::make_unique<BenchCommand>(app));
  commands.push_back(std::make_unique<TuneCommand>(app));
  commands.push_back(std::make_unique<StencilCommand>(app));
  commands.push_back(std::make_unique<InfoCommand>(app));

  try {
    // `run DECK.toml ...`: the deck's keys become options placed before the explicit ones.
    if (args.size() >= 2 && args[0] == "run" && !args[1].empty() && args[1][0] != '-') {
      auto* run = app.get_subcommand("run");
      std::vector<std::string> rest(args.begin() + 2, args.end());
      auto expanded = wavefd::expand_deck(*run, args[1], rest);
      args.resize(1);
      args.insert(args.end(), expanded.begin(), expanded.end());
    }
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 wants them reversed
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return fail(e.what(), e.get_exit_code());
  } catch (const wavefd::Error& e) {
    return fail(e.what(), 2);
  }

  for (auto& cmd : commands) {
    if (!cmd->sub->parsed()) continue;
    try {
#ifdef WAVEFD_HAVE_MPI
      // Only commands that talk to other ranks pay for MPI start-up (over a second on some systems).
      struct Mpi {
        bool on;
        explicit Mpi(bool want) : on(want) {
          if (on) MPI_Init(nullptr, nullptr);
        }
        ~Mpi() {
          if (on) MPI_Finalize();
        }
      } mpi(cmd->needs_mpi());
#endif
      if (!cmd->needs_kokkos()) return cmd->execute();
      std::vector<char*> kargv;
      for (auto& a : kokkos_args) kargv.push_back(a.data());
      int kargc = int(kargv.size());
      Kokkos::ScopeGuard kokkos(kargc, kargv.data());
      return cmd->execute();
    } catch (const wavefd::Error& e) {
      return fail(e.what(), 2);
    } catch (const std::exception& e) {
      return fail(std::string("internal: ") + e.what(), 3);
    }
  }
  return fail("no subcommand", 2);
}
