#include "wavefd/halo.hpp"

namespace wavefd {

std::string_view to_string(Boundary b) { return b == Boundary::periodic ? "periodic" : "rigid"; }

Boundary parse_boundary(std::string_view name) {
  if (name == "periodic") return Boundary::periodic;
  if (name == "rigid") return Boundary::rigid;
  throw Error("grid.boundary = '" + std::string(name) + "' is unknown; accepted: periodic, rigid");
}

namespace {

// Every ghost point in one pass. Each coordinate outside [0, n) maps to its source on its own
// (periodic: wrap; rigid: odd reflection about the wall node, 0 on the wall node itself), which
// gives what filling axis after axis gives, edges and corners included, and reads interior points
// only, so no pass has to wait for another. The shell is enumerated as three slabs so that no
// thread visits an interior point: the z ghost planes (all x, y), the y ghost rows of interior
// planes (all x), and the x ghost points of interior rows; x is fastest in each.
template <class T>
struct GhostShell {
  Kokkos::View<T*> f;
  Layout l;
  bool periodic;
  index_t wx, wy;              // row and column extents with ghosts
  index_t z_slabs, y_slabs;    // points in the z slabs, in the y slabs

  GhostShell(const Kokkos::View<T*>& field, const Layout& layout, bool is_periodic)
      : f(field), l(layout), periodic(is_periodic), wx(layout.n[0] + 2 * layout.halo),
        wy(layout.n[1] + 2 * layout.halo), z_slabs(wx * wy * 2 * layout.halo),
        y_slabs(wx * 2 * layout.halo * layout.n[2]) {}
  index_t points() const { return z_slabs + y_slabs + 2 * l.halo * l.n[1] * l.n[2]; }

  // Ghost layer t of 2h (the h low ones first) along an axis of n points, as a coordinate.
  KOKKOS_INLINE_FUNCTION index_t layer(index_t t, index_t n) const { return t < l.halo ? t - l.halo : n + t - l.halo; }

  // Where coordinate v along an axis of n points takes its value from; flips `sign` for a
  // reflection and sets `wall` on a wall node.
  KOKKOS_INLINE_FUNCTION index_t source(index_t v, index_t n, T& sign, bool& wall) const {
    if (v >= 0 && v < n) return v;
    if (periodic) return v < 0 ? v + n : v - n;
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
    bool wall = false;
    const index_t sx = source(x, l.n[0], sign, wall), sy = source(y, l.n[1], sign, wall),
                  sz = source(z, l.n[2], sign, wall);
    f(l.at(x, y, z)) = wall ? T(0) : sign * f(l.at(sx, sy, sz));
  }
};

template <class T>
class LocalHalo final : public Halo<T> {
 public:
  explicit LocalHalo(Boundary b) : boundary_(b) {}
  std::string name() const override { return std::string("local-") + std::string(to_string(boundary_)); }
  void start(Field<T>&) override {}
  void finish(Field<T>& f) override {
    if (f.layout.halo == 0) return;
    const GhostShell<T> shell(f.data, f.layout, boundary_ == Boundary::periodic);
    Kokkos::parallel_for("wavefd::halo_fill",
                         Kokkos::RangePolicy<Kokkos::IndexType<index_t>>(0, shell.points()), shell);
  }

 private:
  Boundary boundary_;
};

}  // namespace

template <class T>
std::unique_ptr<Halo<T>> make_local_halo(Boundary b) {
  return std::make_unique<LocalHalo<T>>(b);
}

template std::unique_ptr<Halo<float>> make_local_halo<float>(Boundary);
template std::unique_ptr<Halo<double>> make_local_halo<double>(Boundary);

}  // namespace wavefd
