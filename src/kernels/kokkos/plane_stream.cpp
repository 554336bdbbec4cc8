// plane-stream: any stencil symmetric in z (all built-in families), streamed along z with the
// sums shared. Each index of an MDRange over (x, y, z-chunk) walks its column plane by plane.
// A plane's in-plane neighbours are read once and grouped into classes of offsets (dx, dy) that
// carry the same weight at every |dz| (e.g. the 4 or 8 symmetric images of a shell point); each
// class sum is then scaled by its weight for every |dz| = 0..r and added to the accumulators of
// the 2r+1 output planes it touches. A compact or box stencil with K points costs about K/(2r+1)
// loads and far fewer than K multiplies per point (Hamilton eq. 11, carried across planes).
#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "box_policy.hpp"
#include "kernels/variant_cache.hpp"
#include "radius_dispatch.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 6;

// The stencil regrouped: classes of in-plane offsets with a weight per |dz|.
struct PlaneClasses {
  std::vector<index_t> offsets;  // flat in-plane offsets dx + dy*sy, class by class
  std::vector<int> begin;        // class c owns offsets[begin[c] .. begin[c+1])
  std::vector<double> weight;    // weight[c * (r+1) + d]: the class's weight at |dz| = d
  int r = 0;
};

// Throws Error when the stencil is not symmetric in z (then the scheme needs the general kernel).
PlaneClasses regroup(const std::vector<Offset>& offsets, const std::vector<double>& gamma, int r, index_t sy) {
  std::map<std::pair<int, int>, std::vector<double>> by_xy;  // (dx, dy) -> weight per dz in -r..r
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    auto& w = by_xy[{offsets[k].x, offsets[k].y}];
    w.resize(2 * r + 1, 0.0);
    w[offsets[k].z + r] = gamma[k];
  }
  std::map<std::vector<double>, std::vector<std::pair<int, int>>> classes;  // weights -> offsets
  for (const auto& [xy, w] : by_xy) {
    for (int d = 1; d <= r; ++d)
      if (w[r + d] != w[r - d]) throw Error("plane-stream: the stencil is not symmetric in z");
    classes[std::vector<double>(w.begin() + r, w.end())].push_back(xy);
  }
  PlaneClasses p;
  p.r = r;
  for (const auto& [w, members] : classes) {
    p.begin.push_back(int(p.offsets.size()));
    for (const auto& [dx, dy] : members) p.offsets.push_back(dx + dy * sy);
    p.weight.insert(p.weight.end(), w.begin(), w.end());
  }
  p.begin.push_back(int(p.offsets.size()));
  return p;
}

// The class table on the device, for one stencil (weights as stored) and row pitch.
template <class T>
struct DeviceClasses {
  Kokkos::View<index_t*> offsets;
  Kokkos::View<int*> begin;
  Kokkos::View<T*> weight;
  int classes = 0;
  std::vector<double> gamma;
  std::vector<Offset> stencil_offsets;
  index_t sy = 0;

  DeviceClasses(const TwoStepArgs<T>& a, int r)
      : gamma(a.weights->host_gamma), stencil_offsets(a.weights->offsets), sy(a.layout.sy) {
    const PlaneClasses pc = regroup(stencil_offsets, gamma, r, sy);
    classes = int(pc.begin.size()) - 1;
    offsets = Kokkos::View<index_t*>("wavefd::plane_stream.offsets", pc.offsets.size());
    begin = Kokkos::View<int*>("wavefd::plane_stream.begin", pc.begin.size());
    weight = Kokkos::View<T*>("wavefd::plane_stream.weight", pc.weight.size());
    auto oh = Kokkos::create_mirror_view(offsets);
    auto bh = Kokkos::create_mirror_view(begin);
    auto wh = Kokkos::create_mirror_view(weight);
    for (std::size_t k = 0; k < pc.offsets.size(); ++k) oh(k) = pc.offsets[k];
    for (std::size_t k = 0; k < pc.begin.size(); ++k) bh(k) = pc.begin[k];
    for (std::size_t k = 0; k < pc.weight.size(); ++k) wh(k) = static_cast<T>(pc.weight[k]);
    Kokkos::deep_copy(offsets, oh);
    Kokkos::deep_copy(begin, bh);
    Kokkos::deep_copy(weight, wh);
  }
  bool matches(const TwoStepArgs<T>& a) const {
    return sy == a.layout.sy && gamma == a.weights->host_gamma && stencil_offsets == a.weights->offsets;
  }
};

