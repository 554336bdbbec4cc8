#include "bench/derivative.hpp"

#include <cmath>
#include <string>

#include "wavefd/halo.hpp"
#include "wavefd/stencil.hpp"

namespace wavefd {
namespace {

constexpr int kMaxRadius = 8;
constexpr double kTwoPi = 6.283185307179586476925286766559;

template <class T>
struct Derivative {
  Kokkos::View<const T*> f;
  Kokkos::View<T*> df;
  Kokkos::Array<T, kMaxRadius + 1> c;  // c[m] / h for the pair (+m, -m)
  Layout l;
  index_t stride;
  int radius;

  KOKKOS_INLINE_FUNCTION void operator()(index_t i, index_t j, index_t k) const {
    const index_t p = l.at(i, j, k);
    T acc = 0;
    for (int m = 1; m <= radius; ++m) acc += c[m] * (f(p + m * stride) - f(p - m * stride));
    df(p) = acc;
  }
};

template <class T>
DerivativeResult run(const DerivativeSpec& spec) {
  if (spec.axis < 0 || spec.axis > 2) throw Error("--op must be dx, dy or dz");
  if (spec.order < 2 || spec.order > 2 * kMaxRadius || spec.order % 2)
    throw Error("--order = " + std::to_string(spec.order) + " is out of range; accepted: 2, 4, ..., 16");
  const int r = spec.order / 2;
  const Layout l = make_layout(spec.n, r, true, sizeof(T));
  Field<T> f = make_field<T>("wavefd::deriv.f", l);
  Field<T> df = make_field<T>("wavefd::deriv.df", l);
  Kokkos::deep_copy(df.data, std::numeric_limits<T>::quiet_NaN());

  // f = sin(2 pi s) with s = x/Lx + y/Ly + z/Lz on the unit cube, h_d = 1/n_d.
  const Index3 n = spec.n;
  const int axis = spec.axis;
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  const Policy interior({0, 0, 0}, {n[0], n[1], n[2]});
  auto phase = KOKKOS_LAMBDA(index_t i, index_t j, index_t k)->double {
    return kTwoPi * (double(i) / double(n[0]) + double(j) / double(n[1]) + double(k) / double(n[2]));
  };
  auto fd = f.data;
  Kokkos::deep_copy(fd, std::numeric_limits<T>::quiet_NaN());
  Kokkos::parallel_for("wavefd::deriv_init", interior, KOKKOS_LAMBDA(index_t i, index_t j, index_t k) {
    fd(l.at(i, j, k)) = static_cast<T>(Kokkos::sin(phase(i, j, k)));
  });
  auto halo = make_local_halo<T>(Boundary::periodic);
  halo->start(f);
  halo->finish(f);

  std::vector<int> nodes;
  for (int m = -r; m <= r; ++m) nodes.push_back(m);
  const auto w = fornberg_weights(1, nodes);
  Derivative<T> op{f.data, df.data, {}, l, axis == 0 ? 1 : axis == 1 ? l.sy : l.sz, r};
  for (int m = 0; m <= kMaxRadius; ++m)
    op.c[m] = m <= r ? static_cast<T>(w[r + m] * double(n[axis])) : T(0);

  DerivativeResult res;
  res.points = n[0] * n[1] * n[2];
  res.seconds = time_repeated(
      [&] { Kokkos::parallel_for("wavefd::derivative", interior, op); }, spec.warmup, spec.reps);
  res.gbs = 2.0 * sizeof(T) * double(res.points) / res.seconds.min / 1e9;

  auto dfd = df.data;
  double sum2 = 0, emax = 0;
  Kokkos::parallel_reduce("wavefd::deriv_error", interior,
      KOKKOS_LAMBDA(index_t i, index_t j, index_t k, double& s, double& e) {
        double d = Kokkos::abs(double(dfd(l.at(i, j, k))) - kTwoPi * Kokkos::cos(phase(i, j, k)));
        if (!(d <= 1e300)) d = 1e308;
        s += d * d;
        e = Kokkos::max(e, d);
      },
      Kokkos::Sum<double>(sum2), Kokkos::Max<double>(emax));
  res.rms_error = std::sqrt(sum2 / double(res.points));
  res.max_error = emax;
  return res;
}

}  // namespace

DerivativeResult run_derivative(const DerivativeSpec& spec) {
  return spec.precision == Precision::f32 ? run<float>(spec) : run<double>(spec);
}

}  // namespace wavefd
