#pragma once
// The room's walls as a sparse pass beside the bulk update (TwoStep's StepPass): per wall cell b
// of this rank (include/wavefd/room.hpp),
//   before the first update:  keep u-(b) (later steps find it kept: each pass keeps u(b) for the next);
//   after it:           u+(b) = (u+_bulk(b) + C_b(u) + g_b u-(b) - H_b) / (1 + g_b),
// where u+_bulk is the variant's update with zero ghosts, C_b(u) = sum_t lambda^2 a_t u(image_t) the
// terms the zero ghosts left out (those whose image is the cell itself, all of the 7-point scheme's
// in a shoebox, summed into one coefficient: what the bulk's rounded weights left out less the
// other terms, so that C_b(1) matches the bulk exactly), and the wall's flux is lambda sum_f sigma_f mu(v_f): per face f of
// area sigma_f, the material's frequency-independent admittance beta times D = (u+ - u-) / 2 plus its
// branches' velocities v at the half steps, mu(v) = (v+ + v-) / 2. Each branch (mass L, resistance
// R, stiffness K, in steps: L = mass / dt, K = stiffness dt) obeys the bilinear rule
//   L (v+ - v-) + R mu(v) + K mu(q) = D,   q+ = q- + mu(v),
// so mu(v) = gamma D + h with gamma = b / 2, h = b (L v- - K q- / 2), b = 1 / (L + R / 2 + K / 4);
// g_b = sum_f lambda sigma_f (beta + sum gamma) / 2 and H_b = sum lambda sigma_f h. Then
//   u+ - 2u + u- = lambda^2 L_W u - lambda sum_f sigma_f mu(v_f)
// and the energy E = |u+ - u|^2 / 2 - lambda^2 <u+, L_W u> / 2 plus the branches' stored energy
// lambda sigma (L v^2 + K q^2) / 2 falls by exactly lambda sigma (beta D^2 + sum R mu(v)^2) per step
// (absorbed(), when tracking is on): passive for any non-negative beta, L, R, K.
// Cells, terms and branch states are stored once, as flat indices of this rank's layout (terms may
// lie in ghosts); faces of one cell with one material share their branch states. The cells run in
// the order of their first material with branches, then of their place (a voxelized room's materials
// interleave along the walls: unsorted, neighbouring threads ran different branch counts on far-apart
// states).
#include "wavefd/grid.hpp"
#include "wavefd/room.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {

// A wall branch in steps (L = mass / dt, R, K = stiffness dt): what the update reads.
template <class T>
struct WallBranchSteps {
  T b;              // 1 / (L + R / 2 + K / 4)
  T b_mass;         // b L
  T b_stiffness_2;  // b K / 2
  T mass_minus_a;   // L - R / 2 - K / 4
  T mass, resistance, stiffness;
};

// T: how the fields are stored; every value of the pass's own (weights, u- at the cells, the branch
// states) is in the arithmetic A (float beside 16-bit fields): the cells read u widened and store
// u+ rounded once.
template <class T>
class WallPass final : public StepPass<T> {
 public:
  using A = arithmetic_t<T>;

  // `cells`: this rank's wall cells (global indices), their faces' materials in `materials`,
  // `offset`: the rank's global offset, `courant`: lambda = c dt / h, `dt`: the step (s); `gamma`:
  // the bulk's two-step weights as its kernels hold them (DeviceStencil::host_gamma); `outside`:
  // this rank's cells outside the air next to it (a room from a mesh), set to 0 after each update.
  WallPass(const std::vector<WallCell>& cells, const std::vector<Material>& materials, const Index3& offset,
           const Layout& layout, double courant, double dt, const std::vector<double>& gamma,
           const std::vector<Index3>& outside = {});

  void before(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_prev) override;
  void after(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) override;

  // Accumulate the energy each cell absorbs (double, per cell: no atomics, the same sum on any rank
  // grid); off by default: it costs a read and a write of 8 bytes per cell and step.
  void set_tracking(bool on) { tracking_ = on; }
  // The fields were set from outside (not by steps): the next step keeps u- afresh.
  void fields_changed() { kept_valid_ = false; }
  double absorbed() const;  // this rank's, since tracking began (fences)
  // sum_b v(b) C_b(u): the walls' part of <v, lambda^2 L_W u> (fences).
  double pairing(const Field<T>& v, const Field<T>& u) const;
  // The branches' stored energy, sum lambda sigma (L v^2 + K q^2) / 2, this rank's (fences).
  double stored() const;

  index_t cells() const { return index_t(cell_.extent(0)); }
  index_t terms() const { return index_t(term_at_.extent(0)) + self_terms_; }  // the self terms included
  index_t branch_states() const { return index_t(state_v_.extent(0)); }
  double bytes() const;  // device memory held

  // The kernels (public only because CUDA lambdas cannot live in private members).
  void correct(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next);

 private:
  Kokkos::View<index_t*> cell_;      // flat index of each wall cell
  Kokkos::View<index_t*> outside_;   // flat index of each outside cell next to the air
  Kokkos::View<index_t*> begin_;     // its terms: [begin(b), begin(b + 1))
  Kokkos::View<index_t*> term_at_;   // flat index of each term's image
  Kokkos::View<A*> term_weight_;     // lambda^2 a_t
  Kokkos::View<A*> self_weight_;     // the terms at the cell itself, summed (the constructor says how)
  index_t self_terms_ = 0;           // how many cells have one
  bool has_terms_ = false;           // whether any cell has a term elsewhere
  Kokkos::View<A*> loss_;            // g_b
  Kokkos::View<A*> static_loss_;     // its frequency-independent part, lambda sigma beta / 2
  Kokkos::View<A*> kept_;            // u-(b), from before()
  // Frequency-dependent walls: per cell its groups (the faces of one material with branches), per
  // group its material, lambda sigma and first state; per material its branches (kinds). The
  // states (v, q at the last half step) of a material's groups lie branch by branch, group fastest
  // (state of branch k of the material's group l: first + k * groups of the material + l), so that
  // the threads of neighbouring cells of one material read neighbouring words.
  Kokkos::View<WallBranchSteps<A>*> kinds_;
  Kokkos::View<int*> kind_begin_;        // material m's kinds: [kind_begin(m), kind_begin(m + 1))
  Kokkos::View<index_t*> group_begin_;   // cell b's groups: [group_begin(b), group_begin(b + 1))
  Kokkos::View<int*> group_material_;
  Kokkos::View<A*> group_weight_;
  Kokkos::View<index_t*> group_state_;   // the state of its first branch
  Kokkos::View<index_t*> state_stride_;  // per material: its groups
  Kokkos::View<A*> state_v_, state_q_;
  Kokkos::View<double*> absorbed_;   // per cell, while tracking
  bool tracking_ = false;
  bool kept_valid_ = false;          // kept_ holds u- of the coming step
};

}  // namespace wavefd
