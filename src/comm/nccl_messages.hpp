#pragma once
// The NCCL calls of the `nccl` transport: a communicator over MPI_COMM_WORLD and the grouped
// ncclSend/ncclRecv of an exchange's device buffers on a CUDA stream. Plain C++ (no Kokkos): CI
// compiles it with nvcc and links it with libnccl (scripts/check_gpu_transports.sh); nccl_halo.cpp
// is the Kokkos side (buffers, stream, pack and unpack).
#include <cuda_runtime.h>
#include <nccl.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "comm/ghost_message.hpp"

namespace wavefd::comm {

std::string nccl_library_version();  // of the libnccl in use, e.g. "2.28.3"

class NcclMessages {
 public:
  // Collective over MPI_COMM_WORLD: rank 0 makes the NCCL id and broadcasts it with MPI, unless
  // another NcclMessages is alive, whose communicator this one shares. `messages` must outlive
  // this object.
  explicit NcclMessages(const std::vector<GhostMessage>& messages);
  ~NcclMessages();
  NcclMessages(const NcclMessages&) = delete;
  NcclMessages& operator=(const NcclMessages&) = delete;

  // Enqueues every receive and send of the exchange on `stream`, in one group; wires[i] holds
  // message i's buffers. NCCL has no tags, so messages between a pair of ranks are matched by
  // order: sends by their tag, receives by the tag of the matching send.
  template <class T>
  void post(const std::vector<Wire<T>>& wires, cudaStream_t stream);

 private:
  const std::vector<GhostMessage>* messages_;
  std::shared_ptr<std::remove_pointer_t<ncclComm_t>> comm_;
  std::vector<std::size_t> sends_, recvs_;  // message indices in (peer, tag) order
};

}  // namespace wavefd::comm
