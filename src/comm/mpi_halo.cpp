// `mpi`: host-staged exchange, for MPI libraries that take no device memory and builds without
// NCCL. Faces are packed on the device (or stored there by the update), and each message then goes
// its own way, every copy on the copy engines and overlapped with the others and with the update:
//  - to a rank of this node: one device-to-host copy straight into the receiver's part of a host
//    window the node shares (node_window.hpp), then a message of no bytes that says it landed,
//    then the receiver's host-to-device copy. MPI copies nothing.
//  - to another node: a device-to-host copy into pinned memory, MPI_Isend once that copy is done,
//    MPI_Irecv into this rank's window part (pinned too), then its host-to-device copy.
// Messages travel in pieces of 1 MiB: the host sends each piece as soon as its own copy has landed
// (copy_marks.hpp) and starts each receiver's copy as soon as the piece is in, while the update
// runs on the GPU. Each window part holds two exchanges' values: a sender writes exchange k + 2
// only after the receiver's notice of exchange k + 1, which follows, on the receiver's halo
// instance, its copies of exchange k.
// On host builds the copies are host copies and messages in place (z planes) go straight from and
// into the field.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "comm/copy_marks.hpp"
#include "comm/exchange_halo.hpp"
#include "comm/mpi_messages.hpp"
#include "comm/node_window.hpp"
#include "wavefd/halo_instance.hpp"
#include "wavefd/parallel.hpp"

namespace wavefd::comm {

namespace {

constexpr bool kStaged = !std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;

// How one message travels.
enum class Route {
  direct,  // MPI from and into the rank's own memory (host builds: the field or the packed buffers)
  window,  // a copy into the receiver's window part, then a notice
  staged,  // another node, from a device: a copy to pinned memory, then MPI into the window part
};

// Where the receiver of a message wants it: its offset in the receiver's window part, and the
// size of one exchange there (the part holds two).
struct Slot {
  std::int64_t at = 0, exchange = 0;
};

// Messages through the host travel in pieces of at most this many bytes, each sent once its own
// copy has landed and copied in once it arrived, so that one message's copies to and from the host
// overlap (two H100s, one 4 MiB message each way: 17-19 GB/s whole, 18-22 in pieces). A step's
// exchange of several faces is at the host link's floor either way (four H100s, 1 x 2 x 2: 810 us
// whole, 829 in pieces; 256 KiB pieces, 1105). $WAVEFD_MPI_PIECE_BYTES sets another size.
constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

std::size_t piece_bytes() {
  const char* text = std::getenv("WAVEFD_MPI_PIECE_BYTES");
  if (text == nullptr || *text == '\0') return kPieceBytes;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || v < 8 || v > (1LL << 30))
    throw Error("WAVEFD_MPI_PIECE_BYTES = '" + std::string(text) + "' is not valid; accepted: an integer from 8 to 2^30 (bytes)");
  return std::size_t(v);
}

// A run of one message's values that travels on its own.
struct Piece {
  std::size_t message = 0;
  index_t at = 0, count = 0;  // values from the message's start
};

template <class T>
class MpiHalo final : public ExchangeHalo<T> {
 public:
  explicit MpiHalo(const HaloSpec& spec)
      : ExchangeHalo<T>(spec, !kStaged), window_(2 * std::size_t(this->plan_.recv_count) * sizeof(T)) {
    const std::vector<GhostMessage>& ms = this->plan_.messages;
    std::size_t bytes = 0;
    agree([&] { bytes = piece_bytes(); });
    routes_.resize(ms.size());
    for (std::size_t i = 0; i < ms.size(); ++i) {
      routes_[i] = ms[i].in_place             ? Route::direct
                   : window_.part(ms[i].peer) ? Route::window
                   : kStaged                  ? Route::staged
                                              : Route::direct;
      const index_t most = routes_[i] != Route::direct ? std::max<index_t>(index_t(bytes / sizeof(T)), 1) : ms[i].length;
      for (index_t at = 0; at < ms[i].length; at += most)
        pieces_.push_back({i, at, std::min(most, ms[i].length - at)});
    }
    marks_ = std::make_unique<CopyMarks>(pieces_.size());
    requests_.resize(2 * pieces_.size());
    arrived_.resize(pieces_.size());
    sent_.assign(pieces_.size(), false);
    trade_slots();
    if constexpr (kStaged) {
      copy_in_instance_ = std::make_unique<HaloInstance>(this->exec_);
      copy_in_ = copy_in_instance_->exec();
      host_send_ = PinnedBuffer(Kokkos::view_alloc("wavefd::halo_send_host", Kokkos::WithoutInitializing),
                                this->plan_.send_count);
    } else {
      copy_in_ = this->exec_;
    }
    if (!window_.not_pinned().empty() && world_rank() == 0)
      std::fprintf(stderr, "wavefd: warning: transport mpi: the node's host window is not pinned (%s); its copies run "
                           "at pageable speed\n", window_.not_pinned().c_str());
  }
  std::string name() const override { return "mpi"; }

