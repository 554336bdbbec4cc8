#pragma once
// Filling ghost points from the field itself: the periodic wrap and the rigid odd reflection,
// chosen per face. `local` fills every face this way; the exchanging transports use it for the
// faces on a rigid wall, after the messages have filled the others.
#include <array>
#include <cstdint>
#include <vector>
#include <type_traits>

#include <Kokkos_Core.hpp>

#include "wavefd/ghost_images.hpp"
#include "wavefd/grid.hpp"

namespace wavefd::comm {

// What the ghosts beyond one face take: keep (filled by a message), wrap (periodic, from the
// field's own far side) or reflect (rigid: odd reflection about the wall node, 0 on it).
using GhostFill = GhostImages::Face;  // the kernels' ghost images follow the same rules
using FaceFills = std::array<std::array<GhostFill, 2>, 3>;  // [axis][side]

// Every ghost point with a wrap or reflect coordinate, in one pass. Each such coordinate maps to
// its source on its own, which gives what filling axis after axis gives, edges and corners
// included; sources have every such coordinate inside, so no point read is written in the same
// pass. The shell is enumerated as three slabs so that no thread visits an interior point: the z
// ghost planes (all x, y), the y ghost rows of interior planes (all x), and the x ghost points of
// interior rows; x is fastest in each.
template <class T>
struct GhostShell {
  Kokkos::View<T*> f;
  Layout l;
  Kokkos::Array<int, 6> fill;  // GhostFill per [2 * axis + side]
  // Index arithmetic in 32 bits (a shell of 2^32 points would be a 20000^3 grid with a halo of 8):
  // 64-bit division is several times dearer on GPUs, and this kernel is mostly index arithmetic.
  std::uint32_t h, h2, nx, ny, nz, wx, wy;
  std::uint32_t z_slabs, y_slabs;  // points in the z slabs, in the y slabs

  GhostShell(const Kokkos::View<T*>& field, const Layout& layout, const FaceFills& fills)
      : f(field), l(layout), h(layout.halo), h2(2 * layout.halo), nx(layout.n[0]), ny(layout.n[1]), nz(layout.n[2]),
        wx(layout.n[0] + 2 * layout.halo), wy(layout.n[1] + 2 * layout.halo) {
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) fill[2 * a + s] = int(fills[a][s]);
    const index_t zs = index_t(wx) * wy * h2, ys = index_t(wx) * h2 * nz, total = zs + ys + index_t(h2) * ny * nz;
    if (total >= (index_t(1) << 32)) throw Error("the ghost shell of this subdomain has over 2^32 points");
    z_slabs = std::uint32_t(zs), y_slabs = std::uint32_t(ys);
  }
  // The z ghost planes come first, then the y ghost rows of interior planes, then the x ghost
  // points of interior rows.
  index_t points() const { return index_t(z_slabs) + y_slabs + index_t(h2) * ny * nz; }
  index_t z_planes() const { return z_slabs; }
  index_t y_rows() const { return y_slabs; }

  // Ghost layer t of 2h (the h low ones first) along an axis of n points, as a coordinate.
  KOKKOS_INLINE_FUNCTION index_t layer(std::uint32_t t, std::uint32_t n) const {
    return t < h ? index_t(t) - h : index_t(n) + t - h;
  }

  // Where coordinate v along `axis` takes its value from; flips `sign` for a reflection, sets
  // `wall` on a wall node and `own` when this pass fills the point.
  KOKKOS_INLINE_FUNCTION index_t source(int axis, index_t v, T& sign, bool& wall, bool& own) const {
    const index_t n = l.n[axis];
    if (v >= 0 && v < n) return v;
    const int how = fill[2 * axis + (v < 0 ? 0 : 1)];
    if (how == int(GhostFill::keep)) return v;
    own = true;
    if (how == int(GhostFill::wrap)) return v < 0 ? v + n : v - n;
    if (v == -1 || v == n) wall = true;
    sign = -sign;
    return v < 0 ? -2 - v : 2 * n - v;  // mirror about the wall node -1 or n
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t point) const {
    std::uint32_t i = std::uint32_t(point);
    index_t x, y, z;
    if (i < z_slabs) {
      x = index_t(i % wx) - h, i /= wx;
      y = index_t(i % wy) - h, z = layer(i / wy, nz);
    } else if ((i -= z_slabs) < y_slabs) {
      x = index_t(i % wx) - h, i /= wx;
      y = layer(i % h2, ny), z = i / h2;
    } else {
      i -= y_slabs;
      x = layer(i % h2, nx), i /= h2;
      y = i % ny, z = i / ny;
    }
    T sign = T(1);
    bool wall = false, own = false;
    const index_t sx = source(0, x, sign, wall, own), sy = source(1, y, sign, wall, own),
                  sz = source(2, z, sign, wall, own);
    if (own) f(l.at(x, y, z)) = wall ? T(0) : sign * f(l.at(sx, sy, sz));
  }
};

