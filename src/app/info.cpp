// `wavefd info`: build and runtime configuration.
#include <cstdio>
#include <iostream>

#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif
#ifdef WAVEFD_HAVE_KOKKOSKERNELS
#include <KokkosKernels_config.h>
#endif

#include "app/commands.hpp"
#include "wavefd/measure.hpp"
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
#ifdef KOKKOS_ENABLE_SERIAL
  std::printf(" Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  std::printf(" OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  std::printf(" Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  std::printf(" CUDA");
#endif
#ifdef KOKKOS_ENABLE_HIP
  std::printf(" HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  std::printf(" SYCL");
#endif
  std::printf("\n");
#ifdef WAVEFD_HAVE_MPI
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::string v(version, len);
  std::printf("MPI: enabled, %d rank(s), %s\n", world_size(), v.substr(0, v.find('\n')).c_str());
#else
  std::printf("MPI: disabled in this build\n");
#endif
#ifdef WAVEFD_HAVE_KOKKOSKERNELS
  std::printf("Kokkos Kernels: enabled (%d.%d.%d)\n", KOKKOSKERNELS_VERSION_MAJOR,
              KOKKOSKERNELS_VERSION_MINOR, KOKKOSKERNELS_VERSION_PATCH);
#else
  std::printf("Kokkos Kernels: disabled in this build\n");
#endif
  std::printf("variants:\n");
  for (const auto& v : variants()) std::printf("  %-18s %s\n", v->name().c_str(), v->description().c_str());
  return 0;
}

}  // namespace wavefd::app
