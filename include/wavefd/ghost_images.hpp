#pragma once
// Ghost images: the ghost points that hold a copy of an interior point under the periodic wrap or
// the rigid odd reflection (the rules of make_local_halo). A kernel that stores each updated point
// also into its images leaves the next step's ghosts complete, so a single rank needs no separate
// fill pass: that pass re-reads and re-writes the strided ghost faces from DRAM, 15-20 % of a
// step at 512^3 on an H200, which running it beside the kernel cannot hide (both are bound by
// DRAM; docs/performance.md). Plain C++, no Kokkos: the native CUDA and HIP kernels use it too.
#include <cstdint>
#include <type_traits>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define WAVEFD_HOST_DEVICE __host__ __device__
#else
#define WAVEFD_HOST_DEVICE
#endif

namespace wavefd {

struct GhostImages {
  enum Face : int { keep = 0, wrap = 1, reflect = 2 };  // as comm::GhostFill
  bool active = false;                   // false: store the point only
  int n[3] = {0, 0, 0};                  // interior points per axis (at least h each)
  int h = 0;                             // ghost layers
  int face[3][2] = {};                   // [axis][low, high side]: what the ghosts beyond it hold
  std::int64_t origin = 0, sy = 0, sz = 0;  // flat index of (0,0,0), row and plane pitch

  // Whether any of the V points from x along a row may have an image (cheap early exit).
  WAVEFD_HOST_DEVICE bool near(int x, int y, int z, int V = 1) const {
    return active && (x < h || x + V > n[0] - h || y < h || y >= n[1] - h || z < h || z >= n[2] - h);
  }

  // Coordinates of v and of its images along `axis` (c[0] = v itself) with their signs; returns
  // how many (1..3: a point can be near both faces when n < 2h).
  //   wrap:    ghost g < 0 holds g + n, ghost g >= n holds g - n;
  //   reflect: the wall nodes -1 and n hold 0, ghost -1-m holds -(-1+m), ghost n+m holds -(n-m).
  WAVEFD_HOST_DEVICE int along(int axis, int v, int (&c)[3], int (&sign)[3]) const {
    const int m = n[axis];
    int k = 0;
    c[k] = v, sign[k++] = 1;
    if (face[axis][0] == wrap && v >= m - h) c[k] = v - m, sign[k++] = 1;
    if (face[axis][0] == reflect && v <= h - 2) c[k] = -2 - v, sign[k++] = -1;
    if (face[axis][1] == wrap && v < h) c[k] = v + m, sign[k++] = 1;
    if (face[axis][1] == reflect && v >= m - h + 1) c[k] = 2 * m - v, sign[k++] = -1;
    return k;
  }

  // Calls store(flat index, sign) for every image of point (x, y, z), edges and corners included,
  // the point itself excluded.
  template <class Store>
  WAVEFD_HOST_DEVICE void for_each(int x, int y, int z, Store&& store) const {
    int cx[3], cy[3], cz[3], sx[3], sy_[3], sz_[3];
    const int kx = along(0, x, cx, sx), ky = along(1, y, cy, sy_), kz = along(2, z, cz, sz_);
    for (int k = 0; k < kz; ++k)
      for (int j = 0; j < ky; ++j)
        for (int i = 0; i < kx; ++i)
          if (i + j + k > 0) store(origin + cx[i] + cy[j] * sy + cz[k] * sz, sx[i] * sy_[j] * sz_[k]);
  }

  // Stores the images of V consecutive points from x (values `value`) into `f`. When no point of
  // the run has an x image, each image is again V consecutive points, stored as one run (one
  // vector store when `Vector`, a V-wide aligned type, is given).
  template <class Vector = void, class T, int V>
  WAVEFD_HOST_DEVICE void store(T* f, int x, int y, int z, const T (&value)[V]) const {
    if (!near(x, y, z, V)) return;
    if (x >= h && x + V <= n[0] - h) {
      for_each(x, y, z, [&](std::int64_t q, int sign) {
        if constexpr (!std::is_void_v<Vector>) {
          static_assert(sizeof(Vector) == sizeof(T) * V, "Vector holds the V points");
          Vector w;
          T* d = reinterpret_cast<T*>(&w);
          for (int v = 0; v < V; ++v) d[v] = T(sign) * value[v];
          *reinterpret_cast<Vector*>(f + q) = w;
        } else {
          for (int v = 0; v < V; ++v) f[q + v] = T(sign) * value[v];
        }
      });
      return;
    }
    for (int v = 0; v < V; ++v)
      for_each(x + v, y, z, [&](std::int64_t q, int sign) { f[q] = T(sign) * value[v]; });
  }
  template <class T>
  WAVEFD_HOST_DEVICE void store(T* f, int x, int y, int z, T value) const {
    if (near(x, y, z)) for_each(x, y, z, [&](std::int64_t q, int sign) { f[q] = T(sign) * value; });
  }
};

}  // namespace wavefd
