// Variant::touch's default: zeros over whole pitches of the box's rows, by a Kokkos loop over the
// rows (the partition of variants whose threads Kokkos assigns). And apply()'s for the 16-bit
// formats, for variants that do not store them.
#include <stdexcept>

#include "wavefd/variant.hpp"

namespace wavefd {
namespace {

template <class T>
void touch_rows(Kokkos::View<T*> field, const Layout& l, const Box& b) {
  if (b.empty()) return;
  using Rows = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>, Kokkos::IndexType<index_t>>;
  Kokkos::parallel_for("wavefd::touch_rows", Rows({0, b.lo[1], b.lo[2]}, {l.sy, b.hi[1], b.hi[2]}),
                       KOKKOS_LAMBDA(index_t i, index_t y, index_t z) { field(l.row_start(y, z) + i) = T(0); });
}

}  // namespace

void Variant::touch(Kokkos::View<float*> field, const TwoStepArgs<float>& a, const Box& box) const {
  touch_rows(field, a.layout, box);
}
void Variant::touch(Kokkos::View<double*> field, const TwoStepArgs<double>& a, const Box& box) const {
  touch_rows(field, a.layout, box);
}
void Variant::touch(Kokkos::View<Half*> field, const TwoStepArgs<Half>& a, const Box& box) const {
  touch_rows(field, a.layout, box);
}
void Variant::touch(Kokkos::View<BFloat16*> field, const TwoStepArgs<BFloat16>& a, const Box& box) const {
  touch_rows(field, a.layout, box);
}

void Variant::apply(const TwoStepArgs<Half>&, const Box&) const {
  throw std::logic_error(name() + " does not store half (Variant::supports)");
}
void Variant::apply(const TwoStepArgs<BFloat16>&, const Box&) const {
  throw std::logic_error(name() + " does not store bfloat16 (Variant::supports)");
}

}  // namespace wavefd
