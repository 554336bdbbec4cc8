#pragma once
// The part every exchanging transport shares: the plan, device buffers, one pack kernel, one
// unpack kernel and the fills from the field itself (rigid walls, axes a rank spans alone), with
// host timing of each phase. A transport supplies only how the messages' values travel (transfer()
// and complete()), from the packed buffers or, in place, from and into the field itself.
#include <Kokkos_Core.hpp>

#include <memory>
#include <vector>

#include "comm/exchange_plan.hpp"

namespace wavefd::comm {

template <class T>
class ExchangeHalo : public Halo<T> {
 public:
  // `in_place`: the transport takes the field's own memory (ExchangePlan says when it is used).
  ExchangeHalo(const HaloSpec& spec, bool in_place)
      : exec_(spec.exec), early_(spec.early.value_or(spec.exec)), plan_(make_exchange_plan(spec, in_place)),
        send_boxes_(packed_boxes(plan_, true)),
        recv_boxes_(packed_boxes(plan_, false)),
        send_(Kokkos::view_alloc("wavefd::halo_send", Kokkos::WithoutInitializing), plan_.send_count),
        recv_(Kokkos::view_alloc("wavefd::halo_recv", Kokkos::WithoutInitializing), plan_.recv_count),
        edges_read_(reads_edges(spec.offsets)) {}

  void start(Field<T>& f) override {
    Kokkos::Timer t;
    if (fill_early_) fill_ghosts(early_, f, plan_.walls, {ShellPart::early, plan_.late_axes}, edges_read_);
    if (!packed_by_update_) copy_boxes<T, true>(exec_, f, send_, send_boxes_);
    packed_by_update_ = false;  // for this start() only
    wire_up(plan_.messages, send_.data(), recv_.data(), f.data.data(), wires_);
    transfer(wires_);
    this->times_.pack += t.seconds();
  }
  void finish(Field<T>& f) override {
    Kokkos::Timer t;
    complete();
    this->times_.wait += t.seconds();
    t.reset();
    copy_boxes<T, false>(exec_, f, recv_, recv_boxes_);
    fill_ghosts(exec_, f, plan_.walls, {ShellPart::late, plan_.late_axes}, edges_read_);
    if (fence_after_unpack_) exec_.fence("wavefd::halo_unpack");
    this->times_.unpack += t.seconds();
    ++this->times_.exchanges;
  }
  std::array<bool, 3> late() const override { return late_of(plan_.late_axes); }
  void fill_early(bool on) override { fill_early_ = on; }
  SendFaces send_faces() const override {
    SendFaces s;
    for (const GhostMessage& m : plan_.messages) {
      if (m.in_place) continue;
      const Index3 d = direction_of(m.send_tag);
      if ((d[0] != 0) + (d[1] != 0) + (d[2] != 0) != 1) return {};  // an edge or corner: the pack kernel's
      for (int a = 0; a < 3; ++a)
        if (d[a] != 0) s.at[a][d[a] > 0] = m.send_at;
      s.buffer = send_.data();
    }
    return s;
  }
  void packed_by_update(bool on) override { packed_by_update_ = on; }

  // One exchange of zeros, as large as a step's, before any step: NCCL connects a pair of ranks at
  // their first message (about 1.2 s on two GPUs, which the seismic deck's 1000-step loop used to
  // count). Messages in place go through scratch buffers here, as there is no field yet.
  // Collective, like the construction.
  void connect() {
    std::vector<GhostMessage> packed = plan_.messages;
    index_t total = 0;
    for (GhostMessage& m : packed) m.in_place = false, m.send_at = m.recv_at = total, total += m.length;
    Kokkos::View<T*> send = send_, recv = recv_;
    if (total > plan_.send_count) {  // messages in place: scratch of zeros, freed after
      send = Kokkos::View<T*>("wavefd::halo_connect_send", total);
      recv = Kokkos::View<T*>("wavefd::halo_connect_recv", total);
    } else {
      Kokkos::deep_copy(exec_, send_, T(0));
    }
    exec_.fence("wavefd::halo_connect_zeros");
    wire_up(packed, send.data(), recv.data(), static_cast<T*>(nullptr), wires_);
    transfer(wires_);
    complete();
    exec_.fence("wavefd::halo_connect");
  }

 protected:
  // transfer(): each message's values leave from wires[i].send (packed ones enqueued on exec_ by
  // the pack) for wires[i].recv; complete(): they have arrived, for work enqueued on exec_
  // afterwards. The wires follow plan_.messages.
  virtual void transfer(const std::vector<Wire<T>>& wires) = 0;
  virtual void complete() = 0;

  Kokkos::DefaultExecutionSpace exec_, early_;
  ExchangePlan plan_;
  PackedBoxes send_boxes_, recv_boxes_;
  Kokkos::View<T*> send_, recv_;
  std::vector<Wire<T>> wires_;  // this exchange's, rebuilt in start() (the field alternates)
  // Host-driven transports fence so that the unpack time is measured; stream-ordered ones need not.
  bool fence_after_unpack_ = true;
  bool fill_early_ = true;
  bool packed_by_update_ = false;
  bool edges_read_;  // the stencil reads an edge or corner ghost (fill_ghosts fills them then)
};

// A transport's halo, connected (ExchangeHalo::connect): what each transport's factory returns.
template <template <class> class TransportHalo, class T>
std::unique_ptr<Halo<T>> make_connected(const HaloSpec& spec) {
  auto halo = std::make_unique<TransportHalo<T>>(spec);
  halo->connect();
  return halo;
}

}  // namespace wavefd::comm
