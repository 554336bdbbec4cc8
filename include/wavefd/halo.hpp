#pragma once
// Halo interface: start() begins filling the ghost layers of a field, finish() completes it.
// The time loop updates the interior between the two, so overlapping communication with
// computation is a property of the loop, not of each transport. Each transport lives in its own
// file under src/comm/ (local, mpi, mpi-gpu, nccl, peer) and is listed once in src/comm/transport.cpp.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "wavefd/decomposition.hpp"
#include "wavefd/grid.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {

// zero: the ghosts beyond the grid hold 0 at all times (the seismic model's Dirichlet frame, as
// minimod's); nothing fills them, so fields must be created with zero ghosts. Not a deck value of
// `wavefd run`.
enum class Boundary { periodic, rigid, zero };
std::string_view to_string(Boundary b);
Boundary parse_boundary(std::string_view name);  // throws Error naming the accepted values

// How ghosts travel between subdomains (parallel.transport).
//  local:   one rank; ghosts are filled from the field itself (periodic wrap, rigid reflection).
//  mpi:     faces packed on the device, staged through pinned host memory: a host window the node
//           shares (no copy by MPI) between ranks of one node, MPI_Isend/Irecv between nodes.
//  mpi-gpu: device buffers handed to a GPU-aware MPI.
//  nccl:    grouped ncclSend/ncclRecv on the halo stream (CUDA builds with NCCL).
//  peer:    the ranks of one node copy their faces into each other's ghosts with the copy engines,
//           through memory mapped across processes (CUDA builds with MPI; src/comm/peer_halo.cpp).
enum class Transport { local, mpi, mpi_gpu, nccl, peer };
inline constexpr Transport kTransports[] = {Transport::local, Transport::mpi, Transport::mpi_gpu, Transport::nccl,
                                            Transport::peer};
std::string_view to_string(Transport t);
// "auto" is resolved by choose_transport(); anything else must name a transport. Throws Error.
Transport parse_transport(std::string_view name);

// Host time spent in each phase of the halo, summed over exchanges (seconds).
struct HaloTimes {
  double pack = 0;    // start(): pack, stage, post (the ghost fill itself for `local`)
  double wait = 0;    // finish(): waiting for the messages
  double unpack = 0;  // finish(): copy back, unpack, rigid walls
  long exchanges = 0;
};

// The packed send buffer of an exchange whose packed messages are all faces, for a kernel to store
// the points next to those faces into as it updates them (GhostImages::send, send_at): buffer null
// where it cannot (no packed message, or an edge or corner among them).
struct SendFaces {
  void* buffer = nullptr;
  std::int64_t at[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // [axis][side]: the face's box in the buffer, or -1
};

template <class T>
class Halo {
 public:
  virtual ~Halo() = default;
  virtual std::string name() const = 0;
  // Work is enqueued on the halo's execution space instance, except the fill of the ghosts that
  // need no message: start() enqueues those first, on the early instance (HaloSpec::early), so that
  // work enqueued there afterwards (an overlapped step's core) reads them without a fence. After
  // finish() all ghosts are complete for work enqueued later on the halo's instance (fence it
  // before using another one).
  virtual void start(Field<T>& f) = 0;
  virtual void finish(Field<T>& f) = 0;
  // late()[axis]: the ghosts beyond that axis' faces are only complete after finish(), so an
  // overlapped step keeps the points within R of those faces out of the core. The late axes are
  // the last one, two or three of x, y, z (comm::ShellPart), or none.
  virtual std::array<bool, 3> late() const { return {true, true, true}; }
  // Off: start() leaves the ghosts that need no message alone, except where they read ghosts that
  // arrive by message (edges): the kernel stores them as ghost images (GhostFillMode::kernel).
  // Exchanging transports only; on by default.
  virtual void fill_early(bool on) { (void)on; }
  // Where an update can store the packed faces itself (see SendFaces).
  virtual SendFaces send_faces() const { return {}; }
  // On: the send buffer already holds the faces of the field the next start() gets (the update
  // stored them through send_faces()), so that start() posts the messages without a pack kernel.
  // For the next start() only.
  virtual void packed_by_update(bool on) { (void)on; }
  // Whether the messages leave the GPU's cores free (copy engines, no kernels): an overlapped step's
  // ghosts then arrive early in the core's update, and its shell runs beside the core.
  virtual bool moves_without_kernels() const { return false; }
  const HaloTimes& times() const { return times_; }
  void reset_times() { times_ = {}; }

 protected:
  HaloTimes times_;
};

// Everything a transport needs to build its exchange.
struct HaloSpec {
  Boundary boundary = Boundary::periodic;
  Transport transport = Transport::local;
  Decomposition decomposition;
  Subdomain sub;                // this rank
  Layout layout;                // this rank's storage (halo width = stencil radius)
  std::vector<Offset> offsets;  // the stencil's reach decides which ghost regions are exchanged
  Kokkos::DefaultExecutionSpace exec{};
  // Where start() fills the ghosts that need no message (the instance that updates the core);
  // unset: exec.
  std::optional<Kokkos::DefaultExecutionSpace> early{};
  // A periodic axis this rank spans alone: its ghosts are wrapped in place after the messages
  // (true), or sent to itself through the transport (false: what `wavefd probe` times as a self link).
  bool wrap_own_axes = true;
  // The fields start() and finish() will be given, in the same order on every rank (the engine's
  // u and u-): `peer` maps them into its neighbours' processes up front. Empty: not known.
  std::vector<const void*> fields{};
};

// The transport for `spec.transport`; throws Error for one this build lacks.
template <class T>
std::unique_ptr<Halo<T>> make_halo(const HaloSpec& spec);

// Fills ghosts from the field itself, every ghost point in one kernel, edges and corners
// included (the same values as filling x, then y over x ghosts, then z over both).
//  periodic: ghost -g <- n-g, ghost n-1+g <- g-1.
//  rigid:    the walls are nodes at -1 and n where u = 0; ghosts are odd reflections about them:
//            u(-1-m) = -u(-1+m), u(n+m) = -u(n-m).
// start() fills the x and y faces (on `early`, if given), finish() the z ghost planes: late() is z.
template <class T>
std::unique_ptr<Halo<T>> make_local_halo(Boundary b, const Kokkos::DefaultExecutionSpace& exec = {},
                                         std::optional<Kokkos::DefaultExecutionSpace> early = {});

}  // namespace wavefd
