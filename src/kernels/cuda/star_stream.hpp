#pragma once
// Native CUDA 2.5-D streaming kernel for star stencils (radius 1..8): plain CUDA C++ on raw
// pointers and strides, so it builds without Kokkos (CI compiles it with nvcc for sm_80/sm_90).
#include "../native_star.hpp"

namespace wavefd::cuda {

// Updates the box (a.rows and a.z_chunk select the tile, see star_stream.cuh). Throws std::runtime_error on a
// CUDA error or an unsupported radius.
template <class T>
void star_stream(const native::StarArgs<T>& a);

}  // namespace wavefd::cuda
