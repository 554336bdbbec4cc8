// cuda-star-tma: the native CUDA kernel fed by the Hopper bulk tensor copy (star_tma.cu) as a
// registry variant. Built only with the Kokkos CUDA backend; where the copy engine or the layout
// does not allow it (pre-Hopper GPU, unaligned rows) it runs cuda-star-stream's kernel instead.
#include <array>

#include "kernels/native_variant.hpp"
#include "star_stream.hpp"
#include "star_tma.hpp"

namespace wavefd::kernels {
namespace {

class CudaStarTma final : public NativeStarVariant<CudaStarTma> {
 public:
  static constexpr std::array<int, 2> kRows{16, 8};  // tile heights compiled in (the first is the default)

  std::string name() const override { return "cuda-star-tma"; }
  bool writes_ghost_images() const override { return true; }
  std::string description() const override {
    return "native CUDA, star M=1..8: 2.5-D z streaming; each plane of a 128-byte x 16-row tile with its halo, "
           "and of u-, copied to a shared-memory ring by the tensor memory accelerator, mbarrier-paced (sm_90+)";
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    const native::StarArgs<T> n = native_star_args(a, box, a.exec.cuda_stream());
    if (cuda::star_tma_usable(n))
      cuda::star_tma(n);
    else
      cuda::star_stream(n);
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_tma() { return std::make_unique<CudaStarTma>(); }

}  // namespace wavefd::kernels
