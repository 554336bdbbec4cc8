// The host link's floor for the host-staged `mpi` transport: device-to-host and host-to-device copy
// bandwidth per GPU, one GPU alone and all GPUs at once, into memory from cudaHostAlloc and into
// shared memory (mmap MAP_SHARED) pinned with cudaHostRegister, one way and both ways at once.
// 16 MiB a copy (a rank's four 4 MiB faces of 512^3 float), 20 copies each, best of 5.
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <vector>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
int main() {
  const size_t bytes = size_t(16) << 20; const int copies = 20;
  int n = 0; CK(cudaGetDeviceCount(&n));
  struct Dev { void *d, *alloc, *shared; cudaStream_t down, up; };
  std::vector<Dev> devs(n);
  for (int g = 0; g < n; ++g) {
    CK(cudaSetDevice(g)); Dev& v = devs[g];
    CK(cudaMalloc(&v.d, 2 * bytes)); CK(cudaMemset(v.d, 1, 2 * bytes));
    CK(cudaHostAlloc(&v.alloc, 2 * bytes, cudaHostAllocPortable));
    v.shared = mmap(nullptr, 2 * bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CK(cudaHostRegister(v.shared, 2 * bytes, cudaHostRegisterPortable));
    CK(cudaStreamCreateWithFlags(&v.down, cudaStreamNonBlocking)); CK(cudaStreamCreateWithFlags(&v.up, cudaStreamNonBlocking));
  }
  for (int shared = 0; shared < 2; ++shared)
    for (int mode = 0; mode < 3; ++mode)  // 0 down, 1 up, 2 both at once
      for (int all = 0; all < 2; ++all) {
        const int first = 0, last = all ? n : 1;
        double best = 1e9;
        for (int rep = 0; rep < 5; ++rep) {
          auto t0 = std::chrono::steady_clock::now();
          for (int g = first; g < last; ++g) {
            cudaSetDevice(g); Dev& v = devs[g]; char* h = static_cast<char*>(shared ? v.shared : v.alloc);
            for (int c = 0; c < copies; ++c) {
              if (mode != 1) cudaMemcpyAsync(h, v.d, bytes, cudaMemcpyDeviceToHost, v.down);
              if (mode != 0) cudaMemcpyAsync(static_cast<char*>(v.d) + bytes, h + bytes, bytes, cudaMemcpyHostToDevice, v.up);
            }
          }
          for (int g = first; g < last; ++g) { cudaSetDevice(g); CK(cudaDeviceSynchronize()); }
          best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("%-22s %-5s %d GPU(s): %6.1f GB/s per GPU per direction (16 MiB in %.0f us)\n",
                    shared ? "shared, HostRegister" : "cudaHostAlloc", mode == 0 ? "D2H" : mode == 1 ? "H2D" : "both",
                    last - first, copies * bytes / best / 1e9, best / copies * 1e6);
      }
  return 0;
}
