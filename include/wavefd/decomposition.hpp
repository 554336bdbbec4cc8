#pragma once
// Cartesian domain decomposition: the global grid split over a px x py x pz grid of ranks.
//
// Each axis of n points over p ranks gives every rank n / p points and the first n % p ranks one
// more (uneven splits allowed). Rank r sits at coordinates (cx, cy, cz) with x fastest, as
// MPI_Cart_create with reorder = false numbers them. The rank grid is plain data, so it is
// computed and checked the same way with or without MPI, before anything is allocated.
#include <array>
#include <string>

#include "wavefd/types.hpp"

namespace wavefd {

// Neighbour rank of a face; kNoNeighbour where a rigid wall closes the axis.
inline constexpr int kNoNeighbour = -1;

struct Subdomain {
  int rank = 0;
  Index3 coords{0, 0, 0};  // position in the rank grid
  Index3 local{0, 0, 0};   // interior points of this rank per axis
  Index3 offset{0, 0, 0};  // global index of its first interior point
  // neighbour[axis][side]: the rank across the lower (side 0) and upper (side 1) face. On a
  // periodic axis it wraps (possibly to this rank itself); on a rigid one the outer faces have none.
  std::array<std::array<int, 2>, 3> neighbour{};

  // This rank's interior as a box of global indices.
  Box box() const { return Box{offset, {offset[0] + local[0], offset[1] + local[1], offset[2] + local[2]}}; }
};

class Decomposition {
 public:
  Decomposition() = default;  // one rank, nothing split
  // Throws Error before anything is allocated: a rank grid whose product is not `ranks`, or a
  // split leaving some rank fewer points along an axis than the halo needs (naming grid.n,
  // parallel.ranks and the axis).
  Decomposition(const Index3& global, const Index3& rank_grid, int ranks, bool periodic, int halo);

  int rank_at(const Index3& coords) const;  // coords already inside the grid
  Subdomain subdomain(int rank) const;
  // The rank across face, edge or corner `dir` (each entry -1, 0 or 1) of `s`: wraps on periodic
  // axes; kNoNeighbour where `dir` crosses a rigid wall.
  int neighbour(const Subdomain& s, const Index3& dir) const;
  const Index3& rank_grid() const { return dims_; }
  const Index3& global() const { return global_; }

 private:
  Index3 coords_of(int rank) const;

  Index3 global_{0, 0, 0}, dims_{1, 1, 1};
  bool periodic_ = true;
};

// The rank grid for `ranks` ranks: entries of `requested` > 0 are kept, zeros are chosen so that
// the product is `ranks`, no rank is thinner than the halo where that can be avoided, and a rank's
// halo costs least: the area of its faces that need messages, x faces (rows of R values, the slow
// shell slabs) counted four times. Ties go to the most compact subdomain (longest over shortest extent:
// on a cube, 2 x 2 columns before 4 slabs, whose outer ranks would carry whole planes of an
// absorbing layer and which stop shrinking their faces with more ranks), then to splitting z
// before y before x. Throws Error when the fixed entries cannot multiply up to `ranks`.
Index3 choose_rank_grid(int ranks, const Index3& global, const Index3& requested, int halo);

// The rank grid of a weak-scaling point whose every rank holds `local` points: the grid that
// choose_rank_grid picks for a global grid of the subdomain's shape (`local` times `ranks` along
// each axis; the choice depends on the shape only), so that a weak series splits as a strong run
// of the same shape would. The global grid is then `local` times it, axis by axis.
Index3 choose_weak_rank_grid(int ranks, const Index3& local, const Index3& requested, int halo);

// "[a, b, c]", as grid.n and parallel.ranks are written in decks and messages.
std::string to_string(const Index3& v);

}  // namespace wavefd
