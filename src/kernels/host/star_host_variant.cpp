// host-star: the native host kernel (star_host.cpp) as a registry variant, registered on host
// builds. Its tile is 1 x rows per block x 1. Stores every precision, the 16-bit ones included.
#include <string>

#include "kernels/native_variant.hpp"
#include "star_host.hpp"

namespace wavefd::kernels {
namespace {

class HostStar final : public VariantWith16Bit<HostStar, RowsStarVariant<HostStar>> {
 public:
  std::string name() const override { return "host-star"; }
  std::string description() const override {
    return "native host (C++ and OpenMP), star M=1..8: threads over blocks of rows, each block streamed "
           "through every plane (2R+1 planes in L2), simd x loop";
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (!box.empty()) host::star_host(native_star_args(a, box, nullptr));
  }
  void touch(Kokkos::View<float*> f, const TwoStepArgs<float>& a, const Box& b) const override { touch_rows(f, a, b); }
  void touch(Kokkos::View<double*> f, const TwoStepArgs<double>& a, const Box& b) const override { touch_rows(f, a, b); }
  void touch(Kokkos::View<Half*> f, const TwoStepArgs<Half>& a, const Box& b) const override { touch_rows(f, a, b); }
  void touch(Kokkos::View<BFloat16*> f, const TwoStepArgs<BFloat16>& a, const Box& b) const override {
    touch_rows(f, a, b);
  }

 private:
  template <class T>
  static void touch_rows(Kokkos::View<T*> f, const TwoStepArgs<T>& a, const Box& b) {
    host::star_host_touch(native_star_args(a, b, nullptr), f.data());
  }
};

}  // namespace

std::unique_ptr<Variant> make_host_star() { return std::make_unique<HostStar>(); }

}  // namespace wavefd::kernels
