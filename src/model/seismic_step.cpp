#include "wavefd/seismic_step.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <type_traits>
#include <utility>

#include "kernels/kokkos/box_policy.hpp"
#include "kernels/kokkos/radius_dispatch.hpp"
#include "seismic_layer.hpp"
#include "wavefd/storage_format.hpp"

namespace wavefd {

std::string_view to_string(SeismicWork w) {
  return w == SeismicWork::unified ? "unified" : w == SeismicWork::three_domain ? "three-domain" : "seven-domain";
}

SeismicWork parse_seismic_work(std::string_view name, std::string_view key) {
  if (name == "unified") return SeismicWork::unified;
  if (name == "seven-domain") return SeismicWork::seven_domain;
  if (name == "three-domain") return SeismicWork::three_domain;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: seven-domain, three-domain, unified");
}

std::string_view to_string(StepPairs p) {
  return p == StepPairs::automatic ? "auto" : p == StepPairs::on ? "on" : "off";
}

StepPairs parse_step_pairs(std::string_view name, std::string_view key) {
  if (name == "auto") return StepPairs::automatic;
  if (name == "on") return StepPairs::on;
  if (name == "off") return StepPairs::off;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: auto, on, off");
}

std::string_view to_string(Rounding r) { return r == Rounding::stochastic ? "stochastic" : "nearest"; }

Rounding parse_rounding(std::string_view name, std::string_view key) {
  if (name == "nearest") return Rounding::nearest;
  if (name == "stochastic") return Rounding::stochastic;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: nearest, stochastic");
}

std::string_view to_string(SecondField f) { return f == SecondField::velocity ? "velocity" : "previous"; }

SecondField parse_second_field(std::string_view name, std::string_view key) {
  if (name == "previous") return SecondField::previous;
  if (name == "velocity") return SecondField::velocity;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: previous, velocity");
}

namespace {

constexpr int kMaxRadius = 8;
using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;
// The layer kernel's: blocks of at most 128 threads, MinBlocks of them per SM (which caps the
// registers per thread: 128 for four, as mdrange-stream's for R <= 5 in float).
constexpr int kLayerThreads = 128;
template <int MinBlocks>
using LayerPolicy = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::LaunchBounds<kLayerThreads, MinBlocks>,
                                          Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                          Kokkos::IndexType<index_t>>;
template <class T>
constexpr int kLayerMinBlocks = std::is_same_v<T, BFloat16> ? 3 : 4;

// With `on`: fences and adds the time since the previous part to `into` (SeismicStep::set_timed).
struct PartTimer {
  bool on;
  Kokkos::Timer clock{};
  void operator()(double& into) {
    if (!on) return;
    Kokkos::fence("wavefd::seismic_timed");
    into += clock.seconds();
    clock.reset();
  }
};

Box intersect(const Box& a, const Box& b) {
  Box r;
  for (int d = 0; d < 3; ++d) r.lo[d] = std::max(a.lo[d], b.lo[d]), r.hi[d] = std::max(r.lo[d], std::min(a.hi[d], b.hi[d]));
  return r;
}

// b's points inside `core` (the first, when any), and the rest of b as slabs, z first: each slab
// spans what the slabs before it left. core.lo <= core.hi on every axis, so no point is in two.
void cut(const Box& b, const Box& core, std::vector<Box>& inside, std::vector<Box>& outside) {
  const Box in = intersect(b, core);
  if (!in.empty()) inside.push_back(in);
  Box rest = b;
  for (int a = 2; a >= 0 && !rest.empty(); --a) {
    Box below = rest, above = rest;
    below.hi[a] = std::min(rest.hi[a], core.lo[a]), above.lo[a] = std::max(rest.lo[a], core.hi[a]);
    for (const Box& part : {below, above})
      if (!part.empty()) outside.push_back(part);
    rest.lo[a] = std::max(rest.lo[a], core.lo[a]), rest.hi[a] = std::min(rest.hi[a], core.hi[a]);
  }
}

Box shifted(const Box& b, const Index3& by) {
  Box r = b;
  for (int d = 0; d < 3; ++d) r.lo[d] -= by[d], r.hi[d] -= by[d];
  return r;
}

template <class T>
Kokkos::View<T*> to_device(const std::string& label, const std::vector<T>& host) {
  Kokkos::View<T*> d(label, host.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < host.size(); ++i) h(i) = host[i];
  Kokkos::deep_copy(d, h);
  return d;
}

// vp's distinct values (at most 256, in order of appearance) and each point's byte index into them;
// false where there are more. Neighbouring points mostly share a value, so each is compared with
// the last one first.
template <class A>
bool byte_index(const A* values, std::size_t n, std::vector<A>& table, std::vector<std::uint8_t>& index) {
  table.clear();
  index.resize(n);
  std::size_t last = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (table.empty() || values[p] != table[last]) {
      last = std::size_t(std::find(table.begin(), table.end(), values[p]) - table.begin());
      if (last == table.size()) {
        if (table.size() == 256) return table.clear(), index.clear(), false;
        table.push_back(values[p]);
      }
    }
    index[p] = std::uint8_t(last);
  }
  return true;
}

// The 16-bit formats' scale (SeismicStep::scale): the power of two that brings the largest value
// a source adds in one step to [1, 2), from the model alone, so that every rank takes the same one.
// A point source's field stays within a few hundred times that (65504 is half's largest value),
// and the receivers' far-field amplitudes stay well above half's smallest normal (2^-14).
double source_scale(const SeismicModel& m) {
  double peak = 0;
  for (const SeismicSource& src : m.sources) {
    double wavelet = 0;
    for (long n = 0; n < m.steps; ++n)
      wavelet = std::max(wavelet, std::abs(src.wavelet->at(double(n + (m.source_one_step_late ? 1 : 0)) * m.dt)));
    double term = std::abs(src.amplitude) * wavelet;
    if (m.source_scaled) {  // the speed at the grid point nearest the source
      Box at;
      for (int d = 0; d < 3; ++d)
        at.lo[d] = std::clamp<index_t>(index_t(std::llround(src.position[d])), 0, m.n[d] - 1), at.hi[d] = at.lo[d] + 1;
      const double speed = m.velocity->fill(at, m.h)[0];
      term *= (speed * m.dt) * (speed * m.dt) / (m.h * m.h * m.h);
    }
    peak = std::max(peak, term);
  }
  return scale_to_unit(peak);
}

Decomposition seismic_decomposition(const SeismicModel& m, const ParallelSpec& p) {
  const int ranks = int(p.rank_grid[0] * p.rank_grid[1] * p.rank_grid[2]);
  return Decomposition(m.n, p.rank_grid, ranks, false, m.stencil.radius);
}

}  // namespace