 protected:
  void transfer(const std::vector<Wire<T>>& wires) override {
    const std::vector<GhostMessage>& ms = this->plan_.messages;
    const std::size_t n = pieces_.size();
    parity_ = 1 - parity_;
    if (!kStaged) this->exec_.fence("wavefd::halo_pack");  // host copies and MPI read the packed buffers now
    // Receives first, so that eager sends find them posted. A peer's pieces under one tag match
    // the receives in the order they were posted (MPI's non-overtaking rule).
    for (std::size_t k = 0; k < n; ++k) {
      const Piece& p = pieces_[k];
      const GhostMessage& m = ms[p.message];
      const Route r = routes_[p.message];
      if (r == Route::window)
        mpi_check(MPI_Irecv(nullptr, 0, MPI_BYTE, m.peer, m.recv_tag, MPI_COMM_WORLD, &requests_[k]), "MPI_Irecv");
      else
        mpi_check(MPI_Irecv((r == Route::direct ? wires[p.message].recv : landing(p.message)) + p.at, int(p.count),
                            mpi_type<T>(), m.peer, m.recv_tag, MPI_COMM_WORLD, &requests_[k]),
                  "MPI_Irecv");
    }
    for (std::size_t k = 0; k < n; ++k) {
      const Piece& p = pieces_[k];
      sent_[k] = false;
      if (routes_[p.message] == Route::direct) {
        post_send(k, wires[p.message].send + p.at);
        continue;
      }
      T* to = (routes_[p.message] == Route::window ? destination(p.message) : host_send_.data() + ms[p.message].send_at) + p.at;
      Kokkos::deep_copy(this->exec_, HostValues(to, std::size_t(p.count)),
                        ConstDeviceValues(wires[p.message].send + p.at, std::size_t(p.count)));
      marks_->record(k, this->exec_);
    }
  }

