#pragma once
// Filling ghost points from the field itself: the periodic wrap and the rigid odd reflection,
// chosen per face. `local` fills every face this way; the exchanging transports use it for the
// faces on a rigid wall, after the messages have filled the others.
#include <array>

#include <Kokkos_Core.hpp>

#include "wavefd/grid.hpp"

namespace wavefd::comm {

// What the ghosts beyond one face take: keep (filled by a message), wrap (periodic, from the
// field's own far side) or reflect (rigid: odd reflection about the wall node, 0 on it).
enum class GhostFill : int { keep, wrap, reflect };
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
  index_t wx, wy;              // row and column extents with ghosts
  index_t z_slabs, y_slabs;    // points in the z slabs, in the y slabs

  GhostShell(const Kokkos::View<T*>& field, const Layout& layout, const FaceFills& fills)
      : f(field), l(layout), wx(layout.n[0] + 2 * layout.halo), wy(layout.n[1] + 2 * layout.halo),
        z_slabs(wx * wy * 2 * layout.halo), y_slabs(wx * 2 * layout.halo * layout.n[2]) {
    for (int a = 0; a < 3; ++a)
      for (int s = 0; s < 2; ++s) fill[2 * a + s] = int(fills[a][s]);
  }
  index_t points() const { return z_slabs + y_slabs + 2 * l.halo * l.n[1] * l.n[2]; }

  // Ghost layer t of 2h (the h low ones first) along an axis of n points, as a coordinate.
  KOKKOS_INLINE_FUNCTION index_t layer(index_t t, index_t n) const { return t < l.halo ? t - l.halo : n + t - l.halo; }

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

  KOKKOS_INLINE_FUNCTION void operator()(index_t i) const {
    const index_t h2 = 2 * l.halo;
    index_t x, y, z;
    if (i < z_slabs) {
      x = i % wx - l.halo, i /= wx;
      y = i % wy - l.halo, z = layer(i / wy, l.n[2]);
    } else if ((i -= z_slabs) < y_slabs) {
      x = i % wx - l.halo, i /= wx;
      y = layer(i % h2, l.n[1]), z = i / h2;
    } else {
      i -= y_slabs;
      x = layer(i % h2, l.n[0]), i /= h2;
      y = i % l.n[1], z = i / l.n[1];
    }
    T sign = T(1);
    bool wall = false, own = false;
    const index_t sx = source(0, x, sign, wall, own), sy = source(1, y, sign, wall, own),
                  sz = source(2, z, sign, wall, own);
    if (own) f(l.at(x, y, z)) = wall ? T(0) : sign * f(l.at(sx, sy, sz));
  }
};

// Enqueues the fill on `exec`; nothing when no face wraps or reflects.
template <class T>
void fill_ghosts(const Kokkos::DefaultExecutionSpace& exec, Field<T>& f, const FaceFills& fills) {
  bool any = false;
  for (const auto& axis : fills)
    for (GhostFill g : axis) any = any || g != GhostFill::keep;
  if (!any || f.layout.halo == 0) return;
  const GhostShell<T> shell(f.data, f.layout, fills);
  Kokkos::parallel_for("wavefd::ghost_fill",
                       Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<index_t>>(
                           exec, 0, shell.points()),
                       shell);
}

}  // namespace wavefd::comm
