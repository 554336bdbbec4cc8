// team-stream: Kokkos TeamPolicy 2.5-D streaming for star stencils (minimod's st_reg_fixed idea).
// A team owns a TX x TY tile of the xy plane and streams along z: each thread keeps its points'
// 2R+1 values along z in a register window, and the current plane plus an R-wide x/y halo is
// staged in team scratch for the in-plane neighbours. Tile and radius are template parameters.
// On GPUs a thread owns P = 2 points of the tile; on host backends a team of one thread
// owns the whole tile, so the same code runs (and is verified) everywhere.
#include <type_traits>
#include <utility>

#include "radius_dispatch.hpp"
#include "team_plane.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;

constexpr bool kOnHost = std::is_same_v<TeamExec::memory_space, Kokkos::HostSpace>;

template <class T, int R, int TX, int TY, int P>
struct TeamStreamStar {
  using Plane = ScratchPlane<T>;
  static constexpr int kTeam = TX * TY / P;

  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Layout l;
  Kokkos::Array<T, R + 1> c;
  Box box;
  int tiles_x, tiles_y, z_chunk;

  static std::size_t scratch_bytes() { return Plane::shmem_size(TY + 2 * R, TX + 2 * R); }

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    Plane plane(team.team_scratch(0), TY + 2 * R, TX + 2 * R);
    const int league = team.league_rank();
    const int bx = league % tiles_x, by = (league / tiles_x) % tiles_y, bz = league / (tiles_x * tiles_y);
    const index_t x0 = box.lo[0] + index_t(bx) * TX, y0 = box.lo[1] + index_t(by) * TY;
    const index_t zb = box.lo[2] + index_t(bz) * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const int rank = team.team_rank();

    // The window of point q: w[q][j] = u(x, y, z - R + j).
    T w[P][2 * R + 1];
    bool active[P];
    index_t col[P];
    int px[P], py[P];
    for (int q = 0; q < P; ++q) {
      const int p = rank + q * kTeam;
      px[q] = p % TX, py[q] = p / TX;
      const index_t x = x0 + px[q], y = y0 + py[q];
      active[q] = x < box.hi[0] && y < box.hi[1];
      col[q] = l.at(x, y, 0);
      if (active[q])
        for (int j = 0; j < 2 * R; ++j) w[q][j] = u(col[q] + (zb - R + j) * l.sz);
    }

    for (index_t z = zb; z < ze; ++z) {
      T prev[P];
      for (int q = 0; q < P; ++q)
        if (active[q]) {
          w[q][2 * R] = u(col[q] + (z + R) * l.sz);
          prev[q] = u_prev(col[q] + z * l.sz);
        }
      team.team_barrier();  // the previous plane is no longer read
      T centre[P];
      for (int q = 0; q < P; ++q) centre[q] = w[q][R];
      stage_centre<R, P>(plane, u, l, box, x0, y0, z, px, py, active, centre);
      stage_halo<R, TX, TY>(team, plane, u, l, box, x0, y0, z);
      team.team_barrier();
      for (int q = 0; q < P; ++q) {
        if (active[q]) {
          const int sx = px[q] + R, sy = py[q] + R;
          T acc = c[0] * w[q][R] - prev[q] + in_plane_star<R>(plane, sy, sx, c);
          for (int m = 1; m <= R; ++m) acc += c[m] * (w[q][R - m] + w[q][R + m]);
          u_prev(col[q] + z * l.sz) = acc;
        }
        for (int j = 0; j < 2 * R; ++j) w[q][j] = w[q][j + 1];
      }
    }
  }
};

class TeamStream final : public RadiusVariantFor<TeamStream, kMaxRadius> {
 public:
  std::string name() const override { return "team-stream"; }
  std::string description() const override {
    return "Kokkos TeamPolicy, star M=1..8: 2.5-D z streaming, register window in z, xy tile in team scratch";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    if constexpr (kOnHost) {
      launch_tile<T, R, 64, 4, 64 * 4>(a, box);  // one thread streams a 64 x 4 tile
    } else {
      // 32 x 8 points, two per thread (128 threads): the best of six tiles measured on the H200.
      launch_tile<T, R, 32, 8, 2>(a, box);
    }
  }

  template <class T, int R, int TX, int TY, int P>
  void launch_tile(const TwoStepArgs<T>& a, const Box& box) const {
    using F = TeamStreamStar<T, R, TX, TY, P>;
    launch_team<F, TX, TY, R>("wavefd::team_stream", a, box);
  }
};

}  // namespace

std::unique_ptr<Variant> make_team_stream() { return std::make_unique<TeamStream>(); }

}  // namespace wavefd::kernels
