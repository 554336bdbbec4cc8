#pragma once
// The CUDA and MPI side of the `peer` transport, outside Kokkos (scripts/check_gpu_transports.sh
// compiles and links it without a CUDA build of Kokkos; peer_halo.cpp is the Kokkos side).
//
// Ranks of one node map each other's fields (CUDA IPC handles, traded over MPI once). A message is
// then one strided copy by the sender's copy engines from its interior box straight into the
// receiver's ghost box: no pack, no unpack, no buffers, and no kernel beside the update (NCCL's
// copies are kernels: on four H100s, 512^3 per GPU on the 1 x 2 x 2 grid, its exchange took 128 us
// alone and 420 us beside the core, on SMs the core then lacked). After its copies the sender
// raises the receiver's flag for the message to the exchange's number (a 4-byte copy behind them
// on the same stream, so it lands after them); the receiver's stream waits until every flag of
// the exchange has reached it (cuStreamWaitValue32) before anything reads the ghosts. Both ranks
// count exchanges, which are collective, so the numbers agree.
//
// Why no flag says "your ghost box is free again": the copies of exchange n go into the field the
// receiver reads as u at step n, whose ghosts it last read at step n - 2. The sender's copies of
// exchange n follow the sender's step n - 1 on its stream, whose shell waited for the receiver's
// copies of exchange n - 1, which followed the receiver's step n - 2. (The engine orders the
// halo's stream after the step before; an exchange's copies read only the field it is given.)
#include <cuda_runtime.h>
#include <mpi.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "comm/ghost_message.hpp"

namespace wavefd::comm {

// Where a rank's field values lie: the flat index of point (x, y, z) is origin + x + y sy + z sz
// (Layout's arithmetic, plain here).
struct PeerLayout {
  index_t origin = 0, sy = 0, sz = 0;
  index_t at(index_t x, index_t y, index_t z) const { return origin + x + y * sy + z * sz; }
};

class PeerMessages {
 public:
  // `fields`: the allocations an exchange may be given, in the same order on every rank (the
  // engine's u and u-). Nothing is traded or mapped yet.
  PeerMessages(const std::vector<GhostMessage>& messages, const PeerLayout& layout, std::vector<void*> fields,
               std::size_t elem_bytes);
  ~PeerMessages();
  PeerMessages(const PeerMessages&) = delete;
  PeerMessages& operator=(const PeerMessages&) = delete;

  // The three steps of building the mapping, each on every rank; the caller agrees on the
  // failures of the local ones before the next (a rank that stopped after a failure would leave
  // its neighbours waiting in trade()). Each returns "" or why this rank cannot go on.
  std::string prepare();  // this rank's IPC handles and flags
  void trade();           // with each message's peer: where its values go there (MPI)
  std::string map();      // the peers' memory opened in this process

  // Exchange of field `k` (an index into `fields`): every message's copy, then its flag, on `stream`.
  void post(int k, cudaStream_t stream);
  // Work enqueued on `stream` from now on starts once every message of the last post() has landed.
  void wait(cudaStream_t stream);

 private:
  struct Offer;  // what a receiver tells the sender of a message (peer_messages.cpp)
  struct Target {
    std::vector<char*> field;  // the ghost box's first point in each of the receiver's fields
    PeerLayout layout;         // the receiver's
    std::uint32_t* flag = nullptr;
  };
  const std::vector<GhostMessage>* messages_;
  PeerLayout layout_;
  std::vector<void*> fields_;
  std::size_t elem_;
  std::vector<Offer> offers_, taken_;  // [message]: sent to its peer, received from it
  std::vector<Target> targets_;        // [message]
  std::vector<void*> opened_;          // bases opened from other processes, closed at the end
  std::uint32_t* flags_ = nullptr;     // [message]: the exchange whose values for it have landed
  std::uint32_t* count_ = nullptr;     // this exchange's number, the source of the flag copies
  std::uint32_t exchanges_ = 0;
};

}  // namespace wavefd::comm
