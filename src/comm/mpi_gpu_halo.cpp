// `mpi-gpu`: the packed device buffers (or, in place, the field's planes) go straight to a
// GPU-aware MPI (no host staging). On host builds the "device" buffers are host memory, so any MPI
// takes them.
#include "comm/exchange_halo.hpp"
#include "comm/mpi_messages.hpp"

namespace wavefd::comm {

namespace {

template <class T>
class MpiGpuHalo final : public ExchangeHalo<T> {
 public:
  explicit MpiGpuHalo(const HaloSpec& spec) : ExchangeHalo<T>(spec, true), messages_(this->plan_.messages) {}
  std::string name() const override { return "mpi-gpu"; }

 protected:
  void transfer(const std::vector<Wire<T>>& wires) override {
    this->exec_.fence("wavefd::halo_pack");  // MPI reads the buffers outside any stream
    messages_.post(wires);
  }
  void complete() override { messages_.wait(); }

 private:
  MpiMessages<T> messages_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_mpi_gpu_halo(const HaloSpec& spec) {
  return make_connected<MpiGpuHalo, T>(spec);
}

template std::unique_ptr<Halo<float>> make_mpi_gpu_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_mpi_gpu_halo<double>(const HaloSpec&);
template std::unique_ptr<Halo<Half>> make_mpi_gpu_halo<Half>(const HaloSpec&);
template std::unique_ptr<Halo<BFloat16>> make_mpi_gpu_halo<BFloat16>(const HaloSpec&);

}  // namespace wavefd::comm
