// wavefd: high-order finite-difference wave stencils on Kokkos.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <Kokkos_Core.hpp>
#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "app/kokkos_flags.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/room_deck.hpp"
#include "wavefd/seismic_deck.hpp"

namespace {

// Kokkos' own flags (--kokkos-...) go to Kokkos, everything else to CLI11; for each Kokkos flag
// `next` keeps the word after it, for the message that asks for `--kokkos-num-threads=4`.
void split_args(int argc, char** argv, std::vector<std::string>& ours, std::vector<std::string>& kokkos,
                std::vector<std::string>& next) {
  kokkos.push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--kokkos-", 0) == 0) next.push_back(i + 1 < argc ? argv[i + 1] : "");
    (a.rfind("--kokkos-", 0) == 0 ? kokkos : ours).push_back(a);
  }
}

// `--key=` gives the empty value, as `--key ''` does (CLI11 would read no value at all).
void split_empty_values(std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i)
    if (args[i].size() > 3 && args[i].rfind("--", 0) == 0 && args[i].back() == '=')
      args[i].pop_back(), args.insert(args.begin() + std::ptrdiff_t(i) + 1, "");
}

// A deck option's CLI11 file check, off: main() reads the decks (src/io/input_file.hpp: a pipe
// too, one message for each reason a file cannot be read) before CLI11 would check them.
void without_file_check(CLI::Option* deck) {
  for (int i = 0; deck; ++i) try {
      deck->get_validator(i)->active(false);
    } catch (const CLI::OptionNotFound&) {
      return;
    }
}

// The one place errors are printed: one line, whatever bytes the input it echoes holds.
int fail(const std::string& what, int code) {
  std::fprintf(stderr, "wavefd: error: %s\n", wavefd::app::printable(what).c_str());
  return code;
}

// MPI under a launcher, initialised before parsing so that a bad flag or deck is reported once, by
// rank 0. A process started alone has one rank: MPI starts only where an MPI-backed transport or
// the probe asks for it (start_mpi), and is finalized here either way.
struct MpiSession {
  explicit MpiSession(bool launched) {
    if (launched) wavefd::start_mpi();
  }
  ~MpiSession() { wavefd::finish_mpi(); }
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

// This rank's configuration as the ranks compare it (agree_on_settings): the command and its
// options (option_settings), and a seismic deck's values after the overrides.
wavefd::Settings settings_of(const CLI::App& app, const wavefd::app::SeismicCommand& seismic,
                             const wavefd::app::RoomCommand& room, const wavefd::app::TuneCommand& tune) {
  for (const CLI::App* sub : app.get_subcommands()) {
    wavefd::Settings s = wavefd::app::option_settings(*sub);
    if (sub == room.sub) {
      const auto values = wavefd::room_deck_settings(room.deck, room.overrides);
      s.insert(s.end(), values.begin(), values.end());
      return s;
    }
    std::string deck;
    if (sub == seismic.sub) deck = seismic.deck;
    if (sub == tune.sub) deck = tune.seismic;
    if (!deck.empty()) {
      const auto values = wavefd::seismic_deck_settings(deck, sub == seismic.sub ? seismic.overrides : std::vector<std::string>{});
      s.insert(s.end(), values.begin(), values.end());
    }
    return s;
  }
  return {{"command", ""}};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args, kokkos_args, after_kokkos;
  split_args(argc, argv, args, kokkos_args, after_kokkos);
  split_empty_values(args);

  CLI::App app{"wavefd: two-step finite-difference wave stencils on Kokkos (" WAVEFD_VERSION ")",
               "wavefd"};
  app.require_subcommand(1);
  app.set_version_flag("--version", WAVEFD_VERSION);
  using namespace wavefd::app;
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<RunCommand>(app));
  commands.push_back(std::make_unique<SeismicCommand>(app));
  auto* seismic = static_cast<SeismicCommand*>(commands.back().get());
  commands.push_back(std::make_unique<RoomCommand>(app));
  auto* room = static_cast<RoomCommand*>(commands.back().get());
  commands.push_back(std::make_unique<VerifyCommand>(app));
  commands.push_back(std::make_unique<BenchCommand>(app));
  commands.push_back(std::make_unique<TuneCommand>(app));
  auto* tune = static_cast<TuneCommand*>(commands.back().get());
  commands.push_back(std::make_unique<ProbeCommand>(app));
  commands.push_back(std::make_unique<StencilCommand>(app));
  commands.push_back(std::make_unique<InfoCommand>(app));

  without_file_check(seismic->sub->get_option_no_throw("deck"));
  without_file_check(room->sub->get_option_no_throw("deck"));
  without_file_check(tune->sub->get_option_no_throw("--seismic"));

  // Under a launcher every command starts MPI: ranks given different commands must still meet.
  MpiSession mpi(wavefd::launched_by_mpi());
  const bool root = wavefd::world_rank() == 0;

  // Every bad input is one line and exit code 2; --help and --version are answered after the
  // ranks agree (a rank that answers alone would leave the others waiting).
  std::string parse_error;
  std::exception_ptr answer;  // CLI11's --help or --version
  wavefd::Settings settings;
  std::vector<std::string> words = args;  // as checked: run's deck expanded
  try {
    check_kokkos_flags(std::vector<std::string>(kokkos_args.begin() + 1, kokkos_args.end()), after_kokkos);
    // `run DECK.toml ...`: the deck's keys become options placed before the explicit ones.
    std::size_t deck_end = 0;
    if (args.size() >= 2 && args[0] == "run" && (args[1].empty() || args[1][0] != '-')) {
      auto* run = app.get_subcommand("run");
      std::vector<std::string> rest(args.begin() + 2, args.end());
      auto expanded = wavefd::expand_deck(*run, args[1], rest);
      words.resize(1);
      words.insert(words.end(), expanded.begin(), expanded.end());
      deck_end = words.size() - rest.size();
    }
    // `seismic DECK.toml ...`: the words after the deck override its keys (read with the deck).
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                      std::find(args.begin(), args.end(), "-h") != args.end();
    // `room DECK.toml ...` alike.
    for (DeckCommand* model : {static_cast<DeckCommand*>(seismic), static_cast<DeckCommand*>(room)})
      if (args.size() >= 2 && args[0] == model->sub->get_name() && (args[1].empty() || args[1][0] != '-') && !help) {
        model->overrides.assign(args.begin() + 2, args.end());
        check_given_once(model->overrides);
        words.resize(2);
      }
    check_words(app, words, deck_end);
    std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 wants them reversed
    app.parse(reversed);
    settings = settings_of(app, *seismic, *room, *tune);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {
      answer = std::current_exception();
      std::string line;
      for (const std::string& w : args) line += (line.empty() ? "" : " ") + w;
      settings = {{"command", line}};
    }
    else parse_error = explain(e, app, words);
  } catch (const wavefd::Error& e) {
    parse_error = e.what();
  }
  try {
    wavefd::agree([&] {
      if (!parse_error.empty()) throw wavefd::Error(parse_error);
    });
    wavefd::agree_on_settings(settings);
  } catch (const wavefd::AgreedError& e) {
    return root ? fail(e.what(), 2) : 2;
  }
  if (answer) {
    try {
      std::rethrow_exception(answer);
    } catch (const CLI::ParseError& e) {
      return root ? app.exit(e) : 0;
    }
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
