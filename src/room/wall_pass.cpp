#include "room/wall_pass.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace wavefd {

namespace {
using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;

// C_b(u) = sum over cell b's terms of weight * u(image), summed in S (the arithmetic in the pass,
// double for checks); u stored as T.
template <class S, class W, class T>
KOKKOS_INLINE_FUNCTION S wall_terms(index_t b, const Kokkos::View<index_t*>& begin, const Kokkos::View<index_t*>& at,
                                    const Kokkos::View<W*>& weight, const Kokkos::View<T*>& u) {
  S sum = 0;
  for (index_t t = begin(b); t < begin(b + 1); ++t) sum += S(weight(t)) * S(widen(u(at(t))));
  return sum;
}

// A group's branch states in chunks of kChunk branches, each chunk's states loaded together into
// registers: the pass waits on memory (ncu, 3 cm hall on an H200: DRAM at 50 % of its bandwidth,
// the warps stalled on L1TEX). Chunks of 4 took the pass with the outside cells from 342 to 316 us;
// chunks of 12 took 134 registers and 521 us. f(k, v, q, s0, stride, count): branch kind k + j has
// states v[j], q[j] at s0 + j * stride, for j < count.
template <int kChunk, class T, class F>
KOKKOS_INLINE_FUNCTION void for_state_chunks(int m, index_t first, const Kokkos::View<int*>& kind_begin,
                                             const Kokkos::View<index_t*>& state_stride, const Kokkos::View<T*>& state_v,
                                             const Kokkos::View<T*>& state_q, const F& f) {
  const index_t stride = state_stride(m);
  for (int k0 = kind_begin(m); k0 < kind_begin(m + 1); k0 += kChunk) {
    const int count = kind_begin(m + 1) - k0;
    const index_t s0 = first + (k0 - kind_begin(m)) * stride;
    T v[kChunk], q[kChunk];
#pragma unroll
    for (int j = 0; j < kChunk; ++j)
      if (j < count) v[j] = state_v(s0 + j * stride), q[j] = state_q(s0 + j * stride);
    f(k0, v, q, s0, stride, count);
  }
}
}  // namespace