Subdomain seismic_subdomain(const SeismicModel& m, const ParallelSpec& parallel) {
  return seismic_decomposition(m, parallel).subdomain(parallel.rank);
}

template <class T>
SeismicStep<T>::SeismicStep(const SeismicModel& m, const SeismicRun& run, const std::vector<double>& speeds)
    : model_(m), run_(run) {
  const Precision precision = precision_of<T>;
  static_cast<void>(m.axis_weights());  // throws for a stencil that is not a star
  if (m.stencil.radius < 1 || m.stencil.radius > kMaxRadius)
    throw Error("stencil.M = " + std::to_string(m.stencil.radius) + " is outside the seismic engine's range; accepted: 1.." +
                std::to_string(kMaxRadius));
  if (run.rounding == Rounding::stochastic && run.layer != nullptr)
    throw Error("scheme.layer_variant = '" + run.layer->name() + "' rounds to nearest; accepted with " +
                "scheme.rounding = 'stochastic': auto or layer (the layer kernel, which rounds stochastically)");
  if (run.rounding == Rounding::stochastic && run.inner != nullptr)
    throw Error("scheme.variant = '" + run.inner->name() + "' rounds to nearest; accepted with scheme.rounding = " +
                "'stochastic': auto or layer (the layer kernel, which rounds stochastically)");
  // The velocity form is the layer kernel's and that of the variants that store it.
  if (velocity() && run.layer != nullptr && !run.layer->stores_velocity(precision_of<T>))
    throw Error("scheme.layer_variant = '" + run.layer->name() + "' stores u^{n-1}; accepted with " +
                "scheme.second_field = 'velocity': auto, layer (the layer kernel) or a variant that stores the velocity");
  if (velocity() && run.inner != nullptr && !run.inner->stores_velocity(precision_of<T>))
    throw Error("scheme.variant = '" + run.inner->name() + "' stores u^{n-1}; accepted with scheme.second_field = " +
                "'velocity': auto, layer (the layer kernel) or a variant that stores the velocity");
  if (velocity() && run.rounding == Rounding::stochastic)
    throw Error("scheme.second_field = 'velocity' rounds to nearest; accepted with scheme.rounding = 'stochastic': previous");
  if (velocity() && run.pairs == StepPairs::on)
    throw Error("scheme.pairs = 'on' steps u^{n-1}, not scheme.second_field = 'velocity'; accepted: auto or off");
  if (kSixteenBit<T> && run.pairs == StepPairs::on)
    throw Error("scheme.pairs = 'on' takes fields in float or double, not " + std::string(to_string(precision)) +
                "; accepted: auto or off");
  if constexpr (kSixteenBit<T>) scale_ = source_scale(m);
  if (!kSixteenBit<T> && run.rounding == Rounding::stochastic)
    throw Error("scheme.rounding = 'stochastic' rounds fields stored in 16 bits, not " + std::string(to_string(precision)) +
                "; accepted: nearest, or scheme.precision = half or bfloat16");
  if (run.work == SeismicWork::seven_domain && run.inner != nullptr) {
    if (!run.inner->takes_coefficient() || !run.inner->supports(m.stencil, precision))
      throw Error("scheme.variant = '" + run.inner->name() + "' cannot update the seismic inner box (" + m.stencil.name +
                  ", variable coefficient)");
    run.inner->check_tile(run.tile, "scheme.tile");
  }
  if (run.layer != nullptr) {
    if (!run.layer->takes_coefficient() || !run.layer->supports(m.stencil, precision))
      throw Error("scheme.layer_variant = '" + run.layer->name() + "' cannot update the seismic layer (" + m.stencil.name +
                  ", variable coefficient and PML)");
    run.layer->check_tile(run.layer_tile, "scheme.layer_tile");
  }
  // A GPU block of the layer kernel (x columns by y rows): its launch bound.
  const Tile& lt = run.layer_tile;
  if (!kHostBuild && run.layer == nullptr && lt.x * lt.y > kLayerThreads)
    throw Error("scheme.layer_tile = '" + to_string(lt) + "' has more than " + std::to_string(kLayerThreads) +
                " threads; accepted: default, or XxYxZ with x*y <= " + std::to_string(kLayerThreads));
  const Decomposition split = seismic_decomposition(m, run.parallel);
  sub_ = split.subdomain(run.parallel.rank);
  const Box own = sub_.box();
  if (speeds.size() != std::size_t(own.size()))
    throw Error("seismic engine: " + std::to_string(speeds.size()) + " speeds for a box of " +
                std::to_string(own.size()) + " points");
  layout_ = make_layout(sub_.local, m.stencil.radius, true, sizeof(T));
  pml_ = m.absorbing == Absorbing::pml && m.width > 0;
  sponge_ = m.absorbing == Absorbing::sponge && m.width > 0;

  // Fields: zero everywhere (the model starts at rest; the zero frame's ghosts stay 0).
  u_ = make_field<T>("wavefd::seismic_u", layout_);
  v_ = make_field<T>("wavefd::seismic_v", layout_);
  vp_ = Kokkos::View<A*>(Kokkos::view_alloc("wavefd::seismic_vp", Kokkos::WithoutInitializing), layout_.alloc);
  laplacian_ = make_laplacian_stencil<A>(m.stencil, layout_);
  axis_c_ = star_axis_weights(laplacian_);  // the layer's weights: the inner box's, bit for bit
  touch({u_.data, v_.data});
  if (velocity()) {
    next_ = make_field<T>("wavefd::seismic_next", layout_);
    touch({next_.data});
    Kokkos::deep_copy(next_.data, narrow<T>(0));  // zero ghosts, as u's
  }
  if constexpr (std::is_same_v<A, T>) touch({vp_});
  Kokkos::deep_copy(u_.data, narrow<T>(0));
  Kokkos::deep_copy(v_.data, narrow<T>(0));
  Kokkos::deep_copy(vp_, A(0));
  {
    auto h = Kokkos::create_mirror_view(vp_);
    const double scale = m.dt / m.h;
    for (index_t k = 0; k < sub_.local[2]; ++k)
      for (index_t j = 0; j < sub_.local[1]; ++j)
        for (index_t i = 0; i < sub_.local[0]; ++i) {
          const double s = speeds[std::size_t(i + sub_.local[0] * (j + sub_.local[1] * k))] * scale;
          h(layout_.at(i, j, k)) = static_cast<A>(s * s);
        }
    Kokkos::deep_copy(vp_, h);
    std::vector<A> table;
    std::vector<std::uint8_t> index;
    if (run.inner != nullptr && run.inner->takes_coefficient_index() && byte_index(h.data(), h.size(), table, index)) {
      coef_table_ = to_device<A>("wavefd::seismic_vp_table", table);
      coef_index_ = Kokkos::View<std::uint8_t*>(Kokkos::view_alloc("wavefd::seismic_vp_index", Kokkos::WithoutInitializing),
                                                index.size());
      Kokkos::deep_copy(coef_index_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace>(index.data(), index.size()));
    }
  }

  // The layer: local 1-D profiles and the slabs this rank holds.
  for (int a = 0; a < 3; ++a) {
    const std::vector<double> global = m.axis_profile(a);
    std::vector<A> local(std::size_t(sub_.local[a] + 2));
    for (index_t i = -1; i <= sub_.local[a]; ++i) local[std::size_t(i + 1)] = static_cast<A>(global[std::size_t(sub_.offset[a] + i + 1)]);
    profile_[a] = to_device<A>(std::string("wavefd::seismic_eta_") + axis_name(a), local);
  }
  inner_ = shifted(intersect(m.width > 0 ? m.inner_box() : Box{{0, 0, 0}, m.n}, own), sub_.offset);
  const std::vector<Box> global_slabs = m.layer_boxes();
  // phi of each slab over its box, the x slabs' widened to whole 16-byte packs along x: then every
  // row of phi starts on a pack and a kernel moves a pack's phi with one access, also in the thin x
  // slabs (minimod 1000^3, H200: each x slab took 0.42 ms per step with phi point by point, against
  // 0.26-0.30 ms for the z and y slabs of about as many points). The columns added hold no layer
  // point; their phi is never updated. (A pack: the layer kernel's, 16 bytes of stored values.)
  const index_t pack_points = index_t(16 / sizeof(T));
  std::array<Box, 6> phi_box{};
  for (std::size_t s = 0; s < global_slabs.size(); ++s) {
    slab_all_[s] = shifted(intersect(global_slabs[s], own), sub_.offset);
    phi_box[s] = slab_all_[s];
    if (s >= 4 && !phi_box[s].empty())
      phi_box[s].lo[0] = phi_box[s].lo[0] / pack_points * pack_points,
      phi_box[s].hi[0] = (phi_box[s].hi[0] + pack_points - 1) / pack_points * pack_points;
    slab_at_[s] = phi_points_;
    if (pml_) phi_points_ += phi_box[s].size(), layer_points_ += slab_all_[s].size();
  }
  phi_ = Kokkos::View<A*>("wavefd::seismic_phi", std::max<index_t>(phi_points_, 1));
  // The slab table of PmlLayer (the pack flag is read by kernels that move phi in 16-byte packs).
  std::vector<index_t> table;  // in SlabField's order
  for (int s = 0; s < 6; ++s) {
    const Box& b = phi_box[s];
    const bool aligned = b.lo[0] % pack_points == 0 && b.extent(0) % pack_points == 0 && slab_at_[s] % pack_points == 0 &&
                         reinterpret_cast<std::uintptr_t>(phi_.data()) % (sizeof(A) * pack_points) == 0;
    table.insert(table.end(), {b.lo[0], b.lo[1], b.lo[2], slab_at_[s], b.extent(0), b.extent(1), index_t(aligned)});
  }
  static_assert(kSlabFields == 7);
  slab_table_ = to_device<index_t>("wavefd::seismic_slabs", table);
  layer_.phi = phi_.data();
  for (int a = 0; a < 3; ++a) layer_.eta[a] = profile_[a].data();
  layer_.slabs = slab_table_.data();
  const Box inner_global = m.width > 0 ? m.inner_box() : Box{{0, 0, 0}, m.n};
  for (int d = 0; d < 3; ++d) layer_.ilo[d] = inner_global.lo[d] - sub_.offset[d], layer_.ihi[d] = inner_global.hi[d] - sub_.offset[d];
  // The inner variant's box starts and ends on 32-byte sectors of vp along x (rows start on
  // 128-byte boundaries), so that vector kernels take whole packs, and its rows of u-, vp and u+
  // whole sectors in float (minimod 1000^3, H200: inner box 3.83 against 4.02 ms per step on
  // 16-byte packs). 16-bit fields' rows then start and end on 16 bytes, and their x slabs are as
  // wide as float's: on u's sectors minimod's right one was 40 points, a tile of the layer's
  // vectors 128 wide, and the layer took 1.91 against 1.36 ms per step (H200, half).
  // Seven-domain: the layer kernel (or variant) updates the z and y slabs, and beside the inner
  // variant's box, the x slabs together with the inner columns left over (with the inner formula):
  // one launch per side instead of a thin one for the columns. Three-domain: the core is the inner
  // variant's columns over every y and z (the z and y slabs' points there by its PML branch), and
  // the layer kernel updates the x slabs, again with the columns left over, over every y and z.
  const index_t pack = index_t(16 / sizeof(T));
  const index_t sector = index_t(32 / sizeof(A));
  inner_variant_box_ = inner_;
  if (!inner_.empty()) {
    Box& b = inner_variant_box_;
    b.lo[0] = std::min((inner_.lo[0] + sector - 1) / sector * sector, inner_.hi[0]);
    b.hi[0] = b.lo[0] + (inner_.hi[0] - b.lo[0]) / sector * sector;
  }
  const Box whole = layout_.interior();
  if (run.work == SeismicWork::three_domain && !inner_.empty()) {
    core_ = whole;
    core_.lo[0] = inner_variant_box_.lo[0], core_.hi[0] = inner_variant_box_.hi[0];
    Box left = whole, right = whole;
    left.hi[0] = core_.lo[0], right.lo[0] = core_.hi[0];
    for (const Box& side : {left, right})
      if (!side.empty()) slabs_.push_back(side);
  } else if (run.work == SeismicWork::three_domain) {
    slabs_.push_back(whole);  // no inner point here: the layer kernel takes the whole box
  } else {
    for (int s = 0; s < 4; ++s)
      if (!slab_all_[s].empty()) slabs_.push_back(slab_all_[s]);
    if (inner_.empty()) {
      for (int s = 4; s < 6; ++s)
        if (!slab_all_[s].empty()) slabs_.push_back(slab_all_[s]);
    } else {
      Box left = inner_, right = inner_;  // the x slabs' y-z extent is the inner box's
      left.lo[0] = 0, left.hi[0] = inner_variant_box_.lo[0], right.lo[0] = inner_variant_box_.hi[0];
      right.hi[0] = sub_.local[0];
      for (const Box& side : {left, right})
        if (!side.empty()) slabs_.push_back(side);
    }
  }

  if (run.layer != nullptr && pml_)
    for (const Box& b : slabs_)
      if (!run.layer->takes_pml(layout_, b, precision))
        throw Error("scheme.layer_variant = '" + run.layer->name() + "' has no PML branch for this layer on this " +
                    "device; accepted: auto, layer, or a variant that has one (cuda-star-stream; cuda-star-tma on sm_90)");

  // Sources: the support points this rank owns, merged by point (sources in order within each).
  std::map<index_t, std::vector<std::pair<int, double>>> by_point;
  std::map<index_t, Index3> where;
  const index_t steps = std::max<long>(m.steps, 1);
  src_amp_ = Kokkos::View<double**, Kokkos::LayoutRight>("wavefd::source_amplitude", steps, m.sources.size());
  auto amp = Kokkos::create_mirror_view(src_amp_);
  for (std::size_t s = 0; s < m.sources.size(); ++s) {
    const SeismicSource& src = m.sources[s];
    for (const GridWeight& g : spread_weights(src.position, src.spreading, m.n, "source[" + std::to_string(s) + "].position")) {
      Index3 l;
      bool mine = true;
      for (int d = 0; d < 3; ++d) l[d] = g.at[d] - sub_.offset[d], mine = mine && l[d] >= 0 && l[d] < sub_.local[d];
      if (!mine) continue;
      const double speed = speeds[std::size_t(l[0] + sub_.local[0] * (l[1] + sub_.local[1] * l[2]))];
      const double scale = m.source_scaled ? (speed * m.dt) * (speed * m.dt) / (m.h * m.h * m.h) : 1.0;
      by_point[layout_.at(l[0], l[1], l[2])].push_back({int(s), src.amplitude * g.weight * scale});
      where[layout_.at(l[0], l[1], l[2])] = l;
    }
    for (index_t n = 0; n < index_t(m.steps); ++n)
      amp(n, s) = src.wavelet->at(double(n + (m.source_one_step_late ? 1 : 0)) * m.dt);
  }
  Kokkos::deep_copy(src_amp_, amp);
  std::vector<index_t> point;
  std::vector<int> begin{0}, which;
  std::vector<double> coef;
  std::vector<int> xyz;
  for (const auto& [p, entries] : by_point) {
    point.push_back(p);
    for (int d = 0; d < 3; ++d) xyz.push_back(int(where[p][d]));
    for (const auto& [s, c] : entries) which.push_back(s), coef.push_back(c);
    begin.push_back(int(which.size()));
  }
  src_point_ = to_device<index_t>("wavefd::source_points", point);
  src_begin_ = to_device<int>("wavefd::source_begin", begin);
  src_which_ = to_device<int>("wavefd::source_which", which);
  src_coef_ = to_device<double>("wavefd::source_coef", coef);
  src_xyz_ = to_device<int>("wavefd::source_xyz", xyz);
  src_add_ = Kokkos::View<T*>("wavefd::source_add", point.size());

  // Receivers: the support points this rank owns, in the order spread_weights gives them.
  std::vector<int> rbegin{0};
  std::vector<index_t> rpoint;
  std::vector<double> rweight;
  for (std::size_t r = 0; r < m.receivers.positions.size(); ++r) {
    for (const GridWeight& g : spread_weights(m.receivers.positions[r], m.receivers.spreading, m.n,
                                              "receivers.position[" + std::to_string(r) + "]")) {
      Index3 l;
      bool mine = true;
      for (int d = 0; d < 3; ++d) l[d] = g.at[d] - sub_.offset[d], mine = mine && l[d] >= 0 && l[d] < sub_.local[d];
      if (mine) rpoint.push_back(layout_.at(l[0], l[1], l[2])), rweight.push_back(g.weight);
    }
    rbegin.push_back(int(rpoint.size()));
  }
  rec_begin_ = to_device<int>("wavefd::receiver_begin", rbegin);
  rec_point_ = to_device<index_t>("wavefd::receiver_points", rpoint);
  rec_weight_ = to_device<double>("wavefd::receiver_weights", rweight);
  samples_ = Kokkos::View<double**, Kokkos::LayoutRight>("wavefd::receiver_samples", m.receivers.positions.size(),
                                                         std::max<long>(m.samples(), 1));

  // Unified work in one launch, and three-domain work's core, by the inner variant where it has a
  // PML branch (cuda-star-tma), else by the layer kernel.
  const Box branch_box = run.work == SeismicWork::unified ? whole : core_;
  branch_by_inner_ = run.work != SeismicWork::seven_domain && !branch_box.empty() && pml_ && run.inner != nullptr &&
                     run.inner->takes_coefficient() && run.inner->supports(m.stencil, precision) &&
                     run.inner->takes_pml(layout_, branch_box, precision);
  if (branch_by_inner_) run.inner->check_tile(run.tile, "scheme.tile");
  if (!kHostBuild && run.work == SeismicWork::seven_domain && !slabs_.empty()) {
    const auto parts =
        Kokkos::Experimental::partition_space(compute_, 1, 1, 1, 1, 1, 1);
    slab_exec_.assign(parts.begin(), parts.end());
  }
  // Pairs: the inner variant's box less the rims within R of the rank's edge (along x whole
  // packs), where the ring of `next` a pair box reads would be ghosts; the rims go to the layer
  // kernel. Whether to take pairs depends on nothing a rank has of its own (every rank steps alike,
  // for the halo exchanges), so a rank whose pair box is empty takes pairs all the same.
  const bool fuses = !kSixteenBit<T> && run.inner != nullptr && run.inner->fuses_pairs(m.stencil, precision);
  // peer maps u and v only: a pair's second exchange is of `next`.
  const bool peer = run.parallel.transport == Transport::peer;
  if (peer && run.pairs == StepPairs::on)
    throw Error("parallel.transport = 'peer' exchanges u and v only, and scheme.pairs = on exchanges a third field; "
                "accepted: scheme.pairs = auto or off with peer, or another transport (nccl, mpi, mpi-gpu)");
  pairs_ = !kSixteenBit<T> && !velocity() && run.work == SeismicWork::seven_domain && run.inner != nullptr &&
           (run.pairs == StepPairs::on || (run.pairs == StepPairs::automatic && fuses && !peer));
  if (pairs_) {
    const index_t radius = m.stencil.radius, reach_x = (radius + pack - 1) / pack * pack;
    Box& p = pair_box_;
    p = inner_variant_box_;
    for (int d = 0; d < 3; ++d) {
      const index_t reach = d == 0 ? reach_x : radius;
      p.lo[d] = std::min(std::max(p.lo[d], reach), p.hi[d]);
      p.hi[d] = std::max(p.lo[d], std::min(p.hi[d], sub_.local[d] - reach));
    }
    p.hi[0] = p.lo[0] + p.extent(0) / pack * pack;
    pair_layer_ = slabs_;
    Box rest = inner_variant_box_;  // peeled face by face: what is left of it outside the pair box
    for (int d = 2; d >= 0; --d) {
      Box below = rest, above = rest;
      below.hi[d] = pair_box_.lo[d], above.lo[d] = pair_box_.hi[d];
      for (const Box& rim : {below, above})
        if (!rim.empty()) pair_layer_.push_back(rim);
      rest.lo[d] = pair_box_.lo[d], rest.hi[d] = pair_box_.hi[d];
    }
    next_ = make_field<T>("wavefd::seismic_next", layout_);
    after_ = make_field<T>("wavefd::seismic_after", layout_);
    touch({next_.data, after_.data});
    Kokkos::deep_copy(next_.data, T(0));  // zero ghosts, as u's and v's
    Kokkos::deep_copy(after_.data, T(0));
    if (!kHostBuild && slab_exec_.size() < pair_layer_.size()) {
      const auto parts = Kokkos::Experimental::partition_space(compute_, std::vector<int>(pair_layer_.size(), 1));
      slab_exec_.assign(parts.begin(), parts.end());
    }
  }
  // Overlap: seven-domain steps one at a time, exchanging with other ranks.
  const bool overlap = run.parallel.overlap && run.parallel.transport != Transport::local &&
                       run.work == SeismicWork::seven_domain && !pairs_;
  if (overlap && !kHostBuild) halo_instance_ = std::make_unique<HaloInstance>(compute_);
  halo_exec_ = halo_instance_ ? halo_instance_->exec() : compute_;
  HaloSpec h{.boundary = m.outer == OuterBoundary::zero ? Boundary::zero : Boundary::rigid,
             .transport = run.parallel.transport,
             .decomposition = split,
             .sub = sub_,
             .layout = layout_,
             .offsets = m.stencil.offsets,
             .exec = halo_exec_,
             .early = compute_,
             .fields = {u_.data.data(), target()}};  // the two fields u takes turns in
  halo_ = make_halo<T>(h);
  // The core keeps R from the faces of the late axes. Not along x: the inner variant's box starts
  // and ends on sectors there, and a rank grid that splits x takes no overlap.
  const std::array<bool, 3> late = halo_->late();
  if (overlap && !late[0] && (late[1] || late[2])) {
    Box core = whole;
    for (int a = 1; a < 3; ++a)
      if (late[std::size_t(a)])  // empty (hi = lo) where the subdomain is under 2R + 1 deep: all shell
        core.lo[a] = std::min<index_t>(m.stencil.radius, sub_.local[a]),
        core.hi[a] = std::max(core.lo[a], sub_.local[a] - m.stencil.radius);
    if (!inner_variant_box_.empty()) cut(inner_variant_box_, core, inner_core_, inner_shell_);
    for (const Box& b : slabs_) cut(b, core, layer_core_, layer_shell_);
    overlap_ = true;
    if (run.layer != nullptr && pml_)
      for (const auto* boxes : {&layer_core_, &layer_shell_})
        for (const Box& b : *boxes) overlap_ = overlap_ && run.layer->takes_pml(layout_, b, precision);
  }
  Kokkos::fence("wavefd::seismic_setup");
}

