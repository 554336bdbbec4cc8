// `wavefd bench`: times the registered variants, at the tiles --tiles selects, each verified on the
// device first, against the in-run copy bandwidth; or with --op the first-derivative operators.
// Under mpirun the grid (--n) is split over the ranks (--ranks) as `run` splits it: the full step
// includes the exchange, the parts are reported per rank (min/mean/max), and rank 0 prints and writes.
#include <algorithm>
#include <cstdio>
#include <limits>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "bench/derivative.hpp"
#include "bench/host_roofline.hpp"
#include "bench/variant_timing.hpp"
#include "io/rank_spread.hpp"
#include "io/summary.hpp"
#include "wavefd/memory_budget.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/verify.hpp"

namespace wavefd::app {

BenchCommand::BenchCommand(CLI::App& app) {
  sub = app.add_subcommand("bench", "Time kernel variants (verified first) or derivative operators");
  add_stencil_options(*sub, stencil, "");
  sub->add_option("--variant", variant, "Comma-separated variant names, all, or auto (what `run` picks)")
      ->capture_default_str();
  sub->add_option("--tiles", tiles,
                  "Tiles of the variants with tunable tiles: default, all (default + the variant's candidates), "
                  "or a list like 32x4x4,64x4x2,default")
      ->capture_default_str();
  sub->add_option("--sweep", sweep, "hamilton: the first 20 stencils of each family (Hamilton Fig. 7)");
  sub->add_option("--precision", precisions, kPrecisionHelp)->capture_default_str();
  sub->add_option("--n", n, "Grid nx ny nz")->expected(3)->capture_default_str();
  sub->add_option("--local", local,
                  "Weak scaling, instead of --n: the subdomain of one rank; the grid is it times the rank grid "
                  "wavefd picks for a grid of its shape (--ranks fixes entries)")
      ->expected(3);
  sub->add_option("--steps", steps, "Time steps per timed repetition, >= 1")->capture_default_str();
  sub->add_option("--warmup", warmup, "Untimed repetitions, >= 0")->capture_default_str();
  sub->add_option("--reps", reps, "Timed repetitions, >= 1")->capture_default_str();
  sub->add_option("--op", op, "First-derivative benchmark instead: dx | dy | dz");
  sub->add_option("--order", order, "Order of the derivative operator: 2, 4, ..., 16")->capture_default_str();
  sub->add_option("--json", json, "Write all results to this JSON file");
  sub->add_option("--overlap", overlap, "Full step: update the core while the ghosts are filled: auto (as `run` on one rank: off) | true | false")
      ->capture_default_str();
  sub->add_option("--transport", transport,
                  "Full step's halo: auto (local on one rank), local (ghost fill), or mpi | mpi-gpu | nccl "
                  "(on one rank: exchanging with itself)")
      ->capture_default_str();
  sub->add_option("--ghost-fill", ghost_fill,
                  "Full step with transport local: auto (as `run`) | kernel (the kernel stores the ghost images) | "
                  "separate (a fill pass before each update)")
      ->capture_default_str();
  sub->add_option("--pack", pack,
                  "Full step on several ranks: who packs the faces sent by message: auto (as `run`) | kernel (the "
                  "update kernel stores them into the send buffer) | separate (a pack kernel before the messages)")
      ->capture_default_str();
  split.add_to(*sub);
}

namespace {

bool selected(const std::string& list, const std::string& name) {
  return list == "all" || name_in_list(list, name);
}

int derivative_bench(const BenchCommand& b, nlohmann::json& out) {
  DerivativeSpec d;
  d.axis = b.op == "dx" ? 0 : b.op == "dy" ? 1 : b.op == "dz" ? 2 : -1;
  if (d.axis < 0) throw Error("--op = '" + b.op + "' is unknown; accepted: dx, dy, dz");
  d.order = b.order;
  d.n = {b.n[0], b.n[1], b.n[2]};
  d.warmup = b.warmup;
  d.reps = b.reps;
  std::printf("%-4s %5s %-16s %-7s %12s %12s %12s %10s\n", "op", "order", "grid", "prec", "rms error",
              "max error", "best ms", "GB/s");
  for (const auto& pname : b.precisions) {
    d.precision = parse_precision(pname);
    const DerivativeResult r = run_derivative(d);
    std::printf("%-4s %5d %5lldx%lldx%-6lld %-7s %12.4e %12.4e %12.4f %10.2f\n", b.op.c_str(), d.order,
                (long long)d.n[0], (long long)d.n[1], (long long)d.n[2], pname.c_str(), r.rms_error,
                r.max_error, r.seconds.min * 1e3, r.gbs);
    out["derivatives"].push_back({{"op", b.op}, {"order", d.order}, {"n", b.n}, {"precision", pname},
                                  {"rms_error", r.rms_error}, {"max_error", r.max_error},
                                  {"seconds", to_json(r.seconds)}, {"gb_per_s", r.gbs}});
  }
  return 0;
}

}  // namespace

namespace {

// The first twenty stencils of each family (Hamilton et al. 2015, Fig. 7).
std::vector<Stencil> hamilton_sweep() {
  std::vector<Stencil> list;
  for (int M = 1; M <= 20; ++M) list.push_back(make_star(M));
  // R values that add a shell: the first 20 distinct compact-in-space stencils end at R = 22.
  for (int R : {1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22})
    list.push_back(make_compact(R));
  int boxes = 0;  // the set Q in lexicographic order
  for (int q1 = 1; boxes < 20; ++q1)
    for (int q2 = 0; q2 <= q1 && boxes < 20; ++q2)
      for (int q3 = 0; q3 <= q2 && boxes < 20; ++q3, ++boxes) list.push_back(make_box({q1, q2, q3}));
  return list;
}

// Variants to time for `s`: a comma-separated list of names, "all", and "auto" for the variant
// that `run` would pick.
std::vector<const Variant*> chosen_variants(const std::string& list, const Stencil& s, Precision p) {
  std::vector<const Variant*> out;
  for (const auto& v : variants()) {
    bool take = list == "all" || selected(list, v->name());
    if (!take && selected(list, "auto")) take = &select_variant("auto", s, p) == v.get();
    if (take && v->supports(s, p)) out.push_back(v.get());
  }
  return out;
}

// One row of the table: a variant at one tile, on one stencil, in one precision.
struct BenchCase {
  const Stencil* stencil;
  std::string precision;
  const Variant* variant;
  Tile tile;
};

// Every case, in table order. Throws Error for a --tiles entry a chosen variant does not accept,
// before anything is timed.
std::vector<BenchCase> plan_cases(const BenchCommand& b, const std::vector<Stencil>& stencils) {
  const TileSelection tiles(b.tiles, "--tiles");
  std::vector<BenchCase> cases;
  for (const Stencil& s : stencils)
    for (const auto& pname : b.precisions) {
      const Precision p = parse_precision(pname);
      for (const Variant* v : chosen_variants(b.variant, s, p))
        for (const Tile& t : tiles.for_variant(*v, s, p)) cases.push_back({&s, pname, v, t});
    }
  if (cases.empty())
    throw Error("--variant = '" + b.variant + "' matched no variant supporting the stencil; accepted: all, auto, or a "
                "variant `wavefd info` lists for it");
  return cases;
}

// What each case is measured against: the copy probe's bandwidth (every rank's together) and, on
// host builds, the FMA probe's rate per precision (0 on device builds: the roof is the copy's).
struct Roof {
  double copy_gbs = 0;
  double fma_per_s[2] = {0, 0};  // float, double

