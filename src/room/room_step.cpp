#include "wavefd/room_step.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "room/wall_pass.hpp"
#include "wavefd/parallel.hpp"
#include "wavefd/storage_format.hpp"

namespace wavefd {

namespace {

using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;

SchemeSpec room_scheme(const RoomModel& m, ParallelSpec par) {
  SchemeSpec s;
  s.domain = Domain::single(m.n);
  s.boundary = Boundary::zero;
  s.courant = m.courant;
  if (par.pack == GhostFillMode::kernel)
    throw Error("parallel.pack = kernel: the room's wall pass rewrites cells after the update; accepted: auto, separate");
  par.pack = GhostFillMode::separate;
  s.parallel = par;
  return s;
}

// 16-bit fields: the power of two that brings the largest value a source gives one cell in one step
// (its signal's largest sample: a soft source spreads it with weights of at most 1, a hard one sets
// it) to [1, 2), from the model alone, so that every rank takes the same one. The field then stays
// far below half's 65504; the shoebox deck's responses peak near 2^-6 of it, so that T30's range
// (to 35 dB down) lies in half's normal values (from 2^-14), and deeper tails in its subnormals.
double room_source_scale(const RoomModel& m) {
  double peak = 0;
  for (const RoomSource& src : m.sources)
    for (double s : src.signal) peak = std::max(peak, std::abs(s));
  return scale_to_unit(peak);
}

}  // namespace

template <class T>
std::unique_ptr<WallPass<T>> RoomStep<T>::shoebox_walls(const RoomModel& m, const Box& mine, const Index3& offset) const {
  // Faces of one material (by name) share an index, so that a cell's faces on it share their states.
  std::vector<Material> materials;
  std::array<int, 6> index{};
  for (std::size_t f = 0; f < 6; ++f) {
    index[f] = int(materials.size());
    for (std::size_t g = 0; g < materials.size(); ++g)
      if (materials[g].name == m.walls[f].name) index[f] = int(g);
    if (index[f] == int(materials.size())) materials.push_back(m.walls[f]);
  }
  std::vector<WallCell> cells = shoebox_wall_cells(m.stencil, m.n, mine);
  for (WallCell& c : cells)
    for (auto& face : c.faces) face.first = index[std::size_t(face.first)];
  return std::make_unique<WallPass<T>>(cells, materials, offset, engine_.layout(), m.courant, m.dt,
                                       engine_.weights().host_gamma);
}

template <class T>
RoomStep<T>::RoomStep(const RoomModel& m, const ParallelSpec& par, const Variant& v, const Tile& tile)
    : model_((check_room_model(m), m)), engine_(m.stencil, room_scheme(m, par), v, tile) {
  const Index3 offset = engine_.domain().offset, local = engine_.domain().local;
  const Box mine{offset, {offset[0] + local[0], offset[1] + local[1], offset[2] + local[2]}};
  walls_ = m.air.empty() ? shoebox_walls(m, mine, offset)
                         : std::make_unique<WallPass<T>>(voxel_wall_cells(m, mine), m.materials, offset, engine_.layout(),
                                                         m.courant, m.dt, engine_.weights().host_gamma,
                                                         outside_shell(m, mine));
  engine_.add_pass(walls_.get());
  if (!m.air.empty()) {  // the bulk update over the air's z range of each column only
    const std::vector<int> spans = air_z_spans(m, mine);
    Kokkos::View<int*> device("wavefd::room_z_spans", spans.size());
    Kokkos::deep_copy(device, Kokkos::View<const int*, Kokkos::HostSpace>(spans.data(), spans.size()));
    engine_.set_z_spans(device);
  }
  Kokkos::deep_copy(engine_.u().data, narrow<T>(0));  // ghosts included: they stay 0
  Kokkos::deep_copy(engine_.u_prev().data, narrow<T>(0));
  if constexpr (kSixteenBit<T>) scale_ = room_source_scale(m);

  const Layout& l = engine_.layout();
  const auto owned = [&](const Index3& g) {
    for (int d = 0; d < 3; ++d)
      if (g[d] < mine.lo[d] || g[d] >= mine.hi[d]) return false;
    return true;
  };
  const auto flat = [&](const Index3& g) { return l.at(g[0] - offset[0], g[1] - offset[1], g[2] - offset[2]); };

  // Sources: soft ones spread, hard ones at the nearest cell; per point, its entries (source, weight).
  std::map<index_t, std::vector<std::pair<int, double>>> soft, hard;
  std::size_t longest = 0;
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    const RoomSource& src = m.sources[s];
    longest = std::max(longest, src.signal.size());
    if (src.hard) {
      const Index3 at{std::llround(src.position[0]), std::llround(src.position[1]), std::llround(src.position[2])};
      if (owned(at)) hard[flat(at)].push_back({int(s), 1.0});
      continue;
    }
    for (const GridWeight& w : room_point_weights(src.position, m.spreading, m.n, "source[" + std::to_string(s) + "].position"))
      if (owned(w.at)) soft[flat(w.at)].push_back({int(s), w.weight});
  }
  longest = std::min<std::size_t>(longest, std::size_t(std::max<long>(m.steps, 0)));
  signal_ = Kokkos::View<double**, Kokkos::LayoutRight>("wavefd::room_signal", longest, m.sources.size());
  auto signal = Kokkos::create_mirror_view(signal_);
  for (std::size_t s = 0; s < m.sources.size(); ++s)
    for (std::size_t n = 0; n < longest && n < m.sources[s].signal.size(); ++n) signal(n, s) = m.sources[s].signal[n];
  Kokkos::deep_copy(signal_, signal);
  // One entry per (point, source): a point shared by two sources gets two entries and sums them in
  // one thread (no race), hard points set the sum of theirs.
  const auto upload = [](const auto& points, Kokkos::View<index_t*>& at, Kokkos::View<int*>& source,
                         Kokkos::View<double*>* weight, const char* label) {
    std::vector<index_t> a;
    std::vector<int> s;
    std::vector<double> w;
    for (const auto& [p, entries] : points)
      for (const auto& [src, wt] : entries) a.push_back(p), s.push_back(src), w.push_back(wt);
    at = Kokkos::View<index_t*>(std::string(label) + "_at", a.size());
    source = Kokkos::View<int*>(std::string(label) + "_source", s.size());
    Kokkos::deep_copy(at, Kokkos::View<const index_t*, Kokkos::HostSpace>(a.data(), a.size()));
    Kokkos::deep_copy(source, Kokkos::View<const int*, Kokkos::HostSpace>(s.data(), s.size()));
    if (weight) {
      *weight = Kokkos::View<double*>(std::string(label) + "_weight", w.size());
      Kokkos::deep_copy(*weight, Kokkos::View<const double*, Kokkos::HostSpace>(w.data(), w.size()));
    }
  };
  upload(soft, soft_at_, soft_source_, &soft_weight_, "wavefd::room_soft");
  upload(hard, hard_at_, hard_source_, nullptr, "wavefd::room_hard");

