// `wavefd bench`: times the registered variants (each verified on the device first) against the
// in-run copy bandwidth, or with --op the first-derivative operators.
#include <cstdio>
#include <limits>
#include <sstream>

#include "app/commands.hpp"
#include "bench/derivative.hpp"
#include "io/summary.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/verify.hpp"

namespace wavefd::app {

BenchCommand::BenchCommand(CLI::App& app) {
  sub = app.add_subcommand("bench", "Time kernel variants (verified first) or derivative operators");
  add_stencil_options(*sub, stencil, "");
  sub->add_option("--variant", variant, "Comma-separated variant names, or all")->capture_default_str();
  sub->add_option("--precision", precisions, "float and/or double")->capture_default_str();
  sub->add_option("--n", n, "Grid nx ny nz")->expected(3)->capture_default_str();
  sub->add_option("--steps", steps, "Time steps per timed repetition, >= 1")->capture_default_str();
  sub->add_option("--warmup", warmup, "Untimed repetitions, >= 0")->capture_default_str();
  sub->add_option("--reps", reps, "Timed repetitions, >= 1")->capture_default_str();
  sub->add_option("--op", op, "First-derivative benchmark instead: dx | dy | dz");
  sub->add_option("--order", order, "Order of the derivative operator: 2, 4, ..., 16")->capture_default_str();
  sub->add_option("--json", json, "Write all results to this JSON file");
}

namespace {

bool selected(const std::string& list, const std::string& name) {
  if (list == "all") return true;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');)
    if (item == name) return true;
  return false;
}

struct VariantTiming {
  Stats kernel;  // seconds per interior update (the variant alone)
  Stats step;    // seconds per full step (ghost fill + update)
};

template <class T>
VariantTiming time_variant(const Stencil& s, const Variant& v, const Index3& n, int steps, int warmup, int reps) {
  SchemeSpec spec;
  spec.domain = Domain::single(n);
  spec.courant = 0.9 * s.max_courant;
  TwoStep<T> engine(s, spec, v);
  // Smooth, non-zero data everywhere the kernel reads (values do not change the timing).
  Kokkos::deep_copy(engine.u().data, T(0.5));
  Kokkos::deep_copy(engine.u_prev().data, T(0.25));
  auto per_step = [steps](Stats st) {
    st.mean /= steps, st.sd /= steps, st.min /= steps, st.max /= steps;
    return st;
  };
  VariantTiming t;
  t.kernel = per_step(time_repeated([&] { for (int i = 0; i < steps; ++i) engine.update_interior(); }, warmup, reps));
  t.step = per_step(time_repeated([&] { engine.advance(steps); }, warmup, reps));
  return t;
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

int BenchCommand::execute() {
  if (n.size() != 3) throw Error("--n needs 3 values nx ny nz");
  if (steps < 1) throw Error("--steps = " + std::to_string(steps) + " must be >= 1");
  if (reps < 1) throw Error("--reps = " + std::to_string(reps) + " must be >= 1");
  if (warmup < 0) throw Error("--warmup = " + std::to_string(warmup) + " must be >= 0");
  for (const auto& p : precisions) parse_precision(p);
  if (!json.empty()) check_writable(json, "--json");
  nlohmann::json out;
  out["kokkos"] = execution_json();
  if (!op.empty()) {
    const int rc = derivative_bench(*this, out);
    if (!json.empty()) write_json_file(json, out, "--json");
    return rc;
  }

  const Stencil s = build_stencil(stencil);
  const Index3 grid{n[0], n[1], n[2]};
  (void)make_layout(grid, s.radius, true, 4);
  const double points = double(grid[0]) * double(grid[1]) * double(grid[2]);
  // Copy probe sized like one field of the largest precision benchmarked (at least 64 MiB).
  const std::size_t field_bytes = std::size_t(points) * 8;
  const CopyProbe copy = probe_copy_bandwidth(std::max<std::size_t>(field_bytes, std::size_t(64) << 20), 10);
  std::printf("device: %s on %s; copy probe (Kokkos::deep_copy, %.0f MiB): %.1f GB/s\n",
              out["kokkos"]["device"].get<std::string>().c_str(), Kokkos::DefaultExecutionSpace::name(),
              double(copy.bytes) / (1 << 20), copy.gbs);
  std::printf("stencil %s, K=%zu, grid %lldx%lldx%lld, %d steps x %d reps (+%d warm-up)\n", s.name.c_str(),
              s.size(), (long long)grid[0], (long long)grid[1], (long long)grid[2], steps, reps, warmup);
  out["copy_probe"] = {{"bytes", copy.bytes}, {"seconds", to_json(copy.seconds)}, {"gb_per_s", copy.gbs}};
  out["stencil"] = {{"name", s.name}, {"K", s.size()}, {"radius", s.radius}};
  out["grid"] = n;

  std::printf("kernel = the variant's interior update alone; step = ghost fill + update (what `run` does)\n");
  std::printf("%-16s %-7s %-6s %10s %9s %10s %9s %9s %9s %7s %10s\n", "variant", "prec", "verify", "mean ms",
              "sd ms", "min ms", "CTPN ns", "Gpts/s", "GB/s", "%copy", "step ms");
  int failures = 0, cases = 0;
  for (const auto& pname : precisions) {
    const Precision p = parse_precision(pname);
    for (const auto& v : variants()) {
      if (!selected(variant, v->name()) || !v->supports(s, p)) continue;
      ++cases;
      nlohmann::json row{{"variant", v->name()}, {"precision", pname}};
      // Refuse to time a kernel that does not reproduce the exact eigenmode on this device.
      EigenmodeSpec vs;
      vs.n = {std::max<index_t>(20, s.radius), std::max<index_t>(17, s.radius), std::max<index_t>(13, s.radius)};
      const EigenmodeResult check = verify_eigenmode(s, *v, p, vs);
      row["verification"] = {{"max_error", check.max_error}, {"tolerance", check.tolerance},
                             {"passed", check.passed()}};
      if (!check.passed()) {
        std::printf("%-16s %-7s %-6s  not timed: eigenmode error %.3e > tolerance %.3e\n", v->name().c_str(),
                    pname.c_str(), "FAIL", check.max_error, check.tolerance);
        ++failures;
        out["cases"].push_back(row);
        continue;
      }
      const VariantTiming t = p == Precision::f32 ? time_variant<float>(s, *v, grid, steps, warmup, reps)
                                                  : time_variant<double>(s, *v, grid, steps, warmup, reps);
      const Stats& st = t.kernel;
      const double bytes = 3.0 * (p == Precision::f32 ? 4 : 8) * points;  // read u, u-, write u+
      const double gpts = points / st.min / 1e9, gbs = bytes / st.min / 1e9;
      std::printf("%-16s %-7s %-6s %10.4f %9.4f %10.4f %9.4f %9.3f %9.1f %6.1f%% %10.4f\n", v->name().c_str(),
                  pname.c_str(), "ok", st.mean * 1e3, st.sd * 1e3, st.min * 1e3, st.min / points * 1e9, gpts,
                  gbs, 100 * gbs / copy.gbs, t.step.min * 1e3);
      row["seconds_per_step"] = to_json(st);
      row["seconds_per_full_step"] = to_json(t.step);
      row["ctpn_ns"] = st.min / points * 1e9;
      row["gpts_per_s"] = gpts;
      row["effective_gb_per_s"] = gbs;
      row["percent_of_copy"] = 100 * gbs / copy.gbs;
      out["cases"].push_back(row);
    }
  }
  if (cases == 0) throw Error("--variant = '" + variant + "' matched no variant supporting " + s.name);
  if (!json.empty()) {
    write_json_file(json, out, "--json");
    std::printf("results written to %s\n", json.c_str());
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace wavefd::app
