// `wavefd info`: build and runtime configuration.
#include <cstdio>
#include <iostream>

#ifdef WAVEFD_HAVE_KOKKOSKERNELS
#include <KokkosKernels_config.h>
#endif

#include "app/commands.hpp"
#include "wavefd/measure.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::app {

InfoCommand::InfoCommand(CLI::App& app) {
  sub = app.add_subcommand("info", "Kokkos version, backends, devices, registered variants, MPI");
}

int InfoCommand::execute() {
  const auto e = execution_json();
  std::printf("wavefd %s\n", WAVEFD_VERSION);
  std::printf("Kokkos: %s\n", e["kokkos_version"].get<std::string>().c_str());
  std::printf("execution space: %s (concurrency %d), host space: %s\n",
              e["execution_space"].get<std::string>().c_str(), e["concurrency"].get<int>(),
              e["host_execution_space"].get<std::string>().c_str());
  std::printf("device: %s\n", e["device"].get<std::string>().c_str());
  std::printf("backends enabled:");
  for (const auto& b : kokkos_backends()) std::printf(" %s", b.c_str());
  std::printf("\n");
  std::printf("compiler: %s\n", compiler().c_str());
  std::printf("git commit: %s\n", git_commit().c_str());
#ifdef WAVEFD_HAVE_MPI
  std::printf("MPI: enabled, %d rank(s), %s, GPU-aware: %s\n", world_size(), mpi_library().c_str(),
              mpi_gpu_aware().c_str());
#else
  std::printf("MPI: disabled in this build\n");
#endif
  std::printf("NCCL: %s\n", nccl_version().empty() ? "not in this build" : nccl_version().c_str());
  std::printf("halo transports (parallel.transport; auto = %s on %d rank(s)):\n",
              std::string(to_string(choose_transport("auto", world_size()))).c_str(), world_size());
  for (Transport t : kTransports) {
    std::string why;
    const bool ok = transport_available(t, "auto", &why);
    std::printf("  %-8s %s\n", std::string(to_string(t)).c_str(), ok ? "available" : ("unavailable: " + why).c_str());
  }
#ifdef WAVEFD_HAVE_KOKKOSKERNELS
  std::printf("Kokkos Kernels: enabled (%d.%d.%d)\n", KOKKOSKERNELS_VERSION_MAJOR,
              KOKKOSKERNELS_VERSION_MINOR, KOKKOSKERNELS_VERSION_PATCH);
#else
  std::printf("Kokkos Kernels: disabled in this build\n");
#endif
  std::printf("variants:\n");
  for (const auto& v : variants())
    std::printf("  %-18s %s%s%s\n", v->name().c_str(), v->description().c_str(),
                v->writes_ghost_images() ? " [writes ghost images]" : "",
                v->stores_16_bit() ? " [stores half, bfloat16]" : "");
  return 0;
}

}  // namespace wavefd::app
