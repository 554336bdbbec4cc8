#include "wavefd/parallel.hpp"

#include "wavefd/grid.hpp"
#include "wavefd/provenance.hpp"

#include <Kokkos_Core.hpp>

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

int node_local_rank() {
  int r = 0;
#ifdef WAVEFD_HAVE_MPI
  if (!mpi_on()) return 0;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
#endif
  return r;
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
double max_over_ranks(double v) { return reduce(v, MPI_MAX); }
double min_over_ranks(double v) { return reduce(v, MPI_MIN); }
double sum_over_ranks(double v) { return reduce(v, MPI_SUM); }
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

void check_one_rank_per_device(const std::string& what) {
#ifdef WAVEFD_HAVE_MPI
  if (!mpi_on() || world_size() == 1 || kHostBuild) return;
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(host, &len);
  const std::string mine = std::string(host, len) + ":" + std::to_string(Kokkos::device_id());
  const int size = world_size();
  std::vector<char> all(std::size_t(size) * MPI_MAX_PROCESSOR_NAME + std::size_t(size) * 16, 0);
  std::vector<char> me(MPI_MAX_PROCESSOR_NAME + 16, 0);
  mine.copy(me.data(), me.size() - 1);
  MPI_Allgather(me.data(), int(me.size()), MPI_CHAR, all.data(), int(me.size()), MPI_CHAR, MPI_COMM_WORLD);
  for (int a = 0; a < size; ++a)
    for (int b = a + 1; b < size; ++b)
      if (std::string(&all[a * me.size()]) == std::string(&all[b * me.size()]))
        throw Error(what + " needs one rank per GPU; ranks " + std::to_string(a) + " and " + std::to_string(b) +
                    " share device " + std::string(&all[a * me.size()]) + "; accepted: mpi or mpi-gpu for shared GPUs");
#else
  (void)what;
#endif
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
  }
  return "?";
}

Transport parse_transport(std::string_view name) {
  for (Transport t : {Transport::local, Transport::mpi, Transport::mpi_gpu, Transport::nccl})
    if (name == to_string(t)) return t;
  throw Error("parallel.transport = '" + std::string(name) + "' is unknown; accepted: auto, local, mpi, mpi-gpu, nccl");
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
#endif
  if (why_not) *why_not = why;
  return why.empty();
}

Transport choose_transport(const std::string& requested, int ranks, const std::string& gpu_aware) {
  (void)transport_available(Transport::local, gpu_aware);  // refuses an unknown parallel.gpu_aware
  if (requested != "auto") {
    const Transport t = parse_transport(requested);
    std::string why;
    if (!transport_available(t, gpu_aware, &why))
      throw Error("parallel.transport = '" + requested + "' is not available: " + why);
    if (t == Transport::local && ranks > 1)
      throw Error("parallel.transport = 'local' runs on one rank; got " + std::to_string(ranks) +
                  " ranks; accepted: auto, mpi, mpi-gpu, nccl");
    return t;
  }
  if (ranks == 1) return Transport::local;
  if (transport_available(Transport::nccl, gpu_aware)) return Transport::nccl;
  if (!kHostBuild && transport_available(Transport::mpi_gpu, gpu_aware)) return Transport::mpi_gpu;
  return Transport::mpi;
}

}  // namespace wavefd
