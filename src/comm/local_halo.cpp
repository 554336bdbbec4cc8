#include "wavefd/halo.hpp"

namespace wavefd {

std::string_view to_string(Boundary b) { return b == Boundary::periodic ? "periodic" : "rigid"; }

Boundary parse_boundary(std::string_view name) {
  if (name == "periodic") return Boundary::periodic;
  if (name == "rigid") return Boundary::rigid;
  throw Error("grid.boundary = '" + std::string(name) + "' is unknown; accepted: periodic, rigid");
}

namespace {

// Ghost fill along one axis. The iteration box spans 2*halo ghost layers along `axis` (index t:
// t < h is the low side, layer g = t + 1; otherwise the high side, layer g = t - h + 1) and the
// already-filled extent along the other axes.
template <class T>
struct GhostFill {
  Kokkos::View<T*> f;
  Layout l;
  int axis;
  bool periodic;

  KOKKOS_INLINE_FUNCTION void operator()(index_t a, index_t b, index_t c) const {
    index_t idx[3] = {a, b, c};
    const index_t h = l.halo, n = l.n[axis], t = idx[axis];
    const bool low = t < h;
    const index_t g = low ? t + 1 : t - h + 1;
    const index_t dst = low ? -g : n - 1 + g;
    idx[axis] = dst;
    const index_t d = l.at(idx[0], idx[1], idx[2]);
    if (periodic) {
      idx[axis] = low ? n - g : g - 1;
      f(d) = f(l.at(idx[0], idx[1], idx[2]));
    } else if (g == 1) {
      f(d) = T(0);  // the wall node itself
    } else {
      idx[axis] = low ? g - 2 : n + 1 - g;  // mirror image of dst about the wall node
      f(d) = -f(l.at(idx[0], idx[1], idx[2]));
    }
  }
};

template <class T>
class LocalHalo final : public Halo<T> {
 public:
  explicit LocalHalo(Boundary b) : boundary_(b) {}
  std::string name() const override { return std::string("local-") + std::string(to_string(boundary_)); }
  void start(Field<T>&) override {}
  void finish(Field<T>& f) override {
    const Layout& l = f.layout;
    if (l.halo == 0) return;
    using Policy = Kokkos::MDRangePolicy<Kokkos::Rank<3, Kokkos::Iterate::Left, Kokkos::Iterate::Left>,
                                         Kokkos::IndexType<index_t>>;
    for (int axis = 0; axis < 3; ++axis) {
      Kokkos::Array<index_t, 3> lo, hi;
      for (int d = 0; d < 3; ++d) {
        // axes before this one already have their ghosts: include them
        lo[d] = d < axis ? -l.halo : 0;
        hi[d] = d < axis ? l.n[d] + l.halo : l.n[d];
      }
      lo[axis] = 0;
      hi[axis] = 2 * l.halo;
      Kokkos::parallel_for("wavefd::halo_fill", Policy(lo, hi),
                           GhostFill<T>{f.data, l, axis, boundary_ == Boundary::periodic});
    }
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
