// `mpi`: host-staged exchange. Faces are packed on the device, copied to pinned host buffers,
// sent with MPI_Isend/MPI_Irecv, copied back and unpacked. Works with any MPI library. On host
// builds nothing is staged, and messages may go in place (exchange_plan.hpp).
#include "comm/exchange_halo.hpp"
#include "comm/mpi_messages.hpp"

namespace wavefd::comm {

namespace {

// Pinned host memory where the device has its own; the device buffers themselves on host builds.
using StagingSpace = Kokkos::SharedHostPinnedSpace;
constexpr bool kStaged =
    !std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;

template <class T>
class MpiHalo final : public ExchangeHalo<T> {
 public:
  explicit MpiHalo(const HaloSpec& spec)
      : ExchangeHalo<T>(spec, !kStaged), messages_(this->plan_.messages) {
    if constexpr (kStaged) {
      host_send_ = HostBuffer(Kokkos::view_alloc("wavefd::halo_send_host", Kokkos::WithoutInitializing),
                              this->plan_.send_count);
      host_recv_ = HostBuffer(Kokkos::view_alloc("wavefd::halo_recv_host", Kokkos::WithoutInitializing),
                              this->plan_.recv_count);
      wire_up(this->plan_.messages, host_send_.data(), host_recv_.data(), static_cast<T*>(nullptr), host_wires_);
    }
  }
  std::string name() const override { return "mpi"; }

 protected:
  void transfer(const std::vector<Wire<T>>& wires) override {
    if constexpr (kStaged) {  // always packed: the device buffers' wires become the host buffers'
      Kokkos::deep_copy(this->exec_, host_send_, this->send_);
      this->exec_.fence("wavefd::halo_stage");
      messages_.post(host_wires_);
    } else {
      this->exec_.fence("wavefd::halo_pack");
      messages_.post(wires);
    }
  }
  void complete() override {
    messages_.wait();
    if constexpr (kStaged) Kokkos::deep_copy(this->exec_, this->recv_, host_recv_);
  }

 private:
  using HostBuffer = Kokkos::View<T*, StagingSpace>;
  MpiMessages<T> messages_;
  HostBuffer host_send_, host_recv_;
  std::vector<Wire<T>> host_wires_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_mpi_halo(const HaloSpec& spec) {
  return make_connected<MpiHalo, T>(spec);
}

template std::unique_ptr<Halo<float>> make_mpi_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_mpi_halo<double>(const HaloSpec&);

}  // namespace wavefd::comm