template <class T>
void SeismicStep<T>::touch(std::initializer_list<Kokkos::View<T*>> fields) {
  // First touch by the inner variant's threads over the whole box (its inner box is most of it),
  // before anything else writes the fields: on CPUs with several NUMA domains the pages then lie
  // by the threads of the inner update.
  if (run_.inner == nullptr) return;
  TwoStepArgs<T> a{u_.data, v_.data, layout_, &model_.stencil, &laplacian_, compute_, run_.tile};
  for (const auto& f : fields) run_.inner->touch(f, a, layout_.interior());
}

template <class T>
void SeismicStep<T>::update_layer(const Box& b, const Kokkos::DefaultExecutionSpace& exec, const T* u, const T* prev,
                                  T* into) {
  if (b.empty()) return;
  // A layer variant's PML branch, where it takes this box (in place, or into next_ in the velocity
  // form: a pair's steps write another field, so they keep the layer kernel).
  constexpr Precision precision = precision_of<T>;
  if (run_.layer != nullptr && pml_ && (into == prev || velocity()) && run_.layer->takes_pml(layout_, b, precision)) {
    TwoStepArgs<T> a{Kokkos::View<const T*>(u, layout_.alloc), velocity() ? v_.data : Kokkos::View<T*>(into, layout_.alloc),
                     layout_, &model_.stencil, &laplacian_, exec, run_.layer_tile};
    with_speeds(a);
    a.pml = layer_;
    return run_.layer->apply(a, b);
  }
  const auto launch = [&]<int R, int V, int Kind>() {
    seismic::LayerStream<T, R, V, Kind> f{u, prev, into, vp_.data(), layer_, layout_, {}, b, 0};
    if (velocity()) f.velocity = v_.data.data();  // prev is v: each point reads its velocity, then writes it
    if (run_.rounding == Rounding::stochastic) {
      f.stochastic = true, f.step = steps_;
      for (int d = 0; d < 3; ++d) f.offset[d] = sub_.offset[d];
    }
    for (int m = 0; m <= R; ++m) f.c[m] = axis_c_[std::size_t(m)];
    // Chunks of 4 R planes, not 16 R: a slab has few columns (6750 in a y slab of minimod's 1000^3),
    // and a third of the GPU's threads left it latency-bound.
    const auto streams = kernels::column_streams<LayerPolicy<kLayerMinBlocks<T>>>(exec, b, R, V, run_.layer_tile, 4 * R);
    f.z_chunk = streams.z_chunk;
    // How CUDA receives the functor, measured (H200, minimod 1000^3): the slabs' launches as kernel
    // arguments (light weight), since through Kokkos' constant-memory buffer each launch waits on
    // the one before (host-side) and the slabs could not run side by side (6.42 s against 6.60 s);
    // the one launch of unified work through constant memory (8.67 s against 9.77 s).
    using namespace Kokkos::Experimental;
    if (run_.work == SeismicWork::unified)
      Kokkos::parallel_for("wavefd::seismic_layer", require(streams.policy, WorkItemProperty::HintHeavyWeight), f);
    else
      Kokkos::parallel_for("wavefd::seismic_layer", require(streams.policy, WorkItemProperty::HintLightWeight), f);
  };
  // 16-byte packs where the box's rows start on 16 bytes and hold whole packs (u, v and vp share
  // the layout; the views start on 16 bytes or more, vp on a pack of its own type).
  constexpr int pack = int(16 / sizeof(T));
  const bool packs = (layout_.at(b.lo[0], b.lo[1], b.lo[2]) * index_t(sizeof(T))) % 16 == 0 &&
                     (layout_.sy * index_t(sizeof(T))) % 16 == 0 && (layout_.sz * index_t(sizeof(T))) % 16 == 0 &&
                     b.extent(0) % pack == 0 && reinterpret_cast<std::uintptr_t>(vp_.data()) % (sizeof(A) * pack) == 0;
  kernels::with_radius<kMaxRadius>(model_.stencil.radius, "seismic layer", [&](auto R) {
    constexpr int r = decltype(R)::value;
    const auto with_width = [&]<int Kind>() {
      if (packs) launch.template operator()<r, pack, Kind>();
      else launch.template operator()<r, 1, Kind>();
    };
    if (pml_) with_width.template operator()<seismic::kPml>();
    else if (sponge_) with_width.template operator()<seismic::kSponge>();
    else with_width.template operator()<seismic::kNoLayer>();
  });
}

