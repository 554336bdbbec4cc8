#include "comm/peer_messages.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <utility>

namespace wavefd::comm {

namespace {

// Rows shorter than this many bytes are copied by a kernel instead of the copy engines.
constexpr std::size_t kShortRowBytes = 128;
constexpr int kShortRowThreads = 256;
// Beside the update the kernel takes few blocks; ahead of it (early messages, which the update
// waits for) as many as the GPU holds at once.
constexpr int kBesideBlocks = 128, kAheadBlocksPerSM = 8;

// A box of short rows copied by the SMs, one Word a thread. The copy engines move such a box row by
// row: on four H100s the x faces of 512^3 per GPU (16-byte rows) took 725 us alone and ended about
// 1 ms into the step (2 x 1 x 2).
template <class Word>
__global__ void copy_short_rows(ShortRows b, std::int64_t words_per_row, std::int64_t rows, std::int64_t words) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t w = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < words; w += stride) {
    const std::int64_t line = w / words_per_row, word = w % words_per_row;
    const std::int64_t y = line % rows, z = line / rows;
    const auto* source = reinterpret_cast<const Word*>(b.from + y * b.from_row + z * b.from_plane);
    auto* target = reinterpret_cast<Word*>(b.to + y * b.to_row + z * b.to_plane);
    target[word] = source[word];
    if (b.pad != 0) target[b.pad] = Word{};
  }
}

// Launches copy_short_rows with the widest word that every row's start and length allow (the pad
// only with rows of one 16-byte word).
void launch_short_rows(ShortRows b, std::int64_t row_bytes, std::int64_t rows, std::int64_t planes, int blocks,
                       cudaStream_t stream) {
  const std::int64_t all = row_bytes | b.from_row | b.from_plane | b.to_row | b.to_plane |
                           std::int64_t(reinterpret_cast<std::uintptr_t>(b.from)) |
                           std::int64_t(reinterpret_cast<std::uintptr_t>(b.to));
  if (all % 16 == 0) {
    if (row_bytes != 16) b.pad = 0;
    copy_short_rows<uint4><<<blocks, kShortRowThreads, 0, stream>>>(b, row_bytes / 16, rows, row_bytes / 16 * rows * planes);
  } else {
    b.pad = 0;
    copy_short_rows<std::uint32_t><<<blocks, kShortRowThreads, 0, stream>>>(b, row_bytes / 4, rows,
                                                                           row_bytes / 4 * rows * planes);
  }
}

}  // namespace

// What the receiver of a message tells its sender: where the ghost box lies in each of its
// fields (an IPC handle of the allocation and the box's first point's byte offset in it), how its
// field is laid out, the flag to raise once the box holds the exchange's values, and where to say
// that the box of the message it sends back is free.
struct PeerMessages::Offer {
  static constexpr int kFields = 4;
  int fields = 0;
  std::array<cudaIpcMemHandle_t, kFields> field{};
  std::array<std::int64_t, kFields> field_at{};  // bytes from the allocation's base to the field
  std::int64_t box_at = 0;                        // bytes from the field to the box's first point
  cudaIpcMemHandle_t flags{};
  std::int64_t flag_offset = 0;   // bytes from the flags' base to this message's "landed" flag
  std::int64_t ready_offset = 0;  // ... to the "ready" flag of the message the receiver sends back
  PeerLayout layout;
  std::array<index_t, 3> extent{};  // the ghost box's, which must be the sender's interior box's
  int rank = -1;                    // the receiver's world rank (a rank's own messages skip IPC)
  cudaIpcMemHandle_t staging{};     // where a staged message lands (PeerMessages::staged_at_)
  std::int64_t staging_at = -1;     // bytes from the staging allocation's base, -1: not staged
};

namespace {

void cuda_check(cudaError_t rc, const char* call) {
  if (rc == cudaSuccess) return;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "wavefd: error: rank %d: transport peer: %s failed: %s\n", rank, call, cudaGetErrorString(rc));
  MPI_Abort(MPI_COMM_WORLD, 3);
}