template <class T>
WallPass<T>::WallPass(const std::vector<WallCell>& cells, const std::vector<Material>& materials, const Index3& offset,
                      const Layout& layout, double courant, double dt, const std::vector<double>& gamma,
                      const std::vector<Index3>& outside) {
  const auto local = [&](const Index3& g) { return layout.at(g[0] - offset[0], g[1] - offset[1], g[2] - offset[2]); };
  // Each view is filled through a host copy, copied to it once everything is filled.
  std::vector<std::function<void()>> uploads;
  const auto staged = [&](const auto& view) {
    auto host = Kokkos::create_mirror_view(view);
    uploads.push_back([view, host] { Kokkos::deep_copy(view, host); });
    return host;
  };
  outside_ = Kokkos::View<index_t*>("wavefd::wall_outside", outside.size());
  auto outside_at = staged(outside_);
  for (std::size_t c = 0; c < outside.size(); ++c) outside_at(c) = local(outside[c]);
  // Kinds: every material's branches in steps, material by material.
  std::vector<int> first_kind(materials.size() + 1, 0);
  for (std::size_t i = 0; i < materials.size(); ++i)
    first_kind[i + 1] = first_kind[i] + int(materials[i].branches.size());
  kinds_ = Kokkos::View<WallBranchSteps<A>*>("wavefd::wall_branch_kinds", std::size_t(first_kind.back()));
  kind_begin_ = Kokkos::View<int*>("wavefd::wall_kind_begin", first_kind.size());
  auto kinds = staged(kinds_);
  std::vector<double> gamma_sum(materials.size(), 0);  // sum of b / 2 over a material's branches (double)
  for (std::size_t i = 0; i < materials.size(); ++i)
    for (std::size_t j = 0; j < materials[i].branches.size(); ++j) {
      const WallBranch& w = materials[i].branches[j];
      const double mass = w.mass / dt, resistance = w.resistance, stiffness = w.stiffness * dt;
      const double a = resistance / 2 + stiffness / 4, b = 1 / (mass + a);
      kinds(std::size_t(first_kind[i]) + j) = {A(b), A(b * mass), A(b * stiffness / 2), A(mass - a),
                                               A(mass), A(resistance), A(stiffness)};
      gamma_sum[i] += b / 2;
    }

  // Per cell the weights at the cell itself: the bulk's weights at the points it read as 0 (as its
  // kernels hold them), less the cell's other terms as rounded to A, so that the terms sum to what
  // the bulk left out and a constant field stays constant through the cell (with rigid walls), to
  // the rounding of the arithmetic. Rounded each to A on its own, lambda^2 a_t at the cell (e.g.
  // 3 lambda^2 at a corner) missed it by up to an ulp. The first weight is the self weight; what A
  // cannot hold of the sum (e.g. 3 fl(lambda^2) needs two more bits) follows as terms at the cell.
  const double lambda2 = courant * courant;
  std::vector<std::vector<A>> self(cells.size());
  std::size_t terms = 0, groups = 0, states = 0;
  for (std::size_t b = 0; b < cells.size(); ++b) {
    double left = 0;  // in double: the sum of a few numbers of A, exact
    for (int q : cells[b].left_out) left += gamma.at(std::size_t(q));
    for (const auto& [image, a] : cells[b].terms)
      if (image != cells[b].at) left -= double(static_cast<A>(lambda2 * a)), ++terms;
    for (int part = 0; part < 3 && left != 0; ++part) self[b].push_back(static_cast<A>(left)), left -= double(self[b].back());
    if (self[b].size() > 1) terms += self[b].size() - 1;
  }
  // Per cell, its faces' areas summed by material: faces of one material share their branch states.
  std::vector<index_t> material_groups(materials.size(), 0);
  std::vector<std::map<int, double>> area(cells.size());
  for (std::size_t b = 0; b < cells.size(); ++b) {
    for (const auto& [material, sigma] : cells[b].faces) area[b][material] += sigma;
    for (const auto& [material, sigma] : area[b])
      if (const std::size_t k = materials.at(std::size_t(material)).branches.size(); k > 0)
        ++groups, states += k, ++material_groups[std::size_t(material)];
  }
  std::vector<index_t> material_first(materials.size(), 0), material_next(materials.size(), 0);  // states
  for (std::size_t i = 1; i < materials.size(); ++i)
    material_first[i] = material_first[i - 1] + material_groups[i - 1] * index_t(materials[i - 1].branches.size());
  const index_t n = index_t(cells.size());
  cell_ = Kokkos::View<index_t*>("wavefd::wall_cell", n);
  begin_ = Kokkos::View<index_t*>("wavefd::wall_begin", n + 1);
  term_at_ = Kokkos::View<index_t*>("wavefd::wall_term_at", terms);
  term_weight_ = Kokkos::View<A*>("wavefd::wall_term_weight", terms);
  self_weight_ = Kokkos::View<A*>("wavefd::wall_self_weight", n);
  has_terms_ = terms > 0;
  loss_ = Kokkos::View<A*>("wavefd::wall_loss", n);
  static_loss_ = Kokkos::View<A*>("wavefd::wall_static_loss", n);
  kept_ = Kokkos::View<A*>("wavefd::wall_kept", n);
  absorbed_ = Kokkos::View<double*>("wavefd::wall_absorbed", n);
  group_begin_ = Kokkos::View<index_t*>("wavefd::wall_group_begin", n + 1);
  group_material_ = Kokkos::View<int*>("wavefd::wall_group_material", groups);
  group_weight_ = Kokkos::View<A*>("wavefd::wall_group_weight", groups);
  group_state_ = Kokkos::View<index_t*>("wavefd::wall_group_state", groups);
  state_stride_ = Kokkos::View<index_t*>("wavefd::wall_state_stride", materials.size());
  state_v_ = Kokkos::View<A*>("wavefd::wall_branch_v", states);  // zero: the walls start at rest
  state_q_ = Kokkos::View<A*>("wavefd::wall_branch_q", states);
  auto cell = staged(cell_);
  auto begin = staged(begin_);
  auto at = staged(term_at_);
  auto weight = staged(term_weight_);
  auto self_weight = staged(self_weight_);
  auto loss = staged(loss_);
  auto static_loss = staged(static_loss_);
  auto kind_begin = staged(kind_begin_);
  auto group_begin = staged(group_begin_);
  auto group_material = staged(group_material_);
  auto group_weight = staged(group_weight_);
  auto group_state = staged(group_state_);
  auto state_stride = staged(state_stride_);
  for (std::size_t i = 0; i < materials.size(); ++i) state_stride(i) = material_groups[i];
  for (std::size_t i = 0; i < first_kind.size(); ++i) kind_begin(i) = first_kind[i];
  // Cells in the order of their first material with branches, then of their place: neighbouring
  // threads then run one material's branches, on neighbouring states, and read u close together.
  std::vector<std::pair<std::size_t, index_t>> key(cells.size());
  for (std::size_t b = 0; b < cells.size(); ++b) {
    key[b] = {materials.size(), local(cells[b].at)};
    for (const auto& [material, sigma] : area[b])
      if (!materials[std::size_t(material)].branches.empty()) key[b].first = std::min(key[b].first, std::size_t(material));
  }
  std::vector<std::size_t> order(cells.size());
  for (std::size_t b = 0; b < order.size(); ++b) order[b] = b;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  index_t t = 0, group = 0;
  for (index_t b = 0; b < n; ++b) {
    const WallCell& c = cells[order[std::size_t(b)]];
    const std::vector<A>& at_cell = self[order[std::size_t(b)]];
    cell(b) = local(c.at);
    begin(b) = t;
    group_begin(b) = group;
    double fixed = 0, dynamic = 0;
    for (const auto& [material, sigma] : area[order[std::size_t(b)]]) {
      const Material& m = materials[std::size_t(material)];
      fixed += courant * sigma * m.admittance / 2;
      if (m.branches.empty()) continue;
      dynamic += courant * sigma * gamma_sum[std::size_t(material)] / 2;
      group_material(group) = material;
      group_weight(group) = static_cast<A>(courant * sigma);
      group_state(group) = material_first[std::size_t(material)] + material_next[std::size_t(material)]++;
      ++group;
    }
    loss(b) = static_cast<A>(fixed + dynamic);
    static_loss(b) = static_cast<A>(fixed);
    for (const auto& [image, a] : c.terms)
      if (image != c.at) at(t) = local(image), weight(t) = static_cast<A>(lambda2 * a), ++t;
    for (std::size_t part = 1; part < at_cell.size(); ++part) at(t) = cell(b), weight(t) = at_cell[part], ++t;
    self_weight(b) = at_cell.empty() ? A(0) : at_cell[0];
    self_terms_ += !at_cell.empty();
  }
  begin(n) = t;
  group_begin(n) = group;
  for (const auto& upload : uploads) upload();
}

