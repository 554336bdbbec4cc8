// hip-star-fused: the native HIP fused xyz kernel (star_fused.hip) as a registry variant. Built
// only with the Kokkos HIP backend. Not in `auto`'s preference list until it has been verified
// and timed on AMD hardware (`wavefd verify --variant hip-star-fused`, `wavefd tune`).
#include "kernels/native_variant.hpp"
#include "star_fused.hpp"

namespace wavefd::kernels {
namespace {

class HipStarFused final : public VariantFor<HipStarFused> {
 public:
  std::string name() const override { return "hip-star-fused"; }
  std::string description() const override {
    return "native HIP, star M=1..8: fused xyz (AMD), z sliding window, y rows in LDS, 16-byte loads, "
           "nontemporal stores";
  }
  bool supports_stencil(const Stencil& s, Precision) const override { return native_star_supports(s); }
  bool takes_coefficient() const override { return true; }
  bool native() const override { return true; }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (!box.empty()) hip::star_fused(native_star_args(a, box, a.exec.hip_stream()));
  }
};

}  // namespace

std::unique_ptr<Variant> make_hip_star_fused() { return std::make_unique<HipStarFused>(); }

}  // namespace wavefd::kernels
