#include "wavefd/two_step.hpp"

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "comm/exchange_plan.hpp"

namespace wavefd {

void check_courant(const Stencil& s, double courant) {
  char limit[32], value[32];
  std::snprintf(limit, sizeof limit, "%.6g", s.max_courant);
  std::snprintf(value, sizeof value, "%.6g", courant);
  // The limit is computed to ~1e-10; allow that much so that `courant = limit` is accepted.
  if (!(courant > 0) || courant > s.max_courant * (1 + 1e-9))
    throw Error(std::string("scheme.courant = ") + value + " is outside the stable range of " +
                s.name + "; accepted: 0 < courant <= " + limit);
}

std::string_view to_string(GhostFillMode m) {
  switch (m) {
    case GhostFillMode::automatic: return "auto";
    case GhostFillMode::kernel: return "kernel";
    case GhostFillMode::separate: return "separate";
  }
  return "?";
}

GhostFillMode parse_ghost_fill(std::string_view name, const std::string& what) {
  if (name == "auto") return GhostFillMode::automatic;
  if (name == "kernel") return GhostFillMode::kernel;
  if (name == "separate") return GhostFillMode::separate;
  throw Error(what + " = '" + std::string(name) + "' is unknown; accepted: auto, kernel, separate");
}

bool kernel_can_fill_ghosts(const ParallelSpec& par, Boundary b, const Variant& v) {
  bool alone = false, split_rigid = false;
  for (int a = 0; a < 3; ++a) {
    alone = alone || par.rank_grid[a] == 1;
    split_rigid = split_rigid || (par.rank_grid[a] > 1 && b != Boundary::periodic);
  }
  // An overlapped step split along x updates x slabs, parts of rows: the row variants store images
  // of whole rows only.
  const bool x_slabs = par.overlap && par.transport != Transport::local && par.rank_grid[0] > 1;
  return v.writes_ghost_images() && alone && !split_rigid && !x_slabs;
}

bool ghosts_by_kernel(GhostFillMode mode, const ParallelSpec& par, Boundary b, const Variant& v) {
  const bool possible = kernel_can_fill_ghosts(par, b, v);
  if (mode == GhostFillMode::kernel && !possible)
    throw Error("parallel.ghost_fill = kernel needs a variant that writes ghost images and a rank grid " +
                to_string(par.rank_grid) + " with an axis of one rank, a periodic boundary where it splits an "
                "axis, and x not split when overlap is on (not '" + v.name() + "', boundary " +
                std::string(to_string(b)) + "); accepted: auto, separate (for this variant and rank grid)");
  return possible && mode != GhostFillMode::separate;
}

bool kernel_can_pack(const ParallelSpec& par, const Stencil& s, const Variant& v) {
  const bool edges = comm::reads_edges(v.reads(s));
  const bool x_slabs = par.overlap && par.rank_grid[0] > 1;
  // peer sends every message straight from the field: nothing is packed.
  const bool packs = par.transport != Transport::local && par.transport != Transport::peer;
  return v.writes_ghost_images() && packs && !edges && !x_slabs;
}

bool pack_by_kernel(const ParallelSpec& par, const Stencil& s, const Variant& v) {
  const bool possible = kernel_can_pack(par, s, v);
  if (par.pack == GhostFillMode::kernel && !possible)
    throw Error("parallel.pack = kernel needs a variant that writes ghost images, a transport that packs (not local "
                "or peer), a stencil that reads no edges and x not split when overlap is on (not '" + v.name() + "', " +
                s.name + ", transport " + std::string(to_string(par.transport)) + ", rank grid " +
                to_string(par.rank_grid) + "); accepted: auto, separate (for this variant and rank grid)");
  return possible && par.pack != GhostFillMode::separate;
}

namespace {

// The interior less `w[a]` layers next to the faces of each late axis a, and the slabs around it,
// z first: each slab spans what the slabs before it left.
void split_core_shell(const Index3& n, const Index3& w, const std::array<bool, 3>& late, Box& core,
                      std::vector<Box>& shell) {
  core = Box{{0, 0, 0}, n};
  for (int a = 0; a < 3; ++a)
    if (late[a]) core.lo[a] = w[a], core.hi[a] = n[a] - w[a];
  shell.clear();
  if (core.empty()) {
    core = Box{};
    shell.push_back(Box{{0, 0, 0}, n});
    return;
  }
  Box rest{{0, 0, 0}, n};  // what the slabs so far have not covered
  for (int a = 2; a >= 0; --a) {
    if (!late[a]) continue;
    Box low = rest, high = rest;
    low.hi[a] = w[a], high.lo[a] = n[a] - w[a];
    shell.push_back(low), shell.push_back(high);
    rest.lo[a] = w[a], rest.hi[a] = n[a] - w[a];
  }
}


// The ghost images of one rank's layout: the boundary's rule on the faces of the axes the rank
// grid leaves whole, none (keep) on the axes it splits, whose ghosts come by message. Periodic x
// images are widened to whole 32-byte sectors where the row has room on both sides (x = 0 starts a
// line, so the row holds `lead` points before it).
// `own_axes` false: no images (every face keeps), for a kernel that only packs faces.
GhostImages ghost_images(const Layout& l, Boundary b, const Index3& rank_grid, std::size_t elem_bytes, bool own_axes) {
  GhostImages g;
  g.active = true;
  g.h = l.halo;
  const auto rule = b == Boundary::periodic ? GhostImages::wrap
                    : b == Boundary::rigid  ? GhostImages::reflect
                                            : GhostImages::keep;  // zero: the ghosts stay 0
  for (int a = 0; a < 3; ++a) {
    g.n[a] = int(l.n[a]);
    g.face[a][0] = g.face[a][1] = own_axes && rank_grid[a] == 1 ? rule : GhostImages::keep;
  }
  g.origin = l.origin, g.sy = l.sy, g.sz = l.sz;
  const int sector = int(32 / elem_bytes);
  const int wx = (l.halo + sector - 1) / sector * sector;
  const index_t lead = l.origin % l.sy;  // row start to x = 0
  if (g.face[0][0] == GhostImages::wrap && wx <= lead && l.n[0] + wx <= l.sy - lead) g.wx = wx;
  return g;
}

}  // namespace

template <class T>
TwoStep<T>::TwoStep(const Stencil& s, const SchemeSpec& spec, const Variant& v, const Tile& tile)
    : stencil_(s), spec_(spec), variant_(&v), tile_(tile) {
  check_courant(s, spec.courant);
  check_supports(v, s, precision_of<T>);
  v.check_tile(tile, "scheme.tile");
  const ParallelSpec& par = spec.parallel;
  const int ranks = int(par.rank_grid[0] * par.rank_grid[1] * par.rank_grid[2]);
  const Decomposition decomposition(spec.domain.global, par.rank_grid, ranks,
                                    spec.boundary == Boundary::periodic, s.radius);
  sub_ = decomposition.subdomain(par.rank);
  spec_.domain.local = sub_.local;
  spec_.domain.offset = sub_.offset;
  layout_ = make_layout(spec_.domain.local, s.radius, spec.pad_rows, sizeof(T));

  own_images_ = wavefd::ghosts_by_kernel(par.ghost_fill, par, spec.boundary, v) && s.radius > 0;
  const bool kernel_packs = wavefd::pack_by_kernel(par, s, v) && s.radius > 0;

  // With overlap on a GPU the halo gets its own instance (stream), so that it runs beside the core.
  separate_instances_ = overlap() && !kHostBuild;
  if (separate_instances_) halo_instance_ = std::make_unique<HaloInstance>(compute_);
  halo_exec_ = separate_instances_ ? halo_instance_->exec() : compute_;

  weights_ = make_device_stencil<arithmetic_t<T>>(s, spec.courant, layout_);
  u_ = make_field<T>("wavefd::u", layout_);
  u_prev_ = make_field<T>("wavefd::u_prev", layout_);
  // Zero, by first touch from the threads that will update each row (Variant::touch): on CPUs
  // with several NUMA domains the pages then lie by their threads.
  for (const auto& f : {u_, u_prev_}) v.touch(f.data, args(), layout_.interior());
  HaloSpec h{.boundary = spec.boundary,
             .transport = par.transport,
             .decomposition = decomposition,
             .sub = sub_,
             .layout = layout_,
             .offsets = v.reads(s),
             .exec = halo_exec_,
             .early = compute_};
  h.fields = {u_.data.data(), u_prev_.data.data()};
  halo_ = make_halo<T>(h);
  const SendFaces sends = kernel_packs ? halo_->send_faces() : SendFaces{};
  if (own_images_ || sends.buffer) {
    images_ = ghost_images(layout_, spec.boundary, par.rank_grid, sizeof(T), own_images_);
    images_.send = sends.buffer;
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) images_.send_at[a][side] = sends.at[a][side];
    bool stores = images_.send != nullptr;  // a zero boundary alone stores nothing: no kernel checks
    for (const auto& axis : images_.face) stores = stores || axis[0] != GhostImages::keep || axis[1] != GhostImages::keep;
    images_.active = stores;
  }
  // Shell slabs are R deep along z. Along x they are a whole line of a row (kRowAlignBytes), so that
  // no kernel works on rows a few values long (every variant reads and writes x in such lines).
  // Along y they are a whole tile of the streaming GPU kernels deep (kShellRows) where the
  // subdomain still leaves a core as deep: a slab of R rows ran 12 of cuda-star-tma's 16 row warps
  // idle and read 24 rows of u for every 4 it updated (the 1 x 2 x 2 grid of 512^3 per H100: the
  // shell took 124 us of a 828 us step, 24 us of it the z slabs); a slab of whole tiles updates
  // its points as fast as the core does.
  constexpr index_t kShellRows = 16;
  const index_t line = index_t(kRowAlignBytes / sizeof(T));
  const index_t rows = std::max<index_t>(s.radius, layout_.n[1] >= 3 * kShellRows ? kShellRows : 0);
  const Index3 width{(s.radius + line - 1) / line * line, rows, s.radius};
  split_core_shell(layout_.n, width, halo_->late(), core_, shell_);
}

