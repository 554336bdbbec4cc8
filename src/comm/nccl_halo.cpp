// `nccl`: grouped ncclSend/ncclRecv of the packed device buffers (or, in place, of the field's
// planes) on the halo's stream, stream-ordered with the pack and unpack kernels (no host
// synchronisation). The NCCL calls themselves are in nccl_messages.cpp; this file hands them the
// buffers and the stream.
#include "comm/exchange_halo.hpp"
#include "comm/nccl_messages.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd {

std::string nccl_version() { return comm::nccl_library_version(); }

namespace comm {

namespace {

template <class T>
class NcclHalo final : public ExchangeHalo<T> {
 public:
  explicit NcclHalo(const HaloSpec& spec) : ExchangeHalo<T>(spec, true), nccl_(this->plan_.messages) {
    this->fence_after_unpack_ = false;  // stream-ordered: the step fences the halo instance when it must
  }
  std::string name() const override { return "nccl"; }

 protected:
  void transfer(const std::vector<Wire<T>>& wires) override { nccl_.post(wires, this->exec_.cuda_stream()); }
  void complete() override {}

 private:
  NcclMessages nccl_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_nccl_halo(const HaloSpec& spec) {
  return make_connected<NcclHalo, T>(spec);
}

template std::unique_ptr<Halo<float>> make_nccl_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_nccl_halo<double>(const HaloSpec&);
template std::unique_ptr<Halo<Half>> make_nccl_halo<Half>(const HaloSpec&);
template std::unique_ptr<Halo<BFloat16>> make_nccl_halo<BFloat16>(const HaloSpec&);

}  // namespace comm
}  // namespace wavefd