// Driver calls that the runtime does not wrap, found through the runtime (no -lcuda).
template <class F>
F driver(const char* name) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q{};
  if (cudaGetDriverEntryPointByVersion(name, &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
      q != cudaDriverEntryPointSuccess || f == nullptr)
    return nullptr;
  return reinterpret_cast<F>(f);
}
using AddressRange = CUresult (*)(CUdeviceptr*, std::size_t*, CUdeviceptr);
using StreamValue = CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

}  // namespace

PeerMessages::PeerMessages(const std::vector<GhostMessage>& messages, const PeerLayout& layout,
                           std::vector<void*> fields, std::size_t elem_bytes)
    : messages_(&messages), layout_(layout), fields_(std::move(fields)), elem_(elem_bytes),
      offers_(messages.size()), taken_(messages.size()), targets_(messages.size()) {}

PeerMessages::~PeerMessages() {
  // The last copies into the peers and from them have been waited for by the steps that read
  // them; what this rank enqueued must end before its memory goes.
  cudaDeviceSynchronize();
  for (void* p : opened_) cudaIpcCloseMemHandle(p);
  cudaFree(flags_);
  cudaFree(count_);
  cudaFree(staging_);
  if (unpacked_ != nullptr) cudaEventDestroy(unpacked_);
}