template <class T>
const Field<T>& SeismicStep<T>::u_prev() const {
  if (velocity()) throw Error("seismic engine: u^{n-1} is not stored with scheme.second_field = 'velocity' (second())");
  return v_;
}

template <class T>
void SeismicStep<T>::with_speeds(TwoStepArgs<T>& a) const {
  a.coefficient = vp_;
  a.coefficient_index = coef_index_, a.coefficient_table = coef_table_;  // empty unless taken (byte_index)
  if (velocity()) a.next = next_.data;  // u_prev is the velocity: u^{n+1} goes to next_
}

template <class T>
void SeismicStep<T>::update_inner(const Box& b, const Kokkos::DefaultExecutionSpace& exec) {
  if (b.empty()) return;
  if (run_.inner == nullptr) return update_layer(b, exec);  // the layer kernel's own inner path
  TwoStepArgs<T> a{u_.data, v_.data, layout_, &model_.stencil, &laplacian_, exec, run_.tile};
  with_speeds(a);
  run_.inner->apply(a, b);
}

template <class T>
void SeismicStep<T>::update_with_branch(const Box& b) {
  if (b.empty()) return;
  if (!branch_by_inner_) return update_layer(b, compute_);
  TwoStepArgs<T> a{u_.data, v_.data, layout_, &model_.stencil, &laplacian_, compute_, run_.tile};
  with_speeds(a);
  a.pml = layer_;
  run_.inner->apply(a, b);
}

