// `wavefd tune`: finds the fastest verified variant and tile for a stencil, precision and grid
// size on this device and records them in the tuning file that `wavefd run` consults.
#include <cstdio>
#include <ctime>
#include <optional>

#include "app/commands.hpp"
#include "bench/variant_timing.hpp"
#include "io/tuning.hpp"
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
  sub->add_option("--precision", precisions, "float and/or double")->capture_default_str();
  sub->add_option("--n", n, "Grid nx ny nz to tune on (the size class is log2 of the points)")
      ->expected(3)
      ->capture_default_str();
  sub->add_option("--steps", steps, "Time steps per timed repetition, >= 1")->capture_default_str();
  sub->add_option("--warmup", warmup, "Untimed repetitions, >= 0")->capture_default_str();
  sub->add_option("--reps", reps, "Timed repetitions, >= 1")->capture_default_str();
  sub->add_option("--tuning-file", tuning_file, "Tuning cache (default $WAVEFD_TUNING_FILE or ~/.cache/wavefd/tuning.json)");
}

namespace {
// Whether --variant selects `name`.
bool considered(const std::string& list, const std::string& name) {
  return list == "all" ? name != "kk-spmv" : name_in_list(list, name);
}
}  // namespace

int TuneCommand::execute() {
  if (n.size() != 3) throw Error("--n needs 3 values nx ny nz");
  if (steps < 1 || reps < 1 || warmup < 0) throw Error("--steps and --reps must be >= 1, --warmup >= 0");
  const Stencil s = build_stencil(stencil);
  const Index3 grid{n[0], n[1], n[2]};
  (void)make_layout(grid, s.radius, true, 4);
  const std::string file = tuning_file.empty() ? default_tuning_file() : tuning_file;
  const double points = double(grid[0]) * double(grid[1]) * double(grid[2]);
  // Every (variant, tile) per precision, planned first: a tile a variant refuses stops the run
  // before anything is timed or written.
  const TileSelection selection(tiles, "--tiles");
  struct Candidate {
    const Variant* variant;
    Tile tile;
  };
  std::vector<std::vector<Candidate>> plan;
  for (const auto& pname : precisions) {
    const Precision p = parse_precision(pname);
    plan.emplace_back();
    for (const auto& v : variants())
      if (considered(variant, v->name()) && v->supports(s, p))
        for (const Tile& t : selection.for_variant(*v, s, p)) plan.back().push_back({v.get(), t});
  }
  for (std::size_t i = 0; i < precisions.size(); ++i) {
    const std::string& pname = precisions[i];
    const Precision p = parse_precision(pname);
    const TuningKey key = tuning_key(s, p, grid);
    std::printf("tune: %s\n", key.str().c_str());
    nlohmann::json measured = nlohmann::json::array();
    std::optional<TunedKernel> best;
    double best_ctpn = 0;
    for (const Candidate& c : plan[i]) {
      const std::string name = c.variant->name(), tile = to_string(c.tile);
      const EigenmodeResult r = verify_before_timing(s, *c.variant, c.tile, p, grid);
      if (!r.passed()) {
        std::printf("  %-18s %-10s FAILS verification (error %.3e > %.3e): not a candidate\n", name.c_str(),
                    tile.c_str(), r.max_error, r.tolerance);
        continue;
      }
      // Ranked by the full step (what `run` does, with overlap), the kernel alone beside it.
      ParallelSpec par;
      par.overlap = true;
      const VariantTiming t = time_variant(s, *c.variant, c.tile, p, grid, steps, warmup, reps, par);
      const double ctpn = t.step.min / points * 1e9, kernel_ctpn = t.kernel.min / points * 1e9;
      measured.push_back({{"variant", name}, {"tile", tile}, {"ctpn_ns", ctpn}, {"kernel_ctpn_ns", kernel_ctpn}});
      std::printf("  %-18s %-10s full step CTPN %8.2f ps  %8.3f Gpts/s  (kernel alone %8.2f ps)\n", name.c_str(),
                  tile.c_str(), ctpn * 1e3, 1 / ctpn, kernel_ctpn * 1e3);
      if (!best || ctpn < best_ctpn) best = TunedKernel{name, c.tile}, best_ctpn = ctpn;
    }
    if (!best) throw Error("tune: no verified variant supports " + s.name + " in " + pname);
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    store_tuning(file, key, *best, {{"ctpn_ns", best_ctpn}, {"grid", n}, {"measured", measured}, {"date", date},
                                       {"provenance", provenance_json()}});
    std::printf("  -> %s, tile %s (recorded in %s)\n", best->variant.c_str(), to_string(best->tile).c_str(),
                file.c_str());
  }
  return 0;
}

}  // namespace wavefd::app
