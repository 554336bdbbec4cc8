#pragma once
// Ghost images: the ghost points that hold a copy of an interior point under the periodic wrap or
// the rigid odd reflection (the rules of make_local_halo). A kernel that stores each updated point
// also into its images leaves the next step's ghosts complete, so a single rank needs no separate
// fill pass: that pass re-reads and re-writes the strided ghost faces from DRAM, 15-20 % of a
// step at 512^3 on an H200, which running it beside the kernel cannot hide (both are bound by
// DRAM; docs/performance.md). Plain C++, no Kokkos: the native CUDA and HIP kernels use it too.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "wavefd/host_device.hpp"

namespace wavefd {

struct GhostImages {
  enum Face : int { keep = 0, wrap = 1, reflect = 2 };  // also the fill pass's rules (comm::GhostFill)
  bool active = false;                   // false: store the point only
  int n[3] = {0, 0, 0};                  // interior points per axis (at least h each)
  int h = 0;                             // ghost layers
  // Periodic x: images reach wx >= h points beyond the x faces, so that they fill whole 32-byte
  // sectors where the rows have room (the points past h are padding, which nothing reads as data):
  // a sector written in part costs DRAM more than a whole one.
  int wx = 0;
  int face[3][2] = {};                   // [axis][low, high side]: what the ghosts beyond it hold
  std::int64_t origin = 0, sy = 0, sz = 0;  // flat index of (0,0,0), row and plane pitch
  // Faces whose h interior layers leave by message from a packed buffer (the halo's send buffer,
  // comm::ExchangePlan): each point within h of such a face is also stored there, where the pack
  // kernel would put it (send_at[axis][side] + its place in the face's box, x fastest), so that no
  // pack kernel runs before the messages. `send` is that buffer (of the field's T); send_at < 0:
  // the face sends nothing packed.
  void* send = nullptr;
  std::int64_t send_at[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};

  // How far beyond the faces of `axis` images reach: h, or wx along a wrapped x.
  WAVEFD_HOST_DEVICE int reach(int axis) const { return axis == 0 && face[0][0] == wrap && wx > h ? wx : h; }

  // Whether point (x, y, z) may have an image (cheap early exit).
  WAVEFD_HOST_DEVICE bool near(int x, int y, int z) const {
    return active && (x < reach(0) || x >= n[0] - reach(0) || y < h || y >= n[1] - h || z < h || z >= n[2] - h);
  }

  // Whether v lies within h of a face of `axis` that sends packed (then v's points go to the buffer).
  WAVEFD_HOST_DEVICE bool sends_at(int axis, int v) const {
    return send && ((v < h && send_at[axis][0] >= 0) || (v >= n[axis] - h && send_at[axis][1] >= 0));
  }

