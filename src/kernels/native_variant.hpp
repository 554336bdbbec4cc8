#pragma once
// Wrapping a native star kernel as a registry variant: the arguments it needs from TwoStepArgs,
// and the tiles of the streaming kernels.
#include <algorithm>
#include <string>
#include <vector>

#include "kernels/host/row_blocks.hpp"
#include "kernels/native_star.hpp"
#include "wavefd/variant.hpp"

namespace wavefd::kernels {

template <class T>
native::StarArgs<T> native_star_args(const TwoStepArgs<T>& a, const Box& box, void* stream) {
  native::StarArgs<T> n;
  n.u = a.u.data();
  n.u_prev = a.u_prev.data();
  if (a.next.extent(0) > 0) n.next = a.next.data();
  if (a.coefficient.extent(0) > 0) n.coef = a.coefficient.data();
  if (n.coef && a.coefficient_index.extent(0) > 0)
    n.coef_index = a.coefficient_index.data(), n.coef_table = a.coefficient_table.data(),
    n.coef_table_size = int(a.coefficient_table.extent(0));
  n.sy = a.layout.sy;
  n.sz = a.layout.sz;
  n.origin = a.layout.origin;
  n.alloc = a.layout.alloc;
  for (int d = 0; d < 3; ++d) n.lo[d] = int(box.lo[d]), n.hi[d] = int(box.hi[d]);
  n.radius = a.weights->radius;
  const auto c = star_axis_weights(*a.weights);
  for (int m = 0; m <= n.radius; ++m) n.c[m] = c[m];
  n.rows = a.tile.y;
  n.z_chunk = a.tile.z;
  n.beside_larger_update = a.beside_larger_update;
  n.stream = stream;
  n.images = a.images;
  n.pml = a.pml;
  if (a.z_spans.extent(0) > 0) n.z_spans = a.z_spans.data(), n.span_row = int(a.layout.n[0]);
  return n;
}

inline bool native_star_supports(const Stencil& s) {
  return s.family == Family::star && s.radius >= 1 && s.radius <= native::kMaxStarRadius;
}

// A native streaming star variant (Derived::run<T>, Derived::kRows: the tile heights its kernel is
// compiled for). Its tile is 32 threads across x (16 bytes of points each) x rows x the planes each
// block streams along z (the z chunk, against the automatic choice of the default tile).
template <class Derived>
class NativeStarVariant : public VariantFor<Derived> {
 public:
  bool supports_stencil(const Stencil& s, Precision) const override { return native_star_supports(s); }
  bool takes_coefficient() const override { return true; }
  bool native() const override { return true; }
  std::vector<Tile> tile_candidates(const Stencil&, Precision) const override {
    std::vector<Tile> tiles;
    for (int rows : Derived::kRows)
      for (int planes : {64, 128, 256}) tiles.push_back(Tile{32, rows, planes});
    return tiles;
  }
  bool accepts_tile(const Tile& t) const override {
    const auto& rows = Derived::kRows;
    return t.is_default() || (t.x == 32 && std::find(rows.begin(), rows.end(), t.y) != rows.end() && t.z >= 1 &&
                              t.z <= kMaxTileExtent);
  }
  std::string accepted_tiles() const override {
    std::string rows;
    for (int r : Derived::kRows) rows += (rows.empty() ? "" : " or ") + std::to_string(r);
    return "default, or 32xYxZ (32 threads across x, Y = " + rows + " rows, Z = 1.." +
           std::to_string(kMaxTileExtent) + " planes per block)";
  }
};

// The Kokkos row variants' work items (host/row_blocks.hpp) among threads: statically, so that an
// item runs on the same thread in every launch, its first touch (Variant::touch) included.
using RowItems = Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Static>>;

// The work items of a row variant's update of `box` (the tile's y: rows per block).
template <class T>
host::RowBlocks row_blocks(const TwoStepArgs<T>& a, const Box& box) {
  const int lo[3] = {int(box.lo[0]), int(box.lo[1]), int(box.lo[2])};
  const int hi[3] = {int(box.hi[0]), int(box.hi[1]), int(box.hi[2])};
  return host::RowBlocks(lo, hi, a.weights->radius, int(sizeof(T)), Kokkos::DefaultHostExecutionSpace().concurrency(),
                         a.tile.y);
}

// A host variant over blocks of rows (host/row_blocks.hpp): its tile is 1 x rows per block x 1.
// First touch through its work items as RowItems assigns them.
template <class Derived>
class RowTiled : public VariantFor<Derived> {
 public:
  void touch(Kokkos::View<float*> f, const TwoStepArgs<float>& a, const Box& b) const override { touch_items(f, a, b); }
  void touch(Kokkos::View<double*> f, const TwoStepArgs<double>& a, const Box& b) const override { touch_items(f, a, b); }
  void touch(Kokkos::View<Half*> f, const TwoStepArgs<Half>& a, const Box& b) const override { touch_items(f, a, b); }
  void touch(Kokkos::View<BFloat16*> f, const TwoStepArgs<BFloat16>& a, const Box& b) const override {
    touch_items(f, a, b);
  }
  template <class T>
  static void touch_items(Kokkos::View<T*> field, const TwoStepArgs<T>& a, const Box& box) {
    if (box.empty()) return;
    const host::RowBlocks blocks = row_blocks(a, box);
    const Layout l = a.layout;
    T* const f = field.data();
    Kokkos::parallel_for("wavefd::touch_row_items", RowItems(0, blocks.items), [=](int item) {
      blocks.for_rows(item, [&](int y, int z) { std::fill_n(f + l.row_start(y, z), l.sy, T(0)); });
    });
    Kokkos::DefaultHostExecutionSpace().fence("wavefd::touch_row_items");
  }

  std::vector<Tile> tile_candidates(const Stencil&, Precision) const override {
    std::vector<Tile> tiles;
    for (int rows : {8, 16, 32, 64}) tiles.push_back(Tile{1, rows, 1});
    return tiles;
  }
  bool accepts_tile(const Tile& t) const override {
    return t.is_default() || (t.x == 1 && t.z == 1 && t.y >= 1 && t.y <= kMaxTileExtent);
  }
  std::string accepted_tiles() const override {
    return "default, or 1xYx1 (Y = 1.." + std::to_string(kMaxTileExtent) + " rows per block)";
  }
};

// A host star variant over blocks of rows (host/star_rows.hpp; Derived::run<T>). Each row's ghost
// images are stored while the row is in cache, so one rank needs no fill pass (256^3 star on 2
// cores: the pass took 2-3 ms of a 9-32 ms step).
template <class Derived>
class RowsStarVariant : public RowTiled<Derived> {
 public:
  bool supports_stencil(const Stencil& s, Precision) const override { return native_star_supports(s); }
  bool takes_coefficient() const override { return true; }
  bool native() const override { return true; }
  bool writes_ghost_images() const override { return true; }
};

}  // namespace wavefd::kernels
