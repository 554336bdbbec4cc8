#pragma once
// One message of a halo exchange: which rank, which tags, which boxes, where in the packed
// buffers. Plain C++ (no Kokkos), so that the transports' MPI and NCCL calls (mpi_messages.hpp,
// nccl_messages.cpp) compile without Kokkos: CI compiles them with nvcc and no CUDA build of Kokkos
// (scripts/check_gpu_transports.sh).
#include "wavefd/types.hpp"

namespace wavefd::comm {

// Direction (each entry -1, 0, 1) <-> 0..26; 13 is the centre. Message tags are the direction id
// of the sender's side, so two messages between the same pair of ranks (small periodic rank
// grids) never match the wrong receive.
inline int direction_id(const Index3& d) { return int((d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1)); }

struct GhostMessage {
  int peer = 0;
  int send_tag = 0, recv_tag = 0;
  Box send, recv;               // local coordinates (ghosts are negative or >= n)
  index_t send_at = 0, recv_at = 0;  // element offsets in the packed buffers
};

}  // namespace wavefd::comm
