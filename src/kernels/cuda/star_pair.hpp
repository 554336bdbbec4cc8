#pragma once
// Native CUDA kernel for two steps of the seismic inner box in one pass (Variant::apply_pair):
// temporal blocking of the variable-coefficient star update. Plain CUDA C++ on raw pointers.
#include <cstdint>

#include "../native_star.hpp"

namespace wavefd::cuda {

inline constexpr int kMaxPairRadius = 6;  // a 16-row tile keeps at least 4 rows of output

template <class T>
struct StarPairArgs {
  const T* u = nullptr;       // u^n
  const T* u_prev = nullptr;  // u^{n-1}
  T* next = nullptr;          // u^{n+1}: read outside the box, written inside
  T* after = nullptr;         // u^{n+2}: written inside the box
  const T* coef = nullptr;    // (V dt / h)^2
  const int* source_at = nullptr;  // x, y, z per source point (device)
  const T* source_add = nullptr;   // what step n + 1 adds there (device)
  int sources = 0;
  std::int64_t sy = 0, sz = 0, origin = 0;
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // the box; x bounds on 16 bytes
  int radius = 1;
  T c[native::kMaxStarRadius + 1] = {};      // the Laplacian's axis weights
  int rows = 0;                              // tile rows: 32 (default) or 16 (see star_pair.cu)
  int z_chunk = 0;                           // planes per block (0: automatic)
  void* stream = nullptr;
};

// Whether star_pair() takes these arguments: a radius up to kMaxPairRadius, 16-byte aligned rows
// and box x bounds, a known tile height.
template <class T>
bool star_pair_usable(const StarPairArgs<T>& a);

// Throws std::runtime_error on a CUDA error or arguments star_pair_usable() refuses.
template <class T>
void star_pair(const StarPairArgs<T>& a);

}  // namespace wavefd::cuda
