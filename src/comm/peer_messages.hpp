#pragma once
// The CUDA and MPI side of the `peer` transport, outside Kokkos (scripts/check_gpu_transports.sh
// compiles and links it without a CUDA build of Kokkos; peer_halo.cpp is the Kokkos side).
//
// Ranks of one node map each other's fields (CUDA IPC handles, traded over MPI once). A message is
// then one strided copy by the sender's copy engines from its interior box straight into the
// receiver's ghost box: no pack, no unpack, no buffers, and no kernel beside the update (NCCL's
// copies are kernels: on four H100s, 512^3 per GPU on the 1 x 2 x 2 grid, its exchange took 128 us
// alone and 420 us beside the core, on SMs the core then lacked). Each exchange has a number,
// counted alike by every rank (exchanges are collective), and two 4-byte flags per message carry
// it, each set on the stream behind the work it reports: "landed" after a kernel written by the
// stream itself into the peer's memory (cuStreamWriteValue32: 5-10 us sooner than a copy), every
// other flag copied by the copy engines (a flag the stream wrote behind a copy-engine copy let the
// receiver read ghosts still landing: four H100s, minimod's deck on 1 x 2 x 2 at 8e9e50d):
//  - ready: the receiver, at the start of its exchange, tells the sender that its ghost box is free
//    (everything enqueued before on its stream is done: the update that last read those ghosts,
//    and writes to the field from outside, such as initial values over the ghosts); the sender's
//    stream waits for it (cuStreamWaitValue32) before its copy. Without it a fast sender's first
//    copy landed before a slower receiver had written its initial field, which then overwrote it
//    (four H100s, MpiHalo's 9 x 9 x 11 rigid grid on 2 x 2 x 1 ranks, at fed9813);
//  - landed: the sender, after its copy, tells the receiver; the receiver's stream waits for it
//    before anything reads the ghosts.
// Only copies, flag writes and waits on local memory cross the processes.
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
  index_t nx = 0;  // interior points along x
  int halo = 0;    // ghost layers
  index_t at(index_t x, index_t y, index_t z) const { return origin + x + y * sy + z * sz; }
};

// A box of short rows (x faces: R values a row) as a copy kernel moves it: where its rows start and
// how far apart they lie, at the source and at the target. `pad`: a row of one 16-byte word also
// writes a word of zeros right before (-1) or after (+1) it at the target, where that is row
// padding, so that the target's 32-byte sectors are written whole (GhostImages::wx says why).
struct ShortRows {
  const char* from = nullptr;
  char* to = nullptr;
  std::int64_t from_row = 0, from_plane = 0, to_row = 0, to_plane = 0;
  int pad = 0;
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

  // Exchange of field `k` (an index into `fields`) on `stream`: "ready" to every peer, then each
  // message's copy once its receiver is ready, then its "landed" flag; the early messages
  // (GhostMessage::early) first, copied by as many blocks as the GPU holds.
  void post(int k, cudaStream_t stream);
  // Work enqueued on `stream` from now on starts once every message of the last post() has landed.
  void wait(cudaStream_t stream);
  // ... once its early messages have landed.
  void wait_early(cudaStream_t stream);

 private:
  struct Offer;  // what a receiver tells the sender of a message (peer_messages.cpp)
  // Message i's values of field k: early short rows packed into the receiver's staging, other short
  // rows by a kernel beside the update, longer rows by the copy engines.
  void copy(std::size_t i, int k, cudaStream_t stream);
  ShortRows packed_rows(std::size_t i, int k) const;  // staged message i: field k to the receiver's staging
  ShortRows unpacked_rows(std::size_t i) const;       // ... the sender's values, staging to ghosts here
  void copy_staged(std::size_t i, bool pack, int k, cudaStream_t stream);  // by a kernel of the whole GPU
  void signal(std::uint32_t* flag, cudaStream_t stream) const;  // sets a flag here or in a peer to this exchange's number
  void land(std::size_t i, cudaStream_t stream);                 // message i's "landed" flag, behind its values
  static int ahead_blocks();  // copy kernels the update waits for: as many blocks as the GPU holds
  struct Target {
    std::vector<char*> field;  // the ghost box's first point in each of the receiver's fields
    PeerLayout layout;         // the receiver's
    std::uint32_t* flag = nullptr;   // the receiver's "landed" flag for this message
    std::uint32_t* ready = nullptr;  // the sender's "ready" flag for the message it sends back
    char* staging = nullptr;         // where a staged message lands in the receiver's staging
  };
  const std::vector<GhostMessage>* messages_;
  PeerLayout layout_;
  std::vector<void*> fields_;
  std::size_t elem_;
  std::vector<Offer> offers_, taken_;  // [message]: sent to its peer, received from it
  std::vector<Target> targets_;        // [message]
  std::vector<void*> opened_;          // bases opened from other processes, closed at the end
  std::uint32_t* flags_ = nullptr;     // [message] landed, then [message] ready (peer_messages.hpp's top)
  std::uint32_t* count_ = nullptr;     // this exchange's number, the source of flags the copy engines copy
  std::uint32_t exchanges_ = 0;
  std::vector<std::size_t> early_sends_, early_waits_;  // the early messages, in sending and waiting order
  // Early messages of short rows (x faces) are staged: a kernel packs the face straight into the
  // receiver's staging (contiguous stores across NVLink), and the receiver unpacks it into its
  // ghosts before the update (four H100s, 512^3 per GPU on 2 x 1 x 2: 16-byte stores straight
  // into the neighbour's ghosts, a row apart, delayed the update by about 430 us; packed here and
  // moved by the copy engines, by about 180). staging_ holds staging_bytes_, where the neighbours'
  // faces land; staged_at_[message]: the offset there, -1 where not staged.
  // Each staged message has two slots, and exchange e uses slot e % 2, so that a sender needs no
  // "ready": it packs into slot e % 2 in post(e), behind its wait for exchange e - 1's flags from
  // the receiver, whose flags of an exchange follow its unpack of the one before (wait_early()),
  // the last read of that slot.
  static std::int64_t slot_of(std::uint32_t exchange) { return exchange % 2; }
  std::int64_t slot_bytes(std::size_t message) const;
  void* staging_ = nullptr;
  std::int64_t staging_bytes_ = 0;
  std::vector<std::int64_t> staged_at_;
  cudaEvent_t unpacked_ = nullptr;
  int field_ = 0;                      // the field of the last post()
  cudaStream_t posted_on_ = nullptr;   // its stream
};

}  // namespace wavefd::comm
