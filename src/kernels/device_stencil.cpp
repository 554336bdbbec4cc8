#include "wavefd/variant.hpp"

namespace wavefd {

namespace {

template <class T>
DeviceStencil<T> device_stencil(const Stencil& s, const std::vector<double>& gamma, const Layout& layout) {
  DeviceStencil<T> d;
  d.size = int(s.size());
  d.radius = s.radius;
  d.offsets = s.offsets;
  Kokkos::View<index_t*> flat("stencil.flat_offsets", s.size());
  Kokkos::View<T*> g("stencil.gamma", s.size());
  auto flat_h = Kokkos::create_mirror_view(flat);
  auto g_h = Kokkos::create_mirror_view(g);
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto& o = s.offsets[k];
    flat_h(k) = o.x + o.y * layout.sy + o.z * layout.sz;
    g_h(k) = static_cast<T>(gamma[k]);
    d.host_gamma.push_back(static_cast<double>(g_h(k)));
  }
  Kokkos::deep_copy(flat, flat_h);
  Kokkos::deep_copy(g, g_h);
  d.flat_offsets = flat;
  d.gamma = g;
  return d;
}

}  // namespace

template <class T>
DeviceStencil<T> make_device_stencil(const Stencil& s, double courant, const Layout& layout) {
  return device_stencil<T>(s, s.two_step_weights(courant), layout);
}

template <class T>
DeviceStencil<T> make_laplacian_stencil(const Stencil& s, const Layout& layout) {
  return device_stencil<T>(s, s.weights, layout);
}

template <class T>
std::vector<T> star_axis_weights(const DeviceStencil<T>& d) {
  std::vector<T> c;
  for (int m = 0; m <= d.radius; ++m) {
    bool found = false;
    for (std::size_t k = 0; k < d.offsets.size() && !found; ++k)
      if (d.offsets[k] == Offset{m, 0, 0}) {
        c.push_back(static_cast<T>(d.host_gamma[k]));
        found = true;
      }
    if (!found) throw Error("star kernel: the stencil lacks the offset (" + std::to_string(m) + ",0,0)");
  }
  return c;
}

template std::vector<float> star_axis_weights<float>(const DeviceStencil<float>&);
template std::vector<double> star_axis_weights<double>(const DeviceStencil<double>&);
template DeviceStencil<float> make_device_stencil<float>(const Stencil&, double, const Layout&);
template DeviceStencil<double> make_device_stencil<double>(const Stencil&, double, const Layout&);
template DeviceStencil<float> make_laplacian_stencil<float>(const Stencil&, const Layout&);
template DeviceStencil<double> make_laplacian_stencil<double>(const Stencil&, const Layout&);

}  // namespace wavefd
