// `wavefd tune --seismic DECK`: the fastest verified kernel and tile for the inner box of a seismic
// deck (one rank), recorded in the tuning file under the inner box's size, where `wavefd seismic`
// with scheme.variant = auto finds it.
//
// Candidates: the layer kernel's own inner path and every variant with a variable-coefficient form
// (--variant), each with its tiles (--tiles). Each is verified twice before it counts: on a small
// model cut from the deck against the independent CPU reference (the tolerance of docs/seismic.md),
// and on the deck's own grid, where after the timed steps its field must equal the layer kernel's
// bit for bit (every inner kernel makes the same multiply-adds: fused()). Ranked by the inner
// box's time per step (fenced part by part, SeismicStep::set_timed).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <optional>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "app/seismic_tuning.hpp"
#include "bench/variant_timing.hpp"
#include "wavefd/output_file.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/seismic_deck.hpp"
#include "wavefd/seismic_step.hpp"

namespace wavefd::app {

TuningKey seismic_tuning_key(const SeismicModel& m, Precision p, const ParallelSpec& par) {
  ParallelSpec first = par;
  first.rank = 0;  // every rank looks up rank 0's inner box
  const Box own = seismic_subdomain(m, first).box();
  const Box inner = m.width > 0 ? m.inner_box() : Box{{0, 0, 0}, m.n};
  Index3 extent{};
  for (int d = 0; d < 3; ++d)
    extent[d] = std::max<index_t>(0, std::min(inner.hi[d], own.hi[d]) - std::max(inner.lo[d], own.lo[d]));
  TuningKey key = tuning_key(m.stencil, p, extent);
  key.stencil += ", variable coefficient";
  return key;
}

namespace {

// A model cut from the deck's for checking a kernel against the reference in seconds: at most
// 30 points per axis and a layer of at most 5 cells, one source at the centre, 40 steps.
SeismicModel verification_model(const SeismicModel& deck) {
  SeismicModel m = deck;
  for (int d = 0; d < 3; ++d) m.n[d] = std::min<index_t>(deck.n[d], 30);
  m.width = std::min(deck.width, 5);  // with the deck's peak damping
  m.steps = 40;
  m.sources.resize(std::min<std::size_t>(deck.sources.size(), 1));
  for (auto& s : m.sources) s.position = {0.5 * double(m.n[0] - 1), 0.5 * double(m.n[1] - 1), 0.5 * double(m.n[2] - 1)};
  m.receivers.positions.clear();
  return m;
}

struct FieldSums {
  double sum = 0, squares = 0;
  bool operator==(const FieldSums&) const = default;
};

template <class T>
FieldSums sums_of(const SeismicStep<T>& e) {
  FieldSums s;
  for (double x : interior_values(e.u())) s.sum += x, s.squares += x * x;
  return s;
}

// max |engine - reference| / max |reference| over the grid after the model's steps.
template <class T>
double error_against_reference(const SeismicModel& m, const Variant* inner, const Tile& tile) {
  SeismicRun run;
  run.inner = inner;
  run.tile = tile;
  SeismicStep<T> engine(m, run, m.velocity->fill(Box{{0, 0, 0}, m.n}, m.h));
  engine.advance(m.steps);
  const std::vector<double> ref = seismic_reference(m).u, got = interior_values(engine.u());
  double diff = 0, top = 0;
  for (std::size_t q = 0; q < ref.size(); ++q) diff = std::max(diff, std::abs(got[q] - ref[q])), top = std::max(top, std::abs(ref[q]));
  return top > 0 ? diff / top : std::numeric_limits<double>::infinity();
}

struct Candidate {
  const Variant* inner;  // nullptr: the layer kernel's own path
  Tile tile;
  std::string name() const { return inner ? inner->name() : "layer"; }
};

template <class T>
void tune_precision(const SeismicModel& m, const std::vector<double>& speeds, const std::vector<Candidate>& plan,
                    int steps, int warmup, int reps, const std::string& file, const TuningKey& key) {
  const SeismicModel check = verification_model(m);
  const double tolerance = 10.0 * double(check.steps) * double(std::numeric_limits<T>::epsilon());
  SeismicModel timed_model = m;
  timed_model.steps = long(steps) * (warmup + reps);
  std::optional<FieldSums> expected;  // the layer kernel's field on the deck's grid
  nlohmann::json measured = nlohmann::json::array();
  std::optional<TunedKernel> best;
  double best_seconds = 0;
  std::printf("tune: %s (the deck's inner box), %ld steps timed per candidate\n", key.str().c_str(), long(steps) * reps);
  for (const Candidate& c : plan) {
    const std::string name = c.name(), tile = to_string(c.tile);
    const double error = error_against_reference<T>(check, c.inner, c.tile);
    if (!(error < tolerance)) {
      std::printf("  %-18s %-10s FAILS verification against the reference (error %.3e > %.3e): not a candidate\n",
                  name.c_str(), tile.c_str(), error, tolerance);
      continue;
    }
    SeismicRun run;
    run.inner = c.inner;
    run.tile = c.tile;
    SeismicStep<T> engine(timed_model, run, speeds);
    engine.advance(long(steps) * warmup);
    engine.set_timed(true);
    engine.advance(long(steps) * reps);
    const double seconds = engine.times().inner / double(long(steps) * reps);
    const FieldSums sums = sums_of(engine);
    if (!expected) expected = sums;  // the first candidate is the layer kernel's path
    if (!(sums == *expected)) {
      std::printf("  %-18s %-10s FAILS verification on the deck's grid (its field differs from the layer kernel's): "
                  "not a candidate\n", name.c_str(), tile.c_str());
      continue;
    }
    const double points = double(engine.inner().size());
    measured.push_back({{"variant", name}, {"tile", tile}, {"inner_s_per_step", seconds}, {"error", error}});
    std::printf("  %-18s %-10s inner box %9.4f ms per step  %8.3f Gpts/s  (error %.1e)\n", name.c_str(), tile.c_str(),
                seconds * 1e3, points / seconds * 1e-9, error);
    if (!best || seconds < best_seconds) best = TunedKernel{name, c.tile}, best_seconds = seconds;
  }
  if (!best) throw Error("tune: no verified kernel for the seismic inner box (" + key.str() + ")");
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  store_tuning(file, key, *best,
               {{"inner_s_per_step", best_seconds}, {"grid", m.n}, {"measured", measured}, {"date", date},
                {"provenance", provenance_json(Distribution{{1, 1, 1}, "local"})}});
  std::printf("  -> %s, tile %s (recorded in %s)\n", best->variant.c_str(), to_string(best->tile).c_str(), printable(file).c_str());
}

}  // namespace

int TuneCommand::tune_seismic() {
  if (world_size() > 1)
    throw Error("tune --seismic runs on one rank (it tunes the inner box of one rank's grid); accepted: 1 rank, not " +
                std::to_string(world_size()));
  check_repetitions(steps, reps, warmup, "--steps");
  const SeismicDeck d = read_seismic_deck(seismic, {});
  const auto velocity = make_velocity(d);
  const std::vector<double> speeds = velocity->fill(Box{{0, 0, 0}, d.n}, d.spacing);
  const double vmax = *std::max_element(speeds.begin(), speeds.end());
  const SeismicModel m = make_seismic_model(d, velocity, vmax);
  check_variant_list(variant, "--variant", {"all", "layer"});
  if (m.sources.empty())
    throw Error("--seismic = '" + seismic + "' has no [[source]]; accepted: a deck with a source (each kernel is "
                "verified on the wave it sends)");
  const std::string file = tuning_file.empty() ? default_tuning_file() : tuning_file;
  if (tuning_file.empty()) make_cache_directory(file);
  PathPlan paths;  // writable, and not the deck
  paths.input("--seismic", seismic);
  paths.output("--tuning-file", file);
  paths.check();
  const TileSelection selection(tiles, "--tiles");
  // The deck's precision unless --precision names others.
  const std::vector<std::string> tuned = sub->count("--precision") > 0 ? precisions : std::vector<std::string>{d.precision};
  with_flag_names([&] {
    for (const auto& pname : tuned)
      if (is_16_bit(parse_precision(pname)))
        throw Error("--precision = '" + pname + "' with --seismic: the inner box is tuned in float and double only; "
                  "accepted: float, double");
  });
  for (const auto& pname : tuned) {
    const Precision p = parse_precision(pname);
    std::vector<Candidate> plan{{nullptr, Tile{}}};
    for (const auto& v : variants())
      if (v->takes_coefficient() && v->supports(m.stencil, p) && (variant == "all" || name_in_list(variant, v->name())))
        for (const Tile& t : selection.for_variant(*v, m.stencil, p)) plan.push_back({v.get(), t});
    const TuningKey key = seismic_tuning_key(m, p, ParallelSpec{});
    (void)lookup_tuning(file, key, "--tuning-file");  // a file that is not a tuning file stops here
    if (p == Precision::f32)
      tune_precision<float>(m, speeds, plan, steps, warmup, reps, file, key);
    else
      tune_precision<double>(m, speeds, plan, steps, warmup, reps, file, key);
  }
  return 0;
}

}  // namespace wavefd::app
