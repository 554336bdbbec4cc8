// `wavefd probe`: the bandwidth and latency of halo-sized messages between every pair of
// neighbouring ranks, through each halo transport: what the performance model (docs/scaling.md)
// needs from the links.
//
// The run's split (--n over --ranks, the stencil radius as the halo width) gives the pairs of
// neighbours and the largest face. Pairs are probed in rounds along each axis: the pairs whose lower
// coordinate is even, then odd, then (a periodic axis of an odd number of ranks) the wrap pair, so
// that in a round every rank is in at most one pair and all pairs of the round exchange at once, as
// in a halo exchange. A pair exchanges one message each way through the transport's own Halo (pack,
// transfer, unpack: what a step pays per message), built on a layout whose face holds the message;
// an exchange takes as long as the slower rank of the pair. A periodic axis of one rank pairs the
// rank with itself (self-exchange through the transport: both faces, two messages each way).
// Bandwidth counts the bytes one rank sends per exchange (per direction: both go at once).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifdef WAVEFD_HAVE_MPI
#include <mpi.h>
#endif

#include "app/cli_errors.hpp"
#include "app/commands.hpp"
#include "bench/time_in_step.hpp"
#include "io/summary.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/provenance.hpp"

namespace wavefd::app {

ProbeCommand::ProbeCommand(CLI::App& app) {
  sub = app.add_subcommand("probe", "Bandwidth and latency of halo-sized messages between neighbouring ranks, per transport");
  add_stencil_options(*sub, stencil, "");
  sub->add_option("--n", n, "Global grid nx ny nz of the run whose halo is probed (split over the ranks)")
      ->expected(3)
      ->capture_default_str();
  sub->add_option("--boundary", boundary, "periodic | rigid: which ranks are neighbours")->capture_default_str();
  sub->add_option("--precision", precision, "float | double: the message's element")->capture_default_str();
  sub->add_option("--transport", transports, "all (those available), or a comma-separated list of mpi, mpi-gpu, nccl")
      ->capture_default_str();
  sub->add_option("--iters", iters, "Exchanges per timed repetition, >= 1")->capture_default_str();
  sub->add_option("--warmup", warmup, "Untimed repetitions, >= 0")->capture_default_str();
  sub->add_option("--reps", reps, "Timed repetitions, >= 1")->capture_default_str();
  sub->add_option("--json", json, "Write the results to this JSON file");
  split.add_to(*sub);
}

namespace {

// Pairs (c, c + 1 mod p) along `axis` whose lower coordinate c has this parity; parity 2 holds the
// wrap pair (p - 1, 0) of a periodic axis of an odd number p >= 3 of ranks.
struct Round {
  int axis;
  int parity;
};

std::vector<Round> make_rounds(const Index3& dims, bool periodic) {
  std::vector<Round> list;
  for (int a = 0; a < 3; ++a) {
    if (dims[a] == 1 && !periodic) continue;  // no neighbour along this axis
    list.push_back({a, 0});
    if (dims[a] >= 3) list.push_back({a, 1});
    if (dims[a] >= 3 && periodic && dims[a] % 2 == 1) list.push_back({a, 2});
  }
  return list;
}

// Whether the pair with lower coordinate c (of p ranks along the round's axis) is in round r.
bool in_round(const Round& r, index_t c, index_t p, bool periodic) {
  if (c < 0) return false;
  if (p == 1) return periodic && r.parity == 0;  // the rank and itself
  if (c == p - 1) {  // the wrap pair (p - 1, 0)
    if (!periodic || p == 2) return false;  // none, or the same two ranks as the pair (0, 1)
    return r.parity == (p % 2 == 1 ? 2 : 1);
  }
  return c % 2 == r.parity;
}

// The faces (+1 upper, -1 lower, along the round's axis) through which rank `s` exchanges in round
// r: none when it sits the round out, both when it is paired with itself.
std::vector<int> sides_in_round(const Round& r, const Subdomain& s, const Index3& dims, bool periodic) {
  const index_t p = dims[r.axis], c = s.coords[r.axis];
  if (p == 1) return in_round(r, 0, 1, periodic) ? std::vector<int>{-1, 1} : std::vector<int>{};
  std::vector<int> sides;
  if (in_round(r, c, p, periodic)) sides.push_back(1);  // the lower end of (c, c + 1)
  if (in_round(r, c > 0 ? c - 1 : (periodic ? p - 1 : -1), p, periodic)) sides.push_back(-1);  // the upper end
  return sides;
}

struct ProbeSetup {
  Decomposition split;
  Subdomain sub;  // this rank's
  bool periodic = true;
  std::vector<index_t> sizes;  // message elements, ascending
  int iters = 1, warmup = 0, reps = 1;
};

// This rank's seconds per exchange, for each round and size ([round * sizes + size]); 0 where it
// sits the round out. Collective: every rank builds every Halo (NCCL's is a collective).
template <class T>
std::vector<double> time_rounds(Transport t, const ProbeSetup& p, const std::vector<Round>& rounds) {
  // No rigid-wall reflection in the probe's unpack, and a rank paired with itself sends through the
  // transport (no wrap in place): it times the messages only.
  Subdomain no_walls = p.sub;
  for (auto& sides : no_walls.neighbour) sides = {p.sub.rank, p.sub.rank};
  std::vector<double> out;
  std::unique_ptr<Halo<T>> kept;  // alive until the next is built: NCCL halos then share one communicator
  for (const Round& r : rounds) {
    std::vector<Offset> reach;  // the stencil "reads" only across the faces of this round's pair
    for (int side : sides_in_round(r, p.sub, p.split.rank_grid(), p.periodic)) {
      Offset o;
      (r.axis == 0 ? o.x : r.axis == 1 ? o.y : o.z) = side;
      reach.push_back(o);
    }
    for (const index_t m : p.sizes) {
      // One ghost layer; the face across the round's axis holds m values.
      const Layout layout = make_layout(r.axis == 2 ? Index3{m, 1, 1} : Index3{1, 1, m}, 1, false, sizeof(T));
      Field<T> f = make_field<T>("wavefd::probe_field", layout);
      const HaloSpec spec{.boundary = Boundary::periodic, .transport = t, .decomposition = p.split, .sub = no_walls,
                          .layout = layout, .offsets = reach, .wrap_own_axes = false, .fields = {f.data.data()}};
      std::unique_ptr<Halo<T>> halo = make_halo<T>(spec);
      Kokkos::deep_copy(f.data, T(1));
      const Stats s = time_in_step([&] {
        for (int i = 0; i < p.iters; ++i) halo->start(f), halo->finish(f);
      }, p.warmup, p.reps);
      out.push_back(reach.empty() ? 0.0 : s.min / p.iters);
      if (t == Transport::peer) {  // the neighbours unmap this field before it is freed
        halo.reset();
        (void)max_over_ranks(0.0);
        continue;
      }
      kept = std::move(halo);
    }
  }
  return out;
}

// Every rank's `mine` (all of one length) in rank order, on rank 0; empty elsewhere.
std::vector<double> gather_on_root(const std::vector<double>& mine) {
#ifdef WAVEFD_HAVE_MPI
  std::vector<double> all(world_rank() == 0 ? mine.size() * std::size_t(world_size()) : 0);
  MPI_Gather(mine.data(), int(mine.size()), MPI_DOUBLE, all.data(), int(mine.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return all;
#else
  return mine;
#endif
}

// Every rank's node (communication_node()), on rank 0: pairs on one node talk through its memory
// or NVLink, the others through the network.
std::vector<std::string> host_names() {
#ifdef WAVEFD_HAVE_MPI
  char mine[MPI_MAX_PROCESSOR_NAME] = {};
  const std::string node = communication_node();
  node.copy(mine, MPI_MAX_PROCESSOR_NAME - 1);
  std::vector<char> all(world_rank() == 0 ? std::size_t(MPI_MAX_PROCESSOR_NAME) * world_size() : 0);
  MPI_Gather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> names;
  for (std::size_t at = 0; at < all.size(); at += MPI_MAX_PROCESSOR_NAME)
    names.emplace_back(&all[at], strnlen(&all[at], MPI_MAX_PROCESSOR_NAME));
  return names;
#else
  return {communication_node()};
#endif
}

// seconds = latency + bytes / bandwidth, least squares over the sizes; bandwidth null when the
// times do not grow with the size.
nlohmann::json fit_link(const std::vector<double>& bytes, const std::vector<double>& seconds) {
  const double k = double(bytes.size());
  double mx = 0, my = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) mx += bytes[i] / k, my += seconds[i] / k;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    sxx += (bytes[i] - mx) * (bytes[i] - mx), sxy += (bytes[i] - mx) * (seconds[i] - my);
  const double slope = sxx > 0 ? sxy / sxx : 0;
  return {{"latency_s", my - slope * mx}, {"bandwidth_gb_per_s", slope > 0 ? nlohmann::json(1e-9 / slope) : nullptr}};
}

nlohmann::json min_median_max(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t k = v.size();
  return {{"min", v.front()}, {"median", k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2])}, {"max", v.back()}};
}

// The pairs of each round with their times (rank 0): per size, the slower rank of the pair.
nlohmann::json assemble_pairs(const ProbeSetup& p, const std::vector<Round>& rounds, const std::vector<double>& all,
                              const std::vector<std::string>& hosts, std::size_t element_bytes) {
  const std::size_t per_rank = rounds.size() * p.sizes.size();
  nlohmann::json pairs = nlohmann::json::array();
  for (std::size_t ri = 0; ri < rounds.size(); ++ri) {
    const Round& r = rounds[ri];
    for (int lower = 0; lower < int(hosts.size()); ++lower) {
      const Subdomain s = p.split.subdomain(lower);
      const std::vector<int> sides = sides_in_round(r, s, p.split.rank_grid(), p.periodic);
      if (std::find(sides.begin(), sides.end(), 1) == sides.end()) continue;  // not the lower end of a pair
      Index3 up{0, 0, 0};
      up[r.axis] = 1;
      const int upper = p.split.neighbour(s, up);
      // A rank paired with itself sends both faces (two messages) per exchange; the others one.
      const index_t messages = lower == upper ? 2 : 1;
      std::vector<double> bytes, seconds, gbs;
      for (std::size_t si = 0; si < p.sizes.size(); ++si) {
        const std::size_t at = ri * p.sizes.size() + si;
        bytes.push_back(double(messages * p.sizes[si] * index_t(element_bytes)));
        seconds.push_back(std::max(all[std::size_t(lower) * per_rank + at], all[std::size_t(upper) * per_rank + at]));
        gbs.push_back(bytes.back() / seconds.back() / 1e9);
      }
      const std::string link = lower == upper ? "self" : hosts[lower] == hosts[upper] ? "node" : "network";
      pairs.push_back({{"ranks", {lower, upper}}, {"axis", std::string(1, axis_name(r.axis))}, {"round", ri},
                       {"link", link}, {"messages", messages}, {"seconds", seconds}, {"gb_per_s", gbs},
                       {"latency_s", seconds.front()},
                       {"bandwidth_gb_per_s", gbs.back()}, {"fit", fit_link(bytes, seconds)}});
    }
  }
  return pairs;
}

// Per kind of link (self, node, network): how many pairs, and the spread of their latency (the
// smallest message) and bandwidth (the largest).
nlohmann::json summarize_links(const nlohmann::json& pairs) {
  nlohmann::json out = nlohmann::json::object();
  for (const char* link : {"self", "node", "network"}) {
    std::vector<double> latency, bandwidth;
    for (const auto& pr : pairs)
      if (pr["link"] == link)
        latency.push_back(pr["latency_s"].get<double>()), bandwidth.push_back(pr["bandwidth_gb_per_s"].get<double>());
    if (latency.empty()) continue;
    out[link] = {{"pairs", latency.size()}, {"latency_s", min_median_max(latency)},
                 {"bandwidth_gb_per_s", min_median_max(bandwidth)}};
  }
  return out;
}

// The transports to probe: "all" (those this build and library offer; nccl only with one rank
// per GPU) or a list, each of which must be available. Collective.
std::vector<Transport> chosen_transports(const std::string& list, const std::string& gpu_aware) {
  std::vector<Transport> out;
  if (list == "all") {
    for (Transport t : {Transport::mpi, Transport::mpi_gpu, Transport::nccl})
      if (transport_available(t, gpu_aware)) out.push_back(t);
  } else {
    std::stringstream items(list);
    for (std::string item; std::getline(items, item, ',');) {
      Transport t = Transport::local;
      try {
        t = parse_transport(item);
      } catch (const Error&) {
      }
      if (t == Transport::local)
        throw Error("--transport = '" + item + "' is not a link transport; accepted: all, or a comma-separated list of "
                    "mpi, mpi-gpu, nccl, peer");
      std::string why;
      if (!transport_available(t, gpu_aware, &why))
        throw Error("--transport = '" + item + "' is not available: " + why +
                    "; accepted: all, or a comma-separated list of " + available_transports(gpu_aware, true));
      out.push_back(t);
    }
  }
  if (out.empty()) throw Error("--transport = '" + list + "': no link transport is available in this build");
  return out;
}

}  // namespace

