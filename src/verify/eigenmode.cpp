#include <algorithm>
#include <cmath>
#include <limits>

#include "wavefd/parallel.hpp"
#include "wavefd/two_step.hpp"
#include "wavefd/verify.hpp"

namespace wavefd {

double eigenmode_tolerance(double eps, const std::vector<double>& gamma, int steps) {
  return eigenmode_tolerance(eps, eps, gamma, steps);
}

double eigenmode_tolerance(double eps, double eps_stored, const std::vector<double>& gamma, int steps) {
  // One step's rounding: a (K+1)-term sum with coefficients S = sum|gamma| + 1 on |u| <= 1 has an
  // error of about eps * S * sqrt(K+1) (random-walk growth of rounding errors, Higham sec. 2.8).
  // An error r injected at step j is carried by the recurrence e+ = mu e - e- as
  // r sin((n-j) theta') / sin(theta'), at most (n-j) r for any mode theta', so n steps accumulate
  // at most r n (n+1) / 2. The initial fields carry eps/2 each, which grows at most like (n+1).
  // Fields stored in a coarser format add the rounding of each stored value, |u| <= 1 (the mode's
  // amplitude): eps_stored / 2 per step, and eps_stored / 2 on each initial field.
  double S = 1;
  for (double g : gamma) S += std::abs(g);
  const double n = steps;
  const double store = eps_stored > eps ? eps_stored / 2 : 0;  // the sum's own rounding covers it otherwise
  const double per_step = eps * S * std::sqrt(double(gamma.size()) + 1) + store;
  return per_step * n * (n + 1) / 2 + std::max(eps, eps_stored) * (n + 1);
}

namespace {

constexpr double kPi = 3.14159265358979323846;

template <class T>
EigenmodeResult run_eigenmode(const Stencil& s, const Variant& v, const EigenmodeSpec& spec) {
  SchemeSpec scheme;
  scheme.domain = Domain::single(spec.n);
  scheme.boundary = spec.boundary;
  scheme.pad_rows = spec.pad_rows;
  scheme.courant = spec.courant_fraction * s.max_courant;
  scheme.parallel = spec.parallel;
  TwoStep<T> engine(s, scheme, v, spec.tile);
  const Layout l = engine.layout();
  const Domain dom = engine.domain();
  const bool periodic = spec.boundary == Boundary::periodic;

  if (!periodic && !symmetric_in_each_axis(s))  // the sine mode is exact only for those
    throw Error("rigid eigenmode check needs a stencil symmetric in each axis; " + s.name + " is not");

  EigenmodeResult r;
  double k[3];
  for (int d = 0; d < 3; ++d) {
    const index_t N = dom.global[d];
    index_t m = spec.mode[d];
    if (m == 0) m = std::max<index_t>(1, N / (3 + d));
    r.mode[d] = m;
    k[d] = periodic ? 2 * kPi * double(m) / double(N) : kPi * double(m) / double(N + 1);
  }

  // mu from the weights as the kernels store them (rounded to T); the reference may be scaled.
  auto mu_of = [&](const std::vector<double>& gamma) {
    double mu = 0;
    for (std::size_t q = 0; q < s.size(); ++q) {
      const Offset& o = s.offsets[q];
      const double phase = periodic ? std::cos(k[0] * o.x + k[1] * o.y + k[2] * o.z)
                                         : std::cos(k[0] * o.x) * std::cos(k[1] * o.y) *
                                               std::cos(k[2] * o.z);
      mu += gamma[q] * phase;
    }
    return mu;
  };
  std::vector<double> gamma_ref = engine.weights().host_gamma;
  if (spec.reference_scale != 1.0) {
    gamma_ref = stored_weights<arithmetic_t<T>>(s.offsets, s.two_step_weights(scheme.courant * spec.reference_scale), true);
  }
  r.mu = mu_of(gamma_ref);
  r.theta = std::acos(std::clamp(r.mu / 2, -1.0, 1.0));
  r.tolerance = eigenmode_tolerance(epsilon_of(precision_of<arithmetic_t<T>>), epsilon_of(precision_of<T>),
                                    engine.weights().host_gamma, spec.steps);

  // Poison everything (ghosts and padding included), then set the interior.
  const T nan = poison<T>();
  Kokkos::deep_copy(engine.u().data, nan);
  Kokkos::deep_copy(engine.u_prev().data, nan);
  auto u = engine.u().data;
  auto u_prev = engine.u_prev().data;
  const Index3 off = dom.offset, m = r.mode, N = dom.global;
  // The phase is reduced in integers first: k.x in floating point has an error of about
  // eps |k.x|, up to 4e-13 on a 512^3 grid in double, which is larger than the rounding of the
  // steps checked, and would perturb the initial mode by as much.
  auto mode = KOKKOS_LAMBDA(index_t i, index_t j, index_t kk)->double {
    const index_t x[3] = {i + off[0], j + off[1], kk + off[2]};
    if (periodic) {
      double turns = 0;  // k.x / (2 pi) modulo whole turns
      for (int d = 0; d < 3; ++d) turns += double(m[d] * x[d] % N[d]) / double(N[d]);
      return Kokkos::cos(2 * kPi * turns);
    }
    double product = 1;  // sin(pi m (x + 1) / (N + 1)), the argument taken modulo 2 pi
    for (int d = 0; d < 3; ++d)
      product *= Kokkos::sin(kPi * double(m[d] * (x[d] + 1) % (2 * (N[d] + 1))) / double(N[d] + 1));
    return product;
  };
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  const Policy interior({0, 0, 0}, {l.n[0], l.n[1], l.n[2]});
  const double c1 = std::cos(r.theta);
  Kokkos::parallel_for("wavefd::verify_init", interior, KOKKOS_LAMBDA(index_t i, index_t j, index_t kk) {
    const double m = mode(i, j, kk);
    u_prev(l.at(i, j, kk)) = static_cast<T>(m);
    u(l.at(i, j, kk)) = static_cast<T>(c1 * m);
  });

  engine.advance(spec.steps);

  const double cn = std::cos((spec.steps + 1) * r.theta);
  auto result = engine.u().data;
  double err = 0;
  Kokkos::parallel_reduce(
      "wavefd::verify_error", interior,
      KOKKOS_LAMBDA(index_t i, index_t j, index_t kk, double& e) {
        double d = Kokkos::abs(double(result(l.at(i, j, kk))) - cn * mode(i, j, kk));
        if (!(d <= 1e300)) d = 1e308;  // NaN counts as a failure
        e = Kokkos::max(e, d);
      },
      Kokkos::Max<double>(err));
  r.max_error = max_over_ranks(err);
  return r;
}

}  // namespace

EigenmodeResult verify_eigenmode(const Stencil& s, const Variant& v, Precision p,
                                 const EigenmodeSpec& spec) {
  return with_precision(p, [&]<class T>(std::type_identity<T>) { return run_eigenmode<T>(s, v, spec); });
}

std::vector<Stencil> verification_stencils(bool quick) {
  std::vector<Stencil> list;
  const std::vector<int> star = quick ? std::vector<int>{1, 4, 8} : std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<int> compact = quick ? std::vector<int>{3, 13} : std::vector<int>{1, 2, 3, 5, 8, 13};
  const std::vector<std::array<int, 3>> box =
      quick ? std::vector<std::array<int, 3>>{{2, 2, 2}} : std::vector<std::array<int, 3>>{{1, 1, 1}, {2, 2, 2}};
  for (int M : star) list.push_back(make_star(M));
  for (int R : compact) list.push_back(make_compact(R));
  for (const auto& q : box) list.push_back(make_box(q));
  return list;
}

std::vector<EigenmodeSpec> verification_specs() {
  EigenmodeSpec padded;  // 20 x 17 x 13, rows padded to whole lines
  EigenmodeSpec unpadded;
  unpadded.n = {13, 18, 16};
  unpadded.pad_rows = false;
  EigenmodeSpec rigid;
  rigid.n = {15, 12, 17};
  rigid.boundary = Boundary::rigid;
  EigenmodeSpec tiled;  // several GPU tiles (128-byte x 16-row) with partial ones, several z chunks
  tiled.n = {136, 35, 70};
  return {padded, unpadded, rigid, tiled};
}

}  // namespace wavefd
