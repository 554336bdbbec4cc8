#pragma once
// Where a result came from. Every JSON result (run summary, bench, tune) and the verify report
// record it, so that a number can be traced to the commit, machine and software that produced it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "wavefd/types.hpp"

namespace wavefd {

std::string git_commit();                  // the checkout's commit at build time (generated)
std::string compiler();                    // e.g. "GNU 13.3.0, nvcc 13.0"
std::vector<std::string> kokkos_backends();  // the backends enabled in Kokkos, e.g. {"Serial", "CUDA"}
std::string mpi_library();                 // first line of MPI_Get_library_version, or why there is none

// How the run is distributed: the rank grid and the halo transport.
struct Distribution {
  Index3 rank_grid{1, 1, 1};
  std::string transport = "local";
};

// {git_commit, wavefd_version, compiler, kokkos: {version, backends}, device, mpi, transport, rank_grid}
nlohmann::json provenance_json(const Distribution& d = {});
std::string provenance_line(const Distribution& d = {});  // the same, on one line

}  // namespace wavefd
