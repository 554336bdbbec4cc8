// cuda-star-stream: the native CUDA 2.5-D streaming kernel (star_stream.cu) as a registry variant.
// Built only with the Kokkos CUDA backend.
#include "kernels/native_variant.hpp"
#include "star_stream.hpp"

namespace wavefd::kernels {
namespace {

class CudaStarStream final : public VariantFor<CudaStarStream> {
 public:
  std::string name() const override { return "cuda-star-stream"; }
  std::string description() const override {
    return "native CUDA, star M=1..8: 2.5-D z streaming, register window in z, 16-byte vector "
           "loads, in-plane neighbours through L1";
  }
  bool supports(const Stencil& s, Precision) const override { return native_star_supports(s); }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (!box.empty()) cuda::star_stream(native_star_args(a, box, a.exec.cuda_stream()));
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_stream() { return std::make_unique<CudaStarStream>(); }

}  // namespace wavefd::kernels
