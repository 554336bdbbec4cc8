#pragma once
// Off-grid points of the seismic model: the grid weights that spread a point source at an
// arbitrary position onto the grid, and (the same weights) that interpolate the wavefield at a
// receiver there. Positions are in grid units of the global grid (metres / h), so a position with
// integer coordinates is a grid point and gets the single weight 1 whatever the method.
#include <array>
#include <string_view>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

enum class Spreading {
  trilinear,  // the 8 surrounding points: exact for fields linear in each axis
  sinc,       // Hicks (2002): per axis sinc(x - i) times a Kaiser window of half-width 4 cells
              // (b = 6.31), 8 points per axis: a band-limited point up to half the Nyquist wavenumber
};

std::string_view to_string(Spreading s);
Spreading parse_spreading(std::string_view name, std::string_view key);  // throws Error naming key

struct GridWeight {
  Index3 at;      // global grid index
  double weight;
};

// The weights of a point at `position` (grid units) on a global grid of n points per axis; points
// of the support that fall outside the grid are left out. Throws Error when the position itself
// lies outside [0, n - 1] on some axis (`key` names it, e.g. "source[2].position").
std::vector<GridWeight> spread_weights(const std::array<double, 3>& position, Spreading kind, const Index3& n,
                                       std::string_view key);

}  // namespace wavefd
