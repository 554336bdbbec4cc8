#include "wavefd/parallel.hpp"

#include "wavefd/grid.hpp"
#include "wavefd/provenance.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <utility>
#include <vector>
#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>

#include "comm/mpi_messages.hpp"
#endif

namespace wavefd {

namespace {

#ifdef WAVEFD_HAVE_MPI
bool mpi_on() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}
double reduce(double v, MPI_Op op) {
  if (!mpi_on()) return v;
  double r = v;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, op, MPI_COMM_WORLD);
  return r;
}
#endif
}  // namespace

int world_rank() {
  int r = 0;
#ifdef WAVEFD_HAVE_MPI
  if (mpi_on()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
#endif
  return r;
}

int world_size() {
  int s = 1;
#ifdef WAVEFD_HAVE_MPI
  if (mpi_on()) MPI_Comm_size(MPI_COMM_WORLD, &s);
#endif
  return s;
}

namespace {
// This rank's place among the ranks of its node (MPI_COMM_TYPE_SHARED): {rank, size}.
std::pair<int, int> node_place() {
  int r = 0, n = 1;
#ifdef WAVEFD_HAVE_MPI
  if (!mpi_on()) return {r, n};
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &r);
  MPI_Comm_size(node, &n);
  MPI_Comm_free(&node);
#endif
  return {r, n};
}
}  // namespace

int node_local_rank() { return node_place().first; }
int node_ranks() { return node_place().second; }

std::string communication_node() {
  if (const char* id = std::getenv("NCCL_HOSTID"); id != nullptr && *id != '\0') return id;
#ifdef WAVEFD_HAVE_MPI
  if (mpi_on()) {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    MPI_Get_processor_name(name, &len);
    return std::string(name, std::size_t(len));
  }
#endif
  return "localhost";
}

void agree(const std::function<void()>& check) {
  std::string message;
  bool failed = false;
  try {
    check();
  } catch (const Error& e) {
    failed = true, message = e.what();
  }
#ifdef WAVEFD_HAVE_MPI
  if (mpi_on() && world_size() > 1) {
    const int size = world_size(), rank = world_rank();
    int mine = failed ? rank : size, first = size, count = 0, one = failed ? 1 : 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size) return;
    MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int len = int(message.size());
    MPI_Bcast(&len, 1, MPI_INT, first, MPI_COMM_WORLD);
    message.resize(std::size_t(len));
    MPI_Bcast(message.data(), len, MPI_CHAR, first, MPI_COMM_WORLD);
    throw AgreedError(count == size ? message : "rank " + std::to_string(first) + ": " + message);
  }
#endif
  if (failed) throw AgreedError(message);
}

#ifdef WAVEFD_HAVE_MPI
namespace {

// FNV-1a over every key and value, each closed by a separator byte no text holds.
std::uint64_t digest(const Settings& settings) {
  std::uint64_t h = 14695981039346656037ull;
  auto add = [&](const std::string& text, unsigned char end) {
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    h = (h ^ end) * 1099511628211ull;
  };
  for (const auto& [key, value] : settings) add(key, 0x1f), add(value, 0x1e);
  return h;
}

// The first key whose value differs between rank 0's settings and these (nullopt: not given).
struct Difference {
  std::string key;
  std::optional<std::string> root, mine;
};

std::optional<Difference> first_difference(const Settings& root, const Settings& mine) {
  if (root == mine) return std::nullopt;
  const std::map<std::string, std::string> by_key_root(root.begin(), root.end()), by_key_mine(mine.begin(), mine.end());
  for (const auto& [key, value] : root)
    if (const auto it = by_key_mine.find(key); it == by_key_mine.end() || it->second != value)
      return Difference{key, value, it == by_key_mine.end() ? std::nullopt : std::optional(it->second)};
  for (const auto& [key, value] : mine)
    if (!by_key_root.count(key)) return Difference{key, std::nullopt, value};
  return std::nullopt;
}

std::string shown_value(const std::optional<std::string>& v) {
  if (!v) return "(not given)";
  return v->size() > 60 ? v->substr(0, 57) + "..." : *v;
}

// `text` of rank `from` on every rank.
std::string broadcast(std::string text, int from) {
  unsigned long long len = text.size();
  MPI_Bcast(&len, 1, MPI_UNSIGNED_LONG_LONG, from, MPI_COMM_WORLD);
  text.resize(std::size_t(len));
  MPI_Bcast(text.data(), int(len), MPI_CHAR, from, MPI_COMM_WORLD);
  return text;
}

// Settings as one string and back: key NUL value NUL ...
std::string joined_settings(const Settings& settings) {
  std::string text;
  for (const auto& [key, value] : settings) text += key + '\0' + value + '\0';
  return text;
}

Settings split_settings(const std::string& text) {
  Settings settings;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t key_end = text.find('\0', at), value_end = text.find('\0', key_end + 1);
    settings.emplace_back(text.substr(at, key_end - at), text.substr(key_end + 1, value_end - key_end - 1));
    at = value_end + 1;
  }
  return settings;
}

}  // namespace
#endif

