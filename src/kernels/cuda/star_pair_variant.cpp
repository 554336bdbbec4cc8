// cuda-star-pair: two steps of the seismic inner box in one pass (star_pair.cu) as a registry
// variant; one step is cuda-star-tma's. Built only with the Kokkos CUDA backend.
#include <array>

#include "kernels/native_variant.hpp"
#include "star_pair.hpp"

namespace wavefd::kernels {
namespace {

class CudaStarPair final : public NativeStarVariant<CudaStarPair> {
 public:
  static constexpr std::array<int, 2> kRows{32, 16};  // tile rows of the pair kernel (the first is the default)

  std::string name() const override { return "cuda-star-pair"; }
  std::string description() const override {
    return "native CUDA, star M=1..6 with a variable coefficient: two time steps per pass over memory (temporal "
           "blocking; the seismic inner box's pairs, scheme.pairs), 2.5-D z streaming, the first step's tile in a "
           "shared-memory ring of planes; a single step is cuda-star-tma's";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return native_star_supports(s) && s.radius <= cuda::kMaxPairRadius;
  }
  bool fuses_pairs(const Stencil& s, Precision p) const override { return supports(s, p); }

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    TwoStepArgs<T> one = a;
    one.tile = {};  // this variant's tile is the pair kernel's
    one_step().apply(one, box);
  }

  void apply_pair(const PairArgs<float>& a, const Box& box) const override { pair(a, box); }
  void apply_pair(const PairArgs<double>& a, const Box& box) const override { pair(a, box); }

 private:
  static const Variant& one_step() {
    static const Variant& v = [] () -> const Variant& {
      for (const auto& v : variants())
        if (v->name() == "cuda-star-tma") return *v;
      throw Error("cuda-star-pair: cuda-star-tma is not registered");
    }();
    return v;
  }

  template <class T>
  void pair(const PairArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    cuda::StarPairArgs<T> n;
    n.u = a.u.data(), n.u_prev = a.u_prev.data(), n.next = a.next.data(), n.after = a.after.data();
    n.coef = a.coefficient.data();
    n.source_at = a.source_at.data(), n.source_add = a.source_add.data(), n.sources = int(a.source_add.extent(0));
    n.sy = a.layout.sy, n.sz = a.layout.sz, n.origin = a.layout.origin;
    for (int d = 0; d < 3; ++d) n.lo[d] = int(box.lo[d]), n.hi[d] = int(box.hi[d]);
    n.radius = a.weights->radius;
    const std::vector<T> c = star_axis_weights(*a.weights);
    for (int m = 0; m <= n.radius; ++m) n.c[m] = c[m];
    n.rows = a.tile.y, n.z_chunk = a.tile.z;
    n.stream = a.exec.cuda_stream();
    if (cuda::star_pair_usable(n))
      cuda::star_pair(n);
    else
      Variant::apply_pair(a, box);  // two passes
  }
};

}  // namespace

std::unique_ptr<Variant> make_cuda_star_pair() { return std::make_unique<CudaStarPair>(); }

}  // namespace wavefd::kernels
