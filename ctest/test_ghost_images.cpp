// Ghosts written by the kernel (parallel.ghost_fill = kernel) against the separate fill pass:
// after every step the field and all its ghosts have the same bits (padding aside: periodic x
// images may widen into it, to whole sectors).
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "wavefd/two_step.hpp"
#include "pseudo_random.hpp"

namespace wavefd {
namespace {

// Interior from datum(), everything else (ghosts, padding) NaN: a ghost the kernel should have
// written but did not stays NaN and poisons the next step.
template <class T>
void fill(TwoStep<T>& e) {
  const Layout l = e.layout();
  int seed = 1;
  for (Field<T>* f : {&e.u(), &e.u_prev()}) {
    auto h = Kokkos::create_mirror_view(f->data);
    for (index_t q = 0; q < l.alloc; ++q) h(q) = std::numeric_limits<T>::quiet_NaN();
    for (index_t k = 0; k < l.n[2]; ++k)
      for (index_t j = 0; j < l.n[1]; ++j)
        for (index_t i = 0; i < l.n[0]; ++i) h(l.at(i, j, k)) = T(datum(i, j, k, seed));
    Kokkos::deep_copy(f->data, h);
    ++seed;
  }
}

// The bytes of every point within the halo of the interior, ghosts included.
template <class T>
std::vector<unsigned char> bytes(const Field<T>& f) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.data);
  const Layout& l = f.layout;
  const Box all = l.with_halo();
  std::vector<unsigned char> b;
  for (index_t k = all.lo[2]; k < all.hi[2]; ++k)
    for (index_t j = all.lo[1]; j < all.hi[1]; ++j)
      for (index_t i = all.lo[0]; i < all.hi[0]; ++i) {
        const auto* p = reinterpret_cast<const unsigned char*>(&h(l.at(i, j, k)));
        b.insert(b.end(), p, p + sizeof(T));
      }
  return b;
}

// Runs `steps` steps with the kernel writing the ghosts and with the separate fill, and compares
// u (ghosts of the separate run filled afterwards, as its next step would) after each step.
template <class T>
void check(const Stencil& s, const Variant& v, Boundary b, const Index3& n, int steps = 3) {
  SchemeSpec spec;
  spec.domain = Domain::single(n);
  spec.boundary = b;
  spec.courant = 0.5 * s.max_courant;
  spec.parallel.ghost_fill = GhostFillMode::kernel;
  TwoStep<T> by_kernel(s, spec, v);
  spec.parallel.ghost_fill = GhostFillMode::separate;
  TwoStep<T> separate(s, spec, v);
  ASSERT_TRUE(by_kernel.ghosts_by_kernel());
  ASSERT_FALSE(separate.ghosts_by_kernel());
  fill(by_kernel), fill(separate);
  for (int step = 1; step <= steps; ++step) {
    by_kernel.step();
    separate.step();
    Field<T>& u = separate.u();
    separate.halo().start(u), separate.halo().finish(u);
    const auto a = bytes(std::as_const(by_kernel).u()), e = bytes(std::as_const(separate).u());
    ASSERT_EQ(a.size(), e.size());
    long differ = 0;
    for (std::size_t q = 0; q < a.size(); q += sizeof(T)) differ += std::memcmp(&a[q], &e[q], sizeof(T)) != 0;
    ASSERT_EQ(differ, 0) << v.name() << ", " << s.name << ", " << to_string(b) << ", " << n[0] << "x" << n[1]
                         << "x" << n[2] << ", " << sizeof(T) * 8 << "-bit, step " << step;
  }
}

std::vector<const Variant*> image_writers() {
  std::vector<const Variant*> list;
  for (const auto& v : variants())
    if (v->writes_ghost_images()) list.push_back(v.get());
  return list;
}

// Grids: wide (a core far from every face), one axis narrower than twice the halo (points with
// images on both sides), and every axis exactly the halo.
std::vector<Index3> grids(int radius) {
  const index_t r = radius;
  return {{40, 13, 11}, {2 * r - 1 > r ? 2 * r - 1 : r, 17, 2 * r + 3}, {r, r, r}};
}

