#pragma once
// The room's walls as a sparse pass beside the bulk update (TwoStep's StepPass): per wall cell b
// of this rank (include/wavefd/room.hpp),
//   before the update:  keep u-(b);
//   after it:           u+(b) = (u+_bulk(b) + C_b(u) + g_b u-(b)) / (1 + g_b),
// where u+_bulk is the variant's update with zero ghosts, C_b(u) = sum_t lambda^2 a_t u(image_t) the
// terms the zero ghosts left out, and g_b = lambda loss_b / 2. Then
//   u+ - 2u + u- = lambda^2 L_W u - g (u+ - u-)
// with L_W the walled Laplacian, and the energy E = |u+ - u|^2 / 2 - lambda^2 <u+, L_W u> / 2 falls
// by exactly sum_b g_b (u+ - u-)^2 / 2 per step (absorbed(), when tracking is on).
// Cells and terms are stored once, as flat indices of this rank's layout (terms may lie in ghosts).
#include "wavefd/grid.hpp"
#include "wavefd/room.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {

template <class T>
class WallPass final : public StepPass<T> {
 public:
  // `cells`: this rank's wall cells (global indices), `offset`: the rank's global offset, `courant`:
  // lambda = c dt / h.
  WallPass(const std::vector<WallCell>& cells, const Index3& offset, const Layout& layout, double courant);

  void before(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_prev) override;
  void after(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next) override;

  // Accumulate the energy each cell absorbs (double, per cell: no atomics, the same sum on any rank
  // grid); off by default: it costs a read and a write of 8 bytes per cell and step.
  void set_tracking(bool on) { tracking_ = on; }
  double absorbed() const;  // this rank's, since tracking began (fences)
  // sum_b v(b) C_b(u): the walls' part of <v, lambda^2 L_W u> (fences).
  double pairing(const Field<T>& v, const Field<T>& u) const;

  index_t cells() const { return index_t(cell_.extent(0)); }
  index_t terms() const { return index_t(term_at_.extent(0)); }
  double bytes() const;  // device memory held

  // The kernels (public only because CUDA lambdas cannot live in private members).
  void correct(const Kokkos::DefaultExecutionSpace& exec, const Field<T>& u, const Field<T>& u_next);

 private:
  Kokkos::View<index_t*> cell_;      // flat index of each wall cell
  Kokkos::View<index_t*> begin_;     // its terms: [begin(b), begin(b + 1))
  Kokkos::View<index_t*> term_at_;   // flat index of each term's image
  Kokkos::View<T*> term_weight_;     // lambda^2 a_t
  Kokkos::View<T*> loss_;            // g_b
  Kokkos::View<T*> kept_;            // u-(b), from before()
  Kokkos::View<double*> absorbed_;   // per cell, while tracking
  bool tracking_ = false;
};

}  // namespace wavefd
