// `wavefd seismic DECK.toml [--section.key value ...]`: the seismic model on any rank grid, with
// progress in simulated time, receiver traces, and a JSON summary (timing against the memory
// floor of the inner update, inner and layer times, bytes per point, min and max of u).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "app/seismic_tuning.hpp"
#include "io/progress.hpp"
#include "io/summary.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/memory_budget.hpp"
#include "wavefd/output_file.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/raw_file.hpp"
#include "wavefd/segy.hpp"
#include "wavefd/seismic_deck.hpp"
#include "wavefd/seismic_step.hpp"
#include "wavefd/slice_file.hpp"
#include "wavefd/trace_file.hpp"

namespace wavefd::app {

SeismicCommand::SeismicCommand(CLI::App& app) {
  sub = app.add_subcommand("seismic",
                           "Run the seismic model (velocity, sources, receivers, PML) on a deck; "
                           "--section.key value overrides a deck key (docs/seismic-decks.md)");
  sub->add_option("deck", deck, "Seismic deck (TOML)")->required()->check(CLI::ExistingFile);
}

namespace {

// The inner box's variant: scheme.variant, or for auto the preferred variant (auto's order, the
// fastest measured first) that takes a coefficient and supports the stencil.
// auto with the velocity form (`velocity`): the preferred variant where it stores the velocity,
// else the layer kernel.
const Variant* inner_variant(const std::string& name, const Stencil& s, Precision p, bool velocity) {
  if (name == "layer") return nullptr;  // the layer kernel's own inner path
  if (name != "auto") {
    const Variant& v = select_variant(name, s, p);
    if (!v.takes_coefficient())
      throw Error("scheme.variant = '" + name + "' has no variable-coefficient form; accepted: auto, layer, or one of " +
                  "the variants `wavefd info` marks 'seismic'");
    return &v;
  }
  const Variant* preferred = preferred_variant(s, p, true);
  return velocity && !preferred->stores_velocity(p) ? nullptr : preferred;
}

// scheme.layer_variant: the variant whose PML branch updates the layer's boxes, or null for the
// layer kernel (`layer`). auto: with a native inner variant, cuda-star-stream where the build has
// it (minimod 1000^3 on an H100: layer 2.00 against 2.21 ms per step); the Kokkos-only path keeps
// the layer kernel; so does the velocity form (`velocity`) where cuda-star-stream does not store it.
const Variant* layer_variant(const std::string& name, const Variant* inner, const Stencil& s, Precision p, bool velocity) {
  if (name == "layer") return nullptr;
  if (name == "auto") {
    if (inner == nullptr || !inner->native()) return nullptr;
    for (const auto& v : variants())
      if (v->name() == "cuda-star-stream" && v->supports(s, p) && (!velocity || v->stores_velocity(p))) return v.get();
    return nullptr;
  }
  std::string accepted = "auto, layer";
  for (const auto& v : variants()) {
    if (!v->takes_coefficient() || !v->supports(s, p)) continue;
    if (v->name() == name) return v.get();
    accepted += ", " + v->name();
  }
  throw Error("scheme.layer_variant = '" + name + "' cannot update the seismic layer (" + s.name +
              ", variable coefficient); accepted: " + accepted + " (those with a PML branch on this device)");
}

// Wavefield slices (output.slices): a plane of u every `every` steps and after the last one.
struct SliceOutput {
  std::string prefix;  // '' = none
  long every = 0;
  int normal = 1;
  index_t index = 0;
  RunOutputs* written = nullptr;  // rank 0: removed unless the run finishes

  std::string path(long step) const {
    char tail[32];
    std::snprintf(tail, sizeof tail, "-%06ld.bin", step);
    return prefix + tail;
  }
  bool due(long step, long last) const { return !prefix.empty() && ((every > 0 && step % every == 0) || step == last); }

