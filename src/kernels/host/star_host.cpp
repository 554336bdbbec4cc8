// Native host kernel for star stencils: the blocks of star_rows.hpp taken by OpenMP threads.
//
// Why: the Kokkos host variants ran 3-5 x slower than a plain OpenMP loop on the development
// machine (star float 256^3, 2 cores: mdrange-stream 0.46 Gpts/s at M = 4, the plain loop about
// 1.5; issue 12). This is the hand-written reference the portable variants are measured against.
#include "star_host.hpp"

#include "star_rows.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace wavefd::host {

template <class T>
void star_host(const native::StarArgs<T>& a) {
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  with_star_rows(a, threads, "host-star", [](const auto& rows) {
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int item = 0; item < rows.blocks.items; ++item) rows.update(item);
  });
}

template void star_host<float>(const native::StarArgs<float>&);
template void star_host<double>(const native::StarArgs<double>&);

}  // namespace wavefd::host
