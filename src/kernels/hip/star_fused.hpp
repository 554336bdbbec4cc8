#pragma once
// Native HIP kernel for star stencils (radius 1..8) after AMD's fused xyz finite-difference
// kernel: plain HIP C++ on raw pointers and strides (no Kokkos), compiled by hipcc.
#include "../native_star.hpp"

namespace wavefd::hip {

// Updates the box. Throws std::runtime_error on a HIP error or an unsupported radius.
template <class T>
void star_fused(const native::StarArgs<T>& a);

}  // namespace wavefd::hip