template <class T>
void SeismicStep<T>::add_sources(const Field<T>& f, long step, const Box& skip, const Field<T>* also) {
  if (src_point_.extent(0) == 0 || step >= long(src_amp_.extent(0))) return;
  const auto point = src_point_;
  const auto begin = src_begin_;
  const auto which = src_which_;
  const auto coef = src_coef_;
  const auto xyz = src_xyz_;
  const auto amp = Kokkos::subview(src_amp_, step, Kokkos::ALL);
  const auto v = f.data;
  const auto w = also ? also->data : Kokkos::View<T*>();
  const double scale = scale_;
  Kokkos::parallel_for("wavefd::seismic_sources", Range(compute_, 0, index_t(point.extent(0))), KOKKOS_LAMBDA(index_t i) {
    bool skipped = true;
    for (int d = 0; d < 3; ++d) skipped = skipped && xyz(3 * i + d) >= skip.lo[d] && xyz(3 * i + d) < skip.hi[d];
    if (skipped) return;
    double sum = 0;
    for (int e = begin(i); e < begin(i + 1); ++e) sum += coef(e) * amp(which(e));
    const A add = static_cast<A>(sum * scale);
    v(point(i)) = narrow<T>(widen(v(point(i))) + add);
    if (w.extent(0) > 0) w(point(i)) = narrow<T>(widen(w(point(i))) + add);
  });
}

