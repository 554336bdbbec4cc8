// `wavefd run DECK.toml [--key value ...]`: the two-step scheme on one deck, with progress and a
// JSON summary.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "app/commands.hpp"
#include "io/progress.hpp"
#include "io/summary.hpp"
#include "io/tuning.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd::app {

RunCommand::RunCommand(CLI::App& app) {
  sub = app.add_subcommand("run", "Run the two-step scheme on an input deck (TOML); flags override deck keys");
  add_run_options(*sub, config);
}

int world_size() {
  int size = 1;
#ifdef WAVEFD_HAVE_MPI
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) MPI_Comm_size(MPI_COMM_WORLD, &size);
#endif
  return size;
}

namespace {

constexpr double kPi = 3.14159265358979323846;

struct RunResult {
  double seconds = 0;
  double max_abs = 0;
  double mode_error = -1;  // init = mode: max |u - exact|
};

// The kernel a run uses, and where each part of the choice came from.
struct KernelChoice {
  const Variant* variant = nullptr;
  std::string variant_source;
  Tile tile;
  std::string tile_source;
};

// scheme.variant = auto: the variant and tile `wavefd tune` recorded for this device, stencil,
// precision and size class, when this build can run them; else the default preference for the
// kind of device, with its own tile. scheme.tile, when given, overrides the tile. Throws Error for a
// tile the chosen variant does not accept.
KernelChoice choose_kernel(const RunConfig& c, const Stencil& s, Precision p, const Index3& n) {
  KernelChoice k;
  k.tile = parse_tile(c.tile, "scheme.tile");
  k.tile_source = k.tile.is_default() ? "variant default" : "requested";
  k.variant_source = c.variant == "auto" ? "default order" : "requested";
  if (c.variant == "auto") {
    const std::string file = c.tuning.empty() ? default_tuning_file() : c.tuning;
    const auto tuned = lookup_tuning(file, tuning_key(s, p, n), "scheme.tuning");
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
  const Index3 N = spec.domain.global, off = spec.domain.offset;
  Kokkos::deep_copy(engine.u().data, std::numeric_limits<T>::quiet_NaN());  // ghosts/padding: poison
  Kokkos::deep_copy(engine.u_prev().data, std::numeric_limits<T>::quiet_NaN());
  auto u = engine.u().data;
  auto u_prev = engine.u_prev().data;
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  const Policy interior({0, 0, 0}, {l.n[0], l.n[1], l.n[2]});

  // Initial condition. pulse: a Gaussian at rest (u1 = u0), width 4 cells. mode: the exact
  // eigenmode with wave numbers (1,1,1), a plane wave (periodic) or a product of sines (rigid,
  // exact for stencils symmetric in each axis), so the run can report its error.
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
  const double kx = k[0], ky = k[1], kz = k[2], c1 = mode ? std::cos(theta) : 1.0;
  auto shape = KOKKOS_LAMBDA(index_t i, index_t j, index_t kk)->double {
    const double x = double(i + off[0]), y = double(j + off[1]), z = double(kk + off[2]);
    if (!mode) {
      const double dx = x - 0.5 * double(N[0] - 1), dy = y - 0.5 * double(N[1] - 1),
                   dz = z - 0.5 * double(N[2] - 1);
      return Kokkos::exp(-(dx * dx + dy * dy + dz * dz) / 32.0);
    }
    if (periodic) return Kokkos::cos(kx * x + ky * y + kz * z);
    return Kokkos::sin(kx * (x + 1)) * Kokkos::sin(ky * (y + 1)) * Kokkos::sin(kz * (z + 1));
  };
  Kokkos::parallel_for("wavefd::run_init", interior, KOKKOS_LAMBDA(index_t i, index_t j, index_t kk) {
    const double v0 = shape(i, j, kk);
    u_prev(l.at(i, j, kk)) = static_cast<T>(v0);
    u(l.at(i, j, kk)) = static_cast<T>(c1 * v0);
  });
  Kokkos::fence("wavefd::run_init");

  Kokkos::Timer timer;
  for (long n = 0; n < c.steps; ++n) {
    engine.step();
    if (progress.due(timer.seconds())) {
      Kokkos::fence("wavefd::progress");
      progress.report(n + 1, timer.seconds());
    }
  }
  Kokkos::fence("wavefd::run");
  RunResult r;
  r.seconds = timer.seconds();
  progress.finish(c.steps, r.seconds);

  auto result = engine.u().data;
  const double cn = std::cos(double(c.steps + 1) * theta);
  double max_abs = 0, err = 0;
  Kokkos::parallel_reduce("wavefd::run_check", interior,
      KOKKOS_LAMBDA(index_t i, index_t j, index_t kk, double& m, double& e) {
        const double v = double(result(l.at(i, j, kk)));
        const double a = (v == v) ? Kokkos::abs(v) : 1e308;
        m = Kokkos::max(m, a);
        if (mode) {
          double d = Kokkos::abs(v - cn * shape(i, j, kk));
          e = Kokkos::max(e, (d == d) ? d : 1e308);
        }
      },
      Kokkos::Max<double>(max_abs), Kokkos::Max<double>(err));
  r.max_abs = max_abs;
  if (mode) r.mode_error = err;
  return r;
}

}  // namespace

int RunCommand::execute() {
  const RunConfig& c = config;
  if (world_size() > 1)
    throw Error("this build runs on one MPI rank (domain decomposition is not implemented yet); got " +
                std::to_string(world_size()) + " ranks");
  // Validate everything before allocating anything.
  const Stencil s = build_stencil(c.stencil);
  const Precision precision = parse_precision(c.precision);
  if (c.n.size() != 3) throw Error("grid.n needs 3 values nx ny nz");
  SchemeSpec spec;
  spec.domain = Domain::single({c.n[0], c.n[1], c.n[2]});
  spec.boundary = parse_boundary(c.boundary);
  spec.pad_rows = c.pad;
  spec.courant = c.courant.value_or(0.9 * s.max_courant);
  check_courant(s, spec.courant);
  (void)make_layout(spec.domain.local, s.radius, c.pad, 4);  // extents vs halo
  if (c.steps < 1) throw Error("scheme.steps = " + std::to_string(c.steps) + " must be >= 1");
  if (c.init != "pulse" && c.init != "mode")
    throw Error("scheme.init = '" + c.init + "' is unknown; accepted: pulse, mode");
  if (!(c.status_interval > 0)) throw Error("output.status_interval must be > 0 seconds");
  if (!c.summary.empty()) check_writable(c.summary, "output.summary");
  const KernelChoice kernel = choose_kernel(c, s, precision, spec.domain.global);
  Progress progress(Progress::parse(c.progress), c.steps,
                    double(spec.domain.local[0] * spec.domain.local[1] * spec.domain.local[2]),
                    c.status_interval);

  const double points = double(c.n[0]) * double(c.n[1]) * double(c.n[2]);
  std::printf("wavefd run: %s (K=%zu, radius %d), %lld x %lld x %lld %s, %s, courant %.6g "
              "(limit %.6g), %ld steps, variant %s (%s), tile %s (%s) on %s\n",
              s.name.c_str(), s.size(), s.radius, c.n[0], c.n[1], c.n[2],
              std::string(to_string(spec.boundary)).c_str(), c.precision.c_str(), spec.courant,
              s.max_courant, c.steps, kernel.variant->name().c_str(), kernel.variant_source.c_str(),
              to_string(kernel.tile).c_str(), kernel.tile_source.c_str(), Kokkos::DefaultExecutionSpace::name());
  std::fflush(stdout);
  const RunResult r = precision == Precision::f32 ? run_scheme<float>(s, spec, kernel, c, progress)
                                                  : run_scheme<double>(s, spec, kernel, c, progress);
  const double updates = points * double(c.steps);
  const double bytes_per_point = 3.0 * (precision == Precision::f32 ? 4 : 8);
  const double ctpn_ns = r.seconds / updates * 1e9;
  const double gpts = updates / r.seconds / 1e9;
  const double gbs = gpts * bytes_per_point;
  const bool finite = r.max_abs < 1e300;  // the reduction maps NaN to 1e308
  std::printf("wavefd run: %.3f s, CTPN %.4f ns, %.3f Gpts/s, %.1f GB/s effective (%g bytes/point), "
              "max|u| %.6g%s\n",
              r.seconds, ctpn_ns, gpts, gbs, bytes_per_point, r.max_abs, finite ? "" : " (NOT FINITE)");
  if (r.mode_error >= 0) std::printf("wavefd run: max error against the exact eigenmode %.3e\n", r.mode_error);

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
                               {"steps", c.steps}, {"init", c.init}}}};
    j["provenance"] = provenance_json();
    j["kokkos"] = execution_json();
    j["ranks"] = world_size();
    j["timing"] = {{"seconds", r.seconds}, {"ctpn_ns", ctpn_ns}, {"gpts_per_s", gpts},
                   {"effective_gb_per_s", gbs}, {"bytes_per_point", bytes_per_point}};
    j["result"] = {{"max_abs_u", finite ? r.max_abs : -1.0}, {"finite", finite}};
    if (r.mode_error >= 0) j["result"]["max_error_vs_exact_mode"] = r.mode_error;
    write_json_file(c.summary, j, "output.summary");
    std::printf("wavefd run: summary written to %s\n", c.summary.c_str());
  }
  if (!finite) throw Error("the solution is not finite (NaN or Inf) after " + std::to_string(c.steps) + " steps");
  return 0;
}

}  // namespace wavefd::app
