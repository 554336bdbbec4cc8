#pragma once
// What the native (plain CUDA / HIP) star kernels receive: raw pointers, strides, the box and the
// weights. No Kokkos here, so the .cu/.hip files build with nvcc/hipcc alone.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "wavefd/ghost_images.hpp"
#include "wavefd/pml_layer.hpp"
#include "wavefd/storage_format.hpp"

namespace wavefd::native {

inline constexpr int kMaxStarRadius = 8;

// T: the stored type (float, double, Half, BFloat16); the weights are in its arithmetic.
template <class T>
struct StarArgs {
  const T* u = nullptr;     // u^n, flat array with x contiguous
  T* u_prev = nullptr;      // u^{n-1} in, u^{n+1} out
  T* next = nullptr;        // when set (with coef): the velocity form (TwoStepArgs::next): u_prev holds
                            // u^n - u^{n-1} in and u^{n+1} - u^n out, u^{n+1} goes here
  const arithmetic_t<T>* coef = nullptr;  // when set, a variable coefficient on u's layout (TwoStepArgs::
                                          // coefficient): u_prev <- 2 u + coef * (Laplacian with weights c) - u_prev
  const std::uint8_t* coef_index = nullptr;  // when set (with coef), coef as a byte per point into coef_table
  const arithmetic_t<T>* coef_table = nullptr;  // (TwoStepArgs::coefficient_index): coef_table[coef_index[p]] == coef[p]
  int coef_table_size = 0;
  std::int64_t sy = 0, sz = 0, origin = 0;   // strides and flat index of interior (0,0,0)
  std::int64_t alloc = 0;   // elements in each array (for kernels that describe it as a tensor)
  int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // box to update, interior coordinates
  int radius = 1;
  arithmetic_t<T> c[kMaxStarRadius + 1] = {};  // c[0] centre weight, c[m] axis weight at distance m
  int rows = 0;             // tile height in rows (one per thread row; 0: the kernel's default)
  int z_chunk = 0;          // planes per block along z (0: automatic)
  bool beside_larger_update = false;  // TwoStepArgs::beside_larger_update
  void* stream = nullptr;   // cudaStream_t / hipStream_t
  GhostImages images{};     // when active, every updated point is also stored into its ghost images
  PmlLayer<arithmetic_t<T>> pml{};  // when active (with coef), the seismic PML outside its inner box (TwoStepArgs::pml)
  const int* z_spans = nullptr;  // when set, per interior column the z range to update (TwoStepArgs::z_spans)
  int span_row = 0;              // columns per row of z_spans (the interior's x extent)
};

// Whether 16-byte vector loads and stores are aligned on every row of the box: box start and row
// and plane pitches on 16 bytes, and an x extent that is a whole number of vectors of `points`
// (a kernel whose threads take narrower vectors passes theirs).
template <class T>
bool vector_aligned(const StarArgs<T>& a, int points = int(16 / sizeof(T))) {
  const auto first = [&]<class E>(const E* p) { return reinterpret_cast<std::uintptr_t>(p + a.origin + a.lo[0]); };
  return first(a.u) % 16 == 0 && first(a.u_prev) % 16 == 0 && (!a.next || first(a.next) % 16 == 0) &&
         (!a.coef || first(a.coef) % 16 == 0) &&
         (a.sy * sizeof(T)) % 16 == 0 &&
         (a.sz * sizeof(T)) % 16 == 0 && (a.hi[0] - a.lo[0]) % points == 0;
}

// Calls launch(std::integral_constant<int, R>{}) with R = radius; throws std::runtime_error (naming
// `kernel`) for a radius outside 1..kMaxStarRadius.
template <class Launch>
void with_star_radius(int radius, const char* kernel, Launch&& launch) {
  const bool done = [&]<int... Rs>(std::integer_sequence<int, Rs...>) {
    return ((radius == Rs + 1 ? (launch(std::integral_constant<int, Rs + 1>{}), true) : false) || ...);
  }(std::make_integer_sequence<int, kMaxStarRadius>{});
  if (!done) throw std::runtime_error(std::string(kernel) + ": radius " + std::to_string(radius) + " not in 1.." +
                                           std::to_string(kMaxStarRadius));
}

}  // namespace wavefd::native