  // Stores V consecutive points from (x, y, z) into the send buffer, at every face box of the
  // packed faces within h of which they lie (up to three, more where an axis is under 2h).
  template <class T, int V>
  WAVEFD_HOST_DEVICE void store_sends(int x, int y, int z, const T (&value)[V]) const {
    T* buffer = static_cast<T*>(send);
    const int c[3] = {x, y, z};
    for (int a = 0; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        if (send_at[a][side] < 0) continue;
        const int lo = side ? n[a] - h : 0;  // the face box spans [lo, lo + h) on a, the interior elsewhere
        if (a != 0 && (c[a] < lo || c[a] >= lo + h)) continue;
        const std::int64_t ex = a == 0 ? h : n[0], ey = a == 1 ? h : n[1];
        const std::int64_t row = send_at[a][side] + ex * ((y - (a == 1 ? lo : 0)) + ey * (z - (a == 2 ? lo : 0)));
        for (int v = 0; v < V; ++v) {
          const int xv = x + v - (a == 0 ? lo : 0);
          if (a != 0 || (xv >= 0 && xv < h)) buffer[row + xv] = value[v];
        }
      }
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

  // The x and y images of V consecutive points from (x, y), which a streaming kernel keeps for
  // every plane it updates (found once, before its z loop): where a thread must store an image,
  // that costs a few instructions per plane. Only the threads near a face do that, and those at
  // the x faces share warps with threads that do not, so a long path there would hold up every
  // warp on those block columns (measured: up to 2.5x slower steps).
  template <int V>
  struct Column {
    bool general = false;               // an axis is narrower than 2h: for_each() per point
    bool any = false;                   // an x or y image exists
    unsigned x_has = 0, x_neg = 0;      // per point (bit v): has an x image; its sign is -1
    int x_to[V] = {};                   // x image coordinate minus the point's
    bool x_run = false;                 // all V images are again V consecutive points (wrap)
    bool y_has = false, y_neg = false;
    int y_to = 0;
    bool sends = false;                 // a point lies within h of an x or y face that sends packed
  };

  // The one image of v along `axis`, on an axis of at least 2h points whose two faces fill alike
  // (then v is near one face at most): false when v has none.
  WAVEFD_HOST_DEVICE bool image_of(int axis, int v, int& to, bool& negative) const {
    const int m = n[axis];
    const bool reflecting = face[axis][0] == reflect;
    const int w = reach(axis);
    negative = reflecting;
    if (v < w && face[axis][0] != keep) return reflecting ? (to = -2 - v, v <= h - 2) : (to = v + m, true);
    if (v >= m - w && face[axis][1] != keep) return reflecting ? (to = 2 * m - v, v >= m - h + 1) : (to = v - m, true);
    return false;
  }

  template <int V>
  WAVEFD_HOST_DEVICE Column<V> column(int x, int y) const {
    Column<V> c;
    if (!active) return c;
    c.sends = sends_at(0, x) || sends_at(0, x + V - 1) || sends_at(1, y);  // the ends decide for the run
    for (int a = 0; a < 3; ++a)  // a point may have two images on this axis: the general path
      if (n[a] < 2 * reach(a) || face[a][0] != face[a][1]) {
        c.general = c.any = true;
        return c;
      }
    for (int v = 0; v < V; ++v) {
      int to = 0;
      bool negative = false;
      if (image_of(0, x + v, to, negative)) {
        c.x_has |= 1u << v;
        if (negative) c.x_neg |= 1u << v;
        c.x_to[v] = to - (x + v);
      }
    }
    c.x_run = c.x_has == (1u << V) - 1 && c.x_neg == 0 && c.x_to[0] % V == 0;  // % V: stays aligned
    for (int v = 1; v < V; ++v) c.x_run = c.x_run && c.x_to[v] == c.x_to[0];
    int to = 0;
    if (image_of(1, y, to, c.y_neg)) c.y_has = true, c.y_to = to - y;
    c.any = c.x_has || c.y_has;
    return c;
  }

  // Stores the images of V consecutive points from (x, y, z) at flat index p, with values
  // `value`, into `f`; `c` = column<V>(x, y). The images that keep x are again V consecutive
  // points, stored as one run (one vector store when `Vector`, a V-wide aligned type, is given).
  template <class Vector = void, class T, int V>
  WAVEFD_HOST_DEVICE void store(T* f, const Column<V>& c, int x, int y, int z, std::int64_t p,
                                const T (&value)[V]) const {
    const bool z_near = active && (z < h || z >= n[2] - h);
    if (c.sends || (z_near && sends_at(2, z))) store_sends(x, y, z, value);
    if (!c.any && !z_near) return;
    if (c.x_run && !c.y_has && !z_near) {  // the common image: one wrapped run along x (sign +1)
      store_run<Vector>(f + p + c.x_to[0], false, value);  // kept short: it diverges from its warp
      return;
    }
    if (c.general) {
      for (int v = 0; v < V; ++v)
        for_each(x + v, y, z, [&](std::int64_t q, int sign) { f[q] = sign < 0 ? -value[v] : value[v]; });
      return;
    }
    int z_to = 0;
    bool z_neg = false;
    const bool z_has = z_near && image_of(2, z, z_to, z_neg);
    const std::int64_t z_off = z_has ? std::int64_t(z_to - z) * sz : 0;
    for (int yz = 0; yz < 4; ++yz) {  // no image, the y image, the z image, both
      if (((yz & 1) && !c.y_has) || ((yz & 2) && !z_has)) continue;
      const std::int64_t q = p + ((yz & 1) ? std::int64_t(c.y_to) * sy : 0) + ((yz & 2) ? z_off : 0);
      const bool neg = ((yz & 1) && c.y_neg) != ((yz & 2) && z_neg);
      if (yz != 0) store_run<Vector>(f + q, neg, value);
      store_x<Vector>(f, c, q, neg, value);
    }
  }

  // Whether the column's images are whole runs of its V points (runs_only, Runs): no packed sends,
  // one image per axis, and along x only the wrapped run of a periodic x. Then its points on
  // planes away from the z faces (z_near_any) have at most an x run, a y run and the y run's x
  // run, which a streaming kernel stores as vectors (store_runs).
  template <int V>
  WAVEFD_HOST_DEVICE static bool runs_only(const Column<V>& c) {
    return !c.general && !c.sends && (!c.x_has || c.x_run);
  }

  // A runs_only column's images, as offsets from its points (0: none): fewer registers than the
  // Column, for a kernel that holds them across a long unrolled loop.
  struct Runs {
    int x_to = 0;
    std::int64_t y_to = 0;
    bool y_neg = false;
  };
  template <int V>
  WAVEFD_HOST_DEVICE Runs runs(const Column<V>& c) const {
    Runs r;
    if (c.x_run) r.x_to = c.x_to[0];
    if (c.y_has) r.y_to = std::int64_t(c.y_to) * sy, r.y_neg = c.y_neg;
    return r;
  }

  // The images of V consecutive points at flat index p of a runs_only column, off the z faces.
  template <class Vector, class T, int V>
  WAVEFD_HOST_DEVICE static void store_runs(T* f, const Runs& r, std::int64_t p, const T (&value)[V]) {
    if (r.x_to != 0) store_run<Vector>(f + p + r.x_to, false, value);
    if (r.y_to != 0) {
      store_run<Vector>(f + p + r.y_to, r.y_neg, value);
      if (r.x_to != 0) store_run<Vector>(f + p + r.y_to + r.x_to, r.y_neg, value);
    }
  }

  // Whether any plane of [z0, z1) lies within h of a z face.
  WAVEFD_HOST_DEVICE bool z_near_any(int z0, int z1) const { return active && (z0 < h || z1 > n[2] - h); }

  // The x images of V consecutive points at flat index q (`neg`: q itself holds the points' negatives).
  template <class Vector, class T, int V>
  WAVEFD_HOST_DEVICE static void store_x(T* f, const Column<V>& c, std::int64_t q, bool neg, const T (&value)[V]) {
    if (c.x_run) {
      store_run<Vector>(f + q + c.x_to[0], neg, value);  // a wrapped run: one vector store
    } else if (c.x_has) {
      for (int v = 0; v < V; ++v)
        if (c.x_has >> v & 1) f[q + v + c.x_to[v]] = neg != bool(c.x_neg >> v & 1) ? -value[v] : value[v];
    }
  }

  // value[0..V) or their negatives into f[0..V), as one store of `Vector` when given. A sign flip,
  // not a product by -1 or 1: in 16 bits that product is a widening, a multiply and a rounding
  // per point, which nvcc keeps even for a constant 1. 16-bit values go into the vector as whole
  // 32-bit words, their sign bits flipped there: value by value, nvcc unpacked the pairs and packed
  // them again for each store. (Through words, a float vector was stored as four scalars.)
  template <class Vector, class T, int V>
  WAVEFD_HOST_DEVICE static void store_run(T* f, bool negative, const T (&value)[V]) {
    if constexpr (!std::is_void_v<Vector>) {
      static_assert(sizeof(Vector) == sizeof(T) * V, "Vector holds the V points");
      Vector w;
      if constexpr (sizeof(T) == 2 && sizeof(Vector) % 4 == 0) {
        std::uint32_t word[sizeof(Vector) / 4];
        std::memcpy(word, value, sizeof word);
        if (negative)
          for (std::uint32_t& pair : word) pair ^= 0x80008000u;
        std::memcpy(&w, word, sizeof w);
      } else {
        T* d = reinterpret_cast<T*>(&w);
        for (int v = 0; v < V; ++v) d[v] = negative ? -value[v] : value[v];
      }
      *reinterpret_cast<Vector*>(f) = w;
    } else {
      for (int v = 0; v < V; ++v) f[v] = negative ? -value[v] : value[v];
    }
  }

  // The images of a whole updated row (y, z), x = 0 .. n[0), whose x = 0 is at flat index p (host
  // kernels, which update rows): the x images into the row's own ghosts, then the row with them
  // into its y and z images, as copies of contiguous memory while the row is in cache. Plain loops
  // without a per-point rule: at star M = 1 the rule per x image cost more than the row's update.
  template <class T>
  void store_row(T* f, int y, int z, std::int64_t p) const {
    if (!active) return;
    if (send) store_row_sends(f + p, y, z);
    for (int a = 0; a < 3; ++a)
      if (n[a] < 2 * reach(a) || face[a][0] != face[a][1]) {  // two images on an axis: point by point
        for (int x = 0; x < n[0]; ++x) store(f, x, y, z, p + x, f[p + x]);
        return;
      }
    T* row = f + p;
    const int nx = n[0], w = reach(0);
    if (face[0][0] == wrap) {  // ghost -w..-1 holds x + n, ghost n..n+w-1 holds x - n
      constexpr int sector = 32 / int(sizeof(T));
      if (w % sector == 0) {  // whole 32-byte pieces, each one vector load and store
        for (int i = 0; i < w; i += sector) std::memcpy(row + nx + i, row + i, 32);
        for (int i = 0; i < w; i += sector) std::memcpy(row + i - w, row + nx - w + i, 32);
      } else {
        for (int i = 0; i < w; ++i) row[nx + i] = row[i];
        for (int i = 0; i < w; ++i) row[i - w] = row[nx - w + i];
      }
    } else if (face[0][0] == reflect) {  // ghost -2-v holds -v, ghost n+1+v holds -(n-1-v); walls stay 0
      for (int v = 0; v + 1 < h; ++v) row[-2 - v] = -row[v];
      for (int v = 0; v + 1 < h; ++v) row[nx + 1 + v] = -row[nx - 1 - v];
    }
    int y_to = 0, z_to = 0;
    bool y_neg = false, z_neg = false;
    const bool y_has = image_of(1, y, y_to, y_neg), z_has = (z < h || z >= n[2] - h) && image_of(2, z, z_to, z_neg);
    if (!y_has && !z_has) return;
    // The row's span with its x images, less the wall nodes of a reflecting x (they hold 0, which
    // a sign would turn into -0).
    const bool walls = face[0][0] == reflect;
    const int lo = face[0][0] == keep ? 0 : -w, hi = face[0][0] == keep ? nx : nx + w;
    for (int yz = 1; yz < 4; ++yz) {  // the y image, the z image, both
      if (((yz & 1) && !y_has) || ((yz & 2) && !z_has)) continue;
      T* to = row + ((yz & 1) ? std::int64_t(y_to - y) * sy : 0) + ((yz & 2) ? std::int64_t(z_to - z) * sz : 0);
      const T s = ((yz & 1) && y_neg) != ((yz & 2) && z_neg) ? T(-1) : T(1);
      if (walls) {
        for (int x = lo; x < -1; ++x) to[x] = s * row[x];
        for (int x = 0; x < nx; ++x) to[x] = s * row[x];
        for (int x = nx + 1; x < hi; ++x) to[x] = s * row[x];
      } else {
        for (int x = lo; x < hi; ++x) to[x] = s * row[x];
      }
    }
  }

  // The sends of a whole updated row (y, z) whose x = 0 is at `row`: its first and last h points
  // to the x faces' boxes, the whole row to a y or z face's box, each a contiguous run there.
  template <class T>
  void store_row_sends(const T* row, int y, int z) const {
    T* buffer = static_cast<T*>(send);
    for (int side = 0; side < 2; ++side)
      if (send_at[0][side] >= 0)
        std::memcpy(buffer + send_at[0][side] + std::int64_t(h) * (y + std::int64_t(n[1]) * z),
                    row + (side ? n[0] - h : 0), sizeof(T) * h);
    for (int a = 1; a < 3; ++a)
      for (int side = 0; side < 2; ++side) {
        const int c = a == 1 ? y : z, lo = side ? n[a] - h : 0;
        if (send_at[a][side] < 0 || c < lo || c >= lo + h) continue;
        const std::int64_t ey = a == 1 ? h : n[1];
        std::memcpy(buffer + send_at[a][side] + std::int64_t(n[0]) * ((y - (a == 1 ? lo : 0)) + ey * (z - (a == 2 ? lo : 0))),
                    row, sizeof(T) * n[0]);
      }
  }

  // One point at flat index p (kernels that update points one by one).
  template <class T>
  WAVEFD_HOST_DEVICE void store(T* f, int x, int y, int z, std::int64_t p, T value) const {
    if (!near(x, y, z)) return;
    const T one[1] = {value};
    store(f, column<1>(x, y), x, y, z, p, one);
  }
};

}  // namespace wavefd
