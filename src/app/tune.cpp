// `wavefd tune`: finds the fastest verified variant and tile for a stencil, precision and subdomain
// size on this device and records them in the tuning file that `wavefd run` consults. Under mpirun
// the grid (--n) is split over the ranks as `run` splits it, candidates are ranked by the full
// step with its exchange, and the entry is keyed by the subdomain one rank updates; rank 0 writes.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "bench/variant_timing.hpp"
#include "io/summary.hpp"
#include "wavefd/memory_budget.hpp"
#include "io/tuning.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/verify.hpp"

namespace wavefd::app {

TuneCommand::TuneCommand(CLI::App& app) {
  sub = app.add_subcommand("tune", "Find the fastest verified variant and tile per stencil/precision/size and cache it");
  add_stencil_options(*sub, stencil, "");
  sub->add_option("--variant", variant, "Comma-separated candidates, or all (kk-spmv only when named)")
      ->capture_default_str();
  sub->add_option("--tiles", tiles, "Tiles searched per variant with tunable tiles: all, default, or a list like 32x4x4,default")
      ->capture_default_str();
  sub->add_option("--precision", precisions, kPrecisionHelp)->capture_default_str();
  sub->add_option("--n", n, "Grid nx ny nz to tune on, split over the ranks under mpirun (the size class is log2 of "
                            "the points of the largest subdomain)")
      ->expected(3)
      ->capture_default_str();
  sub->add_option("--steps", steps, "Time steps per timed repetition, >= 1")->capture_default_str();
  sub->add_option("--warmup", warmup, "Untimed repetitions, >= 0")->capture_default_str();
  sub->add_option("--reps", reps, "Timed repetitions, >= 1")->capture_default_str();
  sub->add_option("--tuning-file", tuning_file, "Tuning cache (default $WAVEFD_TUNING_FILE or ~/.cache/wavefd/tuning.json)");
  sub->add_option("--overlap", overlap, "Full step ranked with overlap: auto (as `run`) | true | false")
      ->capture_default_str();
  sub->add_option("--transport", transport, "Under mpirun: the halo transport, as parallel.transport")
      ->capture_default_str();
  sub->add_option("--seismic", seismic, "A seismic deck: tune the kernel of its inner box (one rank; the deck's "
                                        "precision unless --precision is given), for `wavefd seismic` with variant auto")
      ->check(CLI::ExistingFile);
  split.add_to(*sub);
}

namespace {
// Whether --variant selects `name`.
bool considered(const std::string& list, const std::string& name) {
  return list == "all" ? name != "kk-spmv" : name_in_list(list, name);
}
}  // namespace

int TuneCommand::execute() {
  if (!seismic.empty()) return tune_seismic();
  const int ranks = world_size();
  const bool root = world_rank() == 0;
  const std::string file = tuning_file.empty() ? default_tuning_file() : tuning_file;
  Stencil s;
  Index3 grid{}, local{};
  ParallelSpec par;
  // Every (variant, tile) per precision, planned first on every rank: a bad input anywhere (a tile
  // a variant refuses, a rank grid that does not fit, an unreadable tuning file) stops every rank
  // before anything is timed or written.
  struct Candidate {
    const Variant* variant;
    Tile tile;
  };
  std::vector<std::vector<Candidate>> plan;
  agree([&] {
    if (n.size() != 3) throw Error("--n needs 3 values; accepted: nx ny nz");
    check_repetitions(steps, reps, warmup, "--steps");
    s = build_stencil(stencil);
    with_flag_names([&] {
      for (const auto& p : precisions) parse_precision(p);
    });
    check_variant_list(variant, "--variant", {"all"});
    grid = {n[0], n[1], n[2]};
    par = split.resolve(grid, s.radius, true, transport, overlap);
    local = largest_subdomain(grid, par.rank_grid);
    const TileSelection selection(tiles, "--tiles");
    for (const auto& pname : precisions) {
      const Precision p = parse_precision(pname);
      plan.emplace_back();
      for (const auto& v : variants())
        if (considered(variant, v->name()) && v->supports(s, p))
          for (const Tile& t : selection.for_variant(*v, s, p)) plan.back().push_back({v.get(), t});
    }
    if (root) {  // the file must be a tuning file (or absent) and writable where it will be
      (void)lookup_tuning(file, tuning_key(s, Precision::f32, local), "--tuning-file");
      if (tuning_file.empty()) make_cache_directory(file);  // the default cache's own directory
      check_output_path(file, "--tuning-file");
    }
  });
  agree([&] {
    if (par.transport == Transport::nccl) check_one_rank_per_device("--transport = 'nccl'");
    check_grid_extents(grid, s.radius, "--n");
    const double points = double(local[0]) * double(local[1]) * double(local[2]);
    check_memory(std::max(two_step_bytes(local, s.radius, true, 8), 16.0 * points),
                 "--n = " + to_string(grid) + " over " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks"),
                 "two double fields of " + to_string(local) + " points with halos");
  });
  const Distribution dist{par.rank_grid, std::string(to_string(par.transport))};
  const double points = double(grid[0]) * double(grid[1]) * double(grid[2]);
  for (std::size_t i = 0; i < precisions.size(); ++i) {
    const std::string& pname = precisions[i];
    const Precision p = parse_precision(pname);
    const TuningKey key = tuning_key(s, p, local);
    if (root) {
      std::printf("tune: %s\n", key.str().c_str());
      if (ranks > 1)
        std::printf("  grid %s over %d ranks as %s (subdomain up to %s), transport %s, overlap %s\n",
                    to_string(grid).c_str(), ranks, to_string(par.rank_grid).c_str(), to_string(local).c_str(),
                    dist.transport.c_str(), par.overlap ? "on" : "off");
    }
    nlohmann::json measured = nlohmann::json::array();
    std::optional<TunedKernel> best;
    double best_ctpn = 0;
    for (const Candidate& c : plan[i]) {
      const std::string name = c.variant->name(), tile = to_string(c.tile);
      const EigenmodeResult r = verify_before_timing(s, *c.variant, c.tile, p, grid, par);
      if (min_over_ranks(r.passed() ? 1 : 0) == 0) {  // every rank skips it alike
        if (root)
          std::printf("  %-18s %-10s FAILS verification (error %.3e > %.3e): not a candidate\n", name.c_str(),
                      tile.c_str(), r.max_error, r.tolerance);
        continue;
      }
      // Ranked by the full step (what `run` does: halo, overlap as `run` sets it; the slowest
      // rank's), the kernel alone beside it. CTPN per point of the whole grid.
      const VariantTiming t = time_variant(s, *c.variant, c.tile, p, grid, steps, warmup, reps, par);
      const double ctpn = t.slowest.step.min / points * 1e9, kernel_ctpn = t.slowest.kernel.min / points * 1e9;
      measured.push_back({{"variant", name}, {"tile", tile}, {"ctpn_ns", ctpn}, {"kernel_ctpn_ns", kernel_ctpn}});
      if (root)
        std::printf("  %-18s %-10s full step CTPN %8.2f ps  %8.3f Gpts/s  (kernel alone %8.2f ps)\n", name.c_str(),
                    tile.c_str(), ctpn * 1e3, 1 / ctpn, kernel_ctpn * 1e3);
      if (!best || ctpn < best_ctpn) best = TunedKernel{name, c.tile}, best_ctpn = ctpn;
    }
    if (!best) throw AgreedError("tune: no verified variant supports " + s.name + " in " + pname);
    const nlohmann::json provenance = provenance_json(dist);  // collective
    agree([&] {  // a failed write stops every rank alike
      if (!root) return;
      char date[32];
      const std::time_t now = std::time(nullptr);
      std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
      store_tuning(file, key, *best,
                   {{"ctpn_ns", best_ctpn}, {"grid", n}, {"subdomain", local}, {"ranks", ranks},
                    {"rank_grid", par.rank_grid}, {"transport", dist.transport}, {"overlap", par.overlap},
                    {"measured", measured}, {"date", date}, {"provenance", provenance}});
      std::printf("  -> %s, tile %s (recorded in %s)\n", best->variant.c_str(), to_string(best->tile).c_str(),
                  printable(file).c_str());
    });
  }
  return 0;
}

}  // namespace wavefd::app