  // Sends each piece whose copy has landed and starts the copy of each that arrived, as they
  // happen, until every piece is out and in.
  void complete() override {
    const std::vector<GhostMessage>& ms = this->plan_.messages;
    const std::size_t n = pieces_.size();
    std::size_t out = 0, in = 0;
    for (std::size_t k = 0; k < n; ++k) out += sent_[k];
    while (out < n || in < n) {
      for (std::size_t k = 0; k < n; ++k)
        if (!sent_[k] && marks_->reached(k)) {
          const Piece& p = pieces_[k];
          if (routes_[p.message] == Route::window) window_.sync();  // the copy's values before the notice
          post_send(k, routes_[p.message] == Route::window ? nullptr : host_send_.data() + ms[p.message].send_at + p.at);
          ++out;
        }
      if (in == n) continue;
      int count = 0;
      mpi_check(MPI_Testsome(int(n), requests_.data(), &count, arrived_.data(), MPI_STATUSES_IGNORE), "MPI_Testsome");
      if (count == MPI_UNDEFINED) count = 0;
      in += std::size_t(count);
      for (int j = 0; j < count; ++j) {
        const Piece& p = pieces_[std::size_t(arrived_[std::size_t(j)])];
        if (routes_[p.message] == Route::direct) continue;  // in place already
        if (routes_[p.message] == Route::window) window_.sync();
        Kokkos::deep_copy(copy_in_, DeviceValues(this->recv_.data() + ms[p.message].recv_at + p.at, std::size_t(p.count)),
                          HostValues(landing(p.message) + p.at, std::size_t(p.count)));
      }
    }
    copy_in_.fence("wavefd::halo_copy_in");  // before the unpack on exec_
    mpi_check(MPI_Waitall(int(n), requests_.data() + n, MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  using HostValues = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
  using DeviceValues = Kokkos::View<T*, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::MemoryUnmanaged>;
  using ConstDeviceValues = Kokkos::View<const T*, Kokkos::DefaultExecutionSpace::memory_space, Kokkos::MemoryUnmanaged>;
  using PinnedBuffer = Kokkos::View<T*, Kokkos::SharedHostPinnedSpace>;

  // Each receiver tells each sender where its message goes in the receiver's window part.
  void trade_slots() {
    const std::vector<GhostMessage>& ms = this->plan_.messages;
    const std::size_t n = ms.size();
    std::vector<Slot> offered(n), taken(n);
    std::vector<MPI_Request> requests(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      offered[i] = {std::int64_t(ms[i].recv_at), std::int64_t(this->plan_.recv_count)};
      mpi_check(MPI_Irecv(&taken[i], int(sizeof(Slot)), MPI_BYTE, ms[i].peer, ms[i].send_tag, MPI_COMM_WORLD,
                          &requests[i]),
                "MPI_Irecv");
      mpi_check(MPI_Isend(&offered[i], int(sizeof(Slot)), MPI_BYTE, ms[i].peer, ms[i].recv_tag, MPI_COMM_WORLD,
                          &requests[n + i]),
                "MPI_Isend");
    }
    mpi_check(MPI_Waitall(int(2 * n), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    slots_ = std::move(taken);
  }

  // Message i's values in the receiver's window part (this exchange's half), and where message i
  // lands in this rank's part.
  T* destination(std::size_t i) const {
    return reinterpret_cast<T*>(window_.part(this->plan_.messages[i].peer)) + parity_ * slots_[i].exchange +
           slots_[i].at;
  }
  T* landing(std::size_t i) const {
    return reinterpret_cast<T*>(window_.mine()) + parity_ * this->plan_.recv_count + this->plan_.messages[i].recv_at;
  }

  void post_send(std::size_t k, const T* from) {
    const Piece& p = pieces_[k];
    const GhostMessage& m = this->plan_.messages[p.message];
    const bool notice = routes_[p.message] == Route::window;
    mpi_check(MPI_Isend(from, notice ? 0 : int(p.count), notice ? MPI_BYTE : mpi_type<T>(), m.peer, m.send_tag,
                        MPI_COMM_WORLD, &requests_[pieces_.size() + k]),
              "MPI_Isend");
    sent_[k] = true;
  }

  NodeWindow window_;
  std::vector<Route> routes_;  // [message]
  std::vector<Slot> slots_;    // [message]: where it goes in its receiver's window part
  std::vector<Piece> pieces_;
  std::unique_ptr<CopyMarks> marks_;   // [piece]: its copy to the host
  std::vector<bool> sent_;             // [piece]: posted in this exchange
  std::vector<MPI_Request> requests_;  // [piece] receives, then [piece] sends
  std::vector<int> arrived_;           // complete()'s MPI_Testsome: which receives are in
  // Host-to-device copies, on a stream of their own beside exec_'s device-to-host ones (exec_ itself
  // on host builds).
  std::unique_ptr<HaloInstance> copy_in_instance_;
  Kokkos::DefaultExecutionSpace copy_in_;
  PinnedBuffer host_send_;
  int parity_ = 1;  // which half of the window parts this exchange uses
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_mpi_halo(const HaloSpec& spec) {
  // Not make_connected(): the slot trade at construction has already connected every pair.
  return std::make_unique<MpiHalo<T>>(spec);
}

template std::unique_ptr<Halo<float>> make_mpi_halo<float>(const HaloSpec&);
template std::unique_ptr<Halo<double>> make_mpi_halo<double>(const HaloSpec&);
template std::unique_ptr<Halo<Half>> make_mpi_halo<Half>(const HaloSpec&);
template std::unique_ptr<Halo<BFloat16>> make_mpi_halo<BFloat16>(const HaloSpec&);

}  // namespace wavefd::comm