template <class T>
void SeismicStep<T>::source_values(long step) {
  if (src_point_.extent(0) == 0) return;
  if (step >= long(src_amp_.extent(0))) return Kokkos::deep_copy(compute_, src_add_, T(0));
  const auto begin = src_begin_;
  const auto which = src_which_;
  const auto coef = src_coef_;
  const auto amp = Kokkos::subview(src_amp_, step, Kokkos::ALL);
  const auto add = src_add_;
  const double scale = scale_;
  Kokkos::parallel_for("wavefd::seismic_source_values", Range(compute_, 0, index_t(add.extent(0))), KOKKOS_LAMBDA(index_t i) {
    double sum = 0;  // as add_sources sums
    for (int e = begin(i); e < begin(i + 1); ++e) sum += coef(e) * amp(which(e));
    add(i) = narrow<T>(static_cast<A>(sum * scale));
  });
}

template <class T>
void SeismicStep<T>::sample_receivers(const Field<T>& f, long sample) {
  const index_t receivers = index_t(samples_.extent(0));
  if (receivers == 0) return;
  const auto begin = rec_begin_;
  const auto point = rec_point_;
  const auto weight = rec_weight_;
  const auto samples = samples_;
  const auto v = f.data;
  const double scale = scale_;
  Kokkos::parallel_for("wavefd::seismic_receivers", Range(compute_, 0, receivers), KOKKOS_LAMBDA(index_t r) {
    double sum = 0;
    for (int e = begin(r); e < begin(r + 1); ++e) sum += weight(e) * double(widen(v(point(e))));
    samples(r, sample) = sum / scale;
  });
}