// Which ghosts a fill covers. A halo's late axes are the last `late_axes` of x, y, z (1: z; 2: y and
// z; 3: all), the ones whose ghosts messages bring: the early part is every ghost whose coordinates
// on the late axes lie inside (its sources are interior points, so it needs no message), the late
// part the rest (edges and corners beside a late face included). `all` is both.
struct ShellPart {
  enum Which { all, early, late };
  Which which = all;
  int late_axes = 3;
};

// Halo::late() of the last `late_axes` axes.
inline std::array<bool, 3> late_of(int late_axes) { return {late_axes == 3, late_axes >= 2, late_axes >= 1}; }

// The same fill on host backends, axis after axis and a row at a time: the x ghosts of each row,
// then whole ghost rows (y), then whole ghost planes (z), each copied from its source with the
// sign of its rule. Each point is written once, in the pass of the last axis whose rule fills it,
// from a point the earlier passes (or a message) completed, so the bits are GhostShell's. Why: a
// point at a time, with four integer divisions and a scattered x face, took 15 ms of a 44 ms step
// at 256^3 on 2 cores; rows are contiguous copies that the compiler vectorises.
template <class T>
struct GhostRows {
  GhostShell<T> shell;  // the rules (source()) and the layout
  int pass = 0;         // 0: x ghosts of rows, 1: ghost rows, 2: rows of ghost planes
  index_t z_lo = 0;     // the first plane this pass visits
  index_t y_lo;         // the first row of each plane it visits
  index_t rows_per_plane;
  // The x ghosts that the rules fill, with their sources and signs (0: a wall node), worked out
  // once: the same in every row.
  Kokkos::View<index_t* [2], Kokkos::HostSpace> x_from;
  Kokkos::View<T*, Kokkos::HostSpace> x_sign;

  // The table is built here, once per fill; each pass's launch takes a copy with its pass and z_lo.
  explicit GhostRows(const GhostShell<T>& s) : shell(s), y_lo(-s.l.halo), rows_per_plane(s.l.n[1] + 2 * s.l.halo) {
    std::vector<std::array<index_t, 2>> from;
    std::vector<T> signs;
    const index_t h = s.l.halo, n = s.l.n[0];
    for (index_t x = -h; x < n + h; x = x == -1 ? n : x + 1) {
      T sign = T(1);
      bool wall = false, own = false;
      const index_t sx = s.source(0, x, sign, wall, own);
      if (own) from.push_back({x, sx}), signs.push_back(wall ? T(0) : sign);
    }
    x_from = decltype(x_from)("wavefd::ghost_x_from", from.size());
    x_sign = decltype(x_sign)("wavefd::ghost_x_sign", from.size());
    for (std::size_t i = 0; i < from.size(); ++i) x_from(i, 0) = from[i][0], x_from(i, 1) = from[i][1], x_sign(i) = signs[i];
  }

  // Whether coordinate v along `axis` is a ghost that this fill writes.
  KOKKOS_INLINE_FUNCTION bool filled(int axis, index_t v) const {
    T sign = T(1);
    bool wall = false, own = false;
    shell.source(axis, v, sign, wall, own);
    return own;
  }

  // Copies `count` points from `from` to `to` with a sign, or zeros them on a wall.
  KOKKOS_INLINE_FUNCTION void copy(T* to, const T* from, index_t count, T sign, bool wall) const {
    if (wall)
      for (index_t i = 0; i < count; ++i) to[i] = T(0);
    else
      for (index_t i = 0; i < count; ++i) to[i] = sign * from[i];
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t row) const {
    const Layout& l = shell.l;
    const index_t h = l.halo, y = y_lo + row % rows_per_plane, z = z_lo + row / rows_per_plane;
    T* f = shell.f.data();
    T sign = T(1);
    bool wall = false, own = false;
    if (pass == 2) {  // a row of a filled ghost plane, from the same row of its source plane
      const index_t sz = shell.source(2, z, sign, wall, own);
      copy(f + l.at(-h, y, z), f + l.at(-h, y, sz), l.n[0] + 2 * h, sign, wall);
      return;
    }
    if (pass == 1) {  // a whole ghost row, from its source row
      if (!filled(1, y)) return;
      const index_t sy = shell.source(1, y, sign, wall, own);
      copy(f + l.at(-h, y, z), f + l.at(-h, sy, z), l.n[0] + 2 * h, sign, wall);
      return;
    }
    if (filled(1, y)) return;  // pass 1 writes it
    T* r = f + l.at(0, y, z);
    for (std::size_t i = 0; i < x_sign.extent(0); ++i) {
      const T sign_i = x_sign(i);
      r[x_from(i, 0)] = sign_i == T(0) ? T(0) : sign_i * r[x_from(i, 1)];
    }
  }
};