template <class T>
void WallPass<T>::before(const Kokkos::DefaultExecutionSpace& exec, const Field<T>&, const Field<T>& u_prev) {
  if (cells() == 0 || kept_valid_) return;
  const auto cell = cell_;
  const auto kept = kept_;
  const auto prev = u_prev.data;
  Kokkos::parallel_for("wavefd::wall_keep", Range(exec, 0, cells()), KOKKOS_LAMBDA(index_t b) { kept(b) = widen(prev(cell(b))); });
}

template <class T>
void WallPass<T>::after(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) {
  if (cells() + index_t(outside_.extent(0)) > 0) correct(exec, u, u_next);
  kept_valid_ = true;  // correct() kept u(b), the next step's u-
}

template <class T>
void WallPass<T>::correct(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) {
  const auto cell = cell_;
  const auto begin = begin_;
  const auto at = term_at_;
  const auto weight = term_weight_;
  const auto self_weight = self_weight_;
  const bool has_terms = has_terms_;
  const auto loss = loss_;
  const auto static_loss = static_loss_;
  const auto kept = kept_;
  const auto absorbed = absorbed_;
  const auto kinds = kinds_;
  const auto kind_begin = kind_begin_;
  const auto group_begin = group_begin_;
  const auto group_material = group_material_;
  const auto group_weight = group_weight_;
  const auto group_state = group_state_;
  const auto state_stride = state_stride_;
  const auto state_v = state_v_;
  const auto state_q = state_q_;
  const auto now = u.data;
  const auto next = u_next.data;
  const bool tracking = tracking_;
  const auto outside = outside_;
  const index_t walls = cells();
  // One launch for the wall cells and, after them, the outside cells to zero (disjoint cells).
  Kokkos::parallel_for("wavefd::wall_pass", Range(exec, 0, walls + index_t(outside.extent(0))), KOKKOS_LAMBDA(index_t b) {
    if (b >= walls) {
      next(outside(b - walls)) = narrow<T>(A(0));
      return;
    }
    const A here = widen(now(cell(b)));
    const A terms = self_weight(b) * here + (has_terms ? wall_terms<A>(b, begin, at, weight, now) : A(0));
    const A g = loss(b), prev = kept(b);
    kept(b) = here;  // the next step's u-
    constexpr int kChunk = 4;  // branches whose states are loaded together (for_state_chunks)
    A history = 0;  // H_b: the branches' flux from their state
    for (index_t group = group_begin(b); group < group_begin(b + 1); ++group) {
      A sum = 0;
      for_state_chunks<kChunk>(group_material(group), group_state(group), kind_begin, state_stride, state_v, state_q,
                               [&](int k0, const A(&v)[kChunk], const A(&q)[kChunk], index_t, index_t, int count) {
#pragma unroll
        for (int j = 0; j < kChunk; ++j)
          if (j < count) sum += kinds(k0 + j).b_mass * v[j] - kinds(k0 + j).b_stiffness_2 * q[j];
      });
      history += group_weight(group) * sum;
    }
    // The branches take D from u+ as stored (rounded once in 16 bits), which the next step reads.
    const T stored = narrow<T>((widen(next(cell(b))) + terms + g * prev - history) / (A(1) + g));
    next(cell(b)) = stored;
    const A value = widen(stored);
    const A half_step = (value - prev) / 2;  // D
    double lost = 0;
    for (index_t group = group_begin(b); group < group_begin(b + 1); ++group) {
      const A sigma = group_weight(group);
      for_state_chunks<kChunk>(group_material(group), group_state(group), kind_begin, state_stride, state_v, state_q,
                               [&](int k0, const A(&v)[kChunk], const A(&q)[kChunk], index_t s0, index_t stride, int count) {
#pragma unroll
        for (int j = 0; j < kChunk; ++j) {
          if (j >= count) continue;
          const WallBranchSteps<A>& branch = kinds(k0 + j);
          const A v_next = branch.b * (half_step + branch.mass_minus_a * v[j] - branch.stiffness * q[j]);
          const A mean = (v_next + v[j]) / 2;
          state_v(s0 + j * stride) = v_next;
          state_q(s0 + j * stride) = q[j] + mean;
          if (tracking) lost += double(sigma) * double(branch.resistance) * double(mean) * double(mean);
        }
      });
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
  const auto self_weight = self_weight_;
  const auto vd = v.data;
  const auto ud = u.data;
  double sum = 0;
  Kokkos::parallel_reduce("wavefd::wall_pairing", Range(0, cells()), KOKKOS_LAMBDA(index_t b, double& s) {
    s += double(widen(vd(cell(b)))) *
         (double(self_weight(b)) * double(widen(ud(cell(b)))) + wall_terms<double>(b, begin, at, weight, ud));
  }, sum);
  return sum;
}

template <class T>
double WallPass<T>::stored() const {
  const auto kinds = kinds_;
  const auto kind_begin = kind_begin_;
  const auto group_material = group_material_;
  const auto group_weight = group_weight_;
  const auto group_state = group_state_;
  const auto state_stride = state_stride_;
  const auto state_v = state_v_;
  const auto state_q = state_q_;
  double sum = 0;
  Kokkos::parallel_reduce("wavefd::wall_stored", Range(0, index_t(group_state_.extent(0))),
                          KOKKOS_LAMBDA(index_t group, double& e) {
    const int m = group_material(group);
    index_t s = group_state(group);
    for (int k = kind_begin(m); k < kind_begin(m + 1); ++k, s += state_stride(m)) {
      const double v = double(state_v(s)), q = double(state_q(s));
      e += double(group_weight(group)) * (double(kinds(k).mass) * v * v + double(kinds(k).stiffness) * q * q) / 2;
    }
  }, sum);
  return sum;
}

template <class T>
double WallPass<T>::bytes() const {
  return double(cells()) * (2 * sizeof(index_t) + 4 * sizeof(A) + sizeof(double)) +
         double(term_at_.extent(0)) * (sizeof(index_t) + sizeof(A)) + double(cells() + 1) * sizeof(index_t) +
         double(group_state_.extent(0)) * (sizeof(int) + sizeof(A) + sizeof(index_t)) +
         double(branch_states()) * 2 * sizeof(A) + double(kinds_.extent(0)) * sizeof(WallBranchSteps<A>);
}

template class WallPass<float>;
template class WallPass<double>;
template class WallPass<Half>;
template class WallPass<BFloat16>;

}  // namespace wavefd
