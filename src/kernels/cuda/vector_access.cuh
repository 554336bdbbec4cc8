#pragma once
// V consecutive values of T moved as one 16- or 8-byte vector, or as one value (V = 1): the loads
// and stores of the native CUDA kernels, and a thread's own copies from global to shared memory in
// the background (cp.async). Plain CUDA C++ and PTX.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "wavefd/storage_format.hpp"

namespace wavefd::cuda::vec {

template <class T, int V>
struct Vec;
template <> struct Vec<float, 4> { using type = float4; };
template <> struct Vec<double, 2> { using type = double2; };
template <> struct Vec<float, 2> { using type = float2; };
template <> struct Vec<Half, 8> { using type = uint4; };  // 16-bit storage: moved as bits
template <> struct Vec<BFloat16, 8> { using type = uint4; };
template <> struct Vec<Half, 4> { using type = uint2; };
template <> struct Vec<BFloat16, 4> { using type = uint2; };
template <> struct Vec<unsigned char, 4> { using type = unsigned; };  // byte indices (StarArgs::coef_index)
template <> struct Vec<unsigned char, 2> { using type = unsigned short; };
template <class T> struct Vec<T, 1> { using type = T; };
template <> struct Vec<Half, 1> { using type = unsigned short; };  // a type __ldg knows
template <> struct Vec<BFloat16, 1> { using type = unsigned short; };

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

// V values moved in 16-byte vectors, more than one where they span more (a float coefficient or phi
// beside 8 points of a 16-bit field): the part each vector moves.
template <class T, int V>
inline constexpr int kPart = V * int(sizeof(T)) > 16 ? 16 / int(sizeof(T)) : V;

// load (ReadOnly: load_ro) in 16-byte parts.
template <class T, int V, bool ReadOnly = false>
__device__ __forceinline__ void load_vectors(const T* p, T (&out)[V]) {
  constexpr int H = kPart<T, V>;
#pragma unroll
  for (int h = 0; h < V; h += H) {
    T part[H];
    if constexpr (ReadOnly) load_ro<T, H>(p + h, part);
    else load<T, H>(p + h, part);
#pragma unroll
    for (int v = 0; v < H; ++v) out[h + v] = part[v];
  }
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

// store in 16-byte parts.
template <class T, int V>
__device__ __forceinline__ void store_vectors(T* p, const T (&in)[V]) {
  constexpr int H = kPart<T, V>;
#pragma unroll
  for (int h = 0; h < V; h += H) {
    T part[H];
#pragma unroll
    for (int v = 0; v < H; ++v) part[v] = in[h + v];
    store<T, H>(p + h, part);
  }
}

// Fields stored in 16 bits: two values packed in 32 bits widen to float, or round from float (to
// nearest even, as narrow() does), without unpacking them first (one instruction a value for half,
// two a pair rounded; bfloat16 widens by shifting).
template <class S>
__device__ __forceinline__ float2 widen_pair(std::uint32_t bits);
template <>
__device__ __forceinline__ float2 widen_pair<Half>(std::uint32_t bits) {
  float2 f;
  asm("{\n .reg .f16 lo, hi;\n mov.b32 {lo, hi}, %2;\n cvt.f32.f16 %0, lo;\n cvt.f32.f16 %1, hi;\n}"
      : "=f"(f.x), "=f"(f.y)
      : "r"(bits));
  return f;
}
template <>
__device__ __forceinline__ float2 widen_pair<BFloat16>(std::uint32_t bits) {
  return {__uint_as_float(bits << 16), __uint_as_float(bits & 0xffff0000u)};
}
template <class S>
__device__ __forceinline__ std::uint32_t narrow_pair(float lo, float hi) {
  std::uint32_t bits;
  if constexpr (std::is_same_v<S, Half>)
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(bits) : "f"(hi), "f"(lo));  // the first operand lands high
  else
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(bits) : "f"(hi), "f"(lo));
  return bits;
}

