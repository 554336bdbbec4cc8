#include <omp.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
  const double seconds = argc > 1 ? atof(argv[1]) : 180;
  const size_t bytes = size_t(1) << 30, n = bytes / 8;
  double* a = (double*)aligned_alloc(4096, bytes);
  double* b = (double*)aligned_alloc(4096, bytes);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) a[i] = 1, b[i] = 2;
  auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    auto s = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i) b[i] = a[i];
    auto e = std::chrono::steady_clock::now();
    double dt = std::chrono::duration<double>(e - s).count(), at = std::chrono::duration<double>(e - t0).count();
    printf("%.4f %.2f\n", at, 2.0 * bytes / dt / 1e9);
    if (at > seconds) break;
  }
  fprintf(stderr, "%f\n", b[n / 2]);
}
