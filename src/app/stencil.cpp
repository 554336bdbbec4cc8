// `wavefd stencil --family compact --R 5 --print`: inspect a stencil without running anything.
#include <cstdio>

#include "app/commands.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd::app {

StencilCommand::StencilCommand(CLI::App& app) {
  sub = app.add_subcommand("stencil", "Show a stencil: size K, offsets, weights, stable Courant limit");
  add_stencil_options(*sub, stencil, "");
  sub->add_flag("--print", print, "Print every offset with its Laplacian weight (and gamma with --courant)");
  sub->add_option("--courant", courant, "Also print the two-step weights gamma for this Courant number");
}

int StencilCommand::execute() {
  const Stencil s = build_stencil(stencil);
  if (courant != 0) check_courant(s, courant);
  std::printf("stencil: %s\nK: %zu\nshells: %zu\nradius: %d\norder: %d\nmax_courant: %.12g\n",
              s.name.c_str(), s.size(), s.shell_q.size() - 1, s.radius, s.accuracy_order, s.max_courant);
  if (!print) return 0;
  const auto gamma = courant != 0 ? s.two_step_weights(courant) : std::vector<double>{};
  std::printf("%5s %4s %4s %4s %6s %24s%s\n", "k", "dx", "dy", "dz", "shell", "laplacian_weight",
              courant != 0 ? "              gamma" : "");
  for (std::size_t k = 0; k < s.size(); ++k) {
    const Offset& o = s.offsets[k];
    std::printf("%5zu %4d %4d %4d %6d %24.16e", k, o.x, o.y, o.z, s.shell[k], s.weights[k]);
    if (courant != 0) std::printf(" %24.16e", gamma[k]);
    std::printf("\n");
  }
  return 0;
}

}  // namespace wavefd::app