template <class T>
void SeismicStep<T>::step() {
  PartTimer part_done{timed_};
  if (halo_instance_) halo_instance_->order(halo_exec_, compute_);  // the halo reads what the last step wrote
  halo_->start(u_);
  const bool overlapped = overlap_ && !timed_;
  if (!overlapped) {
    halo_->finish(u_);
    if (halo_instance_) halo_instance_->order(compute_, halo_exec_);
    part_done(times_.halo);
  }
  if (overlapped) {
    // The core boxes while the messages travel (the layer's on their instances, the inner one on
    // compute_), and the shell boxes on the halo's instance once the ghosts are in, enqueued before
    // the host waits for the layer's instances: all read u and write disjoint points (the PML's
    // fields only at their own point), so the shell runs beside the core. Enqueued after that wait,
    // it trailed the core: minimod's deck on 4 H100s as 1 x 2 x 2 through peer, 1.979-2.009 s
    // against inner + layer alone 1.821 ms a step.
    update_layer_boxes(layer_core_, u_.data.data(), v_.data.data(), target(), [&] {
      for (const Box& b : inner_core_) update_inner(b, compute_);
      halo_->finish(u_);
      for (const Box& b : inner_shell_) update_inner(b, halo_exec_);
      for (const Box& b : layer_shell_) update_layer(b, halo_exec_);
    });
    if (halo_instance_) halo_instance_->order(compute_, halo_exec_);
  } else if (run_.work == SeismicWork::unified) {
    update_with_branch(layout_.interior());
    part_done(times_.layer);
  } else if (run_.work == SeismicWork::three_domain) {
    // The core, then the x slabs (on the same instance: beside the core they gained nothing, H200).
    update_with_branch(core_);
    part_done(times_.inner);
    for (const Box& b : slabs_) update_layer(b, compute_);
    part_done(times_.layer);
  } else if (!timed_) {
    // The slabs side by side, each on its own instance (GPUs), launched first, and the inner box
    // beside them: the slabs' short streams take the SMs first, and the inner box's blocks fill
    // those they leave (minimod 1000^3 on an H100: loop 7.01 against 7.06 s with the inner box
    // first and the slabs after it; slabs launched after the inner box, beside it, slowed its
    // kernel more than they gained, H200: 6.87 s against 4.13 + 2.46 ms per step one after the
    // other; ordered by CUDA events instead of the host's fences, even with the slabs' streams at
    // the highest priority: 7.03-7.12 s). The boxes are disjoint; each reads u, writes its points.
    update_layer_boxes(slabs_, u_.data.data(), v_.data.data(), target(),
                       [&] { update_inner(inner_variant_box_, compute_); });
  } else {
    // Timed: one part after the other, so that the inner box's and the layer's times are their own.
    update_inner(inner_variant_box_, compute_);
    part_done(times_.inner);
    update_layer_boxes(slabs_, u_.data.data(), v_.data.data(), target());
    part_done(times_.layer);
  }
  Field<T>& next = velocity() ? next_ : v_;
  add_sources(next, steps_, {}, velocity() ? &v_ : nullptr);
  part_done(times_.sources);
  sample_after(next, steps_ + 1);
  part_done(times_.receivers);
  std::swap(u_, next);
  ++steps_;
}

