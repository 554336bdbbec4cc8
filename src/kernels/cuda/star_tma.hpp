#pragma once
// Native CUDA 2.5-D streaming kernel for star stencils (radius 1..8) whose planes arrive through
// the Hopper bulk tensor copy (sm_90 and newer). Plain CUDA C++, no Kokkos.
#include "../native_star.hpp"

namespace wavefd::cuda {

// Whether this process's device is sm_90 or newer (it has the bulk tensor copy).
bool star_tma_device();

// Whether star_tma can run these arguments: an sm_90+ device, 16-byte aligned rows and box start,
// an x extent that is a multiple of 16 bytes, and planes made of whole rows.
template <class T>
bool star_tma_usable(const native::StarArgs<T>& a);

// Updates the box (a.rows and a.z_chunk select the tile, see star_tma.cuh), with the seismic PML
// where a.pml is active. Throws std::runtime_error on a CUDA error or an unsupported radius.
template <class T>
void star_tma(const native::StarArgs<T>& a);

}  // namespace wavefd::cuda
