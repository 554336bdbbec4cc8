// kk-spmv: the two-step update as sparse linear algebra, the baseline a user without stencil code
// would write: the stencil assembled once as a Kokkos Kernels CRS matrix A (one row per point of
// the box, columns are flat indices of u), then t = A u with KokkosSparse::spmv and
// u_prev <- t - u_prev over the box. Built when Kokkos Kernels is enabled.
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>

#include <climits>

#include "kernels/variant_cache.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

using Exec = Kokkos::DefaultExecutionSpace;

template <class T>
struct Assembled {
  using Matrix = KokkosSparse::CrsMatrix<T, int, Exec, void, std::size_t>;
  Matrix A;
  Kokkos::View<T*> t;  // A u
  // What the matrix was built for: reassemble when any of it changes.
  std::vector<double> gamma;
  std::vector<Offset> offsets;
  Index3 lo{}, hi{};
  index_t sy = 0, sz = 0, origin = 0, alloc = 0;

  bool matches(const TwoStepArgs<T>& a, const Box& b) const {
    return gamma == a.weights->host_gamma && offsets == a.weights->offsets && lo == b.lo && hi == b.hi &&
           sy == a.layout.sy && sz == a.layout.sz && origin == a.layout.origin && alloc == a.layout.alloc;
  }
};

template <class T>
Assembled<T> assemble(const TwoStepArgs<T>& a, const Box& b) {
  using Matrix = typename Assembled<T>::Matrix;
  const index_t rows = b.size();
  const int K = a.weights->size;
  if (a.layout.alloc > INT_MAX)
    throw Error("kk-spmv: the grid (" + std::to_string(a.layout.alloc) + " stored points) exceeds int column indices");
  Kokkos::View<std::size_t*> row_map("wavefd::kk_spmv.row_map", rows + 1);
  Kokkos::View<int*> entries("wavefd::kk_spmv.entries", std::size_t(rows) * K);
  Kokkos::View<T*> values("wavefd::kk_spmv.values", std::size_t(rows) * K);
  const Layout l = a.layout;
  const auto off = a.weights->flat_offsets;
  const auto gamma = a.weights->gamma;
  const index_t nx = b.extent(0), ny = b.extent(1);
  const Index3 lo = b.lo;
  Kokkos::parallel_for("wavefd::kk_spmv_assemble", Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(0, rows),
                       KOKKOS_LAMBDA(index_t r) {
                         const index_t p = l.at(lo[0] + r % nx, lo[1] + (r / nx) % ny, lo[2] + r / (nx * ny));
                         row_map(r) = std::size_t(r) * K;
                         for (int s = 0; s < K; ++s) {
                           entries(std::size_t(r) * K + s) = int(p + off(s));
                           values(std::size_t(r) * K + s) = gamma(s);
                         }
                         if (r == rows - 1) row_map(rows) = std::size_t(rows) * K;
                       });
  Assembled<T> out;
  out.A = Matrix("wavefd::kk_spmv.A", int(rows), int(l.alloc), std::size_t(rows) * K, values, row_map, entries);
  out.t = Kokkos::View<T*>("wavefd::kk_spmv.t", rows);
  out.gamma = a.weights->host_gamma;
  out.offsets = a.weights->offsets;
  out.lo = b.lo, out.hi = b.hi;
  out.sy = l.sy, out.sz = l.sz, out.origin = l.origin, out.alloc = l.alloc;
  return out;
}

class KkSpmv final : public VariantFor<KkSpmv> {
 public:
  std::string name() const override { return "kk-spmv"; }
  std::string description() const override {
    return "Kokkos Kernels: stencil assembled as a CRS matrix, KokkosSparse::spmv, then t - u_prev";
  }
  bool supports_stencil(const Stencil&, Precision) const override { return true; }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    const Assembled<T>& m = cache_.get<T>([&](const Assembled<T>& c) { return c.matches(a, box); },
                                          [&] { return assemble(a, box); });
    KokkosSparse::spmv(a.exec, "N", T(1), m.A, a.u, T(0), m.t);
    const Layout l = a.layout;
    const auto t = m.t;
    const auto u_prev = a.u_prev;
    const index_t nx = box.extent(0), ny = box.extent(1);
    const Index3 lo = box.lo;
    Kokkos::parallel_for("wavefd::kk_spmv_combine", Kokkos::RangePolicy<Exec, Kokkos::IndexType<index_t>>(a.exec, 0, box.size()),
                         KOKKOS_LAMBDA(index_t r) {
                           const index_t p = l.at(lo[0] + r % nx, lo[1] + (r / nx) % ny, lo[2] + r / (nx * ny));
                           u_prev(p) = t(r) - u_prev(p);
                         });
  }

 private:
  VariantCache<Assembled> cache_;
};

}  // namespace

std::unique_ptr<Variant> make_kk_spmv() { return std::make_unique<KkSpmv>(); }

}  // namespace wavefd::kernels
