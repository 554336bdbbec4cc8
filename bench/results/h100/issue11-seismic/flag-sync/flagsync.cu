// Scratch microbenchmark (not part of the project): per-plane neighbour synchronisation of resident blocks through
// flags in global memory, as a pair kernel without recomputed rims would need (132 blocks, 12 x 11 tiles).
#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ void release(int* p, int v) { asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ int acquire(const int* p) { int v; asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
__global__ void sync_planes(int* flags, int planes, int tx, int ty, float* sink, int work, int use_flags) {
  const int b = blockIdx.x, bx = b % tx, by = b / tx;
  float acc = threadIdx.x;
  for (int it = 1; it <= planes; ++it) {
    for (int w = 0; w < work; ++w) acc = fmaf(acc, 0.999f, 1e-3f);
    __syncthreads();
    if (threadIdx.x == 0 && use_flags) {
      release(flags + b, it);
      const int nb[4] = {bx > 0 ? b - 1 : -1, bx + 1 < tx ? b + 1 : -1, by > 0 ? b - tx : -1, by + 1 < ty ? b + tx : -1};
      for (int k = 0; k < 4; ++k)
        if (nb[k] >= 0) while (acquire(flags + nb[k]) < it) {}
    }
    __syncthreads();
  }
  if (acc == 12345.f) sink[b] = acc;
}
int main() {
  int* flags; float* sink; cudaMalloc(&flags, 132 * 4); cudaMalloc(&sink, 132 * 4);
  cudaEvent_t a, z; cudaEventCreate(&a); cudaEventCreate(&z);
  for (int work : {0, 64, 512}) {
    for (int rep = 0; rep < 4; ++rep) {
      const int use_flags = rep % 2;
      cudaMemset(flags, 0, 132 * 4);
      cudaEventRecord(a);
      sync_planes<<<132, 512>>>(flags, 1000, 12, 11, sink, work, use_flags);
      cudaEventRecord(z); cudaEventSynchronize(z);
      float ms; cudaEventElapsedTime(&ms, a, z);
      printf("work %d fma per thread per plane, flags %d: %.3f us per plane (1000 planes, 132 blocks, 4 neighbours) %s\n", work, use_flags, ms, cudaGetErrorString(cudaGetLastError()));
    }
  }
}
