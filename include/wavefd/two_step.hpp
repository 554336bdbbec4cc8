#pragma once
// The two-step engine: u+ = delta_{S,gamma} u - u-, with u+ overwriting u- in place (Hamilton
// eq. 2). One step is
//   without overlap: halo.start(u); halo.finish(u); variant.apply(interior); swap(u, u-)
//   with overlap:    halo.start(u); variant.apply(core) on the compute instance;
//                    halo.finish(u); variant.apply(the six shell boxes) on the halo's instance,
//                    beside the core; swap(u, u-)
//   ghosts by the kernel (parallel.ghost_fill): the kernel stores each point also into its
//                    periodic / rigid ghost images on the axes a rank spans alone; one rank then
//                    needs no halo at all, several exchange only the faces between them
// where the core is the interior less the layers next to the faces whose ghosts are still in
// flight (R deep; along x a row line, kRowAlignBytes), updated while they travel. All orders give the same
// bits.
#include <memory>
#include <string>
#include <vector>

#include "wavefd/halo.hpp"
#include "wavefd/halo_instance.hpp"
#include "wavefd/step_timeline.hpp"
#include "wavefd/variant.hpp"

namespace wavefd {

// Who fills the ghosts that need no message (parallel.ghost_fill): those of the axes a rank spans
// alone (periodic wrap, rigid reflection):
//  kernel:    the kernel that updates a point also stores its ghost images (GhostImages), so
//             those ghosts of u+ are complete when it ends; only variants that writes_ghost_images();
//  separate:  a fill pass through the halo before each update (the transport's start / finish);
//  automatic: kernel where it can (kernel_can_fill_ghosts), else separate.
enum class GhostFillMode { automatic, kernel, separate };
std::string_view to_string(GhostFillMode m);
// Throws Error naming `what` and the accepted values.
GhostFillMode parse_ghost_fill(std::string_view name, const std::string& what = "parallel.ghost_fill");

// How the global grid is split and how ghosts travel (parallel.* in the deck).
struct ParallelSpec {
  Index3 rank_grid{1, 1, 1};
  int rank = 0;  // this rank in the grid (x fastest)
  Transport transport = Transport::local;
  bool overlap = false;
  GhostFillMode ghost_fill = GhostFillMode::automatic;
  // Who packs the faces that leave by message (parallel.pack, the same three values): the update
  // kernel, storing each point next to such a face also into the send buffer (GhostImages::send),
  // or a separate pack kernel before the messages.
  GhostFillMode pack = GhostFillMode::automatic;
  std::string transport_choice;  // why `transport` was taken (choose_transport)
};

// Whether the kernel can store the ghosts that need no message: the variant writes ghost images,
// some axis is spanned by one rank, every split axis is periodic (the ghosts beyond both its faces
// then come by message; a rigid wall on one face only would put every point on the general path
// of GhostImages), and an overlapped step does not split x (its shell would cut rows).
bool kernel_can_fill_ghosts(const ParallelSpec& par, Boundary b, const Variant& v);

// Resolves `mode`: true when the kernel writes those ghosts. Throws Error for kernel where it cannot.
bool ghosts_by_kernel(GhostFillMode mode, const ParallelSpec& par, Boundary b, const Variant& v);

// Whether the update kernel can pack the faces: the variant writes ghost images, ranks exchange,
// the stencil reads no edges (every packed message is a face) and an overlapped step does not
// split x (as kernel_can_fill_ghosts). Where no face is packed (all go in place) there is nothing
// to pack, by either.
bool kernel_can_pack(const ParallelSpec& par, const Stencil& s, const Variant& v);
// Resolves par.pack; throws Error for kernel where it cannot.
bool pack_by_kernel(const ParallelSpec& par, const Stencil& s, const Variant& v);

struct SchemeSpec {
  Domain domain;  // global extents; local extents and offset follow from `parallel`
  Boundary boundary = Boundary::periodic;
  bool pad_rows = true;
  double courant = 0;  // lambda = c T / X; must be in (0, stencil.max_courant]
  ParallelSpec parallel;
};

// Throws Error unless 0 < courant <= the stencil's stable limit.
void check_courant(const Stencil& s, double courant);

// Work a model adds to every step beside the bulk update (a room's walls, src/room/): `before`
// runs on the compute instance ahead of the update (u- is still u^{n-1} then), `after` once u+ is
// complete everywhere and before the swap; both read u^n with its ghosts filled. `after` may rewrite
// points of u+: a step with a pass packs its faces after it (never by the kernel) and stores no ghost
// images, so its boundary must be zero (ghosts that stay 0).
template <class T>
class StepPass {
 public:
  virtual ~StepPass() = default;
  virtual void before(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_prev) = 0;
  virtual void after(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) = 0;
};

// T: the stored type of the fields (float, double, Half, BFloat16; Precision).
template <class T>
class TwoStep {
 public:
  // Throws Error (before allocating) for an unstable Courant number, a stencil the variant does
  // not support, a tile it does not accept (the default tile always is), a rank grid that does
  // not fit the grid, or ghost_fill = kernel where the transport or the variant cannot.
  TwoStep(const Stencil& s, const SchemeSpec& spec, const Variant& v, const Tile& tile = {});

