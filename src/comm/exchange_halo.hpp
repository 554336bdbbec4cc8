#pragma once
// The part every exchanging transport shares: the plan, device buffers, one pack kernel, one
// unpack kernel and the fills from the field itself (rigid walls, axes a rank spans alone), with
// host timing of each phase. A transport supplies only how the packed buffers travel (transfer()
// and complete()).
#include <Kokkos_Core.hpp>

#include <memory>

#include "comm/exchange_plan.hpp"

namespace wavefd::comm {

template <class T>
class ExchangeHalo : public Halo<T> {
 public:
  explicit ExchangeHalo(const HaloSpec& spec)
      : exec_(spec.exec), early_(spec.early.value_or(spec.exec)), plan_(make_exchange_plan(spec)), send_boxes_(packed_boxes(plan_, true)),
        recv_boxes_(packed_boxes(plan_, false)),
        send_(Kokkos::view_alloc("wavefd::halo_send", Kokkos::WithoutInitializing), plan_.send_count),
        recv_(Kokkos::view_alloc("wavefd::halo_recv", Kokkos::WithoutInitializing), plan_.recv_count) {}

  void start(Field<T>& f) override {
    Kokkos::Timer t;
    if (fill_early_) fill_ghosts(early_, f, plan_.walls, {ShellPart::early, plan_.late_axes});
    copy_boxes<T, true>(exec_, f, send_, send_boxes_);
    transfer();
    this->times_.pack += t.seconds();
  }
  void finish(Field<T>& f) override {
    Kokkos::Timer t;
    complete();
    this->times_.wait += t.seconds();
    t.reset();
    copy_boxes<T, false>(exec_, f, recv_, recv_boxes_);
    fill_ghosts(exec_, f, plan_.walls, {ShellPart::late, plan_.late_axes});
    if (fence_after_unpack_) exec_.fence("wavefd::halo_unpack");
    this->times_.unpack += t.seconds();
    ++this->times_.exchanges;
  }
  std::array<bool, 3> late() const override { return late_of(plan_.late_axes); }
  void fill_early(bool on) override { fill_early_ = on; }

  // One exchange of the buffers, before any step: NCCL connects a pair of ranks at their first
  // message (about 1.2 s on two GPUs, which the seismic deck's 1000-step loop used to count).
  // Collective, like the construction.
  void connect() {
    Kokkos::deep_copy(exec_, send_, T(0));
    transfer();
    complete();
    exec_.fence("wavefd::halo_connect");
  }

 protected:
  // transfer(): the packed send_ buffer (enqueued on exec_) leaves; complete(): recv_ is filled for
  // work enqueued on exec_ afterwards.
  virtual void transfer() = 0;
  virtual void complete() = 0;

  Kokkos::DefaultExecutionSpace exec_, early_;
  ExchangePlan plan_;
  PackedBoxes send_boxes_, recv_boxes_;
  Kokkos::View<T*> send_, recv_;
  // Host-driven transports fence so that the unpack time is measured; stream-ordered ones need not.
  bool fence_after_unpack_ = true;
  bool fill_early_ = true;
};

// A transport's halo, connected (ExchangeHalo::connect): what each transport's factory returns.
template <template <class> class TransportHalo, class T>
std::unique_ptr<Halo<T>> make_connected(const HaloSpec& spec) {
  auto halo = std::make_unique<TransportHalo<T>>(spec);
  halo->connect();
  return halo;
}

}  // namespace wavefd::comm
