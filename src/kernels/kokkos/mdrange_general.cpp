// mdrange-general: Hamilton's KernelA. Any stencil, one loop over the offset list. Tunable tile.
#include "box_policy.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

template <class T>
struct GeneralUpdate {
  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Kokkos::View<const index_t*> offset;
  Kokkos::View<const T*> gamma;
  Layout l;
  int K;
  GhostImages images;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t j, index_t k) const {
    const index_t c = l.at(i, j, k);
    T acc = -u_prev(c);
    for (int s = 0; s < K; ++s) acc += gamma(s) * u(c + offset(s));
    u_prev(c) = acc;
    images.store(u_prev.data(), int(i), int(j), int(k), c, acc);
  }
};

class MdrangeGeneral final : public BoxTiled<VariantFor<MdrangeGeneral>> {
 public:
  std::string name() const override { return "mdrange-general"; }
  std::string description() const override {
    return "Kokkos MDRange, any stencil: loop over the offset list (Hamilton KernelA)";
  }
  bool supports_stencil(const Stencil&, Precision) const override { return true; }
  bool writes_ghost_images() const override { return true; }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    Kokkos::parallel_for("wavefd::mdrange_general", box_policy(a.exec, box, a.tile),
                         GeneralUpdate<T>{a.u, a.u_prev, a.weights->flat_offsets, a.weights->gamma,
                                          a.layout, a.weights->size, a.images});
  }
};

}  // namespace

std::unique_ptr<Variant> make_mdrange_general() { return std::make_unique<MdrangeGeneral>(); }

}  // namespace wavefd::kernels