  // Writable access marks the ghosts and the packed faces stale: the next step refills them.
  Field<T>& u() { return stale(), u_; }            // u^n
  Field<T>& u_prev() { return stale(), u_prev_; }  // u^{n-1}
  const Field<T>& u() const { return u_; }
  const Field<T>& u_prev() const { return u_prev_; }
  const Layout& layout() const { return layout_; }
  const Domain& domain() const { return spec_.domain; }  // this rank's part
  const Subdomain& subdomain() const { return sub_; }
  const Stencil& stencil() const { return stencil_; }
  const DeviceStencil<arithmetic_t<T>>& weights() const { return weights_; }
  const Variant& variant() const { return *variant_; }
  const Tile& tile() const { return tile_; }
  Halo<T>& halo() { return *halo_; }
  long steps_done() const { return steps_; }

  void step();
  // The kernel alone: update the interior and swap, without filling ghosts (for measurement).
  void update_interior();
  // The boxes an overlapped step updates: the core (empty when some axis is under 2R + 1 points)
  // and the shell around it.
  const Box& core() const { return core_; }
  const std::vector<Box>& shell() const { return shell_; }
  bool overlap() const { return spec_.parallel.overlap && !(own_images_ && !exchanging()); }
  // Whether the kernel writes the ghosts (GhostFillMode::kernel, resolved).
  bool ghosts_by_kernel() const { return own_images_; }
  // Whether the kernel packs the faces that leave by message (ParallelSpec::pack, resolved, and some
  // face is packed).
  bool packs_by_kernel() const { return images_.send != nullptr; }
  // Steps from now on record their marks into `t` (nullptr: none); the caller keeps it alive.
  void record_steps(StepTimeline* t) { timeline_ = t; }
  // Every step from now on runs `p` (StepPass; nullptr: none); the caller keeps it alive. Throws
  // Error unless the boundary is zero and the faces are not packed by the kernel.
  void add_pass(StepPass<T>* p);
  // From now on the updates need only these z ranges of the interior's columns (TwoStepArgs::z_spans;
  // an empty view: all of it). The caller guarantees that the points outside them hold 0 and stay 0.
  void set_z_spans(Kokkos::View<const int*> spans) { z_spans_ = spans; }
  void advance(long n) {
    for (long s = 0; s < n; ++s) step();
  }
  TwoStepArgs<T> args() const;

 private:
  bool exchanging() const { return spec_.parallel.transport != Transport::local; }
  void stale() { ghosts_current_ = sends_current_ = false; }

  Stencil stencil_;
  SchemeSpec spec_;
  const Variant* variant_;
  Tile tile_;
  Layout layout_;
  DeviceStencil<arithmetic_t<T>> weights_;
  Field<T> u_, u_prev_;
  Subdomain sub_;
  Kokkos::DefaultExecutionSpace compute_;
  std::unique_ptr<HaloInstance> halo_instance_;  // the halo's own instance (GPU builds, overlap on)
  Kokkos::DefaultExecutionSpace halo_exec_;      // that instance, or compute_
  bool separate_instances_ = false;
  GhostImages images_;               // active: the kernel stores the ghost images of the axes a rank
                                     // spans alone (own_images_), or the packed faces (send), or both
  bool own_images_ = false;          // GhostFillMode::kernel, resolved
  bool ghosts_current_ = false;      // with own_images_: the ghosts of u and u- hold their images
  bool sends_current_ = false;       // with images_.send: the send buffer holds the faces of u
  Box core_;
  std::vector<Box> shell_;
  std::unique_ptr<Halo<T>> halo_;
  long steps_ = 0;
  StepTimeline* timeline_ = nullptr;
  StepPass<T>* pass_ = nullptr;
  Kokkos::View<const int*> z_spans_;
};

}  // namespace wavefd