  // Receivers: the support points this rank owns.
  std::vector<int> begin{0};
  std::vector<index_t> at;
  std::vector<double> weight;
  for (std::size_t r = 0; r < m.receivers.size(); ++r) {
    for (const GridWeight& w : room_point_weights(m.receivers[r], m.spreading, m.n, "receivers.positions[" + std::to_string(r) + "]"))
      if (owned(w.at)) at.push_back(flat(w.at)), weight.push_back(w.weight);
    begin.push_back(int(at.size()));
  }
  rec_begin_ = Kokkos::View<int*>("wavefd::room_rec_begin", begin.size());
  rec_at_ = Kokkos::View<index_t*>("wavefd::room_rec_at", at.size());
  rec_weight_ = Kokkos::View<double*>("wavefd::room_rec_weight", weight.size());
  Kokkos::deep_copy(rec_begin_, Kokkos::View<const int*, Kokkos::HostSpace>(begin.data(), begin.size()));
  Kokkos::deep_copy(rec_at_, Kokkos::View<const index_t*, Kokkos::HostSpace>(at.data(), at.size()));
  Kokkos::deep_copy(rec_weight_, Kokkos::View<const double*, Kokkos::HostSpace>(weight.data(), weight.size()));
  samples_ = Kokkos::View<double**, Kokkos::LayoutRight>("wavefd::room_samples", m.receivers.size(),
                                                         std::size_t(std::max<long>(m.steps, 0)));
}

template <class T>
RoomStep<T>::~RoomStep() = default;

template <class T>
index_t RoomStep<T>::wall_cells() const {
  return walls_->cells();
}

template <class T>
void RoomStep<T>::step() {
  const long n = engine_.steps_done();
  engine_.step();  // the walls' pass runs inside
  add_sources(n);
  sample_receivers(n);
}

