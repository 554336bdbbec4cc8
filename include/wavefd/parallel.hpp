#pragma once
// The MPI side of a run, usable in builds without MPI (one rank, everything trivial): rank and
// size, agreement on errors, reductions, and what the MPI library and NCCL offer.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wavefd/halo.hpp"

namespace wavefd {

int world_rank();  // 0 without MPI or before MPI_Init
int world_size();  // 1 without MPI or before MPI_Init
int node_local_rank();  // rank among those sharing this node (MPI_COMM_TYPE_SHARED)
int node_ranks();       // the ranks sharing this node

// The node this rank talks from, for communication (the probe's kinds of link, the model's link
// per face): $NCCL_HOSTID where it is set, the variable by which NCCL decides which ranks share a
// host, so that wavefd and NCCL agree; else MPI's processor name. scripts/pseudo_nodes.sh sets
// it per rank to rehearse several nodes on one host (docs/scaling.md); the GPU a rank takes still
// follows the real host (node_local_rank).
std::string communication_node();

// An error every rank knows about: main() prints it once (rank 0) and every rank exits normally.
class AgreedError : public Error {
 public:
  using Error::Error;
};

// Runs `check` on every rank. If it throws Error on any rank, every rank throws AgreedError with
// the message of the lowest failing rank (prefixed with "rank r: " when that is not every rank).
// Collective: every rank must call it.
void agree(const std::function<void()>& check);

// One rank's resolved configuration: (key, value) pairs in an order every rank shares, e.g.
// {"command", "run"}, {"scheme.steps", "20"}.
using Settings = std::vector<std::pair<std::string, std::string>>;

// Compares every rank's settings with rank 0's (a 64-bit digest, reduced; the lists themselves
// only when the digests differ). On a difference every rank throws AgreedError naming the first
// key that differs on the lowest such rank: "the ranks disagree: scheme.steps = 20 on rank 0, 30
// on rank 2 (and 1 other rank); accepted: the same configuration on every rank". Collective:
// every rank calls it right after parsing, whatever it parsed.
void agree_on_settings(const Settings& mine);

// Whether an MPI launcher started this process (its environment says so): then every command
// initialises MPI, so that ranks started with different commands still meet in agree_on_settings.
bool launched_by_mpi();
// MPI_Init where it is not on yet: main() under a launcher, and the MPI-backed transports and the
// probe on a process started alone (a singleton: over a second with some MPI libraries, so a run
// on one rank without them never pays it). A no-op without MPI.
void start_mpi();
void finish_mpi();  // MPI_Finalize where MPI is on (main(), after Kokkos is finalized)

double max_over_ranks(double v);
double min_over_ranks(double v);
double sum_over_ranks(double v);
// Returns once every rank has called it (collective). Timed loops start after it: a run's time is
// its slowest rank's, and without it the rank out of its setup first counted its wait for the
// others' (4 GPUs by NCCL, the 3 cm hall, whose ranks set up different walls: 300 steps took 0.94 s,
// and 0.13 s once the ranks started together).
void wait_for_every_rank();
// Element-wise sums over all ranks, valid on rank 0 (collective; every rank passes the same size).
std::vector<double> sum_onto_root(const std::vector<double>& v);
// Every rank's values, one rank after another, on rank 0 (collective; sizes may differ).
std::vector<double> gather_onto_root(const std::vector<double>& v);
// Every rank's `mine`, by rank, on every rank (collective; {mine} without MPI or on one rank).
std::vector<std::string> on_every_rank(const std::string& mine);

// Whether the MPI library takes device pointers: "yes", "no" or "unknown" (it cannot tell), from
// MPIX_Query_cuda_support / MPIX_Query_rocm_support where the library has them; "not needed" on
// host builds (device memory is host memory).
std::string mpi_gpu_aware();
std::string nccl_version();  // "" when this build has no NCCL

// The transports this build and MPI library can run, and why the others cannot (for `wavefd
// info` and for the error when one is requested).
// `gpu_aware` is parallel.gpu_aware: auto (ask the library; mpi-gpu needs a "yes"), yes (for
// libraries that cannot tell, e.g. Cray MPICH with MPICH_GPU_SUPPORT_ENABLED=1) or no.
bool transport_available(Transport t, const std::string& gpu_aware = "auto", std::string* why_not = nullptr);
// The transports this build and MPI library offer, as a message lists them ("local, mpi"); with
// `links_only`, those that move ghosts between ranks (no local).
std::string available_transports(const std::string& gpu_aware, bool links_only = false);
// parallel.transport = auto: local on one rank; else peer when this build has it, the caller takes
// it (`takes_peer`) and every rank is on one node with a GPU of its own (collective then); else nccl
// when built, then mpi-gpu when the library is GPU-aware, then mpi. Any other value is checked
// against this build. `why`, when given, receives the reason in a few words. Throws Error.
Transport choose_transport(const std::string& requested, int ranks, const std::string& gpu_aware = "auto",
                           bool takes_peer = true, std::string* why = nullptr);
// Why peer cannot carry every message of this run ("" when it can): the ranks span more than one
// node for communication (communication_node()), or two share a GPU. Collective.
std::string why_not_peer_for_all();

// parallel.overlap: auto | true | false (also on | off). auto = on when there are other ranks to
// exchange with: on one GPU every overlap measured so far was slower than none (the shell slabs
// cost more than the ghost traffic they hide; docs/performance.md). Throws Error for other values.
bool resolve_overlap(const std::string& value, Transport t, int ranks, const std::string& what);

// Throws Error when two ranks of this run share one device (NCCL refuses that). Collective.
void check_one_rank_per_device(const std::string& what);

}  // namespace wavefd
