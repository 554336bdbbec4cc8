#pragma once
// Host memory shared by the ranks of one node (an MPI shared-memory window), pinned for the device
// where the build has one, so that the host-staged `mpi` transport's messages between GPUs of one
// node are one device-to-host copy by the sender straight into the receiver's window and one
// host-to-device copy by the receiver, with no copy by MPI in between (Open MPI's shared-memory
// path moved 512^3 per GPU's faces at about 3 GB/s on four H100s, where PCIe moves 25-50).
//
// "One node" is communication_node() (pseudo-nodes of scripts/pseudo_nodes.sh are separate nodes)
// among the ranks that MPI says share memory (MPI_COMM_TYPE_SHARED).
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace wavefd::comm {

class NodeWindow {
 public:
  // Every rank's part: `bytes` of its own (0 allowed). Collective over MPI_COMM_WORLD.
  explicit NodeWindow(std::size_t bytes);
  // Collective over the node (halos are built and dropped in the same order on every rank).
  ~NodeWindow();
  NodeWindow(const NodeWindow&) = delete;
  NodeWindow& operator=(const NodeWindow&) = delete;

  // The part of world rank `rank`, or nullptr when that rank is not on this node.
  char* part(int rank) const;
  char* mine() const { return part(world_rank_); }
  // Why the parts this rank copies from and into are not pinned for the device ("" when they are,
  // or when the build has no device): the copies then run at pageable speed.
  const std::string& not_pinned() const { return not_pinned_; }
  // After this rank's stores to a part and before it tells the reader by message; after this rank
  // received such a message and before it reads (MPI_Win_sync: the window's memory barrier).
  void sync() const;

 private:
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  int world_rank_ = 0;
  std::vector<char*> parts_;  // [world rank]
  std::vector<std::size_t> sizes_;
  std::vector<void*> pinned_;  // registered by this process, unregistered at the end
  std::string not_pinned_;
};

}  // namespace wavefd::comm
