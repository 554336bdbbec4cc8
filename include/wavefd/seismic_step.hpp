#pragma once
// The seismic engine: the model of seismic_model.hpp on one rank's part of the global grid, with
// Kokkos. One step (u = u^n, v = u^{n-1} on entry):
//   halo(u);  update v over the rank's box;  add the sources to v;  sample the receivers on v
//   (every `every` steps);  swap(u, v)
// or, where v holds the velocity u^n - u^{n-1} (scheme.second_field = velocity; SecondField):
//   halo(u);  next <- u^{n+1} and v <- next - u over the rank's box;  add the sources to next and v;
//   sample the receivers on next;  swap(u, next)
// The update is split in one of three ways (scheme.work):
//   unified:      one kernel over the whole box, with a branch for the absorbing layer: the inner
//                 variant where it has one for the PML (Variant::takes_pml), else the layer kernel;
//   seven-domain: the inner box by a kernel variant with a variable coefficient (the fastest
//                 kernels of the portfolio) and the six layer slabs by the layer kernel, each
//                 on its own execution space instance on GPUs;
//   three-domain: the core (the inner box's columns over every y and z) as unified work does the
//                 whole box, and the two x slabs by the layer kernel: the z and y slabs' rows are
//                 layer points only, so the branch splits no warp there.
// Fields: u, v and vp = (V dt / h)^2 over the box (on u's layout), phi over the layer slabs
// only; eta is not stored: it is the sum of three 1-D profiles (a few hundred values).
// T is how u and v are stored: float, double, or a 16-bit format (Half, BFloat16) computed on in
// float. vp, phi and eta are in the arithmetic (float for the 16-bit formats): a speed rounded to
// half would be off by up to 2^-12 everywhere alike, a phase error growing with the distance
// travelled. 16-bit fields hold the wavefield times scale(), a power of two from the sources (the
// equation is linear: it goes in at the sources and out at the receivers and planes), so that half
// neither flushes small amplitudes nor overflows. The inner box takes any variant with a
// coefficient (in float), the layer the layer kernel or a variant's PML branch; there are no pairs.
// Where vp holds at most 256 values (a constant or layered model) and the inner variant reads it
// so, vp is also a byte per point into a table of them (TwoStepArgs::coefficient_index): the same
// values, so the same bits, and 1 byte per point of the inner box instead of 4.
//
// Pairs (scheme.pairs, seven-domain work): two steps at a time, the inner box's two by one call
// of the inner variant (Variant::apply_pair; one pass over memory where it fuses them). A pair:
//   halo(u);  layer boxes: next <- step(u, v);  next += sources outside the pair box;
//   inner variant: next, after over the pair box;  receivers on next;
//   halo(next);  layer boxes: after <- step(next, u);  after += sources;  receivers on after;
//   (u, v, next, after) <- (after, next, u, v)
//
// Overlap (parallel.overlap, seven-domain steps without pairs, x not split): the halo runs on an
// instance of its own beside the boxes' points at least R from the faces whose ghosts come by
// message (the core: inner box and layer slabs alike), and those within R (the shell) follow the
// ghosts on the halo's instance. Same bits as one after the other: each point is updated once,
// by the same kernel, from u and v.
// where the pair box is the inner variant's box less R where it comes within R of the rank's
// edge (ghosts of next are not known inside a pass), and those rims join the layer boxes. Two more
// fields (next, after), so 5 fields instead of 3. Same bits as two steps.
#include <array>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "wavefd/seismic_model.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {

enum class SeismicWork { unified, seven_domain, three_domain };
std::string_view to_string(SeismicWork w);
SeismicWork parse_seismic_work(std::string_view name, std::string_view key);  // throws Error

// How a 16-bit field is rounded when a step stores it (stochastic_rounding.hpp).
enum class Rounding { nearest, stochastic };
std::string_view to_string(Rounding r);
Rounding parse_rounding(std::string_view name, std::string_view key);  // throws Error

// What the second stored field holds (scheme.second_field): u^{n-1} (previous: the leapfrog as
// written, 3 field accesses a point), or the velocity u^n - u^{n-1} (velocity: u double-buffered
// and v written too, 4). Rounding u^{n+1} to a 16-bit format moves it by up to eps |u|, and the
// velocity that u^{n+1} and u^n imply by as much, which is about 1 / (omega dt) times the velocity's
// own eps |v|; stored for itself the velocity keeps its bits (minimod's deck in half: docs/seismic.md).
// The layer kernel stores it, and the variants whose stores_velocity(precision) holds.
enum class SecondField { previous, velocity };
std::string_view to_string(SecondField f);
SecondField parse_second_field(std::string_view name, std::string_view key);  // throws Error

// scheme.pairs: automatic = on where the inner variant fuses pairs (Variant::fuses_pairs).
enum class StepPairs { automatic, on, off };
std::string_view to_string(StepPairs p);
StepPairs parse_step_pairs(std::string_view name, std::string_view key);  // throws Error

