#pragma once
// The room engine: the two-step engine (any variant, decomposition, transport, overlap) over the
// room's cells with zero ghosts, its walls as a sparse pass (src/room/wall_pass.hpp), point
// sources and receivers. One step:
//   keep u- at the wall cells;  u+ = the variant's update (halo, overlap as TwoStep does);
//   the wall pass rewrites the wall cells of u+;  sources add to (or set) u+;  receivers sample u+
// Every rank sums each cell's terms in one order, so any rank grid gives the same bits.
// T is how u and u- are stored: float, double, or a 16-bit format (Half, BFloat16) computed on in
// float, whose fields hold the sound pressure times scale(), a power of two from the sources (as
// the seismic model's, include/wavefd/seismic_step.hpp); the responses, energy() and absorbed()
// are unscaled.
#include <array>
#include <memory>
#include <vector>

#include "wavefd/room.hpp"
#include "wavefd/two_step.hpp"

namespace wavefd {

template <class T>
class WallPass;

template <class T>
class RoomStep {
 public:
  // Throws Error (before allocating) as TwoStep does, for a source or receiver whose spreading
  // reaches beyond the walls (`key` names it), and for a stencil the walls cannot take.
  RoomStep(const RoomModel& m, const ParallelSpec& par, const Variant& v, const Tile& tile = {});
  ~RoomStep();

  void step();
  void advance(long n) {
    for (long s = 0; s < n; ++s) step();
  }
  long steps_done() const { return engine_.steps_done(); }
  TwoStep<T>& engine() { return engine_; }
  const TwoStep<T>& engine() const { return engine_; }
  WallPass<T>& walls() { return *walls_; }
  const RoomModel& model() const { return model_; }
  index_t wall_cells() const;  // this rank's
  // What the stored fields hold per unit of the wavefield: 1 in float and double; in 16 bits the power
  // of two that brings the largest value a source gives one cell in one step to [1, 2).
  double scale() const { return scale_; }

  // This rank's share of the responses: per receiver, steps_done() samples of u+ (the weighted sum
  // over the support this rank owns; sum over ranks). Copies from the device.
  std::vector<std::vector<double>> partial_responses() const;
  // The energy E^{n+1/2} = |u+ - u|^2 / 2 - lambda^2 <u+, L_W u> / 2 plus the wall branches' stored
  // energy after the last step, summed over the ranks (collective); with the walls' absorbed energy
  // (tracked from the first step on), constant.
  double energy() const;
  double absorbed() const;  // summed over the ranks (collective)

  // The parts of step() (public only because CUDA lambdas cannot live in private members).
  void add_sources(long step);
  void sample_receivers(long step);

 private:
  std::unique_ptr<WallPass<T>> shoebox_walls(const RoomModel& m, const Box& mine, const Index3& offset) const;
  RoomModel model_;
  TwoStep<T> engine_;
  std::unique_ptr<WallPass<T>> walls_;
  double scale_ = 1;
  // Soft sources: per owned support point, its flat index, source and weight; hard: per owned
  // source, its cell. Amplitudes [step][source], zero after a signal ends.
  Kokkos::View<index_t*> soft_at_;
  Kokkos::View<int*> soft_source_;
  Kokkos::View<double*> soft_weight_;
  Kokkos::View<index_t*> hard_at_;
  Kokkos::View<int*> hard_source_;
  Kokkos::View<double**, Kokkos::LayoutRight> signal_;
  // Receivers: per receiver, entries [begin, end) of (flat index, weight) it owns here.
  Kokkos::View<int*> rec_begin_;
  Kokkos::View<index_t*> rec_at_;
  Kokkos::View<double*> rec_weight_;
  Kokkos::View<double**, Kokkos::LayoutRight> samples_;  // [receiver][step]
};

}  // namespace wavefd
