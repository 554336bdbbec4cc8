// The distributed engine against the single-rank one: after a few steps from the same
// (pseudo-random) data, every rank's subdomain equals the matching part of a single-rank run of
// the same variant, bit for bit. Covered: star M = 1, 4, 8, compact R = 3, box (2,2,2), a custom
// 19-point stencil; float and double (half and bfloat16 for star M = 4); periodic and rigid; every rank grid of the run's size
// (splits along each axis alone, two and all three); uneven splits with subdomains exactly one
// halo wide; overlap on and off; the mpi and mpi-gpu transports (and nccl in builds with NCCL).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "wavefd/parallel.hpp"
#include "wavefd/two_step.hpp"
#include "../pseudo_random.hpp"

#ifndef WAVEFD_TEST_DATA
#error "WAVEFD_TEST_DATA must name ctest/data"
#endif

namespace wavefd {
namespace {

constexpr int kSteps = 4;

template <class T>
void fill(TwoStep<T>& e) {
  const Layout l = e.layout();
  const Index3 off = e.domain().offset;
  for (auto* f : {&e.u(), &e.u_prev()}) {
    auto h = Kokkos::create_mirror_view(f->data);
    for (index_t q = 0; q < l.alloc; ++q) h(q) = poison<T>();  // ghosts: poison
    const int seed = f == &e.u() ? 1 : 2;
    for (index_t k = 0; k < l.n[2]; ++k)
      for (index_t j = 0; j < l.n[1]; ++j)
        for (index_t i = 0; i < l.n[0]; ++i)
          h(l.at(i, j, k)) = T(datum(i + off[0], j + off[1], k + off[2], seed));
    Kokkos::deep_copy(f->data, h);
  }
}

// Points of this rank's subdomain whose bits differ from the single-rank field `ref`.
template <class T, class HostView>
long mismatches(TwoStep<T>& dist, const HostView& ref, const Layout& rl) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dist.u().data);
  const Layout l = dist.layout();
  const Index3 off = dist.domain().offset;
  long bad = 0;
  for (index_t k = 0; k < l.n[2]; ++k)
    for (index_t j = 0; j < l.n[1]; ++j)
      for (index_t i = 0; i < l.n[0]; ++i) {
        const T a = h(l.at(i, j, k)), b = ref(rl.at(i + off[0], j + off[1], k + off[2]));
        bad += std::memcmp(&a, &b, sizeof(T)) != 0;
      }
  return bad;
}

std::vector<Index3> rank_grids(int ranks) {
  std::vector<Index3> g;
  for (index_t pz = 1; pz <= ranks; ++pz)
    for (index_t py = 1; py <= ranks; ++py)
      if (ranks % (pz * py) == 0) g.push_back({ranks / (pz * py), py, pz});
  return g;
}

// Three grids per rank grid: "narrow" (uneven; the last rank along each split axis exactly one halo
// wide, so the core is empty there), "wide" (uneven, with a core to overlap: along x wider than two
// 128-byte lines, the depth of the x slabs of the shell) and "deep" (wide, and along y deep enough
// for y slabs of the shell a whole GPU tile deep, 16 rows, around a core as deep).
enum class GridShape { narrow, wide, deep };
Index3 grid_for(const Index3& p, int r, GridShape shape) {
  const bool wide = shape != GridShape::narrow;
  Index3 n;
  for (int a = 0; a < 3; ++a)
    n[a] = wide && a == 0                          ? p[a] * 70 + 1
           : shape == GridShape::deep && a == 1    ? p[a] * 49 + 2
           : p[a] == 1                             ? 2 * r + 3
           : wide                                  ? p[a] * (2 * r + 2) + 1
                                                   : p[a] * r + (p[a] - 1);
  return n;
}

// WAVEFD_TEST_TRANSPORTS (a comma-separated list): only those are checked, so that a GPU lease can
// check one transport in the time it has.
const char* only_transports() {
  const char* only = std::getenv("WAVEFD_TEST_TRANSPORTS");
  return only != nullptr && *only != '\0' ? only : nullptr;
}
bool listed(Transport t) {
  const char* only = only_transports();
  return only == nullptr || ("," + std::string(only) + ",").find("," + std::string(to_string(t)) + ",") != std::string::npos;
}
std::set<Transport> checked;  // the transports some case went through

constexpr GridShape kShapes[] = {GridShape::narrow, GridShape::wide, GridShape::deep};