template <class T>
TwoStepArgs<T> TwoStep<T>::args() const {
  TwoStepArgs<T> a{u_.data, u_prev_.data, layout_, &stencil_, &weights_, compute_, tile_};
  a.z_spans = z_spans_;
  return a;
}

template <class T>
void TwoStep<T>::step() {
  const auto mark = [this](const Kokkos::DefaultExecutionSpace& exec, StepTimeline::Mark m) {
    if (timeline_) timeline_->record(exec, m);
  };
  TwoStepArgs<T> a = args();
  if (own_images_ && !ghosts_current_) {  // first step, or the fields were written from outside: a whole fill
    halo_->fill_early(true);
    for (Field<T>* f : {&u_, &u_prev_}) halo_->start(*f), halo_->finish(*f);  // u-: its wall nodes
    halo_->fill_early(false);  // from now on the kernel stores them
    ghosts_current_ = true;
    sends_current_ = false;  // the send buffer holds the faces of u- now
  }
  mark(compute_, StepTimeline::begin);
  if (pass_) pass_->before(compute_, u_, u_prev_);
  a.images = images_;
  // The update of the step before stored the faces of u into the send buffer: no pack kernel.
  halo_->packed_by_update(sends_current_);
  sends_current_ = images_.send != nullptr;  // this step's update stores those of u+ (all of the interior)
  if (own_images_ && !exchanging()) {
    variant_->apply(a, layout_.interior());
    mark(compute_, StepTimeline::core);
  } else if (!overlap()) {
    halo_->start(u_);
    mark(compute_, StepTimeline::started);
    halo_->finish(u_);
    mark(compute_, StepTimeline::finished);
    variant_->apply(a, layout_.interior());
    mark(compute_, StepTimeline::core);
  } else {
    if (separate_instances_) halo_instance_->order(halo_exec_, compute_);  // the halo reads what the last step wrote
    halo_->start(u_);  // the ghosts the core reads are filled on compute_, ahead of it
    mark(halo_exec_, StepTimeline::started);
    mark(compute_, StepTimeline::core_start);
    if (!core_.empty()) variant_->apply(a, core_);
    mark(compute_, StepTimeline::core);
    halo_->finish(u_);
    mark(halo_exec_, StepTimeline::finished);
    // The shell goes on the halo's instance, after the late ghosts and beside the core: both read u
    // and write disjoint points of u+ (and their ghost images), so the step ends with the later of
    // the two, not with their sum. Work enqueued on compute_ afterwards waits for the shell.
    a.exec = halo_exec_;
    a.beside_larger_update = halo_->moves_without_kernels();
    for (const Box& b : shell_) variant_->apply(a, b);
    mark(halo_exec_, StepTimeline::shell);
    if (separate_instances_) halo_instance_->order(compute_, halo_exec_);
  }
  if (pass_) pass_->after(compute_, u_, u_prev_);
  mark(compute_, StepTimeline::end);
  if (timeline_) timeline_->next_step();
  std::swap(u_, u_prev_);
  ++steps_;
}

template <class T>
void TwoStep<T>::add_pass(StepPass<T>* p) {
  if (p && (spec_.boundary != Boundary::zero || images_.send != nullptr))
    throw Error("a step pass needs a zero boundary and faces packed after the update (parallel.pack = separate); "
                "accepted: boundary zero, pack auto or separate");
  pass_ = p;
}

template <class T>
void TwoStep<T>::update_interior() {
  variant_->apply(args(), layout_.interior());
  std::swap(u_, u_prev_);
  ++steps_;
  stale();  // u+ got no ghost images and no packed faces
}

template class TwoStep<float>;
template class TwoStep<double>;
template class TwoStep<Half>;
template class TwoStep<BFloat16>;

}  // namespace wavefd
