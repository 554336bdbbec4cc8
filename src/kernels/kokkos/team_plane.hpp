#pragma once
// Team-scratch xy planes for the TeamPolicy streaming variants: a TX x TY tile plus an R-wide
// x/y halo (no corners: star stencils), shared by team-stream and team-semi.
#include <algorithm>
#include <type_traits>

#include "wavefd/variant.hpp"

namespace wavefd::kernels {

using TeamExec = Kokkos::DefaultExecutionSpace;
using TeamMember = Kokkos::TeamPolicy<TeamExec>::member_type;

template <class T>
using ScratchPlane = Kokkos::View<T**, Kokkos::LayoutRight, TeamExec::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// How a box is cut into teams: TX x TY tiles of the xy plane times chunks along z, enough teams
// for the device but streams long (>= 16 R planes) against their 2R-plane start-up.
struct TeamTiling {
  int tiles_x = 0, tiles_y = 0, z_chunk = 0, league = 0;
};

template <int TX, int TY>
TeamTiling team_tiling(const TeamExec& exec, const Box& box, int radius, int team_size) {
  constexpr bool on_host = std::is_same_v<TeamExec::memory_space, Kokkos::HostSpace>;
  TeamTiling t;
  t.tiles_x = int((box.extent(0) + TX - 1) / TX);
  t.tiles_y = int((box.extent(1) + TY - 1) / TY);
  const long tiles = long(t.tiles_x) * t.tiles_y;
  const long want = on_host ? 4L * exec.concurrency() : 132L * 2048 / team_size * 2;
  const long chunks = std::max(1L, std::min<long>((want + tiles - 1) / tiles, box.extent(2) / (16 * radius)));
  t.z_chunk = int((box.extent(2) + chunks - 1) / chunks);
  t.league = int(tiles * ((box.extent(2) + t.z_chunk - 1) / t.z_chunk));
  return t;
}

// Launches a team streaming functor F (fields u, u_prev, l, c, box, tiles_x, tiles_y, z_chunk;
// static kTeam and scratch_bytes()) over the box with the star weights of `a`.
template <class F, int TX, int TY, int R, class T>
void launch_team(const char* label, const TwoStepArgs<T>& a, const Box& box) {
  const TeamTiling t = team_tiling<TX, TY>(a.exec, box, R, F::kTeam);
  F f{a.u, a.u_prev, a.layout, {}, box, t.tiles_x, t.tiles_y, t.z_chunk};
  const std::vector<T> c = star_axis_weights(*a.weights);
  for (int m = 0; m <= R; ++m) f.c[m] = c[m];
  Kokkos::TeamPolicy<TeamExec> policy(a.exec, t.league, F::kTeam, 1);
  Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(F::scratch_bytes())), f);
}

// Writes the tile's points of plane z into scratch: the values in registers for points inside the
// box, and u itself for the points of a partial tile that lie in the box's far halo.
template <int R, int P, class T>
KOKKOS_INLINE_FUNCTION void stage_centre(const ScratchPlane<T>& plane, const Kokkos::View<const T*>& u,
                                         const Layout& l, const Box& box, index_t x0, index_t y0, index_t z,
                                         const int (&px)[P], const int (&py)[P], const bool (&active)[P],
                                         const T (&value)[P]) {
  for (int q = 0; q < P; ++q) {
    const index_t x = x0 + px[q], y = y0 + py[q];
    if (active[q])
      plane(py[q] + R, px[q] + R) = value[q];
    else if (x < box.hi[0] + R && y < box.hi[1] + R)
      plane(py[q] + R, px[q] + R) = u(l.at(x, y, z));
  }
}

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
