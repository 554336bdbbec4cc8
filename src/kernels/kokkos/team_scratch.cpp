// team-scratch: Kokkos TeamPolicy 3-D blocking for star stencils (minimod's smem_u kernel). A team
// owns a TX x TY x TZ block of points: its threads copy the block plus an R-wide halo along x, y
// and z from u into team scratch, meet at one barrier, and then compute every point from scratch
// alone. Nothing is kept from one block to the next, so every block loads its whole halo: the
// plain tiling that the streaming variants (team-stream, team-semi) improve on, kept to measure
// what streaming buys. On host backends a team of one thread owns the block.
#include <type_traits>

#include "radius_dispatch.hpp"
#include "team_plane.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;
constexpr bool kOnHost = std::is_same_v<TeamExec::memory_space, Kokkos::HostSpace>;
// Host backends cap level-0 scratch at 32 KB (an L1 hint) but give level 1 the same memory
// without that cap; a host block with its halo needs more at R = 8. (A function, not a constant:
// nvcc cannot odr-use a namespace-scope constant in device code.)
KOKKOS_INLINE_FUNCTION constexpr int scratch_level() { return kOnHost ? 1 : 0; }

template <class T>
using ScratchBox = Kokkos::View<T***, Kokkos::LayoutRight, TeamExec::scratch_memory_space, Kokkos::MemoryUnmanaged>;

// A point of the block or its halo, relative to the block's first point.
struct BlockPoint {
  int x, y, z;
};

// A block and its star halo in team scratch. The block's rows are stored with their x halo, the
// y and z halo as separate caps of R rows / planes on either side, so no edge or corner of the
// (TX+2R)(TY+2R)(TZ+2R) cube takes space: at R = 8, 32 x 4 x 4 in double the cube would need
// 150 KB, the star's cross 38 KB.
template <class T, int R, int TX, int TY, int TZ>
struct StarBlock {
  ScratchBox<T> rows;   // rows(z, y, R + x) for x in [-R, TX + R)
  ScratchBox<T> ycaps;  // ycaps(z, cap(y, TY), x) for y in [-R, 0) and [TY, TY + R)
  ScratchBox<T> zcaps;  // zcaps(cap(z, TZ), y, x) for z in [-R, 0) and [TZ, TZ + R)

  static std::size_t shmem_size() {
    return ScratchBox<T>::shmem_size(TZ, TY, TX + 2 * R) + ScratchBox<T>::shmem_size(TZ, 2 * R, TX) +
           ScratchBox<T>::shmem_size(2 * R, TY, TX);
  }

  KOKKOS_INLINE_FUNCTION explicit StarBlock(const TeamMember& team)
      : rows(team.team_scratch(scratch_level()), TZ, TY, TX + 2 * R),
        ycaps(team.team_scratch(scratch_level()), TZ, 2 * R, TX),
        zcaps(team.team_scratch(scratch_level()), 2 * R, TY, TX) {}

  // Cap index of a halo coordinate v (outside [0, n)) and back: the R before the block first.
  KOKKOS_INLINE_FUNCTION static int cap(int v, int n) { return v < 0 ? v + R : v - n + R; }
  KOKKOS_INLINE_FUNCTION static int uncap(int c, int n) { return c < R ? c - R : n + c - R; }

  // Neighbours along one axis of a block point: only that coordinate may lie in the halo.
  KOKKOS_INLINE_FUNCTION T along_x(int x, int y, int z) const { return rows(z, y, R + x); }
  KOKKOS_INLINE_FUNCTION T along_y(int x, int y, int z) const {
    return y < 0 || y >= TY ? ycaps(z, cap(y, TY), x) : rows(z, y, R + x);
  }
  KOKKOS_INLINE_FUNCTION T along_z(int x, int y, int z) const {
    return z < 0 || z >= TZ ? zcaps(cap(z, TZ), y, x) : rows(z, y, R + x);
  }
};

// Loads and updates alike are dealt by rows (x lines): groups of kLanes threads take a row each and
// sweep it, so on GPUs a warp touches consecutive addresses and on the host one thread runs along
// a row with the row's tests outside its inner loop.
template <class T, int R, int TX, int TY, int TZ, int Threads>
struct TeamScratchStar {
  using Block = StarBlock<T, R, TX, TY, TZ>;
  static constexpr int kLanes = Threads < TX ? Threads : TX;  // threads that share a row
  static_assert(Threads % kLanes == 0);

  Kokkos::View<const T*> u;
  Kokkos::View<T*> u_prev;
  Layout l;
  Kokkos::Array<T, R + 1> c;
  Box box;
  int blocks_x, blocks_y;

