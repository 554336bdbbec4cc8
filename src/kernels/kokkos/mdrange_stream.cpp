// mdrange-stream: Kokkos MDRange over (x pack, y, z-chunk) where each index streams along z with a
// register window of 2R+1 values (star stencils, R = 1..8).
//
// Each index owns V consecutive x points, loaded and stored as one 16-byte pack (pack.hpp) when
// the box rows are 16-byte aligned; otherwise V = 1.
// In-plane neighbours are read straight from global memory: neighbouring threads read the same
// lines, which hit L1/L2, so DRAM sees each value about once, and no barriers are needed. The next
// plane's leading value and u- are loaded before the current plane's arithmetic so that their
// latency overlaps it. With a variable coefficient (the seismic inner box) it streams that field
// along with u-. Fields stored in 16 bits move as packs of 8 and are widened to float as they are
// read (the window keeps them stored, half the registers of widened ones).
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>
#include <utility>

#include "box_policy.hpp"
#include "kernels/fused.hpp"
#include "pack.hpp"
#include "radius_dispatch.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {
namespace {

constexpr int kMaxRadius = 8;

// Coef: the variable-coefficient update u_prev = 2 u + coef * (Laplacian) - u_prev (TwoStepArgs),
// with coef streamed like u_prev; Indexed: as a byte per point into a table (coefficient_index).
// With `next` (Coef only, the velocity form), u_prev holds the velocity: u^{n+1} goes to next and
// u^{n+1} - u over u_prev.
template <class T, int R, int V, int Depth, bool Coef, bool Indexed = false>
struct StreamStar {
  using P = Pack<T, V>;
  using A = arithmetic_t<T>;
  using PA = Pack<A, V>;  // the coefficient's
  static constexpr int XL = (R + V - 1) / V * V;  // x halo read on each side, whole packs

  const T* u;
  T* u_prev;
  const A* coef;  // Coef only; in the arithmetic (float for the 16-bit formats)
  Kokkos::Array<A, R + 1> c;
  Layout l;
  Box box;
  index_t z_chunk;
  const std::uint8_t* coef_index = nullptr;  // Indexed only: coef[p] == coef_table[coef_index[p]]
  const A* coef_table = nullptr;
  T* next = nullptr;  // TwoStepArgs::next

