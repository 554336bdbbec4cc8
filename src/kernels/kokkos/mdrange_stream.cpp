// mdrange-stream: Kokkos MDRange over (x, y, z-chunk) where each index streams along z with a
// register window of 2R+1 values (star stencils, R = 1..8). In-plane neighbours are read straight
// from global memory: neighbouring threads of the block read the same lines, so they hit L1/L2
// and DRAM sees each value about once. No scratch and no barriers, so warps run independently.
#include <utility>

#include "box_policy.hpp"
#include "radius_dispatch.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;

template <class T, int R>
struct StreamStar {
  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Kokkos::Array<T, R + 1> c;
  Layout l;
  Box box;
  index_t z_chunk;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t j, index_t chunk) const {
    const index_t zb = box.lo[2] + chunk * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const index_t col = l.at(i, j, 0), sy = l.sy, sz = l.sz;
    T w[2 * R + 1];  // w[k] = u(i, j, z - R + k)
    for (int k = 0; k < 2 * R; ++k) w[k] = u(col + (zb - R + k) * sz);
    for (index_t z = zb; z < ze; ++z) {
      const index_t p = col + z * sz;
      w[2 * R] = u(p + R * sz);
      T acc = c[0] * w[R] - u_prev(p);
      for (int m = 1; m <= R; ++m)
        acc += c[m] * ((u(p - m) + u(p + m)) + (u(p - m * sy) + u(p + m * sy)) + (w[R - m] + w[R + m]));
      u_prev(p) = acc;
      for (int k = 0; k < 2 * R; ++k) w[k] = w[k + 1];
    }
  }
};

class MdrangeStream final : public RadiusVariantFor<MdrangeStream, kMaxRadius> {
 public:
  std::string name() const override { return "mdrange-stream"; }
  std::string description() const override {
    return "Kokkos MDRange over (x, y, z-chunk), star M=1..8: z streaming with a register window, "
           "in-plane neighbours through L1";
  }
  bool supports(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    StreamStar<T, R> f{a.u, a.u_prev, {}, a.layout, box, 0};
    const std::vector<T> c = star_axis_weights(*a.weights);
    for (int m = 0; m <= R; ++m) f.c[m] = c[m];
    const ColumnStreams cs = column_streams(a.exec, box, R);
    f.z_chunk = cs.z_chunk;
    Kokkos::parallel_for("wavefd::mdrange_stream", cs.policy, f);
  }
};

}  // namespace

std::unique_ptr<Variant> make_mdrange_stream() { return std::make_unique<MdrangeStream>(); }

}  // namespace wavefd::kernels
