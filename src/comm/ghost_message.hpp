#pragma once
// One message of a halo exchange: which rank, which tags, which boxes, where its values are. Plain
// C++ (no Kokkos), so that the transports' MPI and NCCL calls (mpi_messages.hpp,
// nccl_messages.cpp) compile without Kokkos: CI compiles them with nvcc and no CUDA build of Kokkos
// (scripts/check_gpu_transports.sh).
#include <cstddef>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd::comm {

// Direction (each entry -1, 0, 1) <-> 0..26; 13 is the centre. Message tags are the direction id
// of the sender's side, so two messages between the same pair of ranks (small periodic rank
// grids) never match the wrong receive.
inline int direction_id(const Index3& d) { return int((d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1)); }
inline Index3 direction_of(int id) { return {id % 3 - 1, id / 3 % 3 - 1, id / 9 - 1}; }

struct GhostMessage {
  int peer = 0;
  int send_tag = 0, recv_tag = 0;
  Box send, recv;  // local coordinates (ghosts are negative or >= n)
  // Packed: the boxes travel through the packed buffers, from send_at and recv_at there, and
  // `length` is the boxes' size. In place: whole planes travel straight from and into the field,
  // send_at and recv_at are flat field indices and `length` covers the planes with their ghost
  // columns and rows (exchange_plan.hpp says when).
  bool in_place = false;
  index_t send_at = 0, recv_at = 0, length = 0;
  // Sent before the update starts and waited for by it (exchange_plan.hpp's `x_first`), so that its
  // axis is not late and the shell has no slabs across it.
  bool early = false;
};

// Where one message's values leave from and arrive in this exchange (a transport's view of a
// GhostMessage); an exchange hands one per message, in the order of the messages.
template <class T>
struct Wire {
  const T* send = nullptr;
  T* recv = nullptr;
  std::size_t count = 0;
};

// The wires of `messages` between the packed buffers and, for messages in place, the field.
template <class T>
void wire_up(const std::vector<GhostMessage>& messages, const T* send, T* recv, T* field, std::vector<Wire<T>>& wires) {
  wires.resize(messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const GhostMessage& m = messages[i];
    wires[i] = {(m.in_place ? field : send) + m.send_at, (m.in_place ? field : recv) + m.recv_at, std::size_t(m.length)};
  }
}

}  // namespace wavefd::comm
