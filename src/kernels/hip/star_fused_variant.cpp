// hip-star-fused: the native HIP fused xyz kernel (star_fused.hip) as a registry variant. Built
// only with the Kokkos HIP backend. Not in `auto`'s preference list until it has been verified
// and timed on AMD hardware (`wavefd verify --variant hip-star-fused`, `wavefd tune`).
#include "star_fused.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

class HipStarFused final : public VariantFor<HipStarFused> {
 public:
  std::string name() const override { return "hip-star-fused"; }
  std::string description() const override {
    return "native HIP, star M=1..8: fused xyz (AMD), z sliding window, y rows in LDS, 16-byte loads, "
           "nontemporal stores";
  }
  bool supports(const Stencil& s, Precision) const override {
    return s.family == Family::star && s.radius >= 1 && s.radius <= hip::kStarFusedMaxRadius;
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    hip::StarFusedArgs<T> n;
    n.u = a.u.data();
    n.u_prev = a.u_prev.data();
    n.sy = a.layout.sy;
    n.sz = a.layout.sz;
    n.origin = a.layout.origin;
    for (int d = 0; d < 3; ++d) n.lo[d] = int(box.lo[d]), n.hi[d] = int(box.hi[d]);
    n.radius = a.weights->radius;
    const std::vector<T> c = star_axis_weights(*a.weights);
    for (int m = 0; m <= n.radius; ++m) n.c[m] = c[m];
    n.stream = a.exec.hip_stream();
    hip::star_fused(n);
  }
};

}  // namespace

std::unique_ptr<Variant> make_hip_star_fused() { return std::make_unique<HipStarFused>(); }

}  // namespace wavefd::kernels