void agree_on_settings(const Settings& mine) {
#ifdef WAVEFD_HAVE_MPI
  if (!mpi_on() || world_size() == 1) return;
  const int size = world_size(), rank = world_rank();
  const std::uint64_t h = digest(mine);
  std::uint64_t lowest = h, highest = h;
  MPI_Allreduce(&h, &lowest, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &highest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (lowest == highest) return;
  // Only now the lists: rank 0's to every rank, which finds its own first difference.
  const Settings root = split_settings(broadcast(rank == 0 ? joined_settings(mine) : "", 0));
  const std::optional<Difference> diff = first_difference(root, mine);
  int mine_first = diff ? rank : size, first = size, one = diff ? 1 : 0, count = 0;
  MPI_Allreduce(&mine_first, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&one, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (first == size) return;
  // The lowest differing rank's key and value (a leading 1 when it gives one) to every rank.
  std::string theirs = rank == first ? diff->key + '\0' + (diff->mine ? "1" + *diff->mine : "0") : "";
  theirs = broadcast(theirs, first);
  const std::string key = theirs.substr(0, theirs.find('\0'));
  const std::string given = theirs.substr(key.size() + 1);
  const std::optional<std::string> value = given[0] == '1' ? std::optional(given.substr(1)) : std::nullopt;
  std::optional<std::string> at_root;
  for (const auto& [k, v] : root)
    if (k == key) at_root = v;
  std::string others;
  if (count > 1) others = " (and " + std::to_string(count - 1) + " other rank" + (count > 2 ? "s" : "") + ")";
  throw AgreedError("the ranks disagree: " + key + " = " + shown_value(at_root) + " on rank 0, " + shown_value(value) +
                    " on rank " + std::to_string(first) + others + "; accepted: the same configuration on every rank");
#else
  (void)mine;
#endif
}

bool launched_by_mpi() {
  // Open MPI, PMIx (Open MPI 5, Slurm with PMIx), PMI-1/2 (MPICH, Intel MPI, Slurm), Cray PALS.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "PALS_RANKID"})
    if (std::getenv(name)) return true;
  return false;
}

void start_mpi() {
#ifdef WAVEFD_HAVE_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (!init) MPI_Init(nullptr, nullptr);
#endif
}

void finish_mpi() {
#ifdef WAVEFD_HAVE_MPI
  if (mpi_on()) MPI_Finalize();
#endif
}

#ifdef WAVEFD_HAVE_MPI
double max_over_ranks(double v) { return reduce(v, MPI_MAX); }
double min_over_ranks(double v) { return reduce(v, MPI_MIN); }
double sum_over_ranks(double v) { return reduce(v, MPI_SUM); }
void wait_for_every_rank() {
  if (mpi_on()) MPI_Barrier(MPI_COMM_WORLD);
}
std::vector<double> gather_onto_root(const std::vector<double>& v) {
  if (!mpi_on() || world_size() == 1) return v;
  const int count = int(v.size()), size = world_size();
  std::vector<int> counts(std::size_t(size), 0), at(std::size_t(size), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < size; ++r) at[std::size_t(r)] = total, total += counts[std::size_t(r)];
  std::vector<double> all(std::size_t(world_rank() == 0 ? total : 0));
  MPI_Gatherv(v.data(), count, MPI_DOUBLE, all.data(), counts.data(), at.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return all;
}
std::vector<double> sum_onto_root(const std::vector<double>& v) {
  if (!mpi_on() || world_size() == 1) return v;
  std::vector<double> sum(v.size());
  MPI_Reduce(v.data(), sum.data(), int(v.size()), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return sum;
}
#else
double max_over_ranks(double v) { return v; }
double min_over_ranks(double v) { return v; }
double sum_over_ranks(double v) { return v; }
void wait_for_every_rank() {}
std::vector<double> sum_onto_root(const std::vector<double>& v) { return v; }
std::vector<double> gather_onto_root(const std::vector<double>& v) { return v; }
#endif

std::string mpi_gpu_aware() {
#ifndef WAVEFD_HAVE_MPI
  return "no (built without MPI)";
#else
  if (kHostBuild) return "not needed";
#if defined(KOKKOS_ENABLE_CUDA)
  return comm::mpi_takes(comm::DeviceBuffers::cuda);
#elif defined(KOKKOS_ENABLE_HIP)
  return comm::mpi_takes(comm::DeviceBuffers::hip);
#else
  return "unknown";
#endif
#endif
}

#ifndef WAVEFD_HAVE_NCCL  // else nccl_halo.cpp defines it
std::string nccl_version() { return ""; }
#endif

std::vector<std::string> on_every_rank(const std::string& mine) {
#ifdef WAVEFD_HAVE_MPI
  if (!mpi_on() || world_size() == 1) return {mine};
  int length = int(mine.size()), longest = 0;
  MPI_Allreduce(&length, &longest, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const std::size_t width = std::size_t(longest) + 1;
  std::vector<char> me(width, 0), all(width * std::size_t(world_size()), 0);
  mine.copy(me.data(), mine.size());
  MPI_Allgather(me.data(), int(width), MPI_CHAR, all.data(), int(width), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t at = 0; at < all.size(); at += width) out.emplace_back(&all[at]);
  return out;
#else
  return {mine};
#endif
}

namespace {

// "host:device" of this rank: ranks with the same string share a GPU.
std::string host_and_device() {
#ifdef WAVEFD_HAVE_MPI
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  return std::string(host, std::size_t(len)) + ":" + std::to_string(Kokkos::device_id());
#else
  return "localhost:" + std::to_string(Kokkos::device_id());
#endif
}

// The first two ranks whose entries in `all` are equal, as "ranks a and b share ..."; "" if none.
std::string first_shared(const std::vector<std::string>& all) {
  for (std::size_t a = 0; a < all.size(); ++a)
    for (std::size_t b = a + 1; b < all.size(); ++b)
      if (all[a] == all[b]) return "ranks " + std::to_string(a) + " and " + std::to_string(b) + " share device " + all[a];
  return "";
}

}  // namespace

void check_one_rank_per_device(const std::string& what) {
  if (world_size() == 1 || kHostBuild) return;
  if (const std::string shared = first_shared(on_every_rank(host_and_device())); !shared.empty())
    throw Error(what + " needs one rank per GPU; " + shared + "; accepted: mpi or mpi-gpu for shared GPUs");
}

std::string why_not_peer_for_all() {
  if (world_size() == 1) return "one rank";
  const std::vector<std::string> nodes = on_every_rank(communication_node());
  for (const std::string& n : nodes)
    if (n != nodes.front()) return "the ranks are on more than one node (" + nodes.front() + ", " + n + ")";
  return first_shared(on_every_rank(host_and_device()));
}

bool resolve_overlap(const std::string& value, Transport t, int ranks, const std::string& what) {
  if (value == "true" || value == "on") return true;
  if (value == "false" || value == "off") return false;
  if (value == "auto") return ranks > 1 && t != Transport::local;
  throw Error(what + " = '" + value + "' is unknown; accepted: auto, true, false");
}

std::string_view to_string(Transport t) {
  switch (t) {
    case Transport::local: return "local";
    case Transport::mpi: return "mpi";
    case Transport::mpi_gpu: return "mpi-gpu";
    case Transport::nccl: return "nccl";
    case Transport::peer: return "peer";
  }
  return "?";
}

Transport parse_transport(std::string_view name) {
  for (Transport t : kTransports)
    if (name == to_string(t)) return t;
  std::string accepted = "auto";
  for (Transport t : kTransports) accepted += ", " + std::string(to_string(t));
  throw Error("parallel.transport = '" + std::string(name) + "' is unknown; accepted: " + accepted);
}

bool transport_available(Transport t, const std::string& gpu_aware, std::string* why_not) {
  if (gpu_aware != "auto" && gpu_aware != "yes" && gpu_aware != "no")
    throw Error("parallel.gpu_aware = '" + gpu_aware + "' is unknown; accepted: auto, yes, no");
  std::string why;
#ifndef WAVEFD_HAVE_MPI
  if (t != Transport::local) why = "this build has no MPI (configure with WAVEFD_ENABLE_MPI=ON)";
#else
  const std::string query = mpi_gpu_aware();
  if (t == Transport::mpi_gpu && gpu_aware == "no") why = "parallel.gpu_aware = no";
  if (t == Transport::mpi_gpu && gpu_aware == "auto" && query != "yes" && query != "not needed")
    why = "the MPI library (" + mpi_library() + ") reports GPU support '" + query +
          "' (set parallel.gpu_aware = yes if it has it)";
  if (t == Transport::nccl && nccl_version().empty())
    why = "this build has no NCCL (a CUDA build with WAVEFD_ENABLE_NCCL=ON)";
#ifndef WAVEFD_HAVE_PEER
  if (t == Transport::peer) why = "this build is not a CUDA build (peer maps GPU memory across processes)";
#endif
#endif
  if (why_not) *why_not = why;
  return why.empty();
}

std::string available_transports(const std::string& gpu_aware, bool links_only) {
  std::string names;
  for (Transport t : kTransports)
    if (!(links_only && t == Transport::local) && transport_available(t, gpu_aware))
      names += (names.empty() ? "" : ", ") + std::string(to_string(t));
  return names.empty() ? "none in this build" : names;
}

Transport choose_transport(const std::string& requested, int ranks, const std::string& gpu_aware, bool takes_peer,
                           std::string* why) {
  const auto because = [why](Transport t, const std::string& reason) {
    if (why) *why = reason;
    return t;
  };
  (void)transport_available(Transport::local, gpu_aware);  // refuses an unknown parallel.gpu_aware
  if (requested != "auto") {
    const Transport t = parse_transport(requested);
    std::string not_here;
    if (!transport_available(t, gpu_aware, &not_here))
      throw Error("parallel.transport = '" + requested + "' is not available: " + not_here +
                  "; accepted: auto, " + available_transports(gpu_aware));
    if (t == Transport::local && ranks > 1)
      throw Error("parallel.transport = 'local' runs on one rank; got " + std::to_string(ranks) +
                  " ranks; accepted: auto, mpi, mpi-gpu, nccl, peer");
    return because(t, "requested");
  }
  if (ranks == 1) return because(Transport::local, "one rank");
  // peer first: the copy engines move each face straight into the neighbour's ghosts, with no
  // pack, no unpack and no kernel beside the update (four H100s, 512^3 per GPU on 1 x 2 x 2:
  // 0.687 ms a step against 0.716 through nccl).
  std::string not_peer = takes_peer ? "" : "this engine does not take peer";
  if (not_peer.empty() && transport_available(Transport::peer, gpu_aware, &not_peer)) not_peer = why_not_peer_for_all();
  if (not_peer.empty())
    return because(Transport::peer, "all " + std::to_string(ranks) + " ranks on one node, a GPU each");
  if (transport_available(Transport::nccl, gpu_aware))
    return because(Transport::nccl, "not peer: " + not_peer);
  if (!kHostBuild && transport_available(Transport::mpi_gpu, gpu_aware))
    return because(Transport::mpi_gpu, "no NCCL; the MPI library is GPU-aware");
  return because(Transport::mpi, kHostBuild ? "host memory" : "no NCCL, no GPU-aware MPI: staged through the host");
}

}  // namespace wavefd
