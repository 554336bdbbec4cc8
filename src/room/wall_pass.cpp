#include "room/wall_pass.hpp"

#include <map>

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
WallPass<T>::WallPass(const std::vector<WallCell>& cells, const std::vector<Material>& materials, const Index3& offset,
                      const Layout& layout, double courant, double dt) {
  const auto local = [&](const Index3& g) { return layout.at(g[0] - offset[0], g[1] - offset[1], g[2] - offset[2]); };
  // Kinds: every material's branches in steps, numbered material by material.
  std::vector<int> first_kind(materials.size() + 1, 0);
  for (std::size_t i = 0; i < materials.size(); ++i)
    first_kind[i + 1] = first_kind[i] + int(materials[i].branches.size());
  kinds_ = Kokkos::View<WallBranchSteps<T>*>("wavefd::wall_branch_kinds", std::size_t(first_kind.back()));
  auto kinds = Kokkos::create_mirror_view(kinds_);
  std::vector<double> gamma(std::size_t(first_kind.back()));  // b / 2 in double, for g
  for (std::size_t i = 0; i < materials.size(); ++i)
    for (std::size_t j = 0; j < materials[i].branches.size(); ++j) {
      const WallBranch& w = materials[i].branches[j];
      const double mass = w.mass / dt, resistance = w.resistance, stiffness = w.stiffness * dt;
      const double a = resistance / 2 + stiffness / 4, b = 1 / (mass + a);
      const std::size_t k = std::size_t(first_kind[i]) + j;
      kinds(k) = {T(b), T(b * mass), T(b * stiffness / 2), T(mass - a), T(mass), T(resistance), T(stiffness)};
      gamma[k] = b / 2;
    }

  std::size_t terms = 0, states = 0;
  // Per cell, its faces' areas summed by material: faces of one material share their branch states.
  std::vector<std::map<int, double>> area(cells.size());
  for (std::size_t b = 0; b < cells.size(); ++b) {
    terms += cells[b].terms.size();
    for (const auto& [material, sigma] : cells[b].faces) area[b][material] += sigma;
    for (const auto& [material, sigma] : area[b]) states += materials.at(std::size_t(material)).branches.size();
  }
  const index_t n = index_t(cells.size());
  cell_ = Kokkos::View<index_t*>("wavefd::wall_cell", n);
  begin_ = Kokkos::View<index_t*>("wavefd::wall_begin", n + 1);
  term_at_ = Kokkos::View<index_t*>("wavefd::wall_term_at", terms);
  term_weight_ = Kokkos::View<T*>("wavefd::wall_term_weight", terms);
  loss_ = Kokkos::View<T*>("wavefd::wall_loss", n);
  static_loss_ = Kokkos::View<T*>("wavefd::wall_static_loss", n);
  kept_ = Kokkos::View<T*>("wavefd::wall_kept", n);
  absorbed_ = Kokkos::View<double*>("wavefd::wall_absorbed", n);
  branch_begin_ = Kokkos::View<index_t*>("wavefd::wall_branch_begin", n + 1);
  branch_kind_ = Kokkos::View<int*>("wavefd::wall_branch_kind", states);
  branch_weight_ = Kokkos::View<T*>("wavefd::wall_branch_weight", states);
  branch_v_ = Kokkos::View<T*>("wavefd::wall_branch_v", states);  // zero: the walls start at rest
  branch_q_ = Kokkos::View<T*>("wavefd::wall_branch_q", states);
  auto cell = Kokkos::create_mirror_view(cell_);
  auto begin = Kokkos::create_mirror_view(begin_);
  auto at = Kokkos::create_mirror_view(term_at_);
  auto weight = Kokkos::create_mirror_view(term_weight_);
  auto loss = Kokkos::create_mirror_view(loss_);
  auto static_loss = Kokkos::create_mirror_view(static_loss_);
  auto branch_begin = Kokkos::create_mirror_view(branch_begin_);
  auto branch_kind = Kokkos::create_mirror_view(branch_kind_);
  auto branch_weight = Kokkos::create_mirror_view(branch_weight_);
  const double lambda2 = courant * courant;
  index_t t = 0, state = 0;
  for (index_t b = 0; b < n; ++b) {
    const WallCell& c = cells[std::size_t(b)];
    cell(b) = local(c.at);
    begin(b) = t;
    branch_begin(b) = state;
    double fixed = 0, dynamic = 0;
    for (const auto& [material, sigma] : area[std::size_t(b)]) {
      const Material& m = materials[std::size_t(material)];
      fixed += courant * sigma * m.admittance / 2;
      for (std::size_t j = 0; j < m.branches.size(); ++j, ++state) {
        const int kind = first_kind[std::size_t(material)] + int(j);
        branch_kind(state) = kind;
        branch_weight(state) = static_cast<T>(courant * sigma);
        dynamic += courant * sigma * gamma[std::size_t(kind)] / 2;
      }
    }
    loss(b) = static_cast<T>(fixed + dynamic);
    static_loss(b) = static_cast<T>(fixed);
    for (const auto& [image, a] : c.terms) at(t) = local(image), weight(t) = static_cast<T>(lambda2 * a), ++t;
  }
  begin(n) = t;
  branch_begin(n) = state;
  Kokkos::deep_copy(kinds_, kinds);
  Kokkos::deep_copy(cell_, cell);
  Kokkos::deep_copy(begin_, begin);
  Kokkos::deep_copy(term_at_, at);
  Kokkos::deep_copy(term_weight_, weight);
  Kokkos::deep_copy(loss_, loss);
  Kokkos::deep_copy(static_loss_, static_loss);
  Kokkos::deep_copy(branch_begin_, branch_begin);
  Kokkos::deep_copy(branch_kind_, branch_kind);
  Kokkos::deep_copy(branch_weight_, branch_weight);
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
  const auto static_loss = static_loss_;
  const auto kept = kept_;
  const auto absorbed = absorbed_;
  const auto kinds = kinds_;
  const auto branch_begin = branch_begin_;
  const auto branch_kind = branch_kind_;
  const auto branch_weight = branch_weight_;
  const auto branch_v = branch_v_;
  const auto branch_q = branch_q_;
  const auto now = u.data;
  const auto next = u_next.data;
  const bool tracking = tracking_;
  Kokkos::parallel_for("wavefd::wall_pass", Range(exec, 0, cells()), KOKKOS_LAMBDA(index_t b) {
    const T terms = wall_terms<T>(b, begin, at, weight, now);
    const T g = loss(b), prev = kept(b);
    T history = 0;  // H_b: the branches' flux from their state
    for (index_t j = branch_begin(b); j < branch_begin(b + 1); ++j) {
      const WallBranchSteps<T>& k = kinds(branch_kind(j));
      history += branch_weight(j) * (k.b_mass * branch_v(j) - k.b_stiffness_2 * branch_q(j));
    }
    const T value = (next(cell(b)) + terms + g * prev - history) / (T(1) + g);
    next(cell(b)) = value;
    const T half_step = (value - prev) / 2;  // D
    double lost = 0;
    for (index_t j = branch_begin(b); j < branch_begin(b + 1); ++j) {
      const WallBranchSteps<T>& k = kinds(branch_kind(j));
      const T v = branch_v(j), q = branch_q(j);
      const T v_next = k.b * (half_step + k.mass_minus_a * v - k.stiffness * q);
      const T mean = (v_next + v) / 2;
      branch_v(j) = v_next;
      branch_q(j) = q + mean;
      if (tracking) lost += double(branch_weight(j)) * double(k.resistance) * double(mean) * double(mean);
    }
    if (tracking) {
      const double step = double(value) - double(prev);
      absorbed(b) += 0.5 * double(static_loss(b)) * step * step + lost;
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
double WallPass<T>::stored() const {
  const auto kinds = kinds_;
  const auto kind = branch_kind_;
  const auto weight = branch_weight_;
  const auto v = branch_v_;
  const auto q = branch_q_;
  double sum = 0;
  Kokkos::parallel_reduce("wavefd::wall_stored", Range(0, branch_states()), KOKKOS_LAMBDA(index_t j, double& s) {
    const WallBranchSteps<T>& k = kinds(kind(j));
    s += double(weight(j)) * (double(k.mass) * double(v(j)) * double(v(j)) + double(k.stiffness) * double(q(j)) * double(q(j))) / 2;
  }, sum);
  return sum;
}

template <class T>
double WallPass<T>::bytes() const {
  return double(cells()) * (3 * sizeof(index_t) + 3 * sizeof(T) + sizeof(double)) +
         double(terms()) * (sizeof(index_t) + sizeof(T)) + double(branch_states()) * (sizeof(int) + 3 * sizeof(T)) +
         double(kinds_.extent(0)) * sizeof(WallBranchSteps<T>);
}

template class WallPass<float>;
template class WallPass<double>;

}  // namespace wavefd
