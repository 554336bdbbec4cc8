#pragma once
// Native host kernel for star stencils (radius 1..8): plain C++ and OpenMP on raw pointers, the
// host's counterpart of the native CUDA and HIP kernels. No Kokkos here.
#include "../native_star.hpp"

namespace wavefd::host {

// Updates a.lo .. a.hi (a.rows: rows per block, 0 for the default of star_rows.hpp; a.coef: the
// variable coefficient; a.images: stored row by row). Throws std::runtime_error for a radius
// outside 1..kMaxStarRadius.
template <class T>
void star_host(const native::StarArgs<T>& a);

// First touch (Variant::touch): zeros over whole pitches of the rows star_host(a) updates, in
// `field` (on a's layout), each row by the thread that star_host gives it.
template <class T>
void star_host_touch(const native::StarArgs<T>& a, T* field);

}  // namespace wavefd::host
