#include <cmath>
#include <limits>
#include <string>

#include "wavefd/variant.hpp"

namespace wavefd {

template <class T>
std::vector<double> stored_weights(const std::vector<Offset>& offsets, const std::vector<double>& w, bool exact) {
  constexpr int digits = std::numeric_limits<T>::digits;
  std::vector<double> g(w.size());
  for (std::size_t k = 0; k < w.size(); ++k) g[k] = static_cast<double>(static_cast<T>(w[k]));
  std::size_t centre = w.size();
  for (std::size_t k = 0; k < w.size(); ++k)
    if (offsets[k] == Offset{0, 0, 0}) centre = k;
  // Double keeps its weights: summed in double, they cannot meet the target more closely.
  if (centre == w.size() || digits >= std::numeric_limits<double>::digits) return g;
  double target = 0, rest = 0;  // the others' sum: numbers of T, exact in double
  for (std::size_t k = 0; k < w.size(); ++k) target += w[k], rest += k == centre ? 0.0 : g[k];
  g[centre] = static_cast<double>(static_cast<T>(target - rest));
  if (!exact || g[centre] == 0) return g;
  // q: the centre's ulp, doubled until the centre is a number of T (its binade may change). The
  // target is 2 or 0 to double's rounding: to the nearest multiple of q, exactly that.
  double q = std::ldexp(1.0, std::ilogb(g[centre]) - digits + 1);
  if (const double c = std::nearbyint(target / q) * q - rest; static_cast<double>(static_cast<T>(c)) == c) {
    g[centre] = c;  // the others as rounded leave a number of T
    return g;
  }
  for (; q < 4; q *= 2) {
    rest = 0;
    for (std::size_t k = 0; k < w.size(); ++k) {
      if (k == centre) continue;
      const bool finer = std::abs(w[k]) < std::ldexp(q, digits - 1);  // its ulp in T is below q
      g[k] = finer ? std::nearbyint(w[k] / q) * q : static_cast<double>(static_cast<T>(w[k]));
      rest += g[k];
    }
    const double c = std::nearbyint(target / q) * q - rest;  // exact: every term a multiple of q
    if (static_cast<double>(static_cast<T>(c)) == c) {
      g[centre] = c;
      return g;
    }
  }
  throw Error("stencil weights: no grid of " + std::to_string(digits) + " bits holds their centre");
}

namespace {

template <class T>
DeviceStencil<T> device_stencil(const Stencil& s, const std::vector<double>& gamma, bool exact, const Layout& layout) {
  DeviceStencil<T> d;
  d.size = int(s.size());
  d.radius = s.radius;
  d.offsets = s.offsets;
  Kokkos::View<index_t*> flat("stencil.flat_offsets", s.size());
  Kokkos::View<T*> g("stencil.gamma", s.size());
  auto flat_h = Kokkos::create_mirror_view(flat);
  auto g_h = Kokkos::create_mirror_view(g);
  d.host_gamma = stored_weights<T>(s.offsets, gamma, exact);
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto& o = s.offsets[k];
    flat_h(k) = o.x + o.y * layout.sy + o.z * layout.sz;
    g_h(k) = static_cast<T>(d.host_gamma[k]);
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
  return device_stencil<T>(s, s.two_step_weights(courant), true, layout);
}

template <class T>
DeviceStencil<T> make_laplacian_stencil(const Stencil& s, const Layout& layout) {
  return device_stencil<T>(s, s.weights, false, layout);
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

template std::vector<double> stored_weights<float>(const std::vector<Offset>&, const std::vector<double>&, bool);
template std::vector<double> stored_weights<double>(const std::vector<Offset>&, const std::vector<double>&, bool);
template std::vector<float> star_axis_weights<float>(const DeviceStencil<float>&);
template std::vector<double> star_axis_weights<double>(const DeviceStencil<double>&);
template DeviceStencil<float> make_device_stencil<float>(const Stencil&, double, const Layout&);
template DeviceStencil<double> make_device_stencil<double>(const Stencil&, double, const Layout&);
template DeviceStencil<float> make_laplacian_stencil<float>(const Stencil&, const Layout&);
template DeviceStencil<double> make_laplacian_stencil<double>(const Stencil&, const Layout&);

}  // namespace wavefd
