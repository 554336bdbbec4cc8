// mdrange-star: Hamilton's KernelB. Star (leggy) stencils with a compile-time radius M = 1..8,
// weights passed by value, the three axes summed pairwise (eq. 5). Tunable tile. Skips the points
// outside a room's air columns (TwoStepArgs::z_spans), as cuda-star-tma does: CTest checks both ways.
// Stores every precision, 16-bit ones included (widened to float as read, narrowed as stored).
#include <utility>

#include "box_policy.hpp"
#include "radius_dispatch.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;

template <class T, int M>
struct StarUpdate {
  using A = arithmetic_t<T>;
  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Kokkos::Array<A, M + 1> c;  // c[0] centre, c[m] the weight at distance m on every axis
  Layout l;
  GhostImages images;
  Kokkos::View<const int*> z_spans;  // TwoStepArgs::z_spans: the points outside them are skipped

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t j, index_t k) const {
    if (z_spans.extent(0) > 0) {
      const index_t c = 2 * (i + j * l.n[0]);
      if (k < z_spans(c) || k >= z_spans(c + 1)) return;
    }
    const index_t p = l.at(i, j, k);
    const index_t sy = l.sy, sz = l.sz;
    const auto at = [&](index_t q) { return widen(u(q)); };
    A acc = c[0] * at(p) - widen(u_prev(p));
    for (int m = 1; m <= M; ++m) {
      acc += c[m] * ((at(p - m) + at(p + m)) + (at(p - m * sy) + at(p + m * sy)) + (at(p - m * sz) + at(p + m * sz)));
    }
    const T stored = narrow<T>(acc);
    u_prev(p) = stored;
    images.store(u_prev.data(), int(i), int(j), int(k), p, stored);
  }
};

class MdrangeStar final
    : public BoxTiled<VariantWith16Bit<MdrangeStar, RadiusVariantFor<MdrangeStar, kMaxRadius>>> {
 public:
  std::string name() const override { return "mdrange-star"; }
  std::string description() const override {
    return "Kokkos MDRange, star stencils M=1..8: compile-time radius, axes summed pairwise "
           "(Hamilton KernelB)";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }
  bool writes_ghost_images() const override { return true; }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int M>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    StarUpdate<T, M> f{a.u, a.u_prev, {}, a.layout, a.images, a.z_spans};
    const auto c = star_axis_weights(*a.weights);
    for (int m = 0; m <= M; ++m) f.c[m] = c[m];
    Kokkos::parallel_for("wavefd::mdrange_star", box_policy(a.exec, box, a.tile), f);
  }
};

}  // namespace

std::unique_ptr<Variant> make_mdrange_star() { return std::make_unique<MdrangeStar>(); }

}  // namespace wavefd::kernels
