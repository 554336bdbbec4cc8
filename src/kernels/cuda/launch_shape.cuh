#pragma once
// What the native CUDA kernels' launchers share: turning a CUDA error into one exception that names
// the kernel, the automatic z chunk (the planes each block streams) and the weights as a kernel
// argument. Plain CUDA C++.
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace wavefd::cuda {

// Throws std::runtime_error "<kernel>: <what>: <CUDA's message>" unless e is cudaSuccess.
inline void check(cudaError_t e, const char* kernel, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(kernel) + ": " + what + ": " + cudaGetErrorString(e));
}

// The planes each block streams when the caller chose none: the nz planes of `tiles` xy tiles cut
// so that the launch has about `blocks` blocks, each stream at least `shortest` planes long and at
// most `longest` (which wins where it is the shorter). 16 R planes keep the 2R planes a block reads
// or computes before its first output a small part.
inline int automatic_z_chunk(int nz, long long tiles, long long blocks, int shortest, int longest = INT_MAX) {
  const long long chunks = std::max(1LL, (blocks + tiles - 1) / tiles);
  const int chunk = int((nz + chunks - 1) / chunks);
  return std::min(longest, std::max(shortest, chunk));
}

// The Laplacian's axis weights c[0..R] by value, a kernel argument (no constant-memory copy to wait for).
template <class T, int R>
struct Coeffs {
  T c[R + 1];
};

template <class T, int R>
Coeffs<T, R> coeffs(const T* c) {
  Coeffs<T, R> k;
  for (int m = 0; m <= R; ++m) k.c[m] = c[m];
  return k;
}

}  // namespace wavefd::cuda
