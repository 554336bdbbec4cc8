// `peer`: the ranks of one node copy their faces straight into each other's ghost boxes with the
// GPU's copy engines, through memory mapped across processes (peer_messages.hpp says how and why).
// Every message is a box of the field to a box of the neighbour's field, so nothing is packed or
// unpacked (except the x faces, rows of R values, which go first through the neighbour's staging)
// and the update kernel stores no send buffer; the fills from the field itself (rigid
// walls, axes a rank spans alone) are ExchangeHalo's. CUDA builds with MPI; ranks on one node
// (communication_node(): a pseudo-node of scripts/pseudo_nodes.sh counts as a node).
#include <Kokkos_Core.hpp>

#include <memory>
#include <string>

#include "comm/exchange_plan.hpp"
#include "comm/ghost_shell.hpp"
#include "comm/peer_messages.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd::comm {

namespace {

// Every neighbour on this rank's node, else the first that is not, named.
void check_one_node(const std::vector<GhostMessage>& messages) {
  const std::vector<std::string> nodes = on_every_rank(communication_node());
  const std::string& mine = nodes[std::size_t(world_rank())];
  for (const GhostMessage& m : messages)
    if (nodes[std::size_t(m.peer)] != mine)
      throw Error("transport peer maps memory between the ranks of one node; rank " + std::to_string(world_rank()) +
                  " (node " + mine + ") has neighbour " + std::to_string(m.peer) + " on node " +
                  nodes[std::size_t(m.peer)] + "; accepted: nccl, mpi or mpi-gpu");
}

template <class T>
class PeerHalo final : public Halo<T> {
 public:
  explicit PeerHalo(const HaloSpec& spec)
      : exec_(spec.exec), early_(spec.early.value_or(spec.exec)), plan_(make_exchange_plan(spec, false, true)),
        edges_read_(reads_edges(spec.offsets)) {
    agree([&] { check_one_node(plan_.messages); });
    for (const void* f : spec.fields) fields_.push_back(const_cast<void*>(f));
    const Layout& l = spec.layout;
    messages_ = std::make_unique<PeerMessages>(plan_.messages, PeerLayout{l.origin, l.sy, l.sz, l.n[0], l.halo}, fields_, sizeof(T));
    agree([&] {
      if (std::string why = messages_->prepare(); !why.empty()) throw Error(why);
    });
    messages_->trade();
    agree([&] {
      if (std::string why = messages_->map(); !why.empty()) throw Error(why);
    });
  }
  std::string name() const override { return "peer"; }

  void start(Field<T>& f) override {
    Kokkos::Timer t;
    if (fill_early_) fill_ghosts(early_, f, plan_.walls, {ShellPart::early, plan_.late_axes}, edges_read_);
    messages_->post(field_index(f), exec_.cuda_stream());
    messages_->wait_early(early_.cuda_stream());  // the x faces, before the update reads them
    this->times_.pack += t.seconds();
  }
  void finish(Field<T>& f) override {
    Kokkos::Timer t;
    messages_->wait(exec_.cuda_stream());
    this->times_.wait += t.seconds();
    t.reset();
    fill_ghosts(exec_, f, plan_.walls, {ShellPart::late, plan_.late_axes}, edges_read_);
    this->times_.unpack += t.seconds();
    ++this->times_.exchanges;
  }
  std::array<bool, 3> late() const override { return late_of(plan_.late_axes); }
  bool moves_without_kernels() const override { return true; }
  void fill_early(bool on) override { fill_early_ = on; }

 private:
  int field_index(const Field<T>& f) const {
    for (std::size_t k = 0; k < fields_.size(); ++k)
      if (fields_[k] == static_cast<const void*>(f.data.data())) return int(k);
    throw Error("transport peer exchanges only the fields it was built with (their memory is mapped by the neighbours)");
  }

  Kokkos::DefaultExecutionSpace exec_, early_;
  ExchangePlan plan_;
  std::vector<void*> fields_;
  std::unique_ptr<PeerMessages> messages_;
  bool fill_early_ = true;
  bool edges_read_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_peer_halo(const HaloSpec& spec) {
  return std::make_unique<PeerHalo<T>>(spec);
}

template std::unique_ptr<Halo<float>> make_peer_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_peer_halo<double>(const HaloSpec&);
template std::unique_ptr<Halo<Half>> make_peer_halo<Half>(const HaloSpec&);
template std::unique_ptr<Halo<BFloat16>> make_peer_halo<BFloat16>(const HaloSpec&);

}  // namespace wavefd::comm
