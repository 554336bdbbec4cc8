#pragma once
// Kernel variants: each one updates an index box of the two-step scheme
//   u_prev <- sum_k gamma_k u[. + l_k] - u_prev        (Hamilton eq. 2, u+ overwrites u-)
// A variant is a small object in a registry (src/kernels/registry.cpp): a name, a supports()
// predicate and apply() for float and double, and for the 16-bit storage formats where the variant
// stores them (VariantWith16Bit). Adding a variant = one file + one registry line.
// Some also take a Tile: the MDRange variants, through BoxTiled (src/kernels/kokkos/box_policy.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wavefd/ghost_images.hpp"
#include "wavefd/grid.hpp"
#include "wavefd/pml_layer.hpp"
#include "wavefd/stencil.hpp"
#include "wavefd/storage_format.hpp"

namespace wavefd {

// The stencil as kernels see it: flat offsets for this layout and two-step weights gamma.
template <class T>
struct DeviceStencil {
  Kokkos::View<const index_t*> flat_offsets;  // l_k as offsets into the flat array
  Kokkos::View<const T*> gamma;                // gamma_k = lambda^2 a_k + 2 [l_k == 0]
  int size = 0;                                // K
  int radius = 0;
  std::vector<double> host_gamma;              // the same weights (stored_weights<T>), on the host
  std::vector<Offset> offsets;
};

// The weights `w` as T holds them (as doubles). Rounded one by one they miss their sum (2 for two-step
// weights, 0 for the Laplacian's) by about an ulp of the largest, which a closed room's
// constant-pressure mode u = a + b n takes as a growth rate (float, 7-point scheme at cfl 0.99:
// 1.1e-8 per step, e every 9459 steps). So the centre takes the sum of `w` less the others as
// rounded, which leaves it within half its ulp. With `exact` (two-step weights, whose centre is
// small beside 2) the others finer than the centre's ulp are then rounded to multiples of it, as
// far as needed for the difference to be a number of T: the sum is exact, and each weight moves
// from its double value by at most half the larger of its ulp and the centre's. Not for the
// Laplacian: its centre is its largest weight, and on its grid the others would move up to 8
// times as far (float's traces of minimod's 100^3 deck 5.6e-5 off double's instead of 8.1e-6),
// with no neutral mode to keep in the seismic model's frames. Double keeps its weights as they are.
template <class T>
std::vector<double> stored_weights(const std::vector<Offset>& offsets, const std::vector<double>& w, bool exact);

template <class T>
DeviceStencil<T> make_device_stencil(const Stencil& s, double courant, const Layout& layout);
// The Laplacian weights a_k themselves (no Courant number, no centre term 2), for kernels with a
// variable coefficient (TwoStepArgs::coefficient).
template <class T>
DeviceStencil<T> make_laplacian_stencil(const Stencil& s, const Layout& layout);

// Star stencils: c[0] = the centre weight, c[m] = the weight at distance m on every axis
// (m = 1..radius), read from the stored (rounded) gammas. Throws Error for a non-star layout.
template <class T>
std::vector<T> star_axis_weights(const DeviceStencil<T>& d);

// Block extents (x contiguous) of a variant's parallel loop over a box: the MDRange tile, which
// on GPUs is the thread block. All zero = the variant's own default. Variants with tunable tiles
// list those worth trying in Variant::tile_candidates(); `wavefd tune` picks the fastest and
// `scheme.tile` forces one.
struct Tile {
  int x = 0, y = 0, z = 0;
  bool is_default() const { return x == 0 && y == 0 && z == 0; }
  friend bool operator==(const Tile&, const Tile&) = default;
};

// Largest extent of a tile on any axis (no GPU block is longer; on a host, x = 1024 takes whole
// rows of grids up to 1024 points wide). Variants may accept less (Variant::accepted_tiles()).
inline constexpr int kMaxTileExtent = 1024;

// "default" or "XxYxZ" with each extent 1..kMaxTileExtent; throws Error naming `what` otherwise.
Tile parse_tile(const std::string& text, const std::string& what);
std::string to_string(const Tile& t);  // "default" or "32x4x4"

// Everything a variant needs for one update. T is the stored type (float, double, Half, BFloat16);
// the update computes in arithmetic_t<T> (float for the 16-bit formats: widen each value read,
// narrow the result), and the weights are in that arithmetic.
template <class T>
struct TwoStepArgs {
  Kokkos::View<const T*> u;     // u^n, read only
  Kokkos::View<T*> u_prev;      // u^{n-1} on entry, u^{n+1} on exit
  Layout layout;
  const Stencil* stencil = nullptr;
  const DeviceStencil<arithmetic_t<T>>* weights = nullptr;
  Kokkos::DefaultExecutionSpace exec{};
  Tile tile{};                  // checked against the variant by TwoStep (Variant::check_tile)
  // The box is updated beside a larger update that holds the GPU for most of its time (an
  // overlapped step's shell whose ghosts arrive early): a GPU kernel takes fewer, longer blocks.
  bool beside_larger_update = false;
  GhostImages images{};         // when active, each updated point is also stored into its ghost
                                // images (only variants with writes_ghost_images() get it)
  // Variable coefficient (the seismic model; only variants with takes_coefficient() get it): when
  // not empty, the update is u_prev <- 2 u + coefficient * (sum_k a_k u[. + l_k]) - u_prev, with
  // `weights` the Laplacian weights a_k (make_laplacian_stencil) and `coefficient` on u's layout.
  // Inside the sum the centre comes first, then per distance m: ((x pair) + (y pair)) + (z pair),
  // so that every kernel that takes it gives the same bits. In the arithmetic (float for the
  // 16-bit formats: docs/seismic.md says why), as is the PML.
  Kokkos::View<const arithmetic_t<T>*> coefficient{};
  // The same coefficient as a byte per point into a table of at most 256 values (a model of few
  // speeds: constant, layered), where the model has them: coefficient_table(coefficient_index(p))
  // == coefficient(p) at every point, so a variant may read either and give the same bits; those
  // with takes_coefficient_index() read 1 byte per point instead of 4.
  Kokkos::View<const std::uint8_t*> coefficient_index{};
  Kokkos::View<const arithmetic_t<T>*> coefficient_table{};
  // The seismic model's PML around the inner box (with the coefficient; only variants whose
  // takes_pml() holds get it): when active, points outside pml's inner box take the PML update
  // (src/model/pml_point.hpp) and write phi. One launch over the whole box: unified work.
  PmlLayer<arithmetic_t<T>> pml{};
  // The velocity form (the seismic model's scheme.second_field = velocity; only variants with
  // stores_velocity() get it, with the coefficient): when not empty, u_prev holds the velocity
  // u^n - u^{n-1} on entry and u^{n+1} - u^n on exit, and u^{n+1} goes to `next`. u^{n-1} is
  // u - u_prev in the arithmetic, then the update as above; the velocity is u^{n+1} - u in the
  // arithmetic, before either is rounded to T (src/model/seismic_layer.hpp, the same bits).
  Kokkos::View<T*> next{};
  // Where the update is needed (a room from a mesh: its air): when not empty, column (x, y) of the
  // interior needs only its points with z in [z_spans(2 c), z_spans(2 c + 1)), c = x + y * layout.n[0];
  // the others hold 0 and would stay 0. A variant may skip them or update them alike.
  Kokkos::View<const int*> z_spans{};
};

// Two steps of the seismic inner box in one call (Variant::apply_pair), out of place:
//   next  <- 2 u    + coefficient * lap(u)    - u_prev   (+ the step's sources)   over the box
//   after <- 2 next + coefficient * lap(next) - u                                over the box
// each with TwoStepArgs::coefficient's sum order, so a pair gives the bits of two steps. lap(next)
// reads `next` up to R outside the box too: those points must hold u^{n+1} on entry (the layer
// kernel's, sources included) and are not written; u and u_prev are not written. The sources:
// what the step adds at each point (the values add_sources adds), by local coordinates; only
// those inside the box concern apply_pair.
template <class T>
struct PairArgs {
  Kokkos::View<const T*> u;       // u^n
  Kokkos::View<const T*> u_prev;  // u^{n-1}
  Kokkos::View<T*> next;          // u^{n+1}
  Kokkos::View<T*> after;         // u^{n+2}
  Kokkos::View<const T*> coefficient;
  Kokkos::View<const int*> source_at;  // x, y, z of each source point
  Kokkos::View<const T*> source_add;   // what step n + 1 adds there
  Layout layout;
  const Stencil* stencil = nullptr;
  const DeviceStencil<T>* weights = nullptr;  // the Laplacian's (make_laplacian_stencil)
  Kokkos::DefaultExecutionSpace exec{};
  Tile tile{};
  // The first step's arguments for apply(): u -> into, coefficient and the rest as here.
  TwoStepArgs<T> step(Kokkos::View<const T*> from, Kokkos::View<T*> into) const {
    TwoStepArgs<T> a{from, into, layout, stencil, weights, exec, tile};
    a.coefficient = coefficient;
    return a;
  }
};

class Variant {
 public:
  virtual ~Variant() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  // Whether the variant updates this stencil with fields stored in p: supports_stencil(), and for
  // the 16-bit formats stores_16_bit() too.
  bool supports(const Stencil& s, Precision p) const {
    return (!is_16_bit(p) || stores_16_bit()) && supports_stencil(s, p);
  }
  virtual bool supports_stencil(const Stencil& s, Precision p) const = 0;
  // Whether apply() takes fields stored in half and bfloat16 (computing in float).
  virtual bool stores_16_bit() const { return false; }
  virtual void apply(const TwoStepArgs<float>& a, const Box& box) const = 0;
  virtual void apply(const TwoStepArgs<double>& a, const Box& box) const = 0;
  // Variants that do not store 16 bits keep these, which throw std::logic_error (supports() said no).
  virtual void apply(const TwoStepArgs<Half>& a, const Box& box) const;
  virtual void apply(const TwoStepArgs<BFloat16>& a, const Box& box) const;
  // The offsets this variant reads around each point it updates: the stencil's own unless the
  // kernel also reads neighbours it weights with zero. The halo exchanges exactly the ghost
  // regions these reach, so every ghost a kernel reads holds the value a single rank would have.
  virtual std::vector<Offset> reads(const Stencil& s) const { return s.offsets; }
  // Whether apply() honours TwoStepArgs::images, so that a single rank needs no ghost fill pass.
  virtual bool writes_ghost_images() const { return false; }
  // Whether apply() honours TwoStepArgs::coefficient (the seismic model's inner box).
  virtual bool takes_coefficient() const { return false; }
  // Whether apply() reads TwoStepArgs::coefficient_index where it is given (not the coefficient).
  virtual bool takes_coefficient_index() const { return false; }
  // Whether apply() honours TwoStepArgs::next (the velocity form) with the coefficient, and with
  // TwoStepArgs::pml where takes_pml() holds, in this precision.
  virtual bool stores_velocity(Precision) const { return false; }
  // Whether the kernel is native code for one backend (CUDA, HIP, plain C++ and OpenMP), not Kokkos.
  virtual bool native() const { return false; }
  // Whether apply() honours TwoStepArgs::pml for this box of this layout on this build's device.
  virtual bool takes_pml(const Layout&, const Box&, Precision) const { return false; }
  // Whether apply_pair() fuses the two steps in one pass over memory (temporal blocking) for this
  // stencil on this build's device. Variants that do not still take pairs, by two passes.
  virtual bool fuses_pairs(const Stencil&, Precision) const { return false; }
  // Two steps of the seismic inner box (PairArgs). The default: two passes of apply(), each on a
  // copy of the box (u_prev into next, u into after), the sources added in between.
  virtual void apply_pair(const PairArgs<float>& a, const Box& box) const;
  virtual void apply_pair(const PairArgs<double>& a, const Box& box) const;