std::string PeerMessages::prepare() {
  const auto range = driver<AddressRange>("cuMemGetAddressRange");
  if (range == nullptr) return "transport peer: the CUDA driver has no cuMemGetAddressRange";
  if (driver<StreamValue>("cuStreamWaitValue32") == nullptr || driver<StreamValue>("cuStreamWriteValue32") == nullptr)
    return "transport peer: the CUDA driver has no stream memory operations (cuStreamWaitValue32)";
  if (fields_.empty() || fields_.size() > std::size_t(Offer::kFields))
    return "transport peer needs the fields it exchanges up front (this engine gives " + std::to_string(fields_.size()) +
           "); accepted: nccl, mpi or mpi-gpu";
  const std::size_t n = messages_->size();
  // landed[i] then ready[i]: n each.
  cuda_check(cudaMalloc(&flags_, std::max<std::size_t>(2 * n, 1) * sizeof(std::uint32_t)), "cudaMalloc (flags)");
  cuda_check(cudaMemset(flags_, 0, std::max<std::size_t>(2 * n, 1) * sizeof(std::uint32_t)), "cudaMemset (flags)");
  cuda_check(cudaMalloc(&count_, sizeof(std::uint32_t)), "cudaMalloc (count)");
  cudaIpcMemHandle_t flags{};
  if (cudaIpcGetMemHandle(&flags, flags_) != cudaSuccess)
    return "transport peer: no IPC handle for device memory from cudaMalloc (" +
           std::string(cudaGetErrorString(cudaGetLastError())) + ")";
  // The early messages in the order they are sent and waited for: a rank sends its face towards +x
  // first, and that one fills the neighbour's box on the -x side, which the neighbour unpacks
  // first, so that it unpacks one face while the other travels (the other way round, four H100s,
  // 2 x 1 x 2: the first face to land waited ~25 us for the second to be unpacked after it).
  for (std::size_t i = 0; i < n; ++i)
    if ((*messages_)[i].early) early_sends_.push_back(i), early_waits_.push_back(i);
  const auto side = [&](std::size_t i) { return direction_of((*messages_)[i].send_tag); };
  std::stable_sort(early_sends_.begin(), early_sends_.end(), [&](std::size_t a, std::size_t b) { return side(a)[0] > side(b)[0]; });
  std::stable_sort(early_waits_.begin(), early_waits_.end(), [&](std::size_t a, std::size_t b) { return side(a)[0] < side(b)[0]; });
  // Staging for the early messages of short rows: where the neighbours' packed faces land.
  staged_at_.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const GhostMessage& m = (*messages_)[i];
    if (!m.early || std::size_t(m.send.extent(0)) * elem_ >= kShortRowBytes) continue;
    staged_at_[i] = staging_bytes_;
    staging_bytes_ += 2 * slot_bytes(i);  // two slots: exchanges alternate (peer_messages.hpp)
  }
  cudaIpcMemHandle_t staging{};
  if (staging_bytes_ > 0) {
    cuda_check(cudaMalloc(&staging_, std::size_t(staging_bytes_)), "cudaMalloc (staging)");
    if (cudaIpcGetMemHandle(&staging, staging_) != cudaSuccess)
      return "transport peer: no IPC handle for device memory from cudaMalloc (" +
             std::string(cudaGetErrorString(cudaGetLastError())) + ")";
  }
  cuda_check(cudaEventCreateWithFlags(&unpacked_, cudaEventDisableTiming), "cudaEventCreate");
  // Each field: its allocation's handle and base (a Kokkos view starts inside its allocation).
  std::vector<cudaIpcMemHandle_t> handles(fields_.size());
  std::vector<std::int64_t> from_base(fields_.size());
  for (std::size_t k = 0; k < fields_.size(); ++k) {
    CUdeviceptr base = 0;
    std::size_t size = 0;
    if (range(&base, &size, CUdeviceptr(fields_[k])) != CUDA_SUCCESS)
      return "transport peer: field " + std::to_string(k) + " is not device memory of this process";
    if (cudaIpcGetMemHandle(&handles[k], reinterpret_cast<void*>(base)) != cudaSuccess)
      return "transport peer: the fields' memory cannot be shared with other processes (" +
             std::string(cudaGetErrorString(cudaGetLastError())) +
             "; a Kokkos built with Kokkos_ENABLE_IMPL_CUDA_MALLOC_ASYNC allocates it from a pool); accepted: nccl, mpi";
    from_base[k] = std::int64_t(reinterpret_cast<char*>(fields_[k]) - reinterpret_cast<char*>(base));
  }
  const int me = world_rank();
  for (std::size_t i = 0; i < n; ++i) {
    const GhostMessage& m = (*messages_)[i];
    Offer& o = offers_[i];
    o.fields = int(fields_.size());
    o.box_at = std::int64_t(layout_.at(m.recv.lo[0], m.recv.lo[1], m.recv.lo[2]) * index_t(elem_));
    for (std::size_t k = 0; k < fields_.size(); ++k) o.field[k] = handles[k], o.field_at[k] = from_base[k];
    o.flags = flags;
    o.flag_offset = std::int64_t(i * sizeof(std::uint32_t));
    o.ready_offset = std::int64_t((n + i) * sizeof(std::uint32_t));
    o.layout = layout_;
    for (int a = 0; a < 3; ++a) o.extent[std::size_t(a)] = m.recv.extent(a);
    o.rank = me;
    o.staging = staging;
    o.staging_at = staged_at_[i];
  }
  return "";
}