  double fma(Precision p) const { return fma_per_s[p == Precision::f64 ? 1 : 0]; }  // 16-bit storage: float arithmetic
};

// Verifies, then times one case: a table row (rank 0) and a JSON case. Returns false when it fails
// the verification (then it is not timed). Collective: every rank runs every case.
bool bench_case(const BenchCommand& b, const BenchCase& c, const ParallelSpec& par, const Roof& roof,
                nlohmann::json& out) {
  const double copy_gbs = roof.copy_gbs;
  const bool root = world_rank() == 0;
  const Stencil& s = *c.stencil;
  const Variant& v = *c.variant;
  const Precision p = parse_precision(c.precision);
  const Index3 grid{b.n[0], b.n[1], b.n[2]};
  const double points = double(grid[0]) * double(grid[1]) * double(grid[2]);
  const std::string tile = to_string(c.tile);
  nlohmann::json row{{"stencil", s.name}, {"family", std::string(to_string(s.family))}, {"K", s.size()},
                     {"radius", s.radius}, {"variant", v.name()}, {"tile", tile}, {"precision", c.precision}};
  // Refuse to time a kernel that does not reproduce the exact eigenmode on this device; the timed
  // grid is checked split as it is timed. Every rank takes the same branch.
  const EigenmodeResult check = verify_before_timing(s, v, c.tile, p, grid, par);
  const bool passed = min_over_ranks(check.passed() ? 1 : 0) > 0;
  row["verification"] = {{"max_error", check.max_error}, {"tolerance", check.tolerance}, {"passed", passed}};
  if (!passed) {
    if (root)
      std::printf("%-16s %-16s %-10s %-7s %-6s  not timed: eigenmode error %.3e > tolerance %.3e\n", s.name.c_str(),
                  v.name().c_str(), tile.c_str(), c.precision.c_str(), "FAIL", check.max_error, check.tolerance);
    out["cases"].push_back(row);
    return false;
  }
  const VariantTiming t = time_variant(s, v, c.tile, p, grid, b.steps, b.warmup, b.reps, par);
  const double bytes = 3.0 * bytes_of(p) * points;  // read u, u-, write u+, in the stored format
  auto figures = [&](const Stats& st) {
    return nlohmann::json{{"seconds", to_json(st)},
                          {"ctpn_ns", st.min / points * 1e9},
                          {"gpts_per_s", points / st.min / 1e9},
                          {"effective_gb_per_s", bytes / st.min / 1e9},
                          {"percent_of_copy", 100 * bytes / st.min / 1e9 / copy_gbs}};
  };
  // Per rank, per step: each part's best repetition, and the host phases of the halo in the full step.
  const nlohmann::json per_rank{{"step", spread_over_ranks(t.this_rank.step.min)},
                                {"kernel", spread_over_ranks(t.this_rank.kernel.min)},
                                {"halo", spread_over_ranks(t.this_rank.halo.min)},
                                {"core", spread_over_ranks(t.this_rank.core.min)},
                                {"shell", spread_over_ranks(t.this_rank.shell.min)},
                                {"pack", spread_over_ranks(t.phases.pack)},
                                {"wait", spread_over_ranks(t.phases.wait)},
                                {"unpack", spread_over_ranks(t.phases.unpack)}};
  row["full_step"] = figures(t.slowest.step);
  row["full_step"]["ghost_fill"] = t.ghosts_by_kernel ? "kernel" : "separate";
  row["full_step"]["pack"] = t.packs_by_kernel ? "kernel" : "separate";
  row["full_step"]["halo_phases_per_step_s"] = {
      {"pack", per_rank["pack"]["max"]}, {"wait", per_rank["wait"]["max"]}, {"unpack", per_rank["unpack"]["max"]}};
  row["kernel"] = figures(t.slowest.kernel);
  row["parts_alone_per_step_s"] = {
      {"halo", to_json(t.slowest.halo)}, {"core", to_json(t.slowest.core)}, {"shell", to_json(t.slowest.shell)}};
  row["per_rank_per_step_s"] = per_rank;
  // Each mark of the full step as an offset from the step's start, {min, mean, max} over ranks.
  for (int m = StepTimeline::started; m < StepTimeline::marks; ++m) {
    const double offset = t.timeline[std::size_t(m)];
    const char* name = StepTimeline::name(StepTimeline::Mark(m));
    if (max_over_ranks(offset) >= 0) row["timeline_per_step_s"][name] = spread_over_ranks(offset);
  }
  // The roof: min(memory, compute) in points per second. Memory: the copy probe's bandwidth over the
  // bytes per point; compute: the FMA probe's rate over K + 1 floating-point operations per point
  // (one add or fused multiply-add per stencil weight, one for u-), a lower bound of the work.
  const double memory_roof = roof.copy_gbs * 1e9 / (bytes / points);
  const double compute_roof = roof.fma(p) > 0 ? roof.fma(p) / double(s.size() + 1) : 0;
  const double roof_pts = compute_roof > 0 ? std::min(memory_roof, compute_roof) : memory_roof;
  const double percent_of_roof = 100 * points / t.slowest.step.min / roof_pts;
  row["roof"] = {{"memory_gpts_per_s", memory_roof / 1e9},
                 {"compute_gpts_per_s", compute_roof / 1e9},
                 {"flops_per_point", s.size() + 1},
                 {"bound", compute_roof > 0 && compute_roof < memory_roof ? "compute" : "memory"},
                 {"full_step_percent", percent_of_roof},
                 {"kernel_percent", 100 * points / t.slowest.kernel.min / roof_pts}};
  if (root)
    std::printf("%-16s %-16s %-10s %-7s %-6s %10.4f %9.4f %9.3f %6.1f%% %6.1f%% %10.4f %6.1f%% %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %s\n",
                s.name.c_str(), v.name().c_str(), tile.c_str(), c.precision.c_str(), "ok", t.slowest.step.min * 1e3,
                t.slowest.step.sd * 1e3, row["full_step"]["gpts_per_s"].get<double>(),
                row["full_step"]["percent_of_copy"].get<double>(), percent_of_roof, t.slowest.kernel.min * 1e3,
                row["kernel"]["percent_of_copy"].get<double>(), t.slowest.halo.min * 1e6, t.slowest.core.min * 1e6,
                t.slowest.shell.min * 1e6, per_rank["pack"]["max"].get<double>() * 1e6,
                per_rank["wait"]["max"].get<double>() * 1e6, per_rank["unpack"]["max"].get<double>() * 1e6,
                t.ghosts_by_kernel ? "kernel" : "separate");
  out["cases"].push_back(row);
  return true;
}

}  // namespace

int BenchCommand::execute() {
  const int ranks = world_size();
  const bool root = world_rank() == 0;
  // Everything is checked on every rank before anything is allocated; a bad input anywhere stops
  // every rank with one line.
  std::vector<Stencil> stencils;
  std::vector<BenchCase> cases;
  ParallelSpec par;
  Index3 grid{};
  agree([&] {
    if (n.size() != 3) throw Error("--n needs 3 values; accepted: nx ny nz");
    grid = {n[0], n[1], n[2]};
    if (!local.empty()) {
      if (sub->count("--n") > 0)
        throw Error("--local and --n are both given; accepted: one of them (--local: the subdomain of one rank)");
      if (!op.empty()) throw Error("--local times the full step over the ranks; accepted: --n with --op");
    }
    check_repetitions(steps, reps, warmup, "--steps");
    if (!sweep.empty() && sweep != "hamilton") throw Error("--sweep = '" + sweep + "' is unknown; accepted: hamilton");
    with_flag_names([&] {
      for (const auto& p : precisions) parse_precision(p);
    });
    check_variant_list(variant, "--variant", {"all", "auto"});
    if (root) {  // --json writable, and not the custom stencil file
      PathPlan paths;
      paths.input("--file", stencil.family == "custom" ? stencil.file : "");
      paths.output("--json", json);
      paths.check();
    }
    if (!op.empty()) {
      for (const auto& p : precisions)
        if (is_16_bit(parse_precision(p)))
          throw Error("--precision = '" + p + "' with --op; accepted: float, double (the derivative probes store those)");
      if (ranks > 1)
        throw Error("--op runs on one rank; got " + std::to_string(ranks) + " ranks; accepted: wavefd bench --op without mpirun");
      return;
    }
    stencils = sweep.empty() ? std::vector<Stencil>{build_stencil(stencil)} : hamilton_sweep();
    int halo = 0;  // the rank grid must leave every stencil's halo room on every rank
    for (const Stencil& s : stencils) halo = std::max(halo, s.radius);
    SplitOptions split_of_grid = split;
    if (!local.empty()) {  // weak: the rank grid first, the global grid from it
      for (long long v : local)
        if (v < halo)
          throw Error("--local = " + to_string(Index3{local[0], local[1], local[2]}) + " is thinner than the halo (" +
                      std::to_string(halo) + " points); accepted: at least " + std::to_string(halo) + " points per axis");
      Index3 chosen{};
      with_flag_names([&] { chosen = choose_weak_rank_grid(ranks, {local[0], local[1], local[2]}, split.requested(), halo); });
      split_of_grid.ranks = {chosen[0], chosen[1], chosen[2]};
      n = {local[0] * chosen[0], local[1] * chosen[1], local[2] * chosen[2]};  // what the cases time and the JSON records
      grid = {n[0], n[1], n[2]};
    }
    par = split_of_grid.resolve(grid, halo, true, transport, overlap);
    par.ghost_fill = parse_ghost_fill(ghost_fill, "--ghost-fill");
    par.pack = parse_ghost_fill(pack, "--pack");
    cases = plan_cases(*this, stencils);
    if (par.ghost_fill == GhostFillMode::kernel)
      for (const BenchCase& c : cases)
        if (!kernel_can_fill_ghosts(par, Boundary::periodic, *c.variant))
          throw Error("--ghost-fill = kernel needs variants that write ghost images and a rank grid with an axis "
                      "of one rank (not " + c.variant->name() + "); accepted: auto, separate");
    if (par.pack == GhostFillMode::kernel)
      for (const BenchCase& c : cases)
        if (!kernel_can_pack(par, *c.stencil, *c.variant))
          throw Error("--pack = kernel needs variants that write ghost images, several ranks, stencils that read no "
                      "edges and x not split when overlap is on (not " + c.variant->name() + " for " + c.stencil->name +
                      "); accepted: auto, separate");
  });
  agree([&] {  // collective, so only once every rank got this far
    if (par.transport == Transport::nccl) check_one_rank_per_device("--transport = 'nccl'");
    // The largest case's fields, or the copy probe's two arrays of a double field.
    const Index3 local = op.empty() ? largest_subdomain(grid, par.rank_grid) : grid;
    int halo = 0;
    for (const Stencil& st : stencils) halo = std::max(halo, st.radius);
    check_grid_extents(grid, halo, "--n");
    const double points = double(local[0]) * double(local[1]) * double(local[2]);
    check_memory(std::max(two_step_bytes(local, halo, true, 8), 16.0 * points),
                 "--n = " + to_string(grid) + " over " + std::to_string(ranks) + (ranks == 1 ? " rank" : " ranks"),
                 "two double fields of " + to_string(local) + " points, or the copy probe's two arrays of that size");
  });
  const std::string transport_name(to_string(par.transport));
  nlohmann::json out;
  out["provenance"] = provenance_json(Distribution{par.rank_grid, transport_name});
  out["full_step"] = {{"transport", transport_name}, {"overlap", par.overlap}, {"ghost_fill", ghost_fill}, {"pack", pack}};
  out["kokkos"] = execution_json();
  if (!op.empty()) {
    const int rc = derivative_bench(*this, out);
    if (!json.empty()) write_json_file(json, out, "--json");  // one rank (--op refuses more)
    return rc;
  }

  const Index3 local = largest_subdomain(grid, par.rank_grid);
  const double points = double(grid[0]) * double(grid[1]) * double(grid[2]);
  // Copy probe run by every rank at once (the sum is what the ranks' devices give together): on a
  // device, sized like one local field of the largest precision benchmarked (at least 64 MiB); on
  // hosts, well beyond the last-level cache (host_copy_probe_bytes). Hosts also probe the FMA rate.
  const std::size_t field_bytes = std::size_t(local[0] * local[1] * local[2]) * 8;
  (void)max_over_ranks(0.0);  // line the ranks up
  // Hosts take the best of 60 repetitions (about 2 s on the development machine): a shared
  // machine's bandwidth comes and goes within seconds, and the best of 20 read 52 to 61 GB/s there
  // in consecutive runs.
  const CopyProbe copy = kHostBuild ? probe_host_copy_bandwidth(host_copy_probe_bytes(field_bytes, ranks), 60)
                                    : probe_copy_bandwidth(std::max<std::size_t>(field_bytes, std::size_t(64) << 20), 10);
  Roof roof;
  roof.copy_gbs = sum_over_ranks(copy.gbs);
  const double copy_gbs = roof.copy_gbs;
  const nlohmann::json copy_per_rank = spread_over_ranks(copy.gbs);
  if (kHostBuild) {
    nlohmann::json fma;
    for (int bytes : {4, 8}) {
      (void)max_over_ranks(0.0);
      const FmaProbe f = probe_fma_rate(bytes, 5);
      roof.fma_per_s[bytes == 4 ? 0 : 1] = sum_over_ranks(f.fma_per_s);
      fma[bytes == 4 ? "float" : "double"] = {{"fma_per_s", roof.fma_per_s[bytes == 4 ? 0 : 1]},
                                              {"seconds", to_json(f.seconds)}, {"fmas_per_rep", f.fmas}};
    }
    out["fma_probe"] = fma;
  }
  if (root) {
    std::printf("device: %s on %s; copy probe (%s, %.0f MiB): %.1f GB/s", out["kokkos"]["device"].get<std::string>().c_str(),
                Kokkos::DefaultExecutionSpace::name(), kHostBuild ? "copy loop per thread" : "Kokkos::deep_copy",
                double(copy.bytes) / (1 << 20), copy_gbs);
    if (ranks > 1)
      std::printf(" over %d ranks at once (%.1f..%.1f per rank)", ranks, copy_per_rank["min"].get<double>(),
                  copy_per_rank["max"].get<double>());
    if (kHostBuild)
      std::printf("; FMA probe: %.1f G/s float, %.1f G/s double (last-level cache %.0f MiB)", roof.fma_per_s[0] / 1e9,
                  roof.fma_per_s[1] / 1e9, double(last_level_cache_bytes()) / (1 << 20));
    std::printf("\n%s, grid %lldx%lldx%lld, %d steps x %d reps (+%d warm-up)\n",
                sweep.empty() ? (stencils[0].name + ", K=" + std::to_string(stencils[0].size())).c_str()
                              : "sweep hamilton: the first 20 stencils of each family",
                (long long)grid[0], (long long)grid[1], (long long)grid[2], steps, reps, warmup);
    if (ranks > 1 || par.transport != Transport::local)
      std::printf("%d rank(s) as %s, subdomain up to %s, transport %s (%s), overlap %s; MPI %s (GPU-aware: %s)\n", ranks,
                  to_string(par.rank_grid).c_str(), to_string(local).c_str(), transport_name.c_str(),
                  par.transport_choice.c_str(),
                  par.overlap ? "on" : "off", mpi_library().c_str(), mpi_gpu_aware().c_str());
  }
  out["copy_probe"] = {{"method", kHostBuild ? "copy loop per thread" : "Kokkos::deep_copy"}, {"bytes", copy.bytes}, {"seconds", to_json(copy.seconds)}, {"gb_per_s", copy_gbs},
                       {"gb_per_s_per_rank", copy_per_rank}};
  if (sweep.empty()) out["stencil"] = {{"name", stencils[0].name}, {"K", stencils[0].size()}, {"radius", stencils[0].radius}};
  else out["sweep"] = sweep;
  out["grid"] = n;
  out["parallel"] = {{"ranks", ranks}, {"rank_grid", par.rank_grid}, {"subdomain_largest", local},
                     {"subdomain_smallest", Index3{grid[0] / par.rank_grid[0], grid[1] / par.rank_grid[1], grid[2] / par.rank_grid[2]}},
                     {"transport", transport_name}, {"transport_choice", par.transport_choice}, {"overlap", par.overlap},
                     {"gpu_aware", mpi_gpu_aware()},
                     {"nccl", nccl_version()}};
  out["steps"] = steps, out["reps"] = reps, out["warmup"] = warmup;
  out["tiles"] = tiles;

  if (root) {
    std::printf("step = the full step as `run` does it (halo %s, overlap %s, ghost fill %s), min over reps; kernel = "
                "the interior update alone;\nhalo/core/shell = us per step of each part alone; pack/wait/unpack = host us "
                "per step in the halo of the full step; ghosts = who filled them in the full step;\n%%roof = the full step "
                "against min(copy / bytes per point, FMA rate / (K + 1))%s\n",
                transport_name.c_str(), par.overlap ? "on" : "off", ghost_fill.c_str(),
                ranks > 1 ? "\n(each figure the slowest rank's; the JSON has min/mean/max over ranks)" : "");
    std::printf("%-16s %-16s %-10s %-7s %-6s %10s %9s %9s %7s %7s %10s %7s %8s %8s %8s %8s %8s %8s %s\n", "stencil",
                "variant", "tile", "prec", "verify", "step ms", "sd ms", "Gpts/s", "%copy", "%roof", "kernel ms", "%copy", "halo",
                "core", "shell", "pack", "wait", "unpack", "ghosts");
  }
  int failures = 0;
  for (const BenchCase& c : cases) failures += bench_case(*this, c, par, roof, out) ? 0 : 1;
  agree([&] {  // a failed write stops every rank alike
    if (!root || json.empty()) return;
    write_json_file(json, out, "--json");
    std::printf("results written to %s\n", printable(json).c_str());
  });
  return failures == 0 ? 0 : 1;
}

}  // namespace wavefd::app
