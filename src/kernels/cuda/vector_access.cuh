#pragma once
// V consecutive values of T moved as one 16- or 8-byte vector, or as one value (V = 1): the loads
// and stores of the native CUDA kernels, and a thread's own copies from global to shared memory in
// the background (cp.async). Plain CUDA C++ and PTX.
#include <cuda_runtime.h>

#include "wavefd/storage_format.hpp"

namespace wavefd::cuda::vec {

template <class T, int V>
struct Vec;
template <> struct Vec<float, 4> { using type = float4; };
template <> struct Vec<double, 2> { using type = double2; };
template <> struct Vec<float, 2> { using type = float2; };
template <> struct Vec<Half, 4> { using type = uint2; };  // 16-bit storage: moved as bits
template <> struct Vec<BFloat16, 4> { using type = uint2; };
template <class T> struct Vec<T, 1> { using type = T; };

// A plain load: shared memory, or global memory that the kernel also writes.
template <class T, int V>
__device__ __forceinline__ void load(const T* p, T (&out)[V]) {
  using W = typename Vec<T, V>::type;
  const W w = *reinterpret_cast<const W*>(p);
  const T* s = reinterpret_cast<const T*>(&w);
#pragma unroll
  for (int v = 0; v < V; ++v) out[v] = s[v];
}

// Through the read-only cache: global memory that the kernel does not write.
template <class T, int V>
__device__ __forceinline__ void load_ro(const T* p, T (&out)[V]) {
  using W = typename Vec<T, V>::type;
  const W w = __ldg(reinterpret_cast<const W*>(p));
  const T* s = reinterpret_cast<const T*>(&w);
#pragma unroll
  for (int v = 0; v < V; ++v) out[v] = s[v];
}

template <class T, int V>
__device__ __forceinline__ void store(T* p, const T (&in)[V]) {
  using W = typename Vec<T, V>::type;
  W w;
  T* d = reinterpret_cast<T*>(&w);
#pragma unroll
  for (int v = 0; v < V; ++v) d[v] = in[v];
  *reinterpret_cast<W*>(p) = w;
}

// A thread's copy of one vector from global to shared memory in the background (sm_80+), in
// groups it commits and waits for: 16-byte copies bypass L1, smaller ones go through it.
template <class T, int V>
__device__ __forceinline__ void copy_async(T* dst, const T* src) {
  constexpr int Bytes = V * int(sizeof(T));
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16);
  const auto to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(src), "n"(Bytes) : "memory");
}
__device__ __forceinline__ void copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int Pending>
__device__ __forceinline__ void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace wavefd::cuda::vec