TEST(GhostImages, KernelWritesWhatTheFillWould) {
  ASSERT_FALSE(image_writers().empty());
  int checked = 0;
  for (const Variant* v : image_writers())
    for (const Stencil& s : {make_star(1), make_star(4), make_compact(3), make_box({2, 2, 2})}) {
      if (!v->supports(s, Precision::f64)) continue;
      for (Boundary b : {Boundary::periodic, Boundary::rigid})
        for (const Index3& n : grids(s.radius)) {
          check<double>(s, *v, b, n);
          check<float>(s, *v, b, n);
          ++checked;
        }
    }
  EXPECT_GE(checked, 6 * 3);  // star-1 and star-4 on every writer, compact and box on mdrange-general
}

// A host stand-in for the kernels' vector types (Vec<T, V>::type): V values, stored as one.
template <class T, int V>
struct HostVector {
  unsigned char bytes[sizeof(T) * V];
};

// The run path of GhostImages (Column, store of V points, one vector store per wrapped run) on
// the host against its per-point definition (for_each), for V = 1, 2, 4 and both boundaries, on
// grids with and without room for sector-wide x images: the ghosts within h match. `streaming`:
// as cuda-star-tma's unrolled loop stores them, through store_runs where the column's images are
// runs (runs_only) and the plane is off the z faces, else through store.
template <class T, int V>
void check_runs(GhostImages::Face face, const Index3& n, int h, int wx, bool streaming = false) {
  using Vector = HostVector<T, V>;
  const Layout l = make_layout(n, h, true, sizeof(T));
  GhostImages g;
  g.active = true, g.h = h, g.wx = wx;
  for (int a = 0; a < 3; ++a) g.n[a] = int(n[a]), g.face[a][0] = g.face[a][1] = face;
  g.origin = l.origin, g.sy = l.sy, g.sz = l.sz;
  std::vector<T> runs(l.alloc, T(std::numeric_limits<float>::quiet_NaN())), points = runs;
  long by_runs = 0;
  for (index_t k = 0; k < n[2]; ++k)
    for (index_t j = 0; j < n[1]; ++j)
      for (index_t i = 0; i + V <= n[0]; i += V) {
        T value[V];
        for (int v = 0; v < V; ++v) value[v] = T(float(datum(i + v, j, k, 3)));
        const auto c = g.column<V>(int(i), int(j));
        if (streaming && GhostImages::runs_only(c) && !g.z_near_any(int(k), int(k) + 1)) {
          GhostImages::store_runs<Vector>(runs.data(), g.runs(c), l.at(i, j, k), value);
          ++by_runs;
        } else {
          g.store<Vector>(runs.data(), c, int(i), int(j), int(k), l.at(i, j, k), value);
        }
        for (int v = 0; v < V; ++v)
          g.for_each(int(i + v), int(j), int(k), [&](std::int64_t q, int sign) { points[q] = sign < 0 ? -value[v] : value[v]; });
      }
  long differ = 0;
  const Box all = l.with_halo();
  for (index_t k = all.lo[2]; k < all.hi[2]; ++k)
    for (index_t j = all.lo[1]; j < all.hi[1]; ++j)
      for (index_t i = all.lo[0]; i < all.hi[0]; ++i) {
        const index_t q = l.at(i, j, k);
        differ += std::memcmp(&runs[q], &points[q], sizeof(T)) != 0;
      }
  EXPECT_EQ(differ, 0) << "V " << V << ", face " << face << ", h " << h << ", wx " << wx << ", n " << n[0] << "x"
                       << n[1] << "x" << n[2] << (streaming ? ", streaming" : "");
  // Off the z faces, a periodic box's columns are all runs (a rigid box's x faces are not).
  if (streaming && face == GhostImages::wrap && n[2] > 2 * h && n[0] >= 2 * g.reach(0) && n[1] >= 2 * h)
    EXPECT_GT(by_runs, 0);
}

TEST(GhostImages, RunsStoreWhatEachPointWould) {
  for (auto face : {GhostImages::wrap, GhostImages::reflect})
    for (int h : {1, 3, 4})
      for (const Index3& n : {Index3{16, 9, 8}, Index3{24, 2 * h + 1, 2 * h}, Index3{8, h, 2 * h - 1}}) {
        const int wx = face == GhostImages::wrap && h < 8 ? 8 : 0;  // sector-wide x images (float)
        check_runs<float, 1>(face, n, h, 0), check_runs<float, 2>(face, n, h, 0), check_runs<float, 4>(face, n, h, 0);
        check_runs<float, 4>(face, n, h, wx);
      }
}

