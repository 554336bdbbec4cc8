// team-semi: Kokkos TeamPolicy 2.5-D streaming for star stencils with the semi-stencil along z
// (minimod's st_semi). Each plane's value is loaded once into a register and pushed into the
// partial sums of the outputs it feeds: c[m] u(p) goes to the outputs p - m (their forward half)
// and p + m (their backward half); the in-plane part of output p is added while plane p sits in
// team scratch. Output p - R is complete once plane p is in, so the outputs trail the loads by R
// planes and no z window of inputs is kept.
#include "radius_dispatch.hpp"
#include "team_plane.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;
constexpr bool kOnHost = std::is_same_v<TeamExec::memory_space, Kokkos::HostSpace>;

template <class T, int R, int TX, int TY, int P>
struct TeamSemiStar {
  static constexpr int kTeam = TX * TY / P;

  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Layout l;
  Kokkos::Array<T, R + 1> c;
  Box box;
  int tiles_x, tiles_y, z_chunk;

  static std::size_t scratch_bytes() { return ScratchPlane<T>::shmem_size(TY + 2 * R, TX + 2 * R); }

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    ScratchPlane<T> plane(team.team_scratch(0), TY + 2 * R, TX + 2 * R);
    const int league = team.league_rank();
    const int bx = league % tiles_x, by = (league / tiles_x) % tiles_y, bz = league / (tiles_x * tiles_y);
    const index_t x0 = box.lo[0] + index_t(bx) * TX, y0 = box.lo[1] + index_t(by) * TY;
    const index_t zb = box.lo[2] + index_t(bz) * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];

    T acc[P][2 * R + 1];  // acc[q][k]: partial sum of output plane p - R + k after plane p
    bool active[P];
    index_t col[P];
    int px[P], py[P];
    for (int q = 0; q < P; ++q) {
      const int i = team.team_rank() + q * kTeam;
      px[q] = i % TX, py[q] = i / TX;
      active[q] = x0 + px[q] < box.hi[0] && y0 + py[q] < box.hi[1];
      col[q] = l.at(x0 + px[q], y0 + py[q], 0);
      for (int k = 0; k <= 2 * R; ++k) acc[q][k] = T(0);
    }

    for (index_t p = zb - R; p < ze + R; ++p) {
      const bool ours = p >= zb && p < ze;  // planes whose own outputs this team computes
      T v[P];
      for (int q = 0; q < P; ++q) v[q] = active[q] ? u(col[q] + p * l.sz) : T(0);
      if (ours) {
        team.team_barrier();  // the previous plane is no longer read
        stage_centre<R, P>(plane, u, l, box, x0, y0, p, px, py, active, v);
        stage_halo<R, TX, TY>(team, plane, u, l, box, x0, y0, p);
        team.team_barrier();
      }
      for (int q = 0; q < P; ++q) {
        if (!active[q]) continue;
        if (ours) acc[q][R] += c[0] * v[q] + in_plane_star<R>(plane, py[q] + R, px[q] + R, c);
        for (int m = 1; m <= R; ++m) {
          acc[q][R - m] += c[m] * v[q];  // the forward half of output p - m
          acc[q][R + m] += c[m] * v[q];  // the backward half of output p + m
        }
        const index_t out = p - R;  // every plane out - R .. out + R is in now
        if (out >= zb) {
          const index_t o = col[q] + out * l.sz;
          u_prev(o) = acc[q][0] - u_prev(o);
        }
        for (int k = 0; k < 2 * R; ++k) acc[q][k] = acc[q][k + 1];
        acc[q][2 * R] = T(0);
      }
    }
  }
};

class TeamSemi final : public RadiusVariantFor<TeamSemi, kMaxRadius> {
 public:
  std::string name() const override { return "team-semi"; }
  std::string description() const override {
    return "Kokkos TeamPolicy, star M=1..8: xy tile in team scratch, semi-stencil partial sums along z";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    // GPU: 32 x 8 points, two per thread. Host: one thread streams a 64 x 4 tile.
    constexpr int TX = kOnHost ? 64 : 32, TY = kOnHost ? 4 : 8, P = kOnHost ? TX * TY : 2;
    using F = TeamSemiStar<T, R, TX, TY, P>;
    launch_team<F, TX, TY, R>("wavefd::team_semi", a, box);
  }
};

}  // namespace

std::unique_ptr<Variant> make_team_semi() { return std::make_unique<TeamSemi>(); }

}  // namespace wavefd::kernels
