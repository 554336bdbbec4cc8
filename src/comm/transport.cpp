// The halo transports, one line each: which factory a Transport value builds.
#include "wavefd/halo.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd {

namespace comm {
#ifdef WAVEFD_HAVE_MPI
template <class T> std::unique_ptr<Halo<T>> make_mpi_halo(const HaloSpec& spec);
template <class T> std::unique_ptr<Halo<T>> make_mpi_gpu_halo(const HaloSpec& spec);
#endif
#ifdef WAVEFD_HAVE_NCCL
template <class T> std::unique_ptr<Halo<T>> make_nccl_halo(const HaloSpec& spec);
#endif
#ifdef WAVEFD_HAVE_PEER
template <class T> std::unique_ptr<Halo<T>> make_peer_halo(const HaloSpec& spec);
#endif
}  // namespace comm

std::string_view to_string(Boundary b) {
  return b == Boundary::periodic ? "periodic" : b == Boundary::rigid ? "rigid" : "zero";
}

Boundary parse_boundary(std::string_view name) {
  if (name == "periodic") return Boundary::periodic;
  if (name == "rigid") return Boundary::rigid;
  throw Error("grid.boundary = '" + std::string(name) + "' is unknown; accepted: periodic, rigid");
}

template <class T>
std::unique_ptr<Halo<T>> make_halo(const HaloSpec& spec) {
  switch (spec.transport) {
    case Transport::local: return make_local_halo<T>(spec.boundary, spec.exec, spec.early);
#ifdef WAVEFD_HAVE_MPI
    case Transport::mpi: return start_mpi(), comm::make_mpi_halo<T>(spec);
    case Transport::mpi_gpu: return start_mpi(), comm::make_mpi_gpu_halo<T>(spec);
#endif
#ifdef WAVEFD_HAVE_NCCL
    case Transport::nccl: return start_mpi(), comm::make_nccl_halo<T>(spec);
#endif
#ifdef WAVEFD_HAVE_PEER
    case Transport::peer: return start_mpi(), comm::make_peer_halo<T>(spec);
#endif
    default: break;
  }
  throw Error("parallel.transport = '" + std::string(to_string(spec.transport)) + "' is not in this build");
}

template std::unique_ptr<Halo<float>> make_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_halo<double>(const HaloSpec&);
template std::unique_ptr<Halo<Half>> make_halo<Half>(const HaloSpec&);
template std::unique_ptr<Halo<BFloat16>> make_halo<BFloat16>(const HaloSpec&);

}  // namespace wavefd