template <class T>
void check_distributed(const Stencil& s, const Variant& v, Boundary b, const std::vector<Transport>& transports,
                       std::span<const GridShape> shapes = kShapes) {
  const int ranks = world_size(), rank = world_rank();
  for (const Index3& p : rank_grids(ranks))
    for (GridShape shape : shapes) {
      SchemeSpec spec;
      spec.domain = Domain::single(grid_for(p, s.radius, shape));
      spec.boundary = b;
      spec.courant = 0.8 * s.max_courant;
      TwoStep<T> ref(s, spec, v);
      fill(ref);
      ref.advance(kSteps);
      auto ref_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.u().data);
      for (Transport t : transports)
        for (bool overlap : {false, true})
          for (GhostFillMode pack : {GhostFillMode::automatic, GhostFillMode::separate}) {
            if (!listed(t)) continue;
            SchemeSpec d = spec;
            d.parallel = {p, rank, t, overlap};
            d.parallel.pack = pack;
            const bool can_pack = kernel_can_pack(d.parallel, s, v);
            if (pack == GhostFillMode::separate && !can_pack) continue;  // auto was that already
            TwoStep<T> dist(s, d, v);
            // auto: the kernel stores the own axes' ghosts wherever it can, so both paths are tested here.
            EXPECT_EQ(dist.ghosts_by_kernel(), kernel_can_fill_ghosts(d.parallel, b, v));
            // ... and packs the faces wherever it can: every face across x or y is packed (z faces of
            // stencils that can be packed by the kernel go in place).
            const bool packed_faces = dist.halo().send_faces().buffer != nullptr;
            if (can_pack && (p[0] > 1 || p[1] > 1)) EXPECT_TRUE(packed_faces);
            EXPECT_EQ(dist.packs_by_kernel(), pack == GhostFillMode::automatic && can_pack && packed_faces);
            fill(dist);
            // The y slabs of the shell: a whole GPU tile (16 rows) deep on the deep grids.
            if (shape == GridShape::deep && overlap)
              for (const Box& slab : dist.shell())
                if (slab.lo[1] == 0 && slab.hi[1] < dist.layout().n[1])
                  EXPECT_EQ(slab.hi[1], std::max(16, s.radius)) << "ranks " << to_string(p) << " on rank " << rank;
            dist.advance(kSteps);
            checked.insert(t);
            EXPECT_EQ(mismatches(dist, ref_host, ref.layout()), 0)
                << s.name << ' ' << to_string(precision_of<T>) << ' ' << v.name()
                << ' ' << to_string(b) << " grid " << to_string(spec.domain.global) << " ranks " << to_string(p)
                << ' ' << to_string(t) << " overlap " << overlap << " pack " << to_string(pack) << " on rank " << rank;
          }
    }
}

// The float cases also go through the GPU transports this build and its MPI have (mpi-gpu needs a
// GPU-aware MPI on GPU builds; nccl a build with NCCL; peer a CUDA build).
std::vector<Transport> float_transports() {
  std::vector<Transport> t{Transport::mpi};
  for (Transport gpu : {Transport::mpi_gpu, Transport::nccl, Transport::peer})
    if (transport_available(gpu)) t.push_back(gpu);
  return t;
}

struct Case {
  Stencil stencil;
  bool with_float;
};

std::vector<Case> cases() {
  return {{make_star(1), false},        {make_star(4), true},    {make_star(8), false},
          {make_compact(3), false},     {make_box({2, 2, 2}), true},
          {load_custom(std::string(WAVEFD_TEST_DATA) + "/laplacian19.txt"), false}};
}

TEST(MpiHalo, DistributedEqualsSingleRankBitForBit) {
  for (const Case& c : cases())
    for (Boundary b : {Boundary::periodic, Boundary::rigid}) {
      const Variant& v = select_variant("auto", c.stencil, Precision::f64);
      check_distributed<double>(c.stencil, v, b, {Transport::mpi});
      if (c.with_float) check_distributed<float>(c.stencil, v, b, float_transports());
    }
}

// Every variant of this build updates boxes of any shape with the same arithmetic per point.
TEST(MpiHalo, EveryVariantDistributedEqualsSingleRank) {
  const Stencil s = make_star(4);
  for (const auto& v : variants())
    if (v->supports(s, Precision::f64)) check_distributed<double>(s, *v, Boundary::periodic, {Transport::mpi});
}

// Fields stored in 16 bits travel as their bits, and every variant that stores them updates boxes of
// any shape with the same arithmetic per point. On the wide grids only (a core and uneven splits):
// the transports' code is the same for every type, and the other grids' cases are the float ones.
TEST(MpiHalo, SixteenBitFieldsDistributedEqualSingleRank) {
  const Stencil s = make_star(4);
  const GridShape wide[] = {GridShape::wide};
  long stored = 0;
  for (const auto& v : variants())
    if (v->supports(s, Precision::f16)) ++stored, check_distributed<Half>(s, *v, Boundary::periodic, {Transport::mpi}, wide);
  EXPECT_GT(stored, 0);
  const Variant& v = select_variant("auto", s, Precision::f16);
  check_distributed<Half>(s, v, Boundary::rigid, float_transports(), wide);
  check_distributed<BFloat16>(s, v, Boundary::periodic, {Transport::mpi}, wide);
}

// One rank on a periodic axis fills its ghosts by the wrap after the messages (it sends none to
// itself): the same bits as the local ghost fill, with every transport.
TEST(MpiHalo, SelfExchangeEqualsLocalFill) {
  if (world_size() != 1) GTEST_SKIP() << "single-rank case";
  const Stencil s = make_box({2, 2, 2});
  const Variant& v = select_variant("auto", s, Precision::f64);
  for (Boundary b : {Boundary::periodic, Boundary::rigid})
    check_distributed<double>(s, v, b, {Transport::local, Transport::mpi, Transport::mpi_gpu});
}

// Last: a transport named in WAVEFD_TEST_TRANSPORTS that no case went through (not in this build)
// fails, so that a lease's check of one transport cannot pass by checking nothing.
TEST(MpiHalo, ListedTransportsWereChecked) {
  if (only_transports() == nullptr) GTEST_SKIP() << "WAVEFD_TEST_TRANSPORTS unset: every transport of the build";
  for (Transport t : kTransports)
    if (t != Transport::local && listed(t)) EXPECT_TRUE(checked.count(t)) << to_string(t) << " was not checked";
}

}  // namespace
}  // namespace wavefd