template <class T, int R>
struct PlaneStream {
  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Kokkos::View<const index_t*> offsets;
  Kokkos::View<const int*> begin;
  Kokkos::View<const T*> weight;
  int classes;
  Layout l;
  Box box;
  index_t z_chunk;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t j, index_t chunk) const {  // i: x - box.lo[0]
    const index_t zb = box.lo[2] + chunk * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const index_t col = l.at(box.lo[0] + i, j, 0), sz = l.sz;
    T acc[2 * R + 1];  // acc[k]: output plane p - R + k, after plane p was added
    for (int k = 0; k < 2 * R + 1; ++k) acc[k] = T(0);
    for (index_t p = zb - R; p < ze + R; ++p) {
      const index_t q = col + p * sz;
      T s[R + 1];  // the plane's contribution at |dz| = d
      for (int d = 0; d <= R; ++d) s[d] = T(0);
      for (int c = 0; c < classes; ++c) {
        T sum = T(0);
        for (int m = begin(c); m < begin(c + 1); ++m) sum += u(q + offsets(m));
        for (int d = 0; d <= R; ++d) s[d] += weight(c * (R + 1) + d) * sum;
      }
      // Plane p feeds outputs p - R .. p + R, i.e. acc[k] with |k - R| = d after the shift below.
      acc[R] += s[0];
      for (int d = 1; d <= R; ++d) {
        acc[R - d] += s[d];
        acc[R + d] += s[d];
      }
      const index_t out = p - R;  // complete now: every plane out - R .. out + R has been added
      if (out >= zb) {
        const index_t o = col + out * sz;
        u_prev(o) = acc[0] - u_prev(o);
      }
      for (int k = 0; k < 2 * R; ++k) acc[k] = acc[k + 1];
      acc[2 * R] = T(0);
    }
  }
};

class PlaneStreamVariant final : public RadiusVariantFor<PlaneStreamVariant, kMaxRadius> {
 public:
  std::string name() const override { return "plane-stream"; }
  std::string description() const override {
    return "Kokkos MDRange over (x, y, z-chunk), any z-symmetric stencil with radius <= 6: z streaming, "
           "in-plane class sums shared across shells and planes";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    if (s.radius < 1 || s.radius > kMaxRadius) return false;
    for (std::size_t a = 0; a < s.size(); ++a) {  // symmetric in z: (x, y, -z) has the same weight
      bool mirrored = false;
      for (std::size_t b = 0; b < s.size() && !mirrored; ++b)
        mirrored = s.offsets[b] == Offset{s.offsets[a].x, s.offsets[a].y, -s.offsets[a].z} &&
                   s.weights[b] == s.weights[a];
      if (!mirrored) return false;
    }
    return true;
  }
  // Every in-plane offset of the stencil is read on all 2r+1 planes of its column.
  std::vector<Offset> reads(const Stencil& s) const override {
    std::vector<Offset> r;
    for (const Offset& o : s.offsets)
      for (int dz = -s.radius; dz <= s.radius; ++dz) r.push_back({o.x, o.y, dz});
    return r;
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    const DeviceClasses<T>& dc = cache_.get<T>([&](const DeviceClasses<T>& d) { return d.matches(a); },
                                               [&] { return DeviceClasses<T>(a, R); });
    const auto cs = column_streams(a.exec, box, R);
    PlaneStream<T, R> f{a.u, a.u_prev, dc.offsets, dc.begin, dc.weight, dc.classes, a.layout, box, cs.z_chunk};
    Kokkos::parallel_for("wavefd::plane_stream", cs.policy, f);
  }

 private:
  VariantCache<DeviceClasses> cache_;  // the class table is built once per stencil and layout
};

}  // namespace

std::unique_ptr<Variant> make_plane_stream() { return std::make_unique<PlaneStreamVariant>(); }

}  // namespace wavefd::kernels
