#pragma once
// Native host kernel for star stencils (radius 1..8): plain C++ and OpenMP on raw pointers, the
// host's counterpart of the native CUDA and HIP kernels. No Kokkos here.
#include "../native_star.hpp"

namespace wavefd::host {

// Rows per block of star_host by default for this radius, row length and precision: the 2R + 1
// planes of a block and its halo rows stay within about 256 KiB (a core's L2).
int star_host_rows(int radius, int row_points, int bytes_per_value);

// Updates a.lo .. a.hi (a.rows: rows per block, 0 for star_host_rows; a.coef: the variable
// coefficient). Throws std::runtime_error for a radius outside 1..kMaxStarRadius.
template <class T>
void star_host(const native::StarArgs<T>& a);

}  // namespace wavefd::host
