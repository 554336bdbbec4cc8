#pragma once
// Posting and completing the messages of an exchange plan with MPI point-to-point calls, on
// whatever buffers the transport hands over (pinned host for `mpi`, device for `mpi-gpu`), and
// asking the MPI library whether it takes device buffers. Plain C++ (no Kokkos): CI compiles it
// with nvcc and links it with libcudart and MPI (scripts/check_gpu_transports.sh).
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <cstdio>
#include <string>
#include <vector>

#include "comm/ghost_message.hpp"

namespace wavefd::comm {

// The 16-bit formats travel as their bits (no MPI reduction ever reads them).
template <class T>
MPI_Datatype mpi_type() {
  return sizeof(T) == 8 ? MPI_DOUBLE : sizeof(T) == 4 ? MPI_FLOAT : MPI_UINT16_T;
}

// MPI errors abort every rank (MPI_ERRORS_ARE_FATAL); this names the call and the rank first.
inline void mpi_check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0, rank = 0;
  MPI_Error_string(rc, text, &len);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "wavefd: error: rank %d: %s failed: %.*s\n", rank, call, len, text);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

// The device buffers a GPU build hands to MPI: CUDA (Kokkos::Cuda) or HIP (Kokkos::HIP).
enum class DeviceBuffers { cuda, hip };

// Whether the MPI library takes such buffers: "yes" or "no" from MPIX_Query_cuda_support /
// MPIX_Query_rocm_support, "no" where Open MPI says at compile time that it was built without
// CUDA, "unknown" where the library cannot tell.
inline std::string mpi_takes(DeviceBuffers d) {
  if (d == DeviceBuffers::cuda) {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support() ? "yes" : "no";
#elif defined(OMPI_HAVE_MPI_EXT_CUDA)
    return "no";
#endif
  } else {
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
    return MPIX_Query_rocm_support() ? "yes" : "no";
#endif
  }
  return "unknown";
}

template <class T>
class MpiMessages {
 public:
  explicit MpiMessages(const std::vector<GhostMessage>& messages)
      : messages_(&messages), requests_(2 * messages.size()) {}

  // wires[i] holds message i's buffers. Receives first, so that eager sends find them posted.
  void post(const std::vector<Wire<T>>& wires) {
    const std::size_t m = messages_->size();
    for (std::size_t i = 0; i < m; ++i) {
      const GhostMessage& g = (*messages_)[i];
      mpi_check(MPI_Irecv(wires[i].recv, int(wires[i].count), mpi_type<T>(), g.peer, g.recv_tag, MPI_COMM_WORLD,
                          &requests_[i]),
                "MPI_Irecv");
    }
    for (std::size_t i = 0; i < m; ++i) {
      const GhostMessage& g = (*messages_)[i];
      mpi_check(MPI_Isend(wires[i].send, int(wires[i].count), mpi_type<T>(), g.peer, g.send_tag, MPI_COMM_WORLD,
                          &requests_[m + i]),
                "MPI_Isend");
    }
  }
  void wait() { mpi_check(MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall"); }

 private:
  const std::vector<GhostMessage>* messages_;
  std::vector<MPI_Request> requests_;
};

}  // namespace wavefd::comm