  KOKKOS_FORCEINLINE_FUNCTION static P load(const T* p) { return load_pack<T, V>(p); }
  KOKKOS_FORCEINLINE_FUNCTION PA load_coefficient(index_t p) const {
    if constexpr (Indexed) {
      const Pack<std::uint8_t, V> i = load_pack<std::uint8_t, V>(coef_index + p);
      PA out;
      for (int v = 0; v < V; ++v) out.v[v] = coef_table[i.v[v]];
      return out;
    } else {
      return load_pack<A, V>(coef + p);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(index_t pack, index_t j, index_t chunk) const {
    const index_t zb = box.lo[2] + chunk * z_chunk;
    const index_t ze = zb + z_chunk < box.hi[2] ? zb + z_chunk : box.hi[2];
    const index_t col = l.at(box.lo[0] + pack * V, j, 0), sy = l.sy, sz = l.sz;
    P w[2 * R + 1];  // w[k] = u(x.., j, z - R + k)
    for (int k = 0; k < 2 * R; ++k) w[k] = load(u + col + (zb - R + k) * sz);
    P lead[Depth], prev[Depth];  // loaded Depth planes ahead: u(z + R + d), u-(z + d), coef(z + d)
    PA vp[Depth];
    for (int d = 0; d < Depth; ++d)
      if (zb + d < ze) {
        lead[d] = load(u + col + (zb + R + d) * sz), prev[d] = load(u_prev + col + (zb + d) * sz);
        if constexpr (Coef) vp[d] = load_coefficient(col + (zb + d) * sz);
      }
    for (index_t z = zb; z < ze; ++z) {
      const index_t p = col + z * sz;
      w[2 * R] = lead[0];
      const P cur_prev = prev[0];
      PA cur_vp{};
      if constexpr (Coef) {
        cur_vp = vp[0];
        for (int d = 0; d + 1 < Depth; ++d) vp[d] = vp[d + 1];
      }
      for (int d = 0; d + 1 < Depth; ++d) lead[d] = lead[d + 1], prev[d] = prev[d + 1];
      if (z + Depth < ze) {
        lead[Depth - 1] = load(u + p + (R + Depth) * sz);
        prev[Depth - 1] = load(u_prev + p + Depth * sz);
        if constexpr (Coef) vp[Depth - 1] = load_coefficient(p + Depth * sz);
      }
      A row[2 * XL + V];  // u(x - XL .. x + V - 1 + XL, j, z); the centre pack is w[R]
      for (int n = 0; n < XL / V; ++n) {
        const P left = load(u + p - XL + n * V), right = load(u + p + V + n * V);
        for (int v = 0; v < V; ++v) row[n * V + v] = widen(left.v[v]), row[XL + V + n * V + v] = widen(right.v[v]);
      }
      for (int v = 0; v < V; ++v) row[XL + v] = widen(w[R].v[v]);
      A out[V];
      for (int v = 0; v < V; ++v) out[v] = Coef ? c[0] * row[XL + v] : c[0] * row[XL + v] - widen(cur_prev.v[v]);
      for (int m = 1; m <= R; ++m) {
        const P up = load(u + p - m * sy), down = load(u + p + m * sy);
        for (int v = 0; v < V; ++v)
          out[v] = fused(c[m],
                         (row[XL + v - m] + row[XL + v + m]) + (widen(up.v[v]) + widen(down.v[v])) +
                             (widen(w[R - m].v[v]) + widen(w[R + m].v[v])),
                         out[v]);
      }
      const bool velocity = Coef && next != nullptr;
      P stored, moved;
      for (int v = 0; v < V; ++v) {
        const A prev_v = widen(cur_prev.v[v]);  // u^{n-1}, or the velocity: u^{n-1} = u - it
        const A after =
            Coef ? coefficient_update(row[XL + v], out[v], cur_vp.v[v], velocity ? row[XL + v] - prev_v : prev_v) : out[v];
        stored.v[v] = narrow<T>(after);
        if (velocity) moved.v[v] = narrow<T>(after - row[XL + v]);
      }
      store_pack<T, V>((velocity ? next : u_prev) + p, stored);
      if (velocity) store_pack<T, V>(u_prev + p, moved);
      for (int k = 0; k < 2 * R; ++k) w[k] = w[k + 1];
    }
  }
};

// Blocks of at most 32 x 4 indices. How many of them must fit an SM at once (which caps the
// registers per thread: 255, 170 and 128 for 1, 3 and 4 blocks) and how many planes are loaded
// ahead, per precision and radius: the best of {1, 3, 4} x {1, 2} on an H200 (star M=1..8, 512^3,
// docs/performance.md). More resident threads keep more loads in flight, which pays up to a
// radius of 7 (up to +13 points of copy bandwidth); the larger windows need the registers.
constexpr int kMaxThreads = 128;
constexpr bool kOnHost = std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;
struct StreamLaunch {
  int min_blocks, depth;
};
template <class T, int R>
constexpr StreamLaunch stream_launch() {
  constexpr StreamLaunch in_float[] = {{4, 1}, {4, 1}, {4, 1}, {4, 2}, {4, 1}, {3, 1}, {3, 1}, {1, 1}};
  constexpr StreamLaunch in_double[] = {{4, 2}, {4, 1}, {3, 2}, {3, 2}, {1, 1}, {3, 2}, {1, 2}, {1, 2}};
  return sizeof(T) == 8 ? in_double[R - 1] : in_float[R - 1];  // 16 bits: float's, not yet tuned
}
template <int MinBlocks>
using StreamPolicy = Kokkos::MDRangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::LaunchBounds<kMaxThreads, MinBlocks>,
                                           Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                           Kokkos::IndexType<index_t>>;

class MdrangeStream final : public VariantWith16Bit<MdrangeStream, RadiusVariantFor<MdrangeStream, kMaxRadius>> {
 public:
  std::string name() const override { return "mdrange-stream"; }
  std::string description() const override {
    return "Kokkos MDRange over (x pack, y, z-chunk), star M=1..8: z streaming with a register window, "
           "16-byte packs, in-plane neighbours through L1";
  }
  bool supports_stencil(const Stencil& s, Precision) const override {
    return star_within_radius(s);
  }
  bool takes_coefficient() const override { return true; }
  bool takes_coefficient_index() const override { return true; }
  bool stores_velocity(Precision) const override { return true; }

  // Tile: x packs by y rows per block (at most the 128 threads of the launch bound on GPUs), z
  // planes per chunk.
  std::vector<Tile> tile_candidates(const Stencil&, Precision) const override {
    if (kOnHost) return {{1024, 1, 32}, {16, 4, 16}};
    return {{32, 4, 64}, {32, 4, 128}, {32, 4, 256}, {16, 8, 128}, {64, 2, 128}, {32, 2, 128}};
  }
  bool accepts_tile(const Tile& t) const override {
    return t.is_default() || (std::min({t.x, t.y, t.z}) >= 1 && std::max({t.x, t.y, t.z}) <= kMaxTileExtent &&
                              (kOnHost || t.x * t.y <= kMaxThreads));
  }
  std::string accepted_tiles() const override {
    return "default, or XxYxZ (X packs by Y rows per block" +
           std::string(kOnHost ? "" : ", X*Y <= " + std::to_string(kMaxThreads)) + ", Z planes per chunk, each 1.." +
           std::to_string(kMaxTileExtent) + ")";
  }

  // Called by RadiusVariantFor::run with the radius as a template argument.
  template <class T, int R>
  void launch_radius(const TwoStepArgs<T>& a, const Box& box) const {
    constexpr int V = 16 / sizeof(T);
    // Each field's first pack on its size: 16 bytes, the coefficient's V values (32 bytes in 16 bits).
    const auto aligned = [&]<class E>(const E* base) {
      return reinterpret_cast<std::uintptr_t>(base + a.layout.at(box.lo[0], box.lo[1], box.lo[2])) % (sizeof(E) * V) == 0;
    };
    constexpr StreamLaunch how = stream_launch<T, R>();
    const bool coef = a.coefficient.extent(0) > 0, indexed = coef && a.coefficient_index.extent(0) > 0;
    const bool packs = aligned(a.u.data()) && aligned(a.u_prev.data()) && (a.next.extent(0) == 0 || aligned(a.next.data())) &&
                       (!coef || (indexed ? aligned(a.coefficient_index.data()) : aligned(a.coefficient.data()))) &&
                       (a.layout.sy * sizeof(T)) % 16 == 0 && (a.layout.sz * sizeof(T)) % 16 == 0 &&
                       box.extent(0) % V == 0;
    if (packs && indexed) launch<T, R, V, how.depth, how.min_blocks, true, true>(a, box);
    else if (packs && coef) launch<T, R, V, how.depth, how.min_blocks, true>(a, box);
    else if (packs) launch<T, R, V, how.depth, how.min_blocks, false>(a, box);
    else if (indexed) launch<T, R, 1, 1, 1, true, true>(a, box);
    else if (coef) launch<T, R, 1, 1, 1, true>(a, box);
    else launch<T, R, 1, 1, 1, false>(a, box);
  }

 private:
  template <class T, int R, int V, int Depth, int MinBlocks, bool Coef, bool Indexed = false>
  static void launch(const TwoStepArgs<T>& a, const Box& box) {
    StreamStar<T, R, V, Depth, Coef, Indexed> f{a.u.data(), a.u_prev.data(), a.coefficient.data(), {}, a.layout, box, 0};
    if constexpr (Indexed) f.coef_index = a.coefficient_index.data(), f.coef_table = a.coefficient_table.data();
    if (a.next.extent(0) > 0) {
      if constexpr (!Coef) throw std::logic_error("mdrange-stream: the velocity form needs the coefficient");
      f.next = a.next.data();
    }
    const auto c = star_axis_weights(*a.weights);
    for (int m = 0; m <= R; ++m) f.c[m] = c[m];
    const auto cs = column_streams<StreamPolicy<MinBlocks>>(a.exec, box, R, V, a.tile);
    f.z_chunk = cs.z_chunk;
    Kokkos::parallel_for("wavefd::mdrange_stream", cs.policy, f);
  }
};

}  // namespace

std::unique_ptr<Variant> make_mdrange_stream() { return std::make_unique<MdrangeStream>(); }

}  // namespace wavefd::kernels