// A vector of V values loaded and widened to arithmetic_t<T> (a plain load where T is it);
// ReadOnly: through the read-only cache (global memory the kernel does not write), as load_ro.
template <class T, int V, bool ReadOnly = false>
__device__ __forceinline__ void load_widened(const T* p, arithmetic_t<T> (&out)[V]) {
  if constexpr (kSixteenBit<T> && V == 1) {
    T value[1];
    if constexpr (ReadOnly) load_ro<T, 1>(p, value);
    else load<T, 1>(p, value);
    out[0] = widen(value[0]);
  } else if constexpr (kSixteenBit<T>) {
    static_assert(V % 2 == 0);
    using W = typename Vec<T, V>::type;
    const W w = ReadOnly ? __ldg(reinterpret_cast<const W*>(p)) : *reinterpret_cast<const W*>(p);
    std::uint32_t pairs[V / 2];
    std::memcpy(pairs, &w, sizeof pairs);
#pragma unroll
    for (int i = 0; i < V / 2; ++i) {
      const float2 f = widen_pair<T>(pairs[i]);
      out[2 * i] = f.x, out[2 * i + 1] = f.y;
    }
  } else if constexpr (ReadOnly) {
    load_ro<T, V>(p, out);
  } else {
    load<T, V>(p, out);
  }
}

// V values rounded to T (copied where T is arithmetic_t<T>).
template <class T, int V>
__device__ __forceinline__ void narrow_vector(const arithmetic_t<T> (&in)[V], T (&out)[V]) {
  if constexpr (kSixteenBit<T> && V == 1) {
    out[0] = narrow<T>(in[0]);
  } else if constexpr (kSixteenBit<T>) {
    static_assert(V % 2 == 0);
    std::uint32_t pairs[V / 2];
#pragma unroll
    for (int i = 0; i < V / 2; ++i) pairs[i] = narrow_pair<T>(in[2 * i], in[2 * i + 1]);
    std::memcpy(out, pairs, sizeof pairs);
  } else {
#pragma unroll
    for (int v = 0; v < V; ++v) out[v] = in[v];
  }
}

// The two-step update's second field at the point as u^{n-1}: read as it is, or in the velocity
// form (StarArgs::next) as u - v, in the arithmetic.
template <bool Velocity, class A, int V>
__device__ __forceinline__ void previous_from_second(const A (&centre)[V], A (&second)[V]) {
  if constexpr (Velocity) {
#pragma unroll
    for (int v = 0; v < V; ++v) second[v] = centre[v] - second[v];
  }
}

// The update's V values u^{n+1} (`out`) stored at `at`: over u^{n-1} in `second`, or in the velocity
// form u^{n+1} in `next` and u^{n+1} - u over the velocity in `second`. `stored`: u^{n+1} as T.
template <bool Velocity, class T, int V>
__device__ __forceinline__ void store_update(T* second, T* next, std::int64_t at, const arithmetic_t<T> (&out)[V],
                                             const arithmetic_t<T> (&centre)[V], T (&stored)[V]) {
  narrow_vector<T, V>(out, stored);
  if constexpr (Velocity) {
    arithmetic_t<T> moved[V];
#pragma unroll
    for (int v = 0; v < V; ++v) moved[v] = out[v] - centre[v];
    T moved_stored[V];
    narrow_vector<T, V>(moved, moved_stored);
    store<T, V>(next + at, stored);
    store<T, V>(second + at, moved_stored);
  } else {
    store<T, V>(second + at, stored);
  }
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
// copy_async in 16-byte parts.
template <class T, int V>
__device__ __forceinline__ void copy_async_vectors(T* dst, const T* src) {
  constexpr int H = kPart<T, V>;
#pragma unroll
  for (int h = 0; h < V; h += H) copy_async<T, H>(dst + h, src + h);
}
__device__ __forceinline__ void copy_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int Pending>
__device__ __forceinline__ void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace wavefd::cuda::vec
