#pragma once
// The MDRange policy every Kokkos box kernel uses: index 0 = x (contiguous). Iterate::Left makes
// x the fastest loop on the host; on GPUs Kokkos maps threadIdx.x to index 0 either way.
#include "wavefd/grid.hpp"

namespace wavefd::kernels {

using BoxPolicy = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace,
                                        Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                        Kokkos::IndexType<index_t>>;

inline BoxPolicy box_policy(const Kokkos::DefaultExecutionSpace& exec, const Box& b) {
  return BoxPolicy(exec, {b.lo[0], b.lo[1], b.lo[2]}, {b.hi[0], b.hi[1], b.hi[2]});
}

}  // namespace wavefd::kernels