// The unrolled kernel's path (store_runs beside store) in float and in 16 bits, whose runs are
// built and sign-flipped as whole 32-bit words: the same ghosts as point by point.
TEST(GhostImages, StreamingKernelsRunsStoreWhatEachPointWould) {
  for (auto face : {GhostImages::wrap, GhostImages::reflect})
    for (int h : {1, 3, 4})
      for (const Index3& n : {Index3{32, 12, 11}, Index3{24, 2 * h + 1, 2 * h}, Index3{8, h, 2 * h - 1}}) {
        const int wx = face == GhostImages::wrap ? 8 : 0;  // whole 16-byte vectors of 16-bit values
        check_runs<float, 4>(face, n, h, 0, true), check_runs<float, 4>(face, n, h, wx, true);
        check_runs<Half, 4>(face, n, h, 0, true), check_runs<Half, 4>(face, n, h, wx, true);
        check_runs<BFloat16, 4>(face, n, h, wx, true), check_runs<Half, 2>(face, n, h, 0, true);
        check_runs<Half, 1>(face, n, h, 0, true);
      }
}

TEST(GhostImages, WritingTheFieldRefillsTheGhosts) {
  // After u() is written from outside, the next step fills the ghosts again instead of trusting
  // the images the last kernel stored.
  const Stencil s = make_star(2);
  const Variant& v = select_variant("mdrange-star", s, Precision::f64);
  SchemeSpec spec;
  spec.domain = Domain::single({12, 10, 9});
  spec.courant = 0.5 * s.max_courant;
  TwoStep<double> by_kernel(s, spec, v);
  spec.parallel.ghost_fill = GhostFillMode::separate;
  TwoStep<double> separate(s, spec, v);
  fill(by_kernel), fill(separate);
  by_kernel.step(), separate.step();
  fill(by_kernel), fill(separate);  // new data, ghosts NaN again
  by_kernel.step(), separate.step();
  separate.halo().start(separate.u()), separate.halo().finish(separate.u());
  EXPECT_EQ(bytes(std::as_const(by_kernel).u()), bytes(std::as_const(separate).u()));
}

TEST(GhostImages, KernelModeRefusedWhereItCannotApply) {
  const Stencil s = make_star(2);
  SchemeSpec spec;
  spec.domain = Domain::single({12, 10, 9});
  spec.courant = 0.5 * s.max_courant;
  spec.parallel.ghost_fill = GhostFillMode::kernel;
  for (const auto& v : variants()) {
    if (!v->supports(s, Precision::f64)) continue;
    if (v->writes_ghost_images())
      EXPECT_NO_THROW(TwoStep<double>(s, spec, *v));
    else
      EXPECT_THROW(TwoStep<double>(s, spec, *v), Error) << v->name();
  }
  EXPECT_THROW(parse_ghost_fill("fill"), Error);
  EXPECT_EQ(parse_ghost_fill("auto"), GhostFillMode::automatic);
}

// On several ranks the kernel stores the ghosts of the axes a rank spans alone where every split
// axis is periodic and an overlapped step does not cut rows (x split).
TEST(GhostImages, WhereSeveralRanksLetTheKernelFillGhosts) {
  const Stencil s = make_star(2);
  const Variant& writer = select_variant("mdrange-star", s, Precision::f64);
  ParallelSpec par;
  par.transport = Transport::mpi;
  auto can = [&](Index3 grid, Boundary b, bool overlap) {
    par.rank_grid = grid, par.overlap = overlap;
    return kernel_can_fill_ghosts(par, b, writer);
  };
  EXPECT_TRUE(can({1, 1, 2}, Boundary::periodic, true));
  EXPECT_TRUE(can({1, 2, 2}, Boundary::periodic, true));
  EXPECT_TRUE(can({2, 1, 1}, Boundary::periodic, false));
  EXPECT_FALSE(can({2, 1, 1}, Boundary::periodic, true));   // x slabs: parts of rows
  EXPECT_FALSE(can({2, 2, 2}, Boundary::periodic, false));  // no axis of one rank
  EXPECT_FALSE(can({1, 1, 2}, Boundary::rigid, false));     // a wall on one face of a split axis
  EXPECT_TRUE(can({1, 1, 1}, Boundary::rigid, true));
  par.rank_grid = {2, 2, 2};
  EXPECT_THROW(ghosts_by_kernel(GhostFillMode::kernel, par, Boundary::periodic, writer), Error);
  EXPECT_FALSE(ghosts_by_kernel(GhostFillMode::automatic, par, Boundary::periodic, writer));
}

}  // namespace
}  // namespace wavefd