  // Copies u into one scratch part, N0 x N1 rows of N2 points along x. `first` maps a row to the
  // block point of its first element. Points past the box's far halo are skipped: no point of
  // the box reads them, and they may lie outside the layout.
  template <int N0, int N1, int N2, class First>
  KOKKOS_INLINE_FUNCTION void stage(const TeamMember& team, const ScratchBox<T>& part, const Index3& origin,
                                    First first) const {
    for (int row = team.team_rank() / kLanes; row < N0 * N1; row += Threads / kLanes) {
      const BlockPoint p = first(row / N1, row % N1);
      const index_t x = origin[0] + p.x, y = origin[1] + p.y, z = origin[2] + p.z;
      if (y >= box.hi[1] + R || z >= box.hi[2] + R) continue;
      const index_t from = l.at(x, y, z), n = box.hi[0] + R - x < N2 ? box.hi[0] + R - x : N2;
      for (int i = team.team_rank() % kLanes; i < n; i += kLanes) part(row / N1, row % N1, i) = u(from + i);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const TeamMember& team) const {
    const int b = team.league_rank();
    const Index3 origin{box.lo[0] + index_t(b % blocks_x) * TX, box.lo[1] + index_t(b / blocks_x % blocks_y) * TY,
                        box.lo[2] + index_t(b / (blocks_x * blocks_y)) * TZ};
    const Block block(team);
    stage<TZ, TY, TX + 2 * R>(team, block.rows, origin, [](int z, int y) { return BlockPoint{-R, y, z}; });
    stage<TZ, 2 * R, TX>(team, block.ycaps, origin, [](int z, int cy) { return BlockPoint{0, Block::uncap(cy, TY), z}; });
    stage<2 * R, TY, TX>(team, block.zcaps, origin, [](int cz, int y) { return BlockPoint{0, y, Block::uncap(cz, TZ)}; });
    team.team_barrier();

    // Every point from scratch alone (on GPUs a warp reads one scratch row per neighbour, free of
    // bank conflicts). A block at the far side of the box may stick out of it: nx, ny, nz clip.
    const index_t nx = box.hi[0] - origin[0], ny = box.hi[1] - origin[1], nz = box.hi[2] - origin[2];
    for (int row = team.team_rank() / kLanes; row < TY * TZ; row += Threads / kLanes) {
      const int y = row % TY, z = row / TY;
      if (y >= ny || z >= nz) continue;
      for (int x = team.team_rank() % kLanes; x < TX && x < nx; x += kLanes) {
        const index_t at = l.at(origin[0] + x, origin[1] + y, origin[2] + z);
        T acc = c[0] * block.along_x(x, y, z) - u_prev(at);
        for (int m = 1; m <= R; ++m)
          acc += c[m] * ((block.along_x(x - m, y, z) + block.along_x(x + m, y, z)) +
                         (block.along_y(x, y - m, z) + block.along_y(x, y + m, z)) +
                         (block.along_z(x, y, z - m) + block.along_z(x, y, z + m)));
        u_prev(at) = acc;
      }
    }
  }
};

class TeamScratch final : public RadiusVariantFor<TeamScratch, kMaxRadius> {
 public:
  std::string name() const override { return "team-scratch"; }
  std::string description() const override {
    return "Kokkos TeamPolicy, star M=1..8: 3-D blocks with their x/y/z halo in team scratch, one barrier";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    if constexpr (kOnHost) {
      launch_blocks<T, R, 64, 8, 8, 1>(a, box);  // one thread per block
    } else {
      // 32 x 4 x 4 points, two per thread (256 threads), x across a warp. The block with its halo
      // takes 10.5 KB of shared memory at R = 4 in float and 38 KB at R = 8 in double, under the
      // 48 KB a block gets without opting in to more.
      launch_blocks<T, R, 32, 4, 4, 256>(a, box);
    }
  }

  template <class T, int R, int TX, int TY, int TZ, int Threads>
  void launch_blocks(const TwoStepArgs<T>& a, const Box& box) const {
    using F = TeamScratchStar<T, R, TX, TY, TZ, Threads>;
    const int blocks_x = int((box.extent(0) + TX - 1) / TX), blocks_y = int((box.extent(1) + TY - 1) / TY);
    const int blocks_z = int((box.extent(2) + TZ - 1) / TZ);
    F f{a.u, a.u_prev, a.layout, {}, box, blocks_x, blocks_y};
    const std::vector<T> c = star_axis_weights(*a.weights);
    for (int m = 0; m <= R; ++m) f.c[m] = c[m];
    Kokkos::TeamPolicy<TeamExec> policy(a.exec, blocks_x * blocks_y * blocks_z, Threads, 1);
    policy.set_scratch_size(scratch_level(), Kokkos::PerTeam(F::Block::shmem_size()));
    Kokkos::parallel_for("wavefd::team_scratch", policy, f);
  }
};

}  // namespace

std::unique_ptr<Variant> make_team_scratch() { return std::make_unique<TeamScratch>(); }

}  // namespace wavefd::kernels
