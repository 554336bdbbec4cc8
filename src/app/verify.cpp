// `wavefd verify [--quick]`: every registered variant against exact discrete eigenmodes.
#include <cstdio>

#include "app/commands.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/verify.hpp"

namespace wavefd::app {

VerifyCommand::VerifyCommand(CLI::App& app) {
  sub = app.add_subcommand("verify", "Check every kernel variant against exact discrete eigenmodes");
  sub->add_flag("--quick", quick, "A subset of the stencils (star M=1,4,8; compact R=3,13; box (2,2,2))");
  sub->add_option("--variant", variant, "Variant name, or all")->capture_default_str();
  sub->add_option("--precision", precisions, kPrecisionHelp)->capture_default_str();
  sub->add_option("--transport", transport, "Under mpirun: the halo transport, as parallel.transport")
      ->capture_default_str();
}

int VerifyCommand::execute() {
  int passed = 0, failed = 0;
  // Under mpirun every grid is split over the ranks (the error reduced over them); rank 0 prints.
  const int ranks = world_size();
  const bool root = world_rank() == 0;
  Transport transport{};
  agree([&] {  // bad flags stop every rank alike, named as given
    with_flag_names([&] {
      transport = choose_transport(this->transport, ranks);
      for (const auto& pname : precisions) parse_precision(pname);
    });
    if (variant.find(',') != std::string::npos)
      throw Error("--variant = '" + variant + "' is a list; accepted: all, or one variant name");
    check_variant_list(variant, "--variant", {"all"});
  });
  if (transport == Transport::nccl) check_one_rank_per_device("--transport = 'nccl'");
  auto say = [root](const char* fmt, auto... args) {
    if (root) std::printf(fmt, args...);
  };
  Distribution dist;
  dist.transport = std::string(to_string(transport));
  dist.rank_grid = {ranks, 1, 1};  // per grid: chosen below and printed with it
  say("%s\n", provenance_line(dist).c_str());
  say("%-18s %-7s %-16s %-28s %11s %11s  %s\n", "stencil", "prec", "variant", "grid", "max error", "tolerance",
      "result");
  for (const auto& pname : precisions) {
    const Precision p = parse_precision(pname);
    for (const Stencil& s : verification_stencils(quick)) {
      for (const auto& v : variants()) {
        if (variant != "all" && v->name() != variant) continue;
        if (!v->supports(s, p)) continue;
        for (EigenmodeSpec spec : verification_specs()) {
          char grid[64];
          std::snprintf(grid, sizeof grid, "%lldx%lldx%lld %s%s", (long long)spec.n[0],
                        (long long)spec.n[1], (long long)spec.n[2],
                        std::string(to_string(spec.boundary)).c_str(), spec.pad_rows ? " pad" : "");
          std::string where = grid;
          if (ranks > 1) {
            // The same grid on every rank, so every rank takes the same branch.
            const Index3 dims = choose_rank_grid(ranks, spec.n, {0, 0, 0}, s.radius);
            bool fits = true;
            for (int a = 0; a < 3; ++a) fits = fits && spec.n[a] / dims[a] >= s.radius;
            if (!fits) {
              say("%-18s %-7s %-16s %-28s %11s %11s  %s\n", s.name.c_str(), pname.c_str(), v->name().c_str(), grid,
                  "-", "-", "not split (a subdomain would be thinner than the halo)");
              continue;
            }
            spec.parallel = {dims, world_rank(), transport, resolve_overlap("auto", transport, ranks, "overlap")};
            where += " / " + to_string(dims);
          }
          const EigenmodeResult r = verify_eigenmode(s, *v, p, spec);
          say("%-18s %-7s %-16s %-28s %11.3e %11.3e  %s\n", s.name.c_str(), pname.c_str(), v->name().c_str(),
              where.c_str(), r.max_error, r.tolerance, r.passed() ? "PASS" : "FAIL");
          (r.passed() ? passed : failed)++;
        }
      }
    }
  }
  // A Courant number above the stable limit must be refused before anything runs.
  const Stencil s = make_star(2);
  bool refused = false;
  try {
    SchemeSpec spec;
    spec.domain = Domain::single({8, 8, 8});
    spec.courant = s.max_courant * 1.001;
    TwoStep<double> engine(s, spec, *variants().front());
  } catch (const Error&) {
    refused = true;
  }
  say("%-18s %-7s %-16s %-28s %11s %11s  %s\n", s.name.c_str(), "-", "-", "courant > limit", "-", "-",
      refused ? "PASS (refused)" : "FAIL (accepted)");
  (refused ? passed : failed)++;
  if (passed + failed == 1) {  // a variant of this build that supports none of what is verified
    std::string asked;
    for (const auto& pname : precisions) asked += (asked.empty() ? "" : ", ") + pname;
    throw Error("--variant = '" + variant + "' supports none of the stencils verified in " + asked +
                "; accepted: all, or a variant that supports one of them");
  }
  say("verify: %d passed, %d failed%s\n", passed, failed,
      ranks > 1 ? (" (distributed over " + std::to_string(ranks) + " ranks)").c_str() : "");
  return failed == 0 ? 0 : 1;
}

}  // namespace wavefd::app