  // First touch: writes zeros over whole pitches (ghost and padding columns too) of the rows of
  // `field` that apply() updates over `box` (with the layout and tile of `a`), each row by the
  // thread that apply() gives it, so that on a node of several NUMA domains a fresh field's pages
  // land by the thread that will update them. The default, for variants whose partition is
  // Kokkos' own: a Kokkos parallel_for over the rows.
  virtual void touch(Kokkos::View<float*> field, const TwoStepArgs<float>& a, const Box& box) const;
  virtual void touch(Kokkos::View<double*> field, const TwoStepArgs<double>& a, const Box& box) const;
  virtual void touch(Kokkos::View<Half*> field, const TwoStepArgs<Half>& a, const Box& box) const;
  virtual void touch(Kokkos::View<BFloat16*> field, const TwoStepArgs<BFloat16>& a, const Box& box) const;

  // Tiles. Variants without tunable tiles keep these defaults: no candidates, and only the
  // default tile is accepted.
  // The tiles worth trying besides the default on this build's device (`wavefd tune`,
  // `wavefd bench --tiles all`); {} = no tunable tile.
  virtual std::vector<Tile> tile_candidates(const Stencil&, Precision) const { return {}; }
  virtual bool accepts_tile(const Tile& t) const { return t.is_default(); }
  // The tiles accepts_tile() takes, in words, for error messages.
  virtual std::string accepted_tiles() const { return "default (this variant has no tunable tile)"; }
  // Throws Error "<what> = '<tile>' ...; accepted: <accepted_tiles()>" unless accepts_tile(t).
  void check_tile(const Tile& t, const std::string& what) const;
};

// What a tile search covers for `v`: the default tile first, then v's candidates.
std::vector<Tile> searched_tiles(const Variant& v, const Stencil& s, Precision p);

// Implements both apply() overloads with one template: Derived::template run<T>(args, box).
template <class Derived>
class VariantFor : public Variant {
 public:
  void apply(const TwoStepArgs<float>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<float>(a, box);
  }
  void apply(const TwoStepArgs<double>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<double>(a, box);
  }
};

// A VariantFor whose run<T> also takes the 16-bit formats (widening each value it reads to float,
// narrowing each it stores).
template <class Derived, class Base = VariantFor<Derived>>
class VariantWith16Bit : public Base {
 public:
  using Base::apply;
  bool stores_16_bit() const override { return true; }
  void apply(const TwoStepArgs<Half>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<Half>(a, box);
  }
  void apply(const TwoStepArgs<BFloat16>& a, const Box& box) const override {
    static_cast<const Derived&>(*this).template run<BFloat16>(a, box);
  }
};

// Throws Error "scheme.variant = ..." unless v.supports(s, p): a stencil it does not update, or a
// 16-bit precision it does not store (naming the variants that do).
void check_supports(const Variant& v, const Stencil& s, Precision p);

// All registered variants, in registry order.
const std::vector<std::unique_ptr<Variant>>& variants();
// A variant by name ("auto" picks the preferred one supporting the stencil); throws Error.
const Variant& select_variant(const std::string& name, const Stencil& s, Precision p);
// The preferred variant (auto's order) that supports the stencil and, when `coefficient`, takes a
// variable coefficient; nullptr if none does.
const Variant* preferred_variant(const Stencil& s, Precision p, bool coefficient);
std::vector<std::string> variant_names();
// Throws Error naming `key` unless every comma-separated name of `list` is a registered variant or
// one of `also` (all, auto, ...).
void check_variant_list(const std::string& list, const std::string& key, const std::vector<std::string>& also);

}  // namespace wavefd