template <class T>
void RoomStep<T>::add_sources(long step) {
  if (step >= long(signal_.extent(0))) return;
  const auto signal = Kokkos::subview(signal_, step, Kokkos::ALL);
  // u+ after the swap, through the const engine: writable access would mark the ghosts stale and
  // refill them before the next step.
  const auto next = std::as_const(engine_).u().data;
  const auto exec = engine_.args().exec;
  const double scale = scale_;
  if (soft_at_.extent(0) > 0) {
    const auto at = soft_at_;
    const auto source = soft_source_;
    const auto weight = soft_weight_;
    // Entries of one point are adjacent (sorted by point): the first of a run adds them all.
    Kokkos::parallel_for("wavefd::room_soft_sources", Range(exec, 0, index_t(at.extent(0))), KOKKOS_LAMBDA(index_t e) {
      if (e > 0 && at(e - 1) == at(e)) return;
      double sum = 0;
      for (index_t f = e; f < index_t(at.extent(0)) && at(f) == at(e); ++f) sum += weight(f) * signal(source(f));
      next(at(e)) = narrow<T>(widen(next(at(e))) + static_cast<arithmetic_t<T>>(sum * scale));
    });
  }
  if (hard_at_.extent(0) > 0) {
    const auto at = hard_at_;
    const auto source = hard_source_;
    Kokkos::parallel_for("wavefd::room_hard_sources", Range(exec, 0, index_t(at.extent(0))), KOKKOS_LAMBDA(index_t e) {
      if (e > 0 && at(e - 1) == at(e)) return;
      double sum = 0;
      for (index_t f = e; f < index_t(at.extent(0)) && at(f) == at(e); ++f) sum += signal(source(f));
      next(at(e)) = narrow<T>(static_cast<arithmetic_t<T>>(sum * scale));
    });
  }
}

template <class T>
void RoomStep<T>::sample_receivers(long step) {
  const index_t receivers = index_t(samples_.extent(0));
  if (receivers == 0 || step >= long(samples_.extent(1))) return;
  const auto begin = rec_begin_;
  const auto at = rec_at_;
  const auto weight = rec_weight_;
  const auto samples = samples_;
  const auto next = std::as_const(engine_).u().data;
  const double scale = scale_;
  Kokkos::parallel_for("wavefd::room_receivers", Range(engine_.args().exec, 0, receivers), KOKKOS_LAMBDA(index_t r) {
    double sum = 0;
    for (int e = begin(r); e < begin(r + 1); ++e) sum += weight(e) * double(widen(next(at(e))));
    samples(r, step) = sum / scale;
  });
}

template <class T>
std::vector<std::vector<double>> RoomStep<T>::partial_responses() const {
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, samples_);
  const std::size_t done = std::min<std::size_t>(std::size_t(steps_done()), host.extent(1));
  std::vector<std::vector<double>> out(host.extent(0), std::vector<double>(done));
  for (std::size_t r = 0; r < out.size(); ++r)
    for (std::size_t s = 0; s < done; ++s) out[r][s] = host(r, s);
  return out;
}

template <class T>
double RoomStep<T>::energy() const {
  const Layout l = engine_.layout();
  const auto next = engine_.u().data, now = engine_.u_prev().data;
  const auto offsets = engine_.weights().flat_offsets;
  const auto gamma = engine_.weights().gamma;
  const int size = engine_.weights().size;
  using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                       Kokkos::IndexType<index_t>>;
  double bulk = 0;
  Kokkos::parallel_reduce("wavefd::room_energy", Policy({0, 0, 0}, {l.n[0], l.n[1], l.n[2]}),
      KOKKOS_LAMBDA(index_t i, index_t j, index_t k, double& e) {
        const index_t p = l.at(i, j, k);
        const double here = double(widen(now(p)));
        double laplacian = -2 * here;  // lambda^2 L_0 u = sum_k gamma_k u(. + l_k) - 2 u
        for (int q = 0; q < size; ++q) laplacian += double(gamma(q)) * double(widen(now(p + offsets(q))));
        const double ahead = double(widen(next(p)));
        e += 0.5 * (ahead - here) * (ahead - here) - 0.5 * ahead * laplacian;
      }, bulk);
  const double stored = bulk - 0.5 * walls_->pairing(engine_.u(), engine_.u_prev()) + walls_->stored();
  return sum_over_ranks(stored / (scale_ * scale_));
}

template <class T>
double RoomStep<T>::absorbed() const {
  return sum_over_ranks(walls_->absorbed() / (scale_ * scale_));
}

template class RoomStep<float>;
template class RoomStep<double>;
template class RoomStep<Half>;
template class RoomStep<BFloat16>;

}  // namespace wavefd
