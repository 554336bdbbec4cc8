// `wavefd run DECK.toml [--key value ...]`: the two-step scheme on one deck, with progress and a
// JSON summary. Under mpirun/srun the grid is split over the ranks (parallel.*); rank 0 prints and
// writes, results are reduced over all ranks.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "io/progress.hpp"
#include "io/summary.hpp"
#include "io/tuning.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/memory_budget.hpp"
#include "wavefd/output_file.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd::app {

RunCommand::RunCommand(CLI::App& app) {
  sub = app.add_subcommand("run", "Run the two-step scheme on an input deck (TOML); flags override deck keys");
  add_run_options(*sub, config);
}

namespace {

constexpr double kPi = 3.14159265358979323846;

struct RunResult {
  double seconds = 0;
  long steps = 0;          // done; fewer than asked when the field went non-finite
  double max_abs = 0;      // over all ranks; 1e308 stands for NaN/Inf
  double mode_error = -1;  // init = mode: max |u - exact| over all ranks
  // init = mode: the field split into the mode and the rest (mode_fit below)
  double mode_amplitude_error = 0;  // relative: the amplitude it carries / the exact one - 1
  double mode_phase_error = 0;      // radians, in (-pi, pi]: positive where the computed wave leads
  double error_outside_mode = 0;    // max |u - (its projection on the mode)|
  HaloTimes halo;          // this rank's
  bool packs_by_kernel = false;  // the update kernel packed the faces sent by message (parallel.pack)
};

// The kernel a run uses, and where each part of the choice came from.
struct KernelChoice {
  const Variant* variant = nullptr;
  std::string variant_source;
  Tile tile;
  std::string tile_source;
};

// scheme.variant = auto: the variant and tile `wavefd tune` recorded for this device, stencil,
// precision and size class of the subdomain `local`, when this build can run them; else the
// default preference for the kind of device, with its own tile. scheme.tile, when given, overrides
// the tile. Throws Error for a tile the chosen variant does not accept.
KernelChoice choose_kernel(const RunConfig& c, const Stencil& s, Precision p, const Index3& local) {
  KernelChoice k;
  k.tile = parse_tile(c.tile, "scheme.tile");
  k.tile_source = k.tile.is_default() ? "variant default" : "requested";
  k.variant_source = c.variant == "auto" ? "default order" : "requested";
  if (c.variant == "auto") {
    const std::string file = c.tuning.empty() ? default_tuning_file() : c.tuning;
    const auto tuned = lookup_tuning(file, tuning_key(s, p, local), "scheme.tuning");
    // A tuned kernel this build cannot run (another build or version wrote the file) is ignored.
    for (const auto& v : variants())
      if (tuned && v->name() == tuned->variant && v->supports(s, p) && v->accepts_tile(tuned->tile)) {
        k.variant = v.get(), k.variant_source = "tuned, " + file;
        if (k.tile.is_default()) k.tile = tuned->tile, k.tile_source = "tuned";
      }
  }
  if (k.variant == nullptr) k.variant = &select_variant(c.variant, s, p);
  k.variant->check_tile(k.tile, "scheme.tile");
  return k;
}

template <class T>
RunResult run_scheme(const Stencil& s, const SchemeSpec& spec, const KernelChoice& kernel, const RunConfig& c,
                     Progress& progress) {
  TwoStep<T> engine(s, spec, *kernel.variant, kernel.tile);
  const Layout l = engine.layout();
  const Index3 N = spec.domain.global, off = engine.domain().offset;
  Kokkos::deep_copy(engine.u().data, poison<T>());  // ghosts/padding: poison
  Kokkos::deep_copy(engine.u_prev().data, poison<T>());
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  const Policy interior({0, 0, 0}, {l.n[0], l.n[1], l.n[2]});

  // Initial condition. pulse: a Gaussian at rest (u1 = u0), width 4 cells. mode: the exact
  // eigenmode with wave numbers (1,1,1), a plane wave (periodic) or a product of sines (rigid,
  // exact for stencils symmetric in each axis), so the run can report its error. Both are
  // functions of the global index, so every decomposition starts from the same bits.
  const bool mode = c.init == "mode";
  const bool periodic = spec.boundary == Boundary::periodic;
  double k[3], mu = 0;
  for (int d = 0; d < 3; ++d) k[d] = periodic ? 2 * kPi / double(N[d]) : kPi / double(N[d] + 1);
  const auto& gamma = engine.weights().host_gamma;
  for (std::size_t q = 0; q < s.size(); ++q) {
    const Offset& o = s.offsets[q];
    mu += gamma[q] * (periodic ? std::cos(k[0] * o.x + k[1] * o.y + k[2] * o.z)
                               : std::cos(k[0] * o.x) * std::cos(k[1] * o.y) * std::cos(k[2] * o.z));
  }
  const double theta = std::acos(std::clamp(mu / 2, -1.0, 1.0));
  const double kx = k[0], ky = k[1], kz = k[2], c1 = mode ? std::cos(theta) : 1.0, a = c.amplitude;
  auto shape = KOKKOS_LAMBDA(index_t i, index_t j, index_t kk)->double {
    const double x = double(i + off[0]), y = double(j + off[1]), z = double(kk + off[2]);
    if (!mode) {
      const double dx = x - 0.5 * double(N[0] - 1), dy = y - 0.5 * double(N[1] - 1),
                   dz = z - 0.5 * double(N[2] - 1);
      return a * Kokkos::exp(-(dx * dx + dy * dy + dz * dz) / 32.0);
    }
    if (periodic) return a * Kokkos::cos(kx * x + ky * y + kz * z);
    return a * Kokkos::sin(kx * (x + 1)) * Kokkos::sin(ky * (y + 1)) * Kokkos::sin(kz * (z + 1));
  };
  {
    auto u = engine.u().data;
    auto u_prev = engine.u_prev().data;
    Kokkos::parallel_for("wavefd::run_init", interior, KOKKOS_LAMBDA(index_t i, index_t j, index_t kk) {
      const double v0 = shape(i, j, kk);
      u_prev(l.at(i, j, kk)) = static_cast<T>(v0);
      u(l.at(i, j, kk)) = static_cast<T>(c1 * v0);
    });
  }
  Kokkos::fence("wavefd::run_init");

  // max |u| on this rank, NaN/Inf mapped to 1e308, and the error against the mode after `steps`.
  auto measure = [&](long steps, double& max_abs, double& err) {
    auto result = engine.u().data;
    const double cn = std::cos(double(steps + 1) * theta);
    max_abs = 0, err = 0;
    Kokkos::parallel_reduce("wavefd::run_check", interior,
        KOKKOS_LAMBDA(index_t i, index_t j, index_t kk, double& m, double& e) {
          const double v = double(result(l.at(i, j, kk)));
          const double a = (v == v && Kokkos::abs(v) <= 1e300) ? Kokkos::abs(v) : 1e308;
          m = Kokkos::max(m, a);
          if (mode) {
            const double d = Kokkos::abs(v - cn * shape(i, j, kk));
            e = Kokkos::max(e, (d == d && d <= 1e300) ? d : 1e308);
          }
        },
        Kokkos::Max<double>(max_abs), Kokkos::Max<double>(err));
  };

  // The field as the mode plus the rest: its projections on the mode's shape at steps n and n - 1,
  // a_n = A cos(psi) and a_{n-1} = A cos(psi - theta), give the amplitude A and the phase psi the
  // mode carries (exactly 1 and (n + 1) theta); the largest |u - a_n shape| is the error outside
  // the mode. A phase that drifts adds up coherently (linear in n); rounding noise as sqrt(n).
  auto mode_fit = [&](long steps, RunResult& into) {
    auto u = engine.u().data, u_prev = engine.u_prev().data;
    double now = 0, before = 0, norm = 0;
    Kokkos::parallel_reduce("wavefd::run_mode_projection", interior,
        KOKKOS_LAMBDA(index_t i, index_t j, index_t kk, double& p, double& q, double& w) {
          const double phi = shape(i, j, kk);
          p += double(u(l.at(i, j, kk))) * phi;
          q += double(u_prev(l.at(i, j, kk))) * phi;
          w += phi * phi;
        },
        Kokkos::Sum<double>(now), Kokkos::Sum<double>(before), Kokkos::Sum<double>(norm));
    norm = sum_over_ranks(norm);
    const double a_now = sum_over_ranks(now) / norm, a_before = sum_over_ranks(before) / norm;
    const double quadrature = (a_before - a_now * std::cos(theta)) / std::sin(theta);  // A sin(psi)
    into.mode_amplitude_error = std::hypot(a_now, quadrature) - 1;
    into.mode_phase_error = std::remainder(std::atan2(quadrature, a_now) - double(steps + 1) * theta, 2 * kPi);
    double outside = 0;
    Kokkos::parallel_reduce("wavefd::run_outside_mode", interior,
        KOKKOS_LAMBDA(index_t i, index_t j, index_t kk, double& e) {
          const double d = Kokkos::abs(double(u(l.at(i, j, kk))) - a_now * shape(i, j, kk));
          e = Kokkos::max(e, (d == d && d <= 1e300) ? d : 1e308);
        },
        Kokkos::Max<double>(outside));
    into.error_outside_mode = max_over_ranks(outside);
  };

  RunResult r;
  wait_for_every_rank();  // the ranks start stepping, and their timers, together
  Kokkos::Timer timer;
  double paused = 0;  // seconds spent in the finiteness checks, not counted as stepping
  for (long n = 0; n < c.steps; ++n) {
    engine.step();
    if (progress.due(timer.seconds())) {
      Kokkos::fence("wavefd::progress");
      progress.report(n + 1, timer.seconds());
    }
    r.steps = n + 1;
    if (r.steps % c.check_interval == 0 && r.steps < c.steps) {
      Kokkos::fence("wavefd::check");  // the steps so far count as stepping, the check does not
      Kokkos::Timer check;
      double m, e;
      measure(r.steps, m, e);
      const bool finite = max_over_ranks(m) < 1e300;
      paused += check.seconds();
      if (!finite) break;  // every rank sees the same reduction and stops at the same step
    }
  }
  Kokkos::fence("wavefd::run");
  r.seconds = timer.seconds() - paused;
  progress.finish(r.steps, r.seconds);
  r.halo = engine.halo().times();
  r.packs_by_kernel = engine.packs_by_kernel();

  double max_abs, err;
  measure(r.steps, max_abs, err);
  r.max_abs = max_over_ranks(max_abs);
  if (mode) {
    r.mode_error = max_over_ranks(err);
    mode_fit(r.steps, r);
  }
  return r;
}

}  // namespace

