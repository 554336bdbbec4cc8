#include "comm/node_window.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>

#include "wavefd/parallel.hpp"

namespace wavefd::comm {

namespace {

// Parts start on their own pages: a page pinned twice by one process is an error for CUDA.
constexpr std::size_t kPartAlign = std::size_t(1) << 16;

// Registers [p, p + bytes) with the device for asynchronous copies; "" or why not.
std::string pin(void* p, std::size_t bytes) {
#if defined(KOKKOS_ENABLE_CUDA)
  const cudaError_t rc = cudaHostRegister(p, bytes, cudaHostRegisterPortable);
  return rc == cudaSuccess ? "" : (cudaGetLastError(), std::string("cudaHostRegister: ") + cudaGetErrorString(rc));
#elif defined(KOKKOS_ENABLE_HIP)
  const hipError_t rc = hipHostRegister(p, bytes, hipHostRegisterPortable);
  return rc == hipSuccess ? "" : (hipGetLastError(), std::string("hipHostRegister: ") + hipGetErrorString(rc));
#else
  (void)p, (void)bytes;
  return "";
#endif
}

void unpin(void* p) {
#if defined(KOKKOS_ENABLE_CUDA)
  cudaHostUnregister(p);
#elif defined(KOKKOS_ENABLE_HIP)
  (void)hipHostUnregister(p);
#else
  (void)p;
#endif
}

}  // namespace

NodeWindow::NodeWindow(std::size_t bytes) {
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Ranks sharing memory, then among those the ranks of one communication node.
  MPI_Comm shared = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank_, MPI_INFO_NULL, &shared);
  const std::vector<std::string> nodes = on_every_rank(communication_node());
  const int colour = int(std::find(nodes.begin(), nodes.end(), nodes[std::size_t(world_rank_)]) - nodes.begin());
  MPI_Comm_split(shared, colour, world_rank_, &node_);
  MPI_Comm_free(&shared);

  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  char* base = nullptr;
  const std::size_t rounded = (bytes + kPartAlign - 1) / kPartAlign * kPartAlign;
  MPI_Win_allocate_shared(MPI_Aint(rounded), 1, info, node_, &base, &window_);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);  // a passive epoch for the whole life: sync() needs one

  // World rank -> the part in this process's address space.
  int node_size = 1;
  MPI_Comm_size(node_, &node_size);
  MPI_Group world_group, node_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(node_, &node_group);
  std::vector<int> in_node(static_cast<std::size_t>(node_size), 0), in_world(in_node);
  for (int r = 0; r < node_size; ++r) in_node[std::size_t(r)] = r;
  MPI_Group_translate_ranks(node_group, node_size, in_node.data(), world_group, in_world.data());
  MPI_Group_free(&world_group);
  MPI_Group_free(&node_group);
  parts_.assign(std::size_t(size), nullptr);
  sizes_.assign(std::size_t(size), 0);
  for (int r = 0; r < node_size; ++r) {
    MPI_Aint part_bytes = 0;
    int unit = 1;
    void* p = nullptr;
    MPI_Win_shared_query(window_, r, &part_bytes, &unit, &p);
    parts_[std::size_t(in_world[std::size_t(r)])] = static_cast<char*>(p);
    sizes_[std::size_t(in_world[std::size_t(r)])] = std::size_t(part_bytes);
  }
  for (std::size_t r = 0; r < parts_.size() && not_pinned_.empty(); ++r) {
    if (parts_[r] == nullptr || sizes_[r] == 0) continue;
    not_pinned_ = pin(parts_[r], sizes_[r]);
    if (not_pinned_.empty()) pinned_.push_back(parts_[r]);
  }
}

NodeWindow::~NodeWindow() {
  for (void* p : pinned_) unpin(p);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;  // MPI freed it
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
  MPI_Comm_free(&node_);
}

char* NodeWindow::part(int rank) const { return parts_[std::size_t(rank)]; }

void NodeWindow::sync() const { MPI_Win_sync(window_); }

}  // namespace wavefd::comm