struct SeismicRun {
  ParallelSpec parallel;                    // rank grid, rank, transport, overlap
  SeismicWork work = SeismicWork::seven_domain;
  const Variant* inner = nullptr;           // the inner box's variant (takes_coefficient); for unified
                                            // and three-domain work, used where it takes the PML
                                            // (branch_by_inner())
  Tile tile{};                              // the inner variant's
  Tile layer_tile{};                        // the layer kernel's: x columns by y rows per block, z planes
                                            // per chunk (default: as the streaming variants choose);
                                            // with a layer variant, that variant's tile
  const Variant* layer = nullptr;           // updates the layer's boxes in place by its PML branch
                                            // (Variant::takes_pml); null: the layer kernel
  StepPairs pairs = StepPairs::automatic;   // two steps at a time (seven-domain work with an inner variant)
  Rounding rounding = Rounding::nearest;    // of u^{n+1} in 16 bits (stochastic: 16-bit fields only)
  SecondField second_field = SecondField::previous;  // velocity: the layer kernel and the variants
                                                     // that store it, no pairs, rounded to nearest
};

// Time spent per part of a step, host-side, summed over steps (only when timed: see timed()).
struct SeismicTimes {
  double inner = 0, layer = 0, halo = 0, sources = 0, receivers = 0;
};

template <class T>
class SeismicStep {
 public:
  using A = arithmetic_t<T>;  // the arithmetic, and the type of vp, phi and eta
  // `speeds`: this rank's speeds (m/s), VelocityModel::fill of its global box (subdomain() tells
  // which one: use seismic_subdomain()). Throws Error before allocating for a variant that does
  // not take a coefficient, a rank grid that does not fit, or speeds of the wrong size.
  SeismicStep(const SeismicModel& m, const SeismicRun& run, const std::vector<double>& speeds);

  void step();
  // Two steps (pairs()), else one; returns how many. `most` >= 1: the steps the caller allows.
  long take(long most);
  void advance(long n) {
    for (long s = 0; s < n;) s += take(n - s);
  }
  bool pairs() const { return pairs_; }
  Box pair_box() const { return pair_box_; }  // local coordinates; empty without pairs
  int fields() const { return pairs_ ? 5 : velocity() ? 4 : 3; }  // full-grid fields held (u, v, vp; next, after)
  double bytes() const;                           // what those fields, vp's index and phi take on this rank
  // vp's table (TwoStepArgs::coefficient_table): its values, 0 where vp has no byte index.
  index_t coefficient_table_size() const { return index_t(coef_table_.extent(0)); }
  // The fields hold the wavefield times this (a power of two; 1 for float and double).
  double scale() const { return scale_; }
  long steps_done() const { return steps_; }

  const Field<T>& u() const { return u_; }
  // u^{n-1}; throws Error where v holds the velocity (velocity()).
  const Field<T>& u_prev() const;
  bool velocity() const { return run_.second_field == SecondField::velocity; }
  const Field<T>& second() const { return v_; }  // u^{n-1} or the velocity u^n - u^{n-1}
  const Layout& layout() const { return layout_; }
  const Subdomain& subdomain() const { return sub_; }
  const SeismicModel& model() const { return model_; }
  Box inner() const { return inner_; }                   // local coordinates; may be empty
  const std::vector<Box>& layer() const { return slabs_; }  // boxes of the layer kernel (seven- and three-domain)
  Box core() const { return core_; }                      // three-domain work's core; may be empty
  index_t layer_points() const { return layer_points_; }
  index_t phi_points() const { return phi_points_; }     // phi's entries: the layer's points and the x slabs' padding
  // Whether the inner variant's PML branch takes unified work's box or three-domain work's core.
  bool branch_by_inner() const { return branch_by_inner_; }
  bool overlap() const { return overlap_; }  // parallel.overlap, where this work can (the header says where)
  Halo<T>& halo() { return *halo_; }

  // This rank's share of the traces: per receiver, samples() values, the weighted sum over the
  // support points this rank owns (sum over ranks to get the traces). Copies from the device.
  std::vector<std::vector<double>> partial_traces() const;
  // This rank's part of the plane of u at global index `index` across axis `normal`: {lo a, lo b,
  // extent a, extent b, values with a fastest} along the plane's axes a < b (global indices), or
  // {} when the plane misses this rank's box.
  std::vector<double> plane(int normal, index_t index) const;
  // Fence and time each part of a step (SeismicTimes); off by default.
  void set_timed(bool on) { timed_ = on; }
  const SeismicTimes& times() const { return times_; }

