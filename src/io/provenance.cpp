#include "wavefd/provenance.hpp"

#include <Kokkos_Core.hpp>
#include <string_view>
#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "wavefd/decomposition.hpp"
#include "wavefd/measure.hpp"

namespace wavefd {

std::string compiler() {
  // CMake's id and version of the C++ compiler (the host compiler under nvcc_wrapper).
  std::string c = std::string(WAVEFD_COMPILER_ID) + " " + WAVEFD_COMPILER_VERSION;
#if defined(__CUDACC_VER_MAJOR__)
  c += ", nvcc " + std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__);
#endif
#if defined(__HIP__) && defined(HIP_VERSION_MAJOR)
  c += ", HIP " + std::to_string(HIP_VERSION_MAJOR) + "." + std::to_string(HIP_VERSION_MINOR);
#endif
  if (std::string_view(WAVEFD_HOST_ARCH_FLAG).size() > 0) c += std::string(" ") + WAVEFD_HOST_ARCH_FLAG;
  return c;
}

std::vector<std::string> kokkos_backends() {
  std::vector<std::string> b;
#ifdef KOKKOS_ENABLE_SERIAL
  b.push_back("Serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  b.push_back("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
  b.push_back("Threads");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  b.push_back("CUDA");
#endif
#ifdef KOKKOS_ENABLE_HIP
  b.push_back("HIP");
#endif
#ifdef KOKKOS_ENABLE_SYCL
  b.push_back("SYCL");
#endif
  return b;
}

std::string mpi_library() {
#ifdef WAVEFD_HAVE_MPI
  // One of the few MPI calls allowed before MPI_Init.
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(version, &len);
  const std::string v(version, len);
  return v.substr(0, v.find_first_of("\n,"));
#else
  return "none (built without MPI)";
#endif
}

nlohmann::json provenance_json(const Distribution& d) {
  const nlohmann::json e = execution_json();
  return {{"git_commit", git_commit()},
          {"wavefd_version", WAVEFD_VERSION},
          {"compiler", compiler()},
          {"kokkos", {{"version", e["kokkos_version"]}, {"backends", kokkos_backends()}}},
          {"device", e["device"]},
          {"mpi", mpi_library()},
          {"transport", d.transport},
          {"rank_grid", d.rank_grid}};
}

std::string provenance_line(const Distribution& d) {
  const nlohmann::json p = provenance_json(d);
  std::string backends;
  for (const auto& b : p["kokkos"]["backends"]) backends += (backends.empty() ? "" : "+") + b.get<std::string>();
  return "wavefd " + p["wavefd_version"].get<std::string>() + " (commit " + p["git_commit"].get<std::string>() +
         "), " + p["compiler"].get<std::string>() + ", Kokkos " + p["kokkos"]["version"].get<std::string>() +
         " (" + backends + "), device " + p["device"].get<std::string>() + ", MPI " +
         p["mpi"].get<std::string>() + ", transport " + d.transport + ", ranks " + to_string(d.rank_grid);
}

}  // namespace wavefd