int ProbeCommand::execute() {
  start_mpi();  // its messages go through MPI on one rank too
  const bool root = world_rank() == 0;
  ProbeSetup setup;
  Index3 grid{}, local{};
  int halo = 0;
  std::vector<Transport> chosen;
  agree([&] {
#ifndef WAVEFD_HAVE_MPI
    throw Error("wavefd probe needs MPI; this build has none (configure with WAVEFD_ENABLE_MPI=ON)");
#endif
    if (n.size() != 3) throw Error("--n needs 3 values; accepted: nx ny nz");
    check_repetitions(iters, reps, warmup, "--iters");
    if (precision != "float" && precision != "double")
      throw Error("--precision = '" + precision + "' is unknown; accepted: float, double");
    with_flag_names([&] { setup.periodic = parse_boundary(boundary) == Boundary::periodic; });
    halo = build_stencil(stencil).radius;
    grid = {n[0], n[1], n[2]};
    const ParallelSpec par = split.resolve(grid, halo, setup.periodic, "auto", "false");
    setup.split = Decomposition(grid, par.rank_grid, world_size(), setup.periodic, halo);
    setup.sub = setup.split.subdomain(world_rank());
    local = largest_subdomain(grid, par.rank_grid);
    chosen = chosen_transports(transports, split.gpu_aware);
    if (root && !json.empty()) check_output_path(json, "--json");
  });
  if (std::find(chosen.begin(), chosen.end(), Transport::nccl) != chosen.end()) {
    // NCCL refuses two ranks on one GPU: asked for by name that is an error, within "all" a skip.
    const bool named = transports != "all";
    bool shared = false;
    agree([&] {
      try {
        check_one_rank_per_device("--transport = 'nccl'");
      } catch (const Error&) {
        if (named) throw;
        shared = true;
      }
    });
    if (shared) chosen.erase(std::find(chosen.begin(), chosen.end(), Transport::nccl));
  }
  const std::size_t element_bytes = precision == "float" ? 4 : 8;
  // Message sizes: 1, 4, 16, ... values up to the largest face, and each axis' face (halo x area).
  const Index3 face{halo * local[1] * local[2], halo * local[0] * local[2], halo * local[0] * local[1]};
  const index_t largest = std::max({face[0], face[1], face[2]});
  std::set<index_t> sizes(face.begin(), face.end());
  for (index_t m = 1; m < largest; m *= 4) sizes.insert(m);
  setup.sizes.assign(sizes.begin(), sizes.end());
  setup.iters = iters, setup.warmup = warmup, setup.reps = reps;
  const std::vector<Round> rounds = make_rounds(setup.split.rank_grid(), setup.periodic);
  const std::vector<std::string> hosts = host_names();

  std::string names;
  for (Transport t : chosen) names += (names.empty() ? "" : ",") + std::string(to_string(t));
  nlohmann::json out;
  out["provenance"] = provenance_json(Distribution{setup.split.rank_grid(), names});
  out["kokkos"] = execution_json();
  std::vector<index_t> bytes;
  for (index_t m : setup.sizes) bytes.push_back(m * index_t(element_bytes));
  out["probe"] = {{"grid", grid}, {"boundary", boundary}, {"ranks", world_size()}, {"rank_grid", setup.split.rank_grid()},
                  {"subdomain_largest", local}, {"halo", halo}, {"precision", precision},
                  {"face_bytes", {face[0] * index_t(element_bytes), face[1] * index_t(element_bytes), face[2] * index_t(element_bytes)}},
                  {"sizes_bytes", bytes}, {"iters", iters}, {"reps", reps}, {"warmup", warmup},
                  {"method", "pairs of neighbours in rounds (each rank in at most one pair per round, the pairs of a round "
                             "at once); per pair and size: one message each way through the transport's halo (pack, "
                             "transfer, unpack), the slower rank's best repetition / iters; bandwidth = bytes one "
                             "rank sends per exchange (one message, two for a rank paired with itself) / time"}};
  out["hosts"] = hosts;
  if (root) {
    std::printf("%s\n", provenance_line(Distribution{setup.split.rank_grid(), names}).c_str());
    std::printf("grid %s %s over %s ranks, subdomain up to %s, halo %d, %s; faces x/y/z %lld/%lld/%lld bytes; "
                "%zu sizes from %lld bytes; %d exchanges x %d reps (+%d warm-up)\n",
                to_string(grid).c_str(), boundary.c_str(), to_string(setup.split.rank_grid()).c_str(),
                to_string(local).c_str(), halo, precision.c_str(), (long long)(face[0] * index_t(element_bytes)),
                (long long)(face[1] * index_t(element_bytes)), (long long)(face[2] * index_t(element_bytes)),
                setup.sizes.size(), (long long)bytes.front(), iters, reps, warmup);
    std::printf("%-8s %-13s %-4s %-8s %12s %14s %14s %14s\n", "transport", "pair", "axis", "link", "latency us",
                "GB/s largest", "fit latency us", "fit GB/s");
  }
  for (Transport t : chosen) {
    const std::vector<double> mine = element_bytes == 4 ? time_rounds<float>(t, setup, rounds)
                                                        : time_rounds<double>(t, setup, rounds);
    const std::vector<double> all = gather_on_root(mine);
    if (!root) continue;
    const nlohmann::json pairs = assemble_pairs(setup, rounds, all, hosts, element_bytes);
    for (const auto& pr : pairs) {
      const auto& fit = pr["fit"];
      char pair[32], fit_bw[32] = "-";
      std::snprintf(pair, sizeof pair, "%d <-> %d", pr["ranks"][0].get<int>(), pr["ranks"][1].get<int>());
      if (!fit["bandwidth_gb_per_s"].is_null())
        std::snprintf(fit_bw, sizeof fit_bw, "%.3f", fit["bandwidth_gb_per_s"].get<double>());
      std::printf("%-8s %-13s %-4s %-8s %12.2f %14.3f %14.2f %14s\n", std::string(to_string(t)).c_str(), pair,
                  pr["axis"].get<std::string>().c_str(), pr["link"].get<std::string>().c_str(),
                  pr["latency_s"].get<double>() * 1e6, pr["bandwidth_gb_per_s"].get<double>(),
                  fit["latency_s"].get<double>() * 1e6, fit_bw);
    }
    out["transports"].push_back({{"transport", std::string(to_string(t))}, {"pairs", pairs},
                                 {"summary", summarize_links(pairs)}});
  }
  agree([&] {  // a failed write stops every rank alike
    if (!root || json.empty()) return;
    write_json_file(json, out, "--json");
    std::printf("results written to %s\n", printable(json).c_str());
  });
  return 0;
}

}  // namespace wavefd::app
