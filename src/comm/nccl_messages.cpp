#include "comm/nccl_messages.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "wavefd/storage_format.hpp"

namespace wavefd::comm {

namespace {

void nccl_check(ncclResult_t rc, const char* call) {
  if (rc == ncclSuccess) return;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "wavefd: error: rank %d: %s failed: %s\n", rank, call, ncclGetErrorString(rc));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

template <class T>
constexpr ncclDataType_t nccl_type() {
  return sizeof(T) == 8 ? ncclDouble : sizeof(T) == 4 ? ncclFloat : ncclFloat16;  // 16 bits: as their bits
}

using Communicator = std::shared_ptr<std::remove_pointer_t<ncclComm_t>>;

// One communicator for all the exchanges alive at once: making one takes about a second and is a
// collective over every rank. Halos are built and dropped in the same order on every rank (both
// are collective), so every rank finds the cache in the same state.
Communicator world_communicator() {
  static std::weak_ptr<std::remove_pointer_t<ncclComm_t>> cache;
  if (Communicator live = cache.lock()) return live;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ncclUniqueId id;
  if (rank == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm{};
  nccl_check(ncclCommInitRank(&comm, size, id, rank), "ncclCommInitRank");
  Communicator made(comm, [](ncclComm_t c) { ncclCommDestroy(c); });
  cache = made;
  return made;
}

}  // namespace

std::string nccl_library_version() {
  int v = 0;
  ncclGetVersion(&v);
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

NcclMessages::NcclMessages(const std::vector<GhostMessage>& messages)
    : messages_(&messages), comm_(world_communicator()) {
  for (std::size_t i = 0; i < messages.size(); ++i) sends_.push_back(i), recvs_.push_back(i);
  const auto& m = messages;
  std::sort(sends_.begin(), sends_.end(), [&](std::size_t a, std::size_t b) {
    return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].send_tag < m[b].send_tag;
  });
  std::sort(recvs_.begin(), recvs_.end(), [&](std::size_t a, std::size_t b) {
    return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].recv_tag < m[b].recv_tag;
  });
}

NcclMessages::~NcclMessages() = default;

template <class T>
void NcclMessages::post(const std::vector<Wire<T>>& wires, cudaStream_t stream) {
  const auto& m = *messages_;
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  for (std::size_t i : recvs_)
    nccl_check(ncclRecv(wires[i].recv, wires[i].count, nccl_type<T>(), m[i].peer, comm_.get(), stream), "ncclRecv");
  for (std::size_t i : sends_)
    nccl_check(ncclSend(wires[i].send, wires[i].count, nccl_type<T>(), m[i].peer, comm_.get(), stream), "ncclSend");
  nccl_check(ncclGroupEnd(), "ncclGroupEnd");
}

template void NcclMessages::post<float>(const std::vector<Wire<float>>&, cudaStream_t);
template void NcclMessages::post<double>(const std::vector<Wire<double>>&, cudaStream_t);
template void NcclMessages::post<Half>(const std::vector<Wire<Half>>&, cudaStream_t);
template void NcclMessages::post<BFloat16>(const std::vector<Wire<BFloat16>>&, cudaStream_t);

}  // namespace wavefd::comm
