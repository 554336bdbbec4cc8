// cuda-star-stream: the native CUDA 2.5-D streaming kernel (star_stream.cu) as a registry variant.
// Built only with the Kokkos CUDA backend.
#include "star_stream.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

class CudaStarStream final : public VariantFor<CudaStarStream> {
 public:
  std::string name() const override { return "cuda-star-stream"; }
  std::string description() const override {
    return "native CUDA, star M=1..8: 2.5-D z streaming, register window in z, 16-byte vector "
           "loads, in-plane neighbours through L1";
  }
  bool supports(const Stencil& s, Precision) const override {
    return s.family == Family::star && s.radius >= 1 && s.radius <= cuda::kStarStreamMaxRadius;
  }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    cuda::StarStreamArgs<T> n;
    n.u = a.u.data();
    n.u_prev = a.u_prev.data();
    n.sy = a.layout.sy;
    n.sz = a.layout.sz;
    n.origin = a.layout.origin;
    for (int d = 0; d < 3; ++d) n.lo[d] = int(box.lo[d]), n.hi[d] = int(box.hi[d]);
    n.radius = a.weights->radius;
    const std::vector<T> c = star_axis_weights(*a.weights);
    for (int m = 0; m <= n.radius; ++m) n.c[m] = c[m];
    n.stream = a.exec.cuda_stream();
    cuda::star_stream(n);
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_stream() { return std::make_unique<CudaStarStream>(); }

}  // namespace wavefd::kernels
