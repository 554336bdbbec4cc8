// `nccl`: grouped ncclSend/ncclRecv of the packed device buffers on the halo's stream. MPI starts
// the ranks and broadcasts the NCCL id; NCCL has no tags, so messages between a pair of ranks are
// matched by order: sends by their tag, receives by the tag of the matching send.
#include <mpi.h>
#include <nccl.h>

#include <algorithm>
#include <cstdio>

#include "comm/exchange_halo.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd {

std::string nccl_version() {
  int v = 0;
  ncclGetVersion(&v);
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

namespace comm {

namespace {

void nccl_check(ncclResult_t rc, const char* call) {
  if (rc == ncclSuccess) return;
  std::fprintf(stderr, "wavefd: error: rank %d: %s failed: %s\n", world_rank(), call, ncclGetErrorString(rc));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

template <class T>
class NcclHalo final : public ExchangeHalo<T> {
 public:
  explicit NcclHalo(const HaloSpec& spec) : ExchangeHalo<T>(spec) {
    ncclUniqueId id;
    if (world_rank() == 0) nccl_check(ncclGetUniqueId(&id), "ncclGetUniqueId");
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    nccl_check(ncclCommInitRank(&comm_, world_size(), id, world_rank()), "ncclCommInitRank");
    for (std::size_t i = 0; i < this->plan_.messages.size(); ++i) sends_.push_back(i), recvs_.push_back(i);
    const auto& m = this->plan_.messages;
    std::sort(sends_.begin(), sends_.end(), [&](std::size_t a, std::size_t b) {
      return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].send_tag < m[b].send_tag;
    });
    std::sort(recvs_.begin(), recvs_.end(), [&](std::size_t a, std::size_t b) {
      return m[a].peer != m[b].peer ? m[a].peer < m[b].peer : m[a].recv_tag < m[b].recv_tag;
    });
    this->fence_after_unpack_ = false;  // stream-ordered: the step fences the halo instance when it must
  }
  ~NcclHalo() override { ncclCommDestroy(comm_); }
  std::string name() const override { return "nccl"; }

 protected:
  void transfer() override {
    const auto& m = this->plan_.messages;
    const cudaStream_t stream = this->exec_.cuda_stream();
    const ncclDataType_t type = sizeof(T) == 4 ? ncclFloat : ncclDouble;
    nccl_check(ncclGroupStart(), "ncclGroupStart");
    for (std::size_t i : recvs_)
      nccl_check(ncclRecv(this->recv_.data() + m[i].recv_at, m[i].recv.size(), type, m[i].peer, comm_, stream),
                 "ncclRecv");
    for (std::size_t i : sends_)
      nccl_check(ncclSend(this->send_.data() + m[i].send_at, m[i].send.size(), type, m[i].peer, comm_, stream),
                 "ncclSend");
    nccl_check(ncclGroupEnd(), "ncclGroupEnd");
  }
  void complete() override {}

 private:
  ncclComm_t comm_{};
  std::vector<std::size_t> sends_, recvs_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_nccl_halo(const HaloSpec& spec) {
  return std::make_unique<NcclHalo<T>>(spec);
}

template std::unique_ptr<Halo<float>> make_nccl_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_nccl_halo<double>(const HaloSpec&);

}  // namespace comm
}  // namespace wavefd