  // The parts of step() (public only because CUDA lambdas cannot live in private members).
  // The layer kernel over b: into <- step(u, prev) (into = prev: in place).
  void update_layer(const Box& b, const Kokkos::DefaultExecutionSpace& exec, const T* u, const T* prev, T* into);
  void update_layer(const Box& b, const Kokkos::DefaultExecutionSpace& exec) {
    update_layer(b, exec, u_.data.data(), v_.data.data(), target());
  }
  T* target() const { return (velocity() ? next_ : v_).data.data(); }  // where a step writes u^{n+1}
  void update_inner(const Box& b, const Kokkos::DefaultExecutionSpace& exec);
  void with_speeds(TwoStepArgs<T>& a) const;  // the coefficient (V dt / h)^2, and its byte index where kept
  void update_with_branch(const Box& b);  // the inner variant's PML branch, else the layer kernel
  // Adds step `step`'s sources to f, and to `also` where given (the velocity: it gains what u^{n+1}
  // gains), except at points inside `skip`.
  void add_sources(const Field<T>& f, long step, const Box& skip = {}, const Field<T>* also = nullptr);
  void source_values(long step);  // src_add_ <- what step `step` adds at each source point
  void sample_receivers(const Field<T>& f, long sample);
  void sample_after(const Field<T>& f, long done);  // the receivers on f after `done` steps, when due
  void step_pair();
  void touch(std::initializer_list<Kokkos::View<T*>> fields);  // first touch (Variant::touch)
  // The layer kernel's boxes of one step: seven-domain work's slabs (and a pair's rims), on their
  // instances, and `beside` (launches on the compute instance) after them; returns after all are done.
  void update_layer_boxes(const std::vector<Box>& boxes, const T* u, const T* prev, T* into,
                          const std::function<void()>& beside = {});

 private:

  SeismicModel model_;
  SeismicRun run_;
  Subdomain sub_;
  Layout layout_;
  Field<T> u_, v_;
  Kokkos::View<A*> vp_;
  Kokkos::View<std::uint8_t*> coef_index_;  // vp_ as a byte per point into coef_table_, where it has one
  Kokkos::View<A*> coef_table_;
  DeviceStencil<A> laplacian_;
  std::vector<A> axis_c_;
  std::array<Kokkos::View<A*>, 3> profile_;  // local 1-D profiles, index local + 1 (-1 .. n)
  Kokkos::View<A*> phi_;
  Box inner_;
  Box inner_variant_box_;                    // the part of inner_ the inner variant updates
  Box core_;                                 // three-domain work: the inner variant's columns, all y and z
  std::vector<Box> slabs_;                   // what the layer kernel updates in seven-domain work: the
                                             // z and y slabs, the x slabs with inner_'s unaligned columns
  std::array<Box, 6> slab_all_{};            // all six (some empty), local
  std::array<index_t, 6> slab_at_{};         // where each slab starts in phi_
  Kokkos::View<index_t*> slab_table_;        // PmlLayer::slabs
  PmlLayer<A> layer_;                        // what kernels with a PML branch receive
  index_t phi_points_ = 0, layer_points_ = 0;
  bool pml_ = false, sponge_ = false;
  bool branch_by_inner_ = false;
  bool pairs_ = false;
  Field<T> next_, after_;                    // a pair's u^{n+1}, u^{n+2}; the velocity form's u^{n+1}
  Box pair_box_;                             // what the inner variant updates in a pair
  std::vector<Box> pair_layer_;              // the layer kernel's boxes in a pair: slabs_ and the rims
  // Sources: per owned point, its flat index and entries [begin, end) of (source, coefficient).
  Kokkos::View<index_t*> src_point_;
  Kokkos::View<int*> src_begin_;
  Kokkos::View<int*> src_which_;
  Kokkos::View<double*> src_coef_;
  Kokkos::View<double**, Kokkos::LayoutRight> src_amp_;  // [step][source]
  Kokkos::View<int*> src_xyz_;               // per owned point: local x, y, z
  Kokkos::View<T*> src_add_;                 // per owned point: what a step adds (source_values)
  // Receivers: per receiver, entries [begin, end) of (flat index, weight) it owns here.
  Kokkos::View<int*> rec_begin_;
  Kokkos::View<index_t*> rec_point_;
  Kokkos::View<double*> rec_weight_;
  Kokkos::View<double**, Kokkos::LayoutRight> samples_;  // [receiver][sample]
  Kokkos::DefaultExecutionSpace compute_;
  std::vector<Kokkos::DefaultExecutionSpace> slab_exec_;  // GPUs: one instance per slab
  std::unique_ptr<HaloInstance> halo_instance_;  // overlap on a GPU: the halo's own instance
  Kokkos::DefaultExecutionSpace halo_exec_;      // that instance, or compute_
  std::unique_ptr<Halo<T>> halo_;                // after the instance it runs on: destroyed first
  bool overlap_ = false;
  std::vector<Box> inner_core_, inner_shell_;    // overlap: the inner variant's box cut at R from the late faces
  std::vector<Box> layer_core_, layer_shell_;    // ... and slabs_ cut the same way
  double scale_ = 1;
  long steps_ = 0;
  bool timed_ = false;
  SeismicTimes times_;
};

// This rank's subdomain of the model's grid for `parallel` (the global box whose speeds it needs).
Subdomain seismic_subdomain(const SeismicModel& m, const ParallelSpec& parallel);

}  // namespace wavefd