// Whether a face of `part` wraps or reflects: the axes of the late part are the late ones, those of
// the early part the others, and `all` has every axis.
inline bool fills_a_face(const FaceFills& fills, ShellPart part) {
  const int first_late = part.which == ShellPart::all ? 0 : 3 - part.late_axes;
  for (int a = 0; a < 3; ++a) {
    const bool in_part = part.which == ShellPart::all || (part.which == ShellPart::late) == (a >= first_late);
    for (GhostFill g : fills[a])
      if (in_part && g != GhostFill::keep) return true;
  }
  return false;
}

// Enqueues the fill on `exec`; nothing when no face wraps or reflects, or, for a stencil that reads
// no edges or corners (`edges_read` false), when no face of the part does: the part's other ghosts
// are edges and corners, which such a stencil never reads. (The late part of a 1 x 2 x 2 grid is
// then no launch at all, where the point shell's 4.3 M threads at 512^3 per rank, nearly all with
// nothing to write, ran beside the core for about 130 us on an H100 before the shell could start.)
template <class T>
void fill_ghosts(const Kokkos::DefaultExecutionSpace& exec, Field<T>& f, const FaceFills& fills,
                 ShellPart part = {}, bool edges_read = true) {
  bool any = false;
  for (const auto& axis : fills)
    for (GhostFill g : axis) any = any || g != GhostFill::keep;
  if (!any || f.layout.halo == 0 || (!edges_read && !fills_a_face(fills, part))) return;
  const GhostShell<T> shell(f.data, f.layout, fills);
  using Range = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>;
  const bool early = part.which != ShellPart::late, late = part.which != ShellPart::early;
  const int k = part.which == ShellPart::all ? 0 : part.late_axes;  // all: one part, nothing late
  if constexpr (std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>) {
    // Rows, pass by pass (GhostRows): x ghosts of rows, ghost rows, then the z rule's ghost planes,
    // each pass over the planes and rows of the part whose sources the earlier passes completed.
    const index_t h = f.layout.halo, ny = f.layout.n[1], nz = f.layout.n[2];
    GhostRows<T> rows(shell);
    const auto pass_over = [&](int pass, index_t z_lo, index_t z_hi, index_t y_lo, index_t y_hi) {
      if (z_hi <= z_lo || y_hi <= y_lo) return;
      rows.pass = pass, rows.z_lo = z_lo, rows.y_lo = y_lo, rows.rows_per_plane = y_hi - y_lo;
      Kokkos::parallel_for("wavefd::ghost_fill_rows", Range(exec, 0, rows.rows_per_plane * (z_hi - z_lo)), rows);
    };
    const bool z_low = rows.filled(2, -1), z_high = rows.filled(2, nz);
    // The interior planes: x ghosts of the interior rows (early unless all axes are late), then x
    // ghosts of the ghost rows and the ghost rows the y rule fills (early only while y is not late).
    if ((early && k < 3) || (late && k == 3)) pass_over(0, 0, nz, 0, ny);
    if ((early && k < 2) || (late && k >= 2)) {
      pass_over(0, 0, nz, -h, 0), pass_over(0, 0, nz, ny, ny + h);
      pass_over(1, 0, nz, -h, ny + h);
    }
    // The ghost planes (late as soon as z is).
    if ((early && k == 0) || (late && k >= 1)) {
      for (int pass : {0, 1}) {
        if (!z_low) pass_over(pass, -h, 0, -h, ny + h);
        if (!z_high) pass_over(pass, nz, nz + h, -h, ny + h);
      }
      if (z_low) pass_over(2, -h, 0, -h, ny + h);
      if (z_high) pass_over(2, nz, nz + h, -h, ny + h);
    }
    return;
  }
  // The point shell lists the z ghost planes, then the y ghost rows of interior planes, then the x
  // ghosts of interior rows: the late part of k late axes is a prefix of that order.
  const index_t split[4] = {0, shell.z_planes(), shell.z_planes() + shell.y_rows(), shell.points()};
  const index_t first = late ? 0 : split[k], last = early ? shell.points() : split[k];
  if (last > first) Kokkos::parallel_for("wavefd::ghost_fill", Range(exec, first, last), shell);
}

}  // namespace wavefd::comm
