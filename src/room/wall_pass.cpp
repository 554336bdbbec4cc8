#include "room/wall_pass.hpp"

namespace wavefd {

namespace {
using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;

// C_b(u) = sum over cell b's terms of weight * u(image), summed in A (T in the pass, double for checks).
template <class A, class T>
KOKKOS_INLINE_FUNCTION A wall_terms(index_t b, const Kokkos::View<index_t*>& begin, const Kokkos::View<index_t*>& at,
                                    const Kokkos::View<T*>& weight, const Kokkos::View<T*>& u) {
  A sum = 0;
  for (index_t t = begin(b); t < begin(b + 1); ++t) sum += A(weight(t)) * A(u(at(t)));
  return sum;
}
}  // namespace

template <class T>
WallPass<T>::WallPass(const std::vector<WallCell>& cells, const Index3& offset, const Layout& layout, double courant) {
  const auto local = [&](const Index3& g) { return layout.at(g[0] - offset[0], g[1] - offset[1], g[2] - offset[2]); };
  std::size_t terms = 0;
  for (const WallCell& c : cells) terms += c.terms.size();
  const index_t n = index_t(cells.size());
  cell_ = Kokkos::View<index_t*>("wavefd::wall_cell", n);
  begin_ = Kokkos::View<index_t*>("wavefd::wall_begin", n + 1);
  term_at_ = Kokkos::View<index_t*>("wavefd::wall_term_at", terms);
  term_weight_ = Kokkos::View<T*>("wavefd::wall_term_weight", terms);
  loss_ = Kokkos::View<T*>("wavefd::wall_loss", n);
  kept_ = Kokkos::View<T*>("wavefd::wall_kept", n);
  absorbed_ = Kokkos::View<double*>("wavefd::wall_absorbed", n);
  auto cell = Kokkos::create_mirror_view(cell_);
  auto begin = Kokkos::create_mirror_view(begin_);
  auto at = Kokkos::create_mirror_view(term_at_);
  auto weight = Kokkos::create_mirror_view(term_weight_);
  auto loss = Kokkos::create_mirror_view(loss_);
  const double lambda2 = courant * courant;
  index_t t = 0;
  for (index_t b = 0; b < n; ++b) {
    const WallCell& c = cells[std::size_t(b)];
    cell(b) = local(c.at);
    begin(b) = t;
    loss(b) = static_cast<T>(courant * c.loss / 2);
    for (const auto& [image, a] : c.terms) at(t) = local(image), weight(t) = static_cast<T>(lambda2 * a), ++t;
  }
  begin(n) = t;
  Kokkos::deep_copy(cell_, cell);
  Kokkos::deep_copy(begin_, begin);
  Kokkos::deep_copy(term_at_, at);
  Kokkos::deep_copy(term_weight_, weight);
  Kokkos::deep_copy(loss_, loss);
}

template <class T>
void WallPass<T>::before(const Kokkos::DefaultExecutionSpace& exec, const Field<T>&, const Field<T>& u_prev) {
  if (cells() == 0) return;
  const auto cell = cell_;
  const auto kept = kept_;
  const auto prev = u_prev.data;
  Kokkos::parallel_for("wavefd::wall_keep", Range(exec, 0, cells()), KOKKOS_LAMBDA(index_t b) { kept(b) = prev(cell(b)); });
}

template <class T>
void WallPass<T>::after(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) {
  if (cells() > 0) correct(exec, u, u_next);
}

template <class T>
void WallPass<T>::correct(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) {
  const auto cell = cell_;
  const auto begin = begin_;
  const auto at = term_at_;
  const auto weight = term_weight_;
  const auto loss = loss_;
  const auto kept = kept_;
  const auto absorbed = absorbed_;
  const auto now = u.data;
  const auto next = u_next.data;
  const bool tracking = tracking_;
  Kokkos::parallel_for("wavefd::wall_pass", Range(exec, 0, cells()), KOKKOS_LAMBDA(index_t b) {
    const T terms = wall_terms<T>(b, begin, at, weight, now);
    const T g = loss(b), prev = kept(b);
    const T value = (next(cell(b)) + terms + g * prev) / (T(1) + g);
    next(cell(b)) = value;
    if (tracking) {
      const double step = double(value) - double(prev);
      absorbed(b) += 0.5 * double(g) * step * step;
    }
  });
}

template <class T>
double WallPass<T>::absorbed() const {
  double sum = 0;
  const auto absorbed = absorbed_;
  Kokkos::parallel_reduce("wavefd::wall_absorbed_sum", Range(0, cells()),
                          KOKKOS_LAMBDA(index_t b, double& s) { s += absorbed(b); }, sum);
  return sum;
}

template <class T>
double WallPass<T>::pairing(const Field<T>& v, const Field<T>& u) const {
  const auto cell = cell_;
  const auto begin = begin_;
  const auto at = term_at_;
  const auto weight = term_weight_;
  const auto vd = v.data;
  const auto ud = u.data;
  double sum = 0;
  Kokkos::parallel_reduce("wavefd::wall_pairing", Range(0, cells()), KOKKOS_LAMBDA(index_t b, double& s) {
    s += double(vd(cell(b))) * wall_terms<double>(b, begin, at, weight, ud);
  }, sum);
  return sum;
}

template <class T>
double WallPass<T>::bytes() const {
  return double(cells()) * (2 * sizeof(index_t) + 2 * sizeof(T) + sizeof(double)) +
         double(terms()) * (sizeof(index_t) + sizeof(T));
}

template class WallPass<float>;
template class WallPass<double>;

}  // namespace wavefd