template <class T>
void SeismicStep<T>::sample_after(const Field<T>& f, long done) {
  if (samples_.extent(0) > 0 && done % model_.receivers.every == 0 && done / model_.receivers.every < model_.samples())
    sample_receivers(f, done / model_.receivers.every);
}

template <class T>
void SeismicStep<T>::update_layer_boxes(const std::vector<Box>& boxes, const T* u, const T* prev, T* into,
                                        const std::function<void()>& beside) {
  // Each box on its own instance (GPUs), none before the compute instance's work so far (the halo,
  // the previous step's sources; in the timed pass the inner box) is done.
  if (!slab_exec_.empty()) compute_.fence("wavefd::seismic_before_slabs");
  for (std::size_t s = 0; s < boxes.size(); ++s)
    update_layer(boxes[s], slab_exec_.empty() ? compute_ : slab_exec_[s % slab_exec_.size()], u, prev, into);
  if (beside) beside();
  for (const auto& e : slab_exec_) e.fence("wavefd::seismic_slabs");
}

template <class T>
void SeismicStep<T>::step_pair() {
  PartTimer part_done{timed_};
  // Step n + 1 outside the pair box, with its sources there.
  halo_->start(u_);
  halo_->finish(u_);
  part_done(times_.halo);
  update_layer_boxes(pair_layer_, u_.data.data(), v_.data.data(), next_.data.data());
  part_done(times_.layer);
  source_values(steps_);
  add_sources(next_, steps_, pair_box_);
  part_done(times_.sources);
  // Steps n + 1 and n + 2 inside it.
  if constexpr (!kSixteenBit<T>) {  // pairs_ needs an inner variant, which 16 bits do not take
    PairArgs<T> a{u_.data, v_.data, next_.data, after_.data, vp_, src_xyz_, src_add_, layout_, &model_.stencil, &laplacian_, compute_, run_.tile};
    run_.inner->apply_pair(a, pair_box_);
  }
  part_done(times_.inner);
  sample_after(next_, steps_ + 1);
  part_done(times_.receivers);
  // Step n + 2 outside it.
  halo_->start(next_);
  halo_->finish(next_);
  part_done(times_.halo);
  update_layer_boxes(pair_layer_, next_.data.data(), u_.data.data(), after_.data.data());
  part_done(times_.layer);
  add_sources(after_, steps_ + 1);
  part_done(times_.sources);
  sample_after(after_, steps_ + 2);
  part_done(times_.receivers);
  // u^{n+2}, u^{n+1}; the old two are the next pair's outputs.
  Field<T> old_u = u_, old_v = v_;
  u_ = after_, v_ = next_, next_ = old_u, after_ = old_v;
  steps_ += 2;
}

template <class T>
long SeismicStep<T>::take(long most) {
  if (pairs_ && most >= 2) return step_pair(), 2;
  return step(), 1;
}

template <class T>
std::vector<double> SeismicStep<T>::plane(int normal, index_t index) const {
  const index_t local = index - sub_.offset[normal];
  if (local < 0 || local >= sub_.local[normal]) return {};
  const int a = normal == 0 ? 1 : 0, b = normal == 2 ? 1 : 2;
  const index_t na = sub_.local[a], nb = sub_.local[b];
  Kokkos::View<double*> out("wavefd::seismic_plane", std::size_t(na * nb));
  const auto u = u_.data;
  const Layout l = layout_;
  const double scale = scale_;
  Kokkos::parallel_for("wavefd::seismic_plane", Kokkos::MDRangePolicy<Kokkos::Rank<2>, Kokkos::IndexType<index_t>>({0, 0}, {na, nb}),
                       KOKKOS_LAMBDA(index_t i, index_t j) {
                         index_t c[3];
                         c[normal] = local, c[a] = i, c[b] = j;
                         out(i + na * j) = double(widen(u(l.at(c[0], c[1], c[2])))) / scale;
                       });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out);
  std::vector<double> part{double(sub_.offset[a]), double(sub_.offset[b]), double(na), double(nb)};
  part.insert(part.end(), host.data(), host.data() + host.size());
  return part;
}

template <class T>
std::vector<std::vector<double>> SeismicStep<T>::partial_traces() const {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, samples_);
  std::vector<std::vector<double>> t(samples_.extent(0), std::vector<double>(std::size_t(model_.samples())));
  for (std::size_t r = 0; r < t.size(); ++r)
    for (std::size_t j = 0; j < t[r].size(); ++j) t[r][j] = h(r, j);
  return t;
}

template <class T>
double SeismicStep<T>::bytes() const {
  const double fields = double(layout_.alloc) * ((pairs_ ? 4 : velocity() ? 3 : 2) * sizeof(T) + sizeof(A));
  return fields + double(coef_index_.extent(0)) + double(phi_points_) * sizeof(A);
}

template class SeismicStep<float>;
template class SeismicStep<double>;
template class SeismicStep<Half>;
template class SeismicStep<BFloat16>;

}  // namespace wavefd
