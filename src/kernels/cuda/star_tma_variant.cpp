// cuda-star-tma: the native CUDA kernel fed by the Hopper bulk tensor copy (star_tma.cuh) as a
// registry variant. Built only with the Kokkos CUDA backend; where the copy engine or the layout
// does not allow it (pre-Hopper GPU, unaligned rows) it runs cuda-star-stream's kernel instead.
#include <cuda_runtime.h>

#include <array>

#include "kernels/native_variant.hpp"
#include "star_stream.hpp"
#include "star_tma.hpp"

namespace wavefd::cuda {

bool star_tma_device() {
  int device = 0, major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
    return false;
  return major >= 9;
}

}  // namespace wavefd::cuda

namespace wavefd::kernels {
namespace {

class CudaStarTma final : public VariantWith16Bit<CudaStarTma, NativeStarVariant<CudaStarTma>> {
 public:
  static constexpr std::array<int, 3> kRows{16, 8, 15};  // tile heights compiled in (the first is the default)

  std::string name() const override { return "cuda-star-tma"; }
  bool writes_ghost_images() const override { return true; }
  std::string description() const override {
    return "native CUDA, star M=1..8: 2.5-D z streaming; each plane of a 128-byte x 16-row tile with its halo, "
           "and of u-, copied to a shared-memory ring by the tensor memory accelerator, mbarrier-paced (sm_90+)";
  }

  // The coefficient's byte index is staged by the copy engine where the ring fits it (its fallback
  // to cuda-star-stream reads the coefficient's values).
  bool takes_coefficient_index() const override { return true; }
  // The velocity form in 16 bits, in the copy-engine kernel and in cuda-star-stream's, its fallback.
  bool stores_velocity(Precision p) const override { return bytes_of(p) == 2; }
  // The PML branch is in the copy-engine kernel only (not in cuda-star-stream's, its fallback).
  bool takes_pml(const Layout& l, const Box& b, Precision p) const override {
    const index_t bytes = bytes_of(p);
    const auto on_16_bytes = [&](index_t n) { return n * bytes % 16 == 0; };
    return cuda::star_tma_device() && on_16_bytes(l.origin + b.lo[0]) && on_16_bytes(l.sy) && on_16_bytes(l.sz) &&
           on_16_bytes(b.extent(0)) && l.sz % l.sy == 0;
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    const native::StarArgs<T> n = native_star_args(a, box, a.exec.cuda_stream());
    if (cuda::star_tma_usable(n))
      cuda::star_tma(n);
    else if (a.pml.active())
      throw Error("cuda-star-tma: the seismic PML branch needs an sm_90 device and rows on 16 bytes (takes_pml)");
    else
      cuda::star_stream(n);
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_tma() { return std::make_unique<CudaStarTma>(); }

}  // namespace wavefd::kernels
