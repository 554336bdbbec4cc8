#pragma once
// Team-scratch xy planes for the TeamPolicy streaming variants: a TX x TY tile plus an R-wide
// x/y halo (no corners: star stencils), shared by team-stream and team-semi.
#include "wavefd/grid.hpp"

namespace wavefd::kernels {

using TeamExec = Kokkos::DefaultExecutionSpace;
using TeamMember = Kokkos::TeamPolicy<TeamExec>::member_type;

template <class T>
using ScratchPlane = Kokkos::View<T**, Kokkos::LayoutRight, TeamExec::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// Fills the x and y halo of plane z (the tile interior is written by the caller from registers).
// Rows and columns past the box are left alone: only far-halo points are ever read there.
template <int R, int TX, int TY, class T>
KOKKOS_INLINE_FUNCTION void stage_halo(const TeamMember& team, const ScratchPlane<T>& plane,
                                       const Kokkos::View<const T*>& u, const Layout& l, const Box& box,
                                       index_t x0, index_t y0, index_t z) {
  const int rank = team.team_rank(), size = team.team_size();
  for (int i = rank; i < 2 * R * TY; i += size) {  // x halo: R points left and right of each row
    const int row = i / (2 * R), h = i % (2 * R);
    const index_t gx = h < R ? x0 - R + h : x0 + TX + (h - R), gy = y0 + row;
    if (gy < box.hi[1] && gx < box.hi[0] + R) plane(row + R, h < R ? h : TX + R + (h - R)) = u(l.at(gx, gy, z));
  }
  for (int i = rank; i < 2 * R * TX; i += size) {  // y halo: R rows above and below
    const int cx = i % TX, h = i / TX;
    const index_t gx = x0 + cx, gy = h < R ? y0 - R + h : y0 + TY + (h - R);
    if (gx < box.hi[0] && gy < box.hi[1] + R) plane(h < R ? h : TY + R + (h - R), cx + R) = u(l.at(gx, gy, z));
  }
}

// The in-plane part of a star stencil at scratch point (sy, sx): sum over m of c[m] times the
// four in-plane neighbours at distance m.
template <int R, class T, class Coeffs>
KOKKOS_INLINE_FUNCTION T in_plane_star(const ScratchPlane<T>& plane, int sy, int sx, const Coeffs& c) {
  T acc = T(0);
  for (int m = 1; m <= R; ++m)
    acc += c[m] * ((plane(sy, sx - m) + plane(sy, sx + m)) + (plane(sy - m, sx) + plane(sy + m, sx)));
  return acc;
}

}  // namespace wavefd::kernels