  // Collective: every rank sends its part of the plane, rank 0 writes the file.
  template <class Engine>
  void write(const Engine& engine, const SeismicModel& m, long step) const {
    const std::vector<double> all = gather_onto_root(engine.plane(normal, index));
    agree([&] {
      if (world_rank() != 0) return;
      const auto axes = slice_axes(normal);
      Slice s{normal, index, step, double(step) * m.dt, m.h, {m.n[axes[0]], m.n[axes[1]]}, {}};
      s.values.assign(std::size_t(s.n[0] * s.n[1]), 0.0f);
      for (std::size_t q = 0; q + 4 <= all.size();) {  // parts: lo a, lo b, extent a, extent b, values
        const index_t a0 = index_t(all[q]), b0 = index_t(all[q + 1]), na = index_t(all[q + 2]), nb = index_t(all[q + 3]);
        q += 4;
        for (index_t j = 0; j < nb; ++j)
          for (index_t i = 0; i < na; ++i) s.values[std::size_t((a0 + i) + s.n[0] * (b0 + j))] = float(all[q++]);
      }
      write_raw_slice(written ? written->staged(path(step), "output.slices") : path(step), s, "output.slices");
    });
  }
};

// receivers.format: raw, segy, or auto: SEG-Y when this build has segyio and SEG-Y rev 1 can hold
// the traces, raw otherwise (`note` says why when segyio was there). The limits are checked only
// where traces will be written.
struct TraceFormat {
  bool segy = false;
  std::string note;
};

TraceFormat trace_format(const std::string& format, const SeismicModel& m, bool writes) {
  if (format == "raw") return {};
  if constexpr (!segy_support) {
    if (format == "segy")
      throw Error("receivers.format = 'segy' needs SEG-Y support, which this build lacks; accepted: auto, raw");
    return {};
  } else {
    const std::string why = writes ? segy_trace_limits(std::size_t(m.samples()), m.dt * double(m.receivers.every)) : "";
    if (why.empty()) return {true, ""};
    if (format == "segy")
      throw Error("receivers.format = 'segy': " + why + "; accepted: a larger receivers.every, or receivers.format = raw");
    return {false, " (raw: " + why + ")"};
  }
}

void write_traces(const std::string& path, const TraceFormat& format, const Traces& t, const SeismicDeck& d,
                  const SeismicModel& m, const VelocityModel& velocity) {
  if (!format.segy) return write_raw_traces(path, t, "receivers.file");
  if constexpr (segy_support) {
    const std::vector<std::string> notes = {
        "wavefd " WAVEFD_VERSION " seismic, deck " + d.path,
        "grid " + std::to_string(m.n[0]) + " x " + std::to_string(m.n[1]) + " x " + std::to_string(m.n[2]) +
            " points of " + format_number(m.h) + " m; dt " + format_number(m.dt) + " s, a sample every " +
            std::to_string(m.receivers.every) + " steps",
        "velocity: " + velocity.describe()};
    write_segy_traces(path, t, notes, "receivers.file");
  }
}

struct SeismicOutcome {
  double seconds = 0;
  long steps = 0;
  double min_u = 0, max_u = 0;  // over all ranks; NaN/Inf reported as not finite
  bool finite = true;
  std::vector<std::vector<double>> traces;  // rank 0: summed over ranks
  SeismicTimes times;                       // this rank's, from a separate timed pass
  double layer_points = 0, bytes = 0;       // over all ranks
  bool branch_by_inner = false;             // SeismicStep::branch_by_inner()
  bool pairs = false;                       // SeismicStep::pairs()
  bool overlap = false;                     // SeismicStep::overlap()
  double scale = 1;                         // SeismicStep::scale()
  double vp_table = 0;                      // SeismicStep::coefficient_table_size(), the most over ranks
};

template <class T>
SeismicOutcome run_model(const SeismicModel& m, const SeismicRun& run, const std::vector<double>& speeds,
                         long check_interval, const SliceOutput& slices, Progress& progress) {
  SeismicStep<T> engine(m, run, speeds);
  const Layout l = engine.layout();
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  const Policy interior({0, 0, 0}, {l.n[0], l.n[1], l.n[2]});
  // min and max of u on this rank; NaN/Inf turn both into NaN.
  auto extremes = [&](double& lo, double& hi) {
    const auto u = engine.u().data;
    const double scale = engine.scale();
    lo = 0, hi = 0;
    Kokkos::parallel_reduce("wavefd::seismic_extremes", interior,
        KOKKOS_LAMBDA(index_t i, index_t j, index_t k, double& a, double& b) {
          const double x = double(widen(u(l.at(i, j, k)))) / scale;
          const bool ok = x == x && Kokkos::abs(x) <= 1e300;
          a = Kokkos::min(a, ok ? x : -1e308), b = Kokkos::max(b, ok ? x : 1e308);
        },
        Kokkos::Min<double>(lo), Kokkos::Max<double>(hi));
  };

  SeismicOutcome r;
  Kokkos::fence("wavefd::seismic_setup");
  wait_for_every_rank();  // the ranks start stepping, and their timers, together
  Kokkos::Timer timer;
  double paused = 0;
  while (r.steps < m.steps) {
    // Two steps at a time where the engine takes pairs, unless the step between is due for a
    // slice or a check.
    const long between = r.steps + 1;
    const bool stop_between = slices.due(between, m.steps) || between % check_interval == 0;
    r.steps += engine.take(stop_between ? 1 : m.steps - r.steps);
    if (progress.due(timer.seconds())) {
      Kokkos::fence("wavefd::progress");
      progress.report(r.steps, timer.seconds());
    }
    if (slices.due(r.steps, m.steps)) {
      Kokkos::fence("wavefd::slice");
      Kokkos::Timer writing;
      slices.write(engine, m, r.steps);
      paused += writing.seconds();
    }
    if (r.steps % check_interval == 0 && r.steps < m.steps) {
      Kokkos::fence("wavefd::check");
      Kokkos::Timer check;
      double lo, hi;
      extremes(lo, hi);
      const bool finite = max_over_ranks(std::max(-lo, hi)) < 1e300;
      paused += check.seconds();
      if (!finite) break;
    }
  }
  Kokkos::fence("wavefd::seismic");
  r.seconds = timer.seconds() - paused;
  progress.finish(r.steps, r.seconds);
  double lo, hi;
  extremes(lo, hi);
  r.min_u = min_over_ranks(lo), r.max_u = max_over_ranks(hi);
  r.finite = std::max(-r.min_u, r.max_u) < 1e300;
  // One reduction for all traces: receiver after receiver, sample after sample.
  r.traces = engine.partial_traces();
  std::vector<double> flat;
  for (const auto& trace : r.traces) flat.insert(flat.end(), trace.begin(), trace.end());
  flat = sum_onto_root(flat);
  for (std::size_t q = 0; auto& trace : r.traces)
    for (double& s : trace) s = flat[q++];

  // Inner and layer times, from a few more steps fenced part by part (parts that overlap in the
  // loop above run one after another here, so these add up to more than a loop step).
  engine.set_timed(true);
  const long timed = std::min<long>(10, std::max<long>(m.steps, 1));
  engine.advance(timed);
  r.times = engine.times();
  for (double* t : {&r.times.inner, &r.times.layer, &r.times.halo, &r.times.sources, &r.times.receivers})
    *t /= double(timed);
  r.branch_by_inner = engine.branch_by_inner();
  r.pairs = engine.pairs();
  r.overlap = engine.overlap();
  r.layer_points = sum_over_ranks(double(engine.layer_points()));
  r.bytes = sum_over_ranks(engine.bytes());
  r.scale = engine.scale();
  r.vp_table = max_over_ranks(double(engine.coefficient_table_size()));
  return r;
}

// What a rank allocates at least: the stored fields (u and u-, or u twice and the velocity), the
// speeds and the PML's fields (about one more field) with their halos, the halo's buffers, and on
// host builds the speeds the model fills (doubles) before they are copied. A lower bound (pairs of
// steps add two fields): a run refused here cannot fit.
double seismic_bytes(const Index3& local, int radius, std::size_t bytes, int stored_fields) {
  const Layout l = make_layout(local, radius, true, bytes);
  const double points = double(local[0]) * double(local[1]) * double(local[2]);
  const double faces = double(local[1]) * double(local[2]) + double(local[0]) * double(local[2]) +
                       double(local[0]) * double(local[1]);
  const double device = ((stored_fields + 2.0) * double(l.alloc) + 8.0 * radius * faces) * double(bytes);
  const double host = 8.0 * points;
  return kHostBuild ? device + host : device;
}

}  // namespace

int SeismicCommand::execute() {
  const int ranks = world_size(), rank = world_rank();
  const bool root = rank == 0;
  SeismicDeck d;
  agree([&] { d = read_seismic_deck(deck, overrides); });
  const Precision precision = parse_precision(d.precision);
  ParallelSpec par;
  std::shared_ptr<const VelocityModel> velocity;
  std::vector<double> speeds;
  Subdomain sub;
  agree([&] {
    check_grid_extents(d.n, d.M, "grid.n");
    const Index3 requested{d.ranks[0], d.ranks[1], d.ranks[2]};
    par.rank_grid = choose_rank_grid(ranks, d.n, requested, d.M);
    par.rank = rank;
    const Decomposition split(d.n, par.rank_grid, ranks, false, d.M);
    sub = split.subdomain(rank);
    par.transport = choose_transport(d.transport, ranks, d.gpu_aware, d.pairs != "on", &par.transport_choice);
    // auto: on over several ranks (minimod's deck on 4 H100s split along z: 1.905 s against 1.948 s
    // without, traces byte-equal to one GPU's), where the step can take it (SeismicStep).
    par.overlap = resolve_overlap(d.overlap, par.transport, ranks, "parallel.overlap");
  });
  agree([&] {  // collective: every rank got this far
    const bool velocity_form = d.second_field == "velocity";
    check_memory(seismic_bytes(sub.local, d.M, std::size_t(bytes_of(precision)), velocity_form ? 3 : 2),
                 "grid.n = " + to_string(d.n) + " over " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks"),
                 std::string(velocity_form ? "u twice, the velocity" : "u, u-") + ", the speeds and the PML's fields of " +
                     to_string(sub.local) + " points");
  });
  agree([&] {
    velocity = make_velocity(d);
    speeds = velocity->fill(sub.box(), d.spacing);
  });
  double vmin = std::numeric_limits<double>::max(), vmax = 0;
  for (double s : speeds) vmin = std::min(vmin, s), vmax = std::max(vmax, s);
  vmin = min_over_ranks(vmin), vmax = max_over_ranks(vmax);
  SeismicModel m;
  SeismicRun run;
  bool tuned = false;  // the inner kernel and tile come from the tuning file
  SliceOutput slices;
  TraceFormat traces_as;
  agree([&] {
    m = make_seismic_model(d, velocity, vmax);
    run.parallel = par;
    run.work = parse_seismic_work(d.work, "scheme.work");
    run.pairs = parse_step_pairs(d.pairs, "scheme.pairs");
    run.rounding = parse_rounding(d.rounding, "scheme.rounding");
    if (run.rounding == Rounding::stochastic && !is_16_bit(precision))
      throw Error("scheme.rounding = 'stochastic' rounds fields stored in 16 bits, not " + d.precision +
                  "; accepted: nearest, or scheme.precision = half or bfloat16");
    run.second_field = parse_second_field(d.second_field, "scheme.second_field");
    // Stochastic rounding is the layer kernel's (the variants round to nearest); the velocity form
    // the layer kernel's and that of the variants that store it.
    const bool stochastic = run.rounding == Rounding::stochastic;
    const bool velocity_form = run.second_field == SecondField::velocity;
    run.inner = stochastic && d.variant == "auto" ? nullptr : inner_variant(d.variant, m.stencil, precision, velocity_form);
    run.tile = parse_tile(d.tile, "scheme.tile");
    // auto: what `wavefd tune --seismic` recorded for this inner box, if anything (its tile unless
    // scheme.tile names one); seven-domain work only, since that is what the tuner timed.
    if (d.variant == "auto" && run.work == SeismicWork::seven_domain && !is_16_bit(precision) && !stochastic && !velocity_form)
      if (const auto t = lookup_tuning(default_tuning_file(), seismic_tuning_key(m, precision, par), "the tuning file")) {
        run.inner = inner_variant(t->variant, m.stencil, precision, false);
        if (d.tile == "default") run.tile = t->tile;
        tuned = true;
      }
    if (run.inner) run.inner->check_tile(run.tile, "scheme.tile");
    run.layer_tile = parse_tile(d.layer_tile, "scheme.layer_tile");
    run.layer = layer_variant(d.layer_variant, run.inner, m.stencil, precision, velocity_form);
    traces_as = trace_format(d.trace_format, m, !d.traces.empty() && !m.receivers.positions.empty());
    if (!d.slices.empty()) {
      slices.prefix = d.slices, slices.every = d.slice_every;
      slices.normal = d.slice_axis == "x" ? 0 : d.slice_axis == "y" ? 1 : 2;
      slices.index = d.slice_position ? index_t(std::llround(*d.slice_position / m.h)) : (m.n[slices.normal] - 1) / 2;
    }
    if (root) {  // outputs writable, distinct, and none of the files read
      PathPlan paths;
      paths.input("deck", d.path);
      paths.input("velocity.file", d.velocity_model == "file" || d.velocity_model == "segy" ? d.velocity_file : "");
      paths.output("output.summary", d.summary);
      if (!m.receivers.positions.empty()) paths.output("receivers.file", d.traces, true);
      paths.output_series("output.slices", d.slices, ".bin", slices.prefix.empty() ? "" : slices.path(0));
      paths.check();
    }
  });
  agree([&] {
    if (par.transport == Transport::nccl) check_one_rank_per_device("parallel.transport = 'nccl'");
  });
  const double points = double(m.n[0]) * double(m.n[1]) * double(m.n[2]);
  const std::string inner_name = run.inner ? run.inner->name() : "layer kernel";
  const std::string layer_name = run.layer ? run.layer->name() + "'s PML branch" : "the layer kernel";
  const char* how = tuned ? ", tuned" : "";
  if (root) {
    std::printf("wavefd seismic: %s, %lld x %lld x %lld points of %g m, %s, %s; dt %.6g s, %ld steps (%.4g s)\n",
                m.stencil.name.c_str(), (long long)m.n[0], (long long)m.n[1], (long long)m.n[2], m.h,
                d.precision.c_str(), velocity->describe().c_str(), m.dt, m.steps, m.dt * double(m.steps));
    std::printf("wavefd seismic: speeds %.6g..%.6g m/s; %s layer of %d cells (%s profile, peak %.4g), outer %s; "
                "%zu source(s), %zu receiver(s) every %ld steps\n",
                vmin, vmax, std::string(to_string(m.absorbing)).c_str(), m.width,
                std::string(to_string(m.profile)).c_str(), m.peak,
                std::string(to_string(m.outer)).c_str(), m.sources.size(), m.receivers.positions.size(),
                m.receivers.every);
    std::printf("wavefd seismic: %s work, inner box by %s (tile %s%s), layer by %s (tile %s), on %s; %d rank(s) as %s, "
                "transport %s (%s)\n",
                std::string(to_string(run.work)).c_str(), inner_name.c_str(), to_string(run.tile).c_str(), how,
                layer_name.c_str(), to_string(run.layer_tile).c_str(), execution_line().c_str(),
                ranks, to_string(par.rank_grid).c_str(), std::string(to_string(par.transport)).c_str(),
                par.transport_choice.c_str());
    std::fflush(stdout);
  }
  Progress progress(root ? Progress::parse(d.progress) : Progress::Mode::none, m.steps, points, d.status_interval);
  progress.set_time_step(m.dt);
  RunOutputs written;  // slices and traces: removed unless the run finishes
  if (root) slices.written = &written;
  const SeismicOutcome r = with_precision(precision, [&](auto type) {
    return run_model<typename decltype(type)::type>(m, run, speeds, d.check_interval, slices, progress);
  });
  const double seconds = max_over_ranks(r.seconds);
  // u, u- and vp read, u+ written (the velocity form: u and v read, u+ and v written); vp in the
  // arithmetic (float for the 16-bit formats), or a byte into its table
  const double field_accesses = run.second_field == SecondField::velocity ? 4.0 : 3.0;
  const double bytes_per_point =
      field_accesses * bytes_of(precision) + (r.vp_table > 0 ? 1 : precision == Precision::f64 ? 8 : 4);
  const double updates = points * double(r.steps);
  const nlohmann::json times = {{"inner_s", over_ranks(r.times.inner)},     {"layer_s", over_ranks(r.times.layer)},
                                {"halo_s", over_ranks(r.times.halo)},       {"sources_s", over_ranks(r.times.sources)},
                                {"receivers_s", over_ranks(r.times.receivers)}};
  agree([&] {  // rank 0 reports and writes; a failed write stops every rank alike
    if (!root) return;
    std::printf("wavefd seismic: %.3f s for %ld steps, %.3f Gpts/s, %.1f GB/s effective (%g bytes/point); "
                "min u %.6g, max u %.6g%s\n",
                seconds, r.steps, updates / seconds / 1e9, updates / seconds / 1e9 * bytes_per_point, bytes_per_point,
                r.min_u, r.max_u, r.finite ? "" : " (NOT FINITE)");
    // Unified work's box, three-domain work's core: by the inner variant's PML branch or the layer kernel.
    const std::string branch_kernel = r.branch_by_inner ? inner_name + " with its PML branch" : "the layer kernel";
    if (run.work == SeismicWork::unified) std::printf("wavefd seismic: unified work by %s\n", branch_kernel.c_str());
    if (run.work == SeismicWork::three_domain)
      std::printf("wavefd seismic: three-domain work: the core by %s, the x slabs by the layer kernel\n",
                  branch_kernel.c_str());
    const bool fused = r.pairs && run.inner->fuses_pairs(m.stencil, precision);
    const std::string pair_kernel = !r.pairs ? "off" : fused ? "on, fused by " + inner_name : "on, by two passes of " + inner_name;
    if (r.pairs) std::printf("wavefd seismic: pairs of steps %s\n", pair_kernel.c_str());
    if (r.vp_table > 0)
      std::printf("wavefd seismic: the inner box reads vp as a byte per point into its %g values\n", r.vp_table);
    std::printf("wavefd seismic: per step (timed pass, rank 0): inner %.4g s, layer %.4g s, halo %.4g s; "
                "memory %.2f bytes per point (%.1f%% of the points in the layer)\n",
                r.times.inner, r.times.layer, r.times.halo, r.bytes / points, 100 * r.layer_points / points);
    if (r.scale != 1)
      std::printf("wavefd seismic: %s fields hold the wavefield times 2^%d (from the sources; undone at the receivers "
                  "and slices), rounded %s\n", d.precision.c_str(), std::ilogb(r.scale),
                  d.rounding == "stochastic" ? "stochastically" : "to nearest");
    if (run.second_field == SecondField::velocity)
      std::printf("wavefd seismic: the second field holds the velocity u^n - u^(n-1), and u takes turns in two fields "
                  "(scheme.second_field)\n");
    if (!d.traces.empty() && !r.traces.empty() && r.finite) {
      Traces t;
      t.interval = m.dt * double(m.receivers.every);
      for (const auto& p : m.receivers.positions) t.positions.push_back({p[0] * m.h, p[1] * m.h, p[2] * m.h});
      for (const auto& s : m.sources) t.sources.push_back({s.position[0] * m.h, s.position[1] * m.h, s.position[2] * m.h});
      for (const auto& trace : r.traces)
        for (double s : trace) t.samples.push_back(float(s));
      write_traces(written.staged(d.traces, "receivers.file"), traces_as, t, d, m, *velocity);
      std::printf("wavefd seismic: traces written to %s as %s (%zu receivers x %ld samples)%s\n", printable(d.traces).c_str(),
                  traces_as.segy ? "SEG-Y" : "raw float32", r.traces.size(), m.samples(), traces_as.note.c_str());
    }
    if (!d.summary.empty()) {
      nlohmann::json j;
      j["wavefd_version"] = WAVEFD_VERSION;
      j["deck"] = d.path;
      j["model"] = {{"n", m.n}, {"spacing", m.h}, {"dt", m.dt}, {"steps", m.steps}, {"stencil", m.stencil.name},
                    {"precision", d.precision}, {"rounding", d.rounding}, {"second_field", d.second_field},
                    {"velocity", velocity->describe()}, {"vmin", vmin}, {"vmax", vmax},
                    {"absorbing", to_string(m.absorbing)}, {"width", m.width}, {"peak", m.peak},
                    {"profile", to_string(m.profile)},
                    {"outer", to_string(m.outer)}, {"source_term", d.source_term}, {"sources", m.sources.size()},
                    {"field_scale", r.scale}, {"vp_table", r.vp_table},
                    {"receivers", m.receivers.positions.size()}, {"every", m.receivers.every}};
      j["work"] = {{"decomposition", to_string(run.work)}, {"inner_variant", inner_name},
                   {"tile", to_string(run.tile)}, {"layer_tile", to_string(run.layer_tile)}, {"layer_kernel", layer_name}, {"pairs", pair_kernel}};
      if (run.work == SeismicWork::unified) j["work"]["unified_kernel"] = branch_kernel;
      if (run.work == SeismicWork::three_domain) j["work"]["core_kernel"] = branch_kernel;
      j["parallel"] = {{"ranks", par.rank_grid}, {"transport", to_string(par.transport)},
                       {"transport_choice", par.transport_choice}, {"overlap", r.overlap}};
      j["provenance"] = provenance_json(Distribution{par.rank_grid, std::string(to_string(par.transport))});
      j["kokkos"] = execution_json();
      j["timing"] = {{"seconds", seconds}, {"steps", r.steps}, {"gpts_per_s", updates / seconds / 1e9},
                     {"effective_gb_per_s", updates / seconds / 1e9 * bytes_per_point},
                     {"bytes_per_point_moved", bytes_per_point}, {"per_step_timed", times}};
      j["memory"] = {{"bytes", r.bytes}, {"bytes_per_point", r.bytes / points}, {"layer_points", r.layer_points}};
      j["result"] = {{"min_u", r.min_u}, {"max_u", r.max_u}, {"finite", r.finite}, {"steps_done", r.steps}};
      write_json_file(d.summary, j, "output.summary");
      std::printf("wavefd seismic: summary written to %s\n", printable(d.summary).c_str());
    }
  });
  if (!r.finite)  // its slices go (written's destructor); the summary says what happened
    throw AgreedError(!root ? "" : "the solution is not finite (NaN or Inf) after " + std::to_string(r.steps) + " steps");
  agree([&] { written.keep(); });  // the slices and traces take their names
  return 0;
}

}  // namespace wavefd::app
