// Variant::apply_pair's default: two steps of the seismic inner box by two passes of the variant's
// own one-step update (no temporal blocking). Each pass runs on a copy of the box, since apply()
// overwrites u_prev in place and a pair keeps u and u_prev: the bits of two steps, whatever the
// variant, at the cost of two copies. Variants that fuse the pair (fuses_pairs()) override it.
#include "wavefd/variant.hpp"

namespace wavefd {
namespace {

using Policy3 = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                      Kokkos::IndexType<index_t>>;

template <class T>
void copy_box(const Kokkos::DefaultExecutionSpace& exec, const Layout& l, const Box& b, Kokkos::View<const T*> from,
              Kokkos::View<T*> into) {
  Kokkos::parallel_for("wavefd::pair_copy", Policy3(exec, {b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]}),
                       KOKKOS_LAMBDA(index_t i, index_t j, index_t k) {
                         const index_t p = l.at(i, j, k);
                         into(p) = from(p);
                       });
}

// next += the step's source values at the source points inside the box (those outside are the
// caller's, already in next).
template <class T>
void add_sources_inside(const PairArgs<T>& a, const Box& b) {
  const index_t points = index_t(a.source_add.extent(0));
  if (points == 0) return;
  const auto at = a.source_at;
  const auto add = a.source_add;
  const auto next = a.next;
  const Layout l = a.layout;
  Kokkos::parallel_for("wavefd::pair_sources", Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>(a.exec, 0, points),
                       KOKKOS_LAMBDA(index_t s) {
                         const int x = at(3 * s), y = at(3 * s + 1), z = at(3 * s + 2);
                         if (x >= b.lo[0] && x < b.hi[0] && y >= b.lo[1] && y < b.hi[1] && z >= b.lo[2] && z < b.hi[2])
                           next(l.at(x, y, z)) += add(s);
                       });
}

template <class T>
void pair_by_passes(const Variant& v, const PairArgs<T>& a, const Box& box) {
  if (box.empty()) return;
  copy_box<T>(a.exec, a.layout, box, a.u_prev, a.next);
  v.apply(a.step(a.u, a.next), box);
  add_sources_inside(a, box);
  copy_box<T>(a.exec, a.layout, box, a.u, a.after);
  v.apply(a.step(a.next, a.after), box);
}

}  // namespace

void Variant::apply_pair(const PairArgs<float>& a, const Box& box) const { pair_by_passes(*this, a, box); }
void Variant::apply_pair(const PairArgs<double>& a, const Box& box) const { pair_by_passes(*this, a, box); }

}  // namespace wavefd
