#pragma once
// V consecutive values of one row moved as a single 16-byte load or store: a plain aligned
// struct, which CUDA and HIP compile to one vector instruction (what moves a streaming kernel from
// ~35 % to ~70 % of the copy bandwidth on a GPU, docs/performance.md). The caller guarantees the
// alignment; V = 1 is a plain scalar.
#include <Kokkos_Core.hpp>

namespace wavefd::kernels {

template <class T, int V>
struct alignas(sizeof(T) * V) Pack {
  T v[V];
};

template <class T, int V>
KOKKOS_FORCEINLINE_FUNCTION Pack<T, V> load_pack(const T* p) {
  return *reinterpret_cast<const Pack<T, V>*>(p);
}

template <class T, int V>
KOKKOS_FORCEINLINE_FUNCTION void store_pack(T* p, const Pack<T, V>& x) {
  *reinterpret_cast<Pack<T, V>*>(p) = x;
}

}  // namespace wavefd::kernels
