#include "comm/nccl_messages.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

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
  return sizeof(T) == 4 ? ncclFloat : ncclDouble;
}

}  // namespace

std::string nccl_library_version() {
  int v = 0;
  ncclGetVersion(&v);
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

NcclMessages::NcclMessages(const std::vector<GhostMessage>& messages) : messages_(&messages) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ncclUniqueId id;
  if (rank == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  nccl_check(ncclCommInitRank(&comm_, size, id, rank), "ncclCommInitRank");
  for (std::size_t i = 0; i < messages.size(); ++i) sends_.push_back(i), recvs_.push_back(i);
  const auto& m = messages;
  std::sort(sends_.begin(), sends_.end(), [&](std::size_t a, std::size_t b) {
    return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].send_tag < m[b].send_tag;
  });
  std::sort(recvs_.begin(), recvs_.end(), [&](std::size_t a, std::size_t b) {
    return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].recv_tag < m[b].recv_tag;
  });
}

NcclMessages::~NcclMessages() { ncclCommDestroy(comm_); }

template <class T>
void NcclMessages::post(const T* send, T* recv, cudaStream_t stream) {
  const auto& m = *messages_;
  nccl_check(ncclGroupStart(), "ncclGroupStart");
  for (std::size_t i : recvs_)
    nccl_check(ncclRecv(recv + m[i].recv_at, m[i].recv.size(), nccl_type<T>(), m[i].peer, comm_, stream),
               "ncclRecv");
  for (std::size_t i : sends_)
    nccl_check(ncclSend(send + m[i].send_at, m[i].send.size(), nccl_type<T>(), m[i].peer, comm_, stream),
               "ncclSend");
  nccl_check(ncclGroupEnd(), "ncclGroupEnd");
}

template void NcclMessages::post<float>(const float*, float*, cudaStream_t);
template void NcclMessages::post<double>(const double*, double*, cudaStream_t);

}  // namespace wavefd::comm