int RunCommand::execute() {
  const RunConfig& c = config;
  const int ranks = world_size(), rank = world_rank();
  const bool root = rank == 0;
  // Validate everything before allocating anything, on every rank; a failure anywhere stops all.
  Stencil s;
  Precision precision{};
  SchemeSpec spec;
  KernelChoice kernel;
  bool by_kernel = false;      // the kernel writes the ghosts of the own axes (parallel.ghost_fill resolved)
  bool all_by_kernel = false;  // ... and those are all of them (one rank)
  Index3 local{};              // this rank's subdomain
  agree([&] {
    s = build_stencil(c.stencil);
    precision = parse_precision(c.precision);
    if (c.n.size() != 3) throw Error("grid.n needs 3 values; accepted: nx ny nz");
    const Index3 global{c.n[0], c.n[1], c.n[2]};
    spec.domain = Domain::single(global);
    spec.boundary = parse_boundary(c.boundary);
    spec.pad_rows = c.pad;
    spec.courant = c.courant.value_or(0.9 * s.max_courant);
    check_courant(s, spec.courant);
    check_grid_extents(global, s.radius, "grid.n");  // counts that fit, before anything is counted
    (void)make_layout(global, s.radius, c.pad, 4);     // extents vs halo
    if (c.steps < 1)
      throw Error("scheme.steps = " + std::to_string(c.steps) + " is outside steps >= 1; accepted: time steps, >= 1");
    if (c.init != "pulse" && c.init != "mode")
      throw Error("scheme.init = '" + c.init + "' is unknown; accepted: pulse, mode");
    const double largest = largest_finite(precision);
    if (!(c.amplitude > 0 && c.amplitude <= largest))
      throw Error("scheme.amplitude = " + format_number(c.amplitude) + " is outside 0 < a <= " +
                  format_number(largest) + "; accepted: a peak above 0, at most the largest " + c.precision);
    if (!(c.status_interval > 0))
      throw Error("output.status_interval = " + format_number(c.status_interval) +
                  " is outside status_interval > 0; accepted: seconds between status lines, > 0");
    if (c.check_interval < 1)
      throw Error("output.check_interval = " + std::to_string(c.check_interval) +
                  " is outside check_interval >= 1; accepted: steps between finiteness checks, >= 1");
    if (c.ranks.size() != 3)
      throw Error("parallel.ranks needs 3 values; accepted: px py pz with px * py * pz = the ranks (0 = chosen by wavefd)");
    const Index3 requested{c.ranks[0], c.ranks[1], c.ranks[2]};
    spec.parallel.rank_grid = choose_rank_grid(ranks, global, requested, s.radius);
    spec.parallel.rank = rank;
    // Refuses a grid/rank-grid mismatch or subdomains thinner than the halo, naming the axis.
    const Decomposition split(global, spec.parallel.rank_grid, ranks, spec.boundary == Boundary::periodic, s.radius);
    spec.parallel.transport = choose_transport(c.transport, ranks, c.gpu_aware, true, &spec.parallel.transport_choice);
    spec.parallel.overlap = resolve_overlap(c.overlap, spec.parallel.transport, ranks, "parallel.overlap");
    spec.parallel.ghost_fill = parse_ghost_fill(c.ghost_fill);
    spec.parallel.pack = parse_ghost_fill(c.pack, "parallel.pack");
    kernel = choose_kernel(c, s, precision, split.subdomain(0).local);  // tuned per subdomain (rank 0's: the largest)
    if (root) {  // the summary: writable, and none of the files read
      PathPlan paths;
      paths.input("deck", c.deck);
      paths.input("stencil.file", c.stencil.family == "custom" ? c.stencil.file : "");
      paths.input("scheme.tuning", c.variant == "auto" ? (c.tuning.empty() ? default_tuning_file() : c.tuning) : "");
      paths.output("output.summary", c.summary);
      paths.check();
    }
    local = split.subdomain(rank).local;
    by_kernel = ghosts_by_kernel(spec.parallel.ghost_fill, spec.parallel, spec.boundary, *kernel.variant);
    pack_by_kernel(spec.parallel, s, *kernel.variant);  // refuses pack = kernel where it cannot, on every rank
    // One rank whose kernel writes the ghosts leaves nothing in flight.
    all_by_kernel = by_kernel && spec.parallel.transport == Transport::local;
    if (all_by_kernel) spec.parallel.overlap = false;
  });
  agree([&] {  // collective, so only once every rank got this far
    if (spec.parallel.transport == Transport::nccl) check_one_rank_per_device("parallel.transport = 'nccl'");
    check_memory(two_step_bytes(local, s.radius, c.pad, bytes_of(precision)),
                 "grid.n = " + to_string(Index3{c.n[0], c.n[1], c.n[2]}) + " over " + std::to_string(ranks) +
                     (ranks == 1 ? " rank" : " ranks"),
                 "two " + c.precision + " fields of " + to_string(local) + " points with halos");
  });
  Progress progress(root ? Progress::parse(c.progress) : Progress::Mode::none, c.steps,
                    double(c.n[0]) * double(c.n[1]) * double(c.n[2]), c.status_interval);
  const Distribution dist{spec.parallel.rank_grid, std::string(to_string(spec.parallel.transport))};

  const double points = double(c.n[0]) * double(c.n[1]) * double(c.n[2]);
  if (root) {
    std::printf("wavefd run: %s (K=%zu, radius %d), %lld x %lld x %lld %s, %s, courant %.6g "
                "(limit %.6g), %ld steps, variant %s (%s), tile %s (%s) on %s\n",
                s.name.c_str(), s.size(), s.radius, c.n[0], c.n[1], c.n[2],
                std::string(to_string(spec.boundary)).c_str(), c.precision.c_str(), spec.courant,
                s.max_courant, c.steps, kernel.variant->name().c_str(), kernel.variant_source.c_str(),
                to_string(kernel.tile).c_str(), kernel.tile_source.c_str(), execution_line().c_str());
    std::printf("wavefd run: %d rank(s) as %s, transport %s (%s), %s; MPI %s (GPU-aware: %s)%s%s\n", ranks,
                to_string(spec.parallel.rank_grid).c_str(), dist.transport.c_str(), spec.parallel.transport_choice.c_str(),
                all_by_kernel ? "ghosts written by the kernel"
                : by_kernel   ? (spec.parallel.overlap ? "overlap on, own-axis ghosts written by the kernel"
                                                       : "overlap off, own-axis ghosts written by the kernel")
                              : (spec.parallel.overlap ? "overlap on" : "overlap off"),
                mpi_library().c_str(), mpi_gpu_aware().c_str(), nccl_version().empty() ? "" : ", NCCL ",
                nccl_version().c_str());
    std::fflush(stdout);
  }
  const RunResult r = with_precision(precision, [&]<class T>(std::type_identity<T>) {
    return run_scheme<T>(s, spec, kernel, c, progress);
  });
  const double seconds = max_over_ranks(r.seconds);  // the run is as slow as its slowest rank
  const double updates = points * double(r.steps);
  const double bytes_per_point = 3.0 * bytes_of(precision);
  const double ctpn_ns = seconds / updates * 1e9;
  const double gpts = updates / seconds / 1e9;
  const double gbs = gpts * bytes_per_point;
  const bool finite = r.max_abs < 1e300;  // the reduction maps NaN/Inf to 1e308
  const nlohmann::json breakdown = {{"step_s", over_ranks(r.seconds)},
                                    {"halo_pack_s", over_ranks(r.halo.pack)},
                                    {"halo_wait_s", over_ranks(r.halo.wait)},
                                    {"halo_unpack_s", over_ranks(r.halo.unpack)}};
  agree([&] {  // rank 0 reports and writes; a failed write stops every rank alike
    if (!root) return;
    std::printf("wavefd run: %.3f s, CTPN %.4f ns, %.3f Gpts/s, %.1f GB/s effective (%g bytes/point), "
                "max|u| %.6g%s\n",
                seconds, ctpn_ns, gpts, gbs, bytes_per_point, r.max_abs, finite ? "" : " (NOT FINITE)");
    if (r.mode_error >= 0) {
      std::printf("wavefd run: max error against the exact eigenmode %.3e\n", r.mode_error);
      std::printf("wavefd run: the mode's amplitude %+.3e (relative), phase %+.3e rad; error outside the mode %.3e\n",
                  r.mode_amplitude_error, r.mode_phase_error, r.error_outside_mode);
    }
    if (ranks > 1 || spec.parallel.transport != Transport::local)
      std::printf("wavefd run: halo per rank (min/mean/max s): pack %.3g/%.3g/%.3g, wait %.3g/%.3g/%.3g, "
                  "unpack %.3g/%.3g/%.3g\n",
                  breakdown["halo_pack_s"]["min"].get<double>(), breakdown["halo_pack_s"]["mean"].get<double>(),
                  breakdown["halo_pack_s"]["max"].get<double>(), breakdown["halo_wait_s"]["min"].get<double>(),
                  breakdown["halo_wait_s"]["mean"].get<double>(), breakdown["halo_wait_s"]["max"].get<double>(),
                  breakdown["halo_unpack_s"]["min"].get<double>(), breakdown["halo_unpack_s"]["mean"].get<double>(),
                  breakdown["halo_unpack_s"]["max"].get<double>());

    if (!c.summary.empty()) {
      nlohmann::json j;
      j["wavefd_version"] = WAVEFD_VERSION;
      j["deck"] = c.deck;
      j["config"] = {{"grid", {{"n", c.n}, {"boundary", c.boundary}, {"pad", c.pad}}},
                     {"stencil", {{"family", c.stencil.family}, {"name", s.name}, {"K", s.size()},
                                  {"radius", s.radius}, {"max_courant", s.max_courant}}},
                     {"scheme", {{"courant", spec.courant}, {"precision", c.precision},
                                 {"variant", kernel.variant->name()}, {"variant_source", kernel.variant_source},
                                 {"tile", to_string(kernel.tile)}, {"tile_source", kernel.tile_source},
                                 {"steps", c.steps}, {"init", c.init}, {"amplitude", c.amplitude}}},
                     {"parallel", {{"ranks", spec.parallel.rank_grid}, {"transport", dist.transport},
                                   {"transport_choice", spec.parallel.transport_choice},
                                   {"overlap", spec.parallel.overlap},
                                   {"ghost_fill", by_kernel ? "kernel" : "separate"},
                                   {"pack", r.packs_by_kernel ? "kernel" : "separate"}, {"gpu_aware", mpi_gpu_aware()},
                                   {"nccl", nccl_version()}}}};
      j["provenance"] = provenance_json(dist);
      j["kokkos"] = execution_json();
      j["ranks"] = ranks;
      j["timing"] = {{"seconds", seconds}, {"steps", r.steps}, {"ctpn_ns", ctpn_ns}, {"gpts_per_s", gpts},
                     {"effective_gb_per_s", gbs}, {"bytes_per_point", bytes_per_point},
                     {"per_rank", breakdown}};
      j["result"] = {{"max_abs_u", finite ? r.max_abs : -1.0}, {"finite", finite}, {"steps_done", r.steps}};
      if (r.mode_error >= 0) {
        j["result"]["max_error_vs_exact_mode"] = r.mode_error;
        j["result"]["mode_amplitude_error"] = r.mode_amplitude_error;
        j["result"]["mode_phase_error_rad"] = r.mode_phase_error;
        j["result"]["error_outside_mode"] = r.error_outside_mode;
      }
      write_json_file(c.summary, j, "output.summary");
      std::printf("wavefd run: summary written to %s\n", printable(c.summary).c_str());
    }
  });
  if (!finite)
    throw AgreedError(!root ? "" : "the solution is not finite (NaN or Inf) after " + std::to_string(r.steps) +
                      " steps (checked every output.check_interval = " + std::to_string(c.check_interval) + ")");
  return 0;
}

}  // namespace wavefd::app
