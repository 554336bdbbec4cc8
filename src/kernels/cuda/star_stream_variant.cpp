// cuda-star-stream: the native CUDA 2.5-D streaming kernel (star_stream.cuh) as a registry variant.
// Built only with the Kokkos CUDA backend.
#include <array>

#include "kernels/native_variant.hpp"
#include "star_stream.hpp"

namespace wavefd::kernels {
namespace {

class CudaStarStream final : public VariantWith16Bit<CudaStarStream, NativeStarVariant<CudaStarStream>> {
 public:
  static constexpr std::array<int, 2> kRows{4, 8};  // tile heights compiled in (the first is the default)

  std::string name() const override { return "cuda-star-stream"; }
  // Its kernel can store ghost images (cuda-star-tma falls back to it), but they cost it more than
  // the fill pass they replace (H200, star M=4 float 512^3: 52 % of copy against 62 %).
  bool writes_ghost_images() const override { return false; }
  std::string description() const override {
    return "native CUDA, star M=1..8: 2.5-D z streaming, register window in z, 16-byte vector "
           "loads, in-plane neighbours through L1; the seismic PML branch (scheme.layer_variant)";
  }

  // Its PML branch takes any box (16-byte vectors where aligned, 8-byte ones in 16 bits, else one
  // point per thread), in every format.
  bool takes_pml(const Layout&, const Box&, Precision) const override { return true; }
  // The velocity form with the coefficient and in the PML branch, in 16 bits (the form it exists for:
  // float keeps its velocity's bits with u^{n-1} stored, and its kernels their compile time).
  bool stores_velocity(Precision p) const override { return bytes_of(p) == 2; }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (!box.empty()) cuda::star_stream(native_star_args(a, box, a.exec.cuda_stream()));
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_stream() { return std::make_unique<CudaStarStream>(); }

}  // namespace wavefd::kernels
