// Native host kernel for star stencils: the blocks of star_rows.hpp taken by OpenMP threads.
//
// Why: the Kokkos host variants ran 3-5 x slower than a plain OpenMP loop on the development
// machine (star float 256^3, 2 cores: mdrange-stream 0.46 Gpts/s at M = 4, the plain loop about
// 1.5; issue 12). This is the hand-written reference the portable variants are measured against.
#include "star_host.hpp"

#include <algorithm>

#include "star_rows.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace wavefd::host {
namespace {

int threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// The work items among threads: item i on thread i mod threads in every launch (the update and
// its first touch alike).
template <class Item>
void for_items(int items, Item&& item) {
#ifdef _OPENMP
#pragma omp parallel for schedule(static, 1)
#endif
  for (int i = 0; i < items; ++i) item(i);
}

}  // namespace

template <class T>
void star_host(const native::StarArgs<T>& a) {
  with_star_rows(a, threads(), "host-star", [](const auto& rows) { for_items(rows.blocks.items, [&](int item) { rows.update(item); }); });
}

template <class T>
void star_host_touch(const native::StarArgs<T>& a, T* field) {
  if (a.hi[0] <= a.lo[0] || a.hi[1] <= a.lo[1] || a.hi[2] <= a.lo[2]) return;
  const RowBlocks blocks(a.lo, a.hi, a.radius, int(sizeof(T)), threads(), a.rows);  // StarRows' own
  const std::int64_t pitches = a.origin - a.origin % a.sy;  // row (0, 0)'s pitch starts here
  for_items(blocks.items, [&](int item) {
    blocks.for_rows(item, [&](int y, int z) { std::fill_n(field + pitches + y * a.sy + z * a.sz, a.sy, T(0)); });
  });
}

template void star_host<float>(const native::StarArgs<float>&);
template void star_host<double>(const native::StarArgs<double>&);
template void star_host_touch<float>(const native::StarArgs<float>&, float*);
template void star_host_touch<double>(const native::StarArgs<double>&, double*);
template void star_host<Half>(const native::StarArgs<Half>&);
template void star_host<BFloat16>(const native::StarArgs<BFloat16>&);
template void star_host_touch<Half>(const native::StarArgs<Half>&, Half*);
template void star_host_touch<BFloat16>(const native::StarArgs<BFloat16>&, BFloat16*);

}  // namespace wavefd::host