void PeerMessages::trade() {
  // The offer for message i goes to its peer with the tag it will send under (its recv_tag); the
  // offer for where message i goes comes from the peer under i's send_tag.
  std::vector<MPI_Request> requests;
  requests.reserve(2 * messages_->size());
  for (std::size_t i = 0; i < messages_->size(); ++i) {
    const GhostMessage& m = (*messages_)[i];
    requests.emplace_back();
    MPI_Irecv(&taken_[i], int(sizeof(Offer)), MPI_BYTE, m.peer, m.send_tag, MPI_COMM_WORLD, &requests.back());
    requests.emplace_back();
    MPI_Isend(&offers_[i], int(sizeof(Offer)), MPI_BYTE, m.peer, m.recv_tag, MPI_COMM_WORLD, &requests.back());
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

std::string PeerMessages::map() {
  const int me = world_rank();
  std::map<std::pair<int, std::string>, char*> bases;  // one open per (rank, handle)
  auto open = [&](int rank, const cudaIpcMemHandle_t& h, char*& base) -> std::string {
    const std::pair<int, std::string> key{rank, std::string(h.reserved, sizeof h.reserved)};
    if (auto it = bases.find(key); it != bases.end()) return base = it->second, "";
    void* p = nullptr;
    if (cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess)
      return "transport peer: rank " + std::to_string(rank) + "'s memory cannot be mapped here (" +
             cudaGetErrorString(cudaGetLastError()) + "); accepted: nccl, mpi";
    opened_.push_back(p);
    return base = bases[key] = static_cast<char*>(p), "";
  };
  for (std::size_t i = 0; i < messages_->size(); ++i) {
    const GhostMessage& m = (*messages_)[i];
    const Offer& o = taken_[i];
    for (int a = 0; a < 3; ++a)
      if (o.extent[std::size_t(a)] != m.send.extent(a) || o.fields != int(fields_.size()))
        return "transport peer: rank " + std::to_string(m.peer) + "'s ghost box does not match this rank's face";
    Target& t = targets_[i];
    t.layout = o.layout;
    t.field.assign(fields_.size(), nullptr);
    if ((o.staging_at < 0) != (staged_at_[i] < 0))
      return "transport peer: rank " + std::to_string(m.peer) + " stages a message this rank does not";
    if (o.rank == me) {  // a periodic axis sent to itself: its own memory
      for (std::size_t k = 0; k < fields_.size(); ++k) t.field[k] = static_cast<char*>(fields_[k]) + o.box_at;
      if (o.staging_at >= 0) t.staging = static_cast<char*>(staging_) + o.staging_at;
      t.flag = flags_ + o.flag_offset / std::int64_t(sizeof(std::uint32_t));
      t.ready = flags_ + o.ready_offset / std::int64_t(sizeof(std::uint32_t));
      continue;
    }
    for (std::size_t k = 0; k < fields_.size(); ++k) {
      char* base = nullptr;
      if (std::string e = open(o.rank, o.field[k], base); !e.empty()) return e;
      t.field[k] = base + o.field_at[k] + o.box_at;
    }
    if (o.staging_at >= 0) {
      char* base = nullptr;
      if (std::string e = open(o.rank, o.staging, base); !e.empty()) return e;
      t.staging = base + o.staging_at;
    }
    char* flags = nullptr;
    if (std::string e = open(o.rank, o.flags, flags); !e.empty()) return e;
    t.flag = reinterpret_cast<std::uint32_t*>(flags + o.flag_offset);
    t.ready = reinterpret_cast<std::uint32_t*>(flags + o.ready_offset);
  }
  return "";
}

void PeerMessages::post(int k, cudaStream_t stream) {
  ++exchanges_;
  field_ = k;
  posted_on_ = stream;
  static const auto wait_value = driver<StreamValue>("cuStreamWaitValue32");
  const std::size_t n = messages_->size();
  signal(count_, stream);
  // The staged messages first, each with its "landed" flag right behind it: the update waits for
  // them, and they wait for nothing (see the slots in peer_messages.hpp).
  for (const std::size_t i : early_sends_)
    if (staged_at_[i] >= 0) copy_staged(i, true, k, stream), land(i, stream);
  // This rank's ghost boxes are free for this exchange's values: the stream has done everything
  // enqueued before (the update that last read them, and any writes to the field from outside, such
  // as initial values over the ghosts). Each peer learns it through its "ready" flag for the
  // message it sends here, and copies only after that. Staged messages need none: the message back
  // of a staged one is staged too.
  for (std::size_t i = 0; i < n; ++i)
    if (staged_at_[i] < 0)
      cuda_check(cudaMemcpyAsync(targets_[i].ready, count_, sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream),
                 "cudaMemcpyAsync (ready)");
  // Then the other early messages, then the late ones (their flags behind all of them).
  for (const bool early : {true, false})
    for (std::size_t i = 0; i < n; ++i) {
      if ((*messages_)[i].early != early || staged_at_[i] >= 0) continue;
      if (wait_value(stream, CUdeviceptr(flags_ + n + i), exchanges_, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS)
        cuda_check(cudaErrorUnknown, "cuStreamWaitValue32");
      copy(i, k, stream);
      if (early) land(i, stream);
    }
  for (std::size_t i = 0; i < n; ++i)
    if (!(*messages_)[i].early) land(i, stream);
}

void PeerMessages::land(std::size_t i, cudaStream_t stream) {
  const GhostMessage& m = (*messages_)[i];
  if (staged_at_[i] >= 0 || std::size_t(m.send.extent(0)) * elem_ < kShortRowBytes) {
    signal(targets_[i].flag, stream);  // the values came from a kernel
    return;
  }
  cuda_check(cudaMemcpyAsync(targets_[i].flag, count_, sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream),
             "cudaMemcpyAsync (flag)");
}

std::int64_t PeerMessages::slot_bytes(std::size_t i) const {
  return (std::int64_t((*messages_)[i].send.size()) * std::int64_t(elem_) + 255) / 256 * 256;
}

ShortRows PeerMessages::packed_rows(std::size_t i, int k) const {
  const GhostMessage& m = (*messages_)[i];
  const std::int64_t row = m.send.extent(0) * std::int64_t(elem_);
  ShortRows r;
  r.from = static_cast<const char*>(fields_[std::size_t(k)]) +
           std::ptrdiff_t(layout_.at(m.send.lo[0], m.send.lo[1], m.send.lo[2]) * index_t(elem_));
  r.from_row = layout_.sy * std::int64_t(elem_), r.from_plane = layout_.sz * std::int64_t(elem_);
  r.to = targets_[i].staging + slot_of(exchanges_) * slot_bytes(i);
  r.to_row = row, r.to_plane = row * m.send.extent(1);
  return r;
}

ShortRows PeerMessages::unpacked_rows(std::size_t i) const {
  const GhostMessage& m = (*messages_)[i];
  const std::int64_t row = m.recv.extent(0) * std::int64_t(elem_), e = std::int64_t(elem_);
  ShortRows r;
  r.from = static_cast<char*>(staging_) + staged_at_[i] + slot_of(exchanges_) * slot_bytes(i);
  r.from_row = row, r.from_plane = row * m.recv.extent(1);
  r.to = static_cast<char*>(fields_[std::size_t(field_)]) +
         std::ptrdiff_t(layout_.at(m.recv.lo[0], m.recv.lo[1], m.recv.lo[2]) * index_t(elem_));
  r.to_row = layout_.sy * e, r.to_plane = layout_.sz * e;
  // A row of 16 bytes in half a sector: the other half too, where it is row padding (outside the
  // ghosts and the interior, [-h, n + h) along x, within the pitch). Four H100s, 512^3 per GPU:
  // the update started 8-32 us sooner (2 x 1 x 2, 4 x 1 x 1, 2 x 2 x 1 at 6af1046).
  const std::int64_t lead = layout_.origin % layout_.sy;  // pitch start to x = 0, in values
  const std::int64_t at = (lead + m.recv.lo[0]) * e;      // the row's bytes from the pitch start
  if (row == 16) {
    const std::int64_t ghosts_lo = (lead - layout_.halo) * e, ghosts_hi = (lead + layout_.nx + layout_.halo) * e;
    if (at % 32 == 16 && at - 16 >= 0 && at - 16 < ghosts_lo) r.pad = -1;
    if (at % 32 == 0 && at + 32 <= layout_.sy * e && at + 16 >= ghosts_hi) r.pad = +1;
  }
  return r;
}

void PeerMessages::copy(std::size_t i, int k, cudaStream_t stream) {
  const GhostMessage& m = (*messages_)[i];
  const Target& t = targets_[i];
  const std::size_t row = std::size_t(m.send.extent(0)) * elem_;
  const char* from = static_cast<const char*>(fields_[std::size_t(k)]) +
                     std::ptrdiff_t(layout_.at(m.send.lo[0], m.send.lo[1], m.send.lo[2]) * index_t(elem_));
  const std::size_t from_row = std::size_t(layout_.sy) * elem_, to_row = std::size_t(t.layout.sy) * elem_;
  const std::int64_t from_plane = std::int64_t(layout_.sz) * std::int64_t(elem_);
  if (row < kShortRowBytes) {  // beside the update
    ShortRows r{from, t.field[std::size_t(k)], std::int64_t(from_row), from_plane, std::int64_t(to_row),
                std::int64_t(t.layout.sz) * std::int64_t(elem_), 0};
    launch_short_rows(r, std::int64_t(row), m.send.extent(1), m.send.extent(2), kBesideBlocks, stream);
    cuda_check(cudaGetLastError(), "copy_short_rows");
    return;
  }
  cudaMemcpy3DParms p{};
  // Rows of the box are sy apart, planes sz: a pitched 3-D view whose planes are sz / sy rows.
  p.srcPtr = make_cudaPitchedPtr(const_cast<char*>(from), from_row, row, std::size_t(layout_.sz / layout_.sy));
  p.dstPtr = make_cudaPitchedPtr(t.field[std::size_t(k)], to_row, row, std::size_t(t.layout.sz / t.layout.sy));
  p.extent = make_cudaExtent(row, std::size_t(m.send.extent(1)), std::size_t(m.send.extent(2)));
  p.kind = cudaMemcpyDeviceToDevice;
  cuda_check(cudaMemcpy3DAsync(&p, stream), "cudaMemcpy3DAsync");
}

void PeerMessages::copy_staged(std::size_t i, bool pack, int k, cudaStream_t stream) {
  const GhostMessage& m = (*messages_)[i];
  launch_short_rows(pack ? packed_rows(i, k) : unpacked_rows(i), m.send.extent(0) * std::int64_t(elem_), m.send.extent(1),
                    m.send.extent(2), ahead_blocks(), stream);
  cuda_check(cudaGetLastError(), pack ? "copy_short_rows (pack)" : "copy_short_rows (unpack)");
}

void PeerMessages::signal(std::uint32_t* flag, cudaStream_t stream) const {
  // The default write is fenced: the work before it on the stream, remote stores included, is
  // visible to whoever sees the value.
  static const auto write = driver<StreamValue>("cuStreamWriteValue32");
  if (write(stream, CUdeviceptr(flag), exchanges_, CU_STREAM_WRITE_VALUE_DEFAULT) != CUDA_SUCCESS)
    cuda_check(cudaErrorUnknown, "cuStreamWriteValue32");
}

void PeerMessages::wait_early(cudaStream_t stream) {
  static const auto wait_value = driver<StreamValue>("cuStreamWaitValue32");
  bool staged = false;
  for (const std::size_t i : early_waits_) {
    if (wait_value(stream, CUdeviceptr(flags_ + i), exchanges_, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS)
      cuda_check(cudaErrorUnknown, "cuStreamWaitValue32");
    if (staged_at_[i] < 0) continue;
    staged = true;
    copy_staged(i, false, field_, stream);
  }
  // This rank's next flags, on the stream of post(), come after these unpacks: a peer that sees
  // them may write the slot read here again (two exchanges on).
  if (staged) {
    cuda_check(cudaEventRecord(unpacked_, stream), "cudaEventRecord");
    cuda_check(cudaStreamWaitEvent(posted_on_, unpacked_, 0), "cudaStreamWaitEvent");
  }
}

int PeerMessages::ahead_blocks() {
  static const int blocks = [] {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return std::max(kBesideBlocks, sms * kAheadBlocksPerSM);
  }();
  return blocks;
}

void PeerMessages::wait(cudaStream_t stream) {
  static const auto wait_value = driver<StreamValue>("cuStreamWaitValue32");
  for (std::size_t i = 0; i < messages_->size(); ++i)
    if (wait_value(stream, CUdeviceptr(flags_ + i), exchanges_, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS)
      cuda_check(cudaErrorUnknown, "cuStreamWaitValue32");
}

}  // namespace wavefd::comm
