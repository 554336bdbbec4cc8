#pragma once
// The local subdomain: interior points, a halo of width = stencil radius, and padded rows.
//
// Storage is one flat array per field with x fastest. Rows (x lines) are padded so that every
// row's first interior point starts on a line (when padding is on: kRowAlignBytes), which keeps
// coalesced/vector loads aligned for every y and z. Global offsets place the subdomain in the
// global grid so that a decomposition over MPI ranks needs no redesign.
#include <Kokkos_Core.hpp>
#include <vector>

#include "wavefd/storage_format.hpp"
#include "wavefd/types.hpp"

namespace wavefd {

// Where this rank's box sits in the global grid.
struct Domain {
  Index3 global{0, 0, 0};  // global interior points per axis
  Index3 local{0, 0, 0};   // this subdomain's interior points per axis
  Index3 offset{0, 0, 0};  // global index of local interior point (0,0,0)

  static Domain single(const Index3& n) { return Domain{n, n, {0, 0, 0}}; }
};

struct Layout {
  Index3 n{0, 0, 0};   // interior points per axis
  int halo = 0;        // ghost layers on every side
  index_t sy = 0;      // stride between y neighbours (row pitch, in elements)
  index_t sz = 0;      // stride between z neighbours (plane pitch)
  index_t origin = 0;  // flat index of interior point (0,0,0)
  index_t alloc = 0;   // elements to allocate

  KOKKOS_INLINE_FUNCTION index_t at(index_t i, index_t j, index_t k) const {
    return origin + i + j * sy + k * sz;
  }
  // Flat index where the pitch of row (j, k) starts (its padding and ghost columns first).
  KOKKOS_INLINE_FUNCTION index_t row_start(index_t j, index_t k) const { return (j + halo) * sy + (k + halo) * sz; }
  Box interior() const { return Box{{0, 0, 0}, n}; }
  Box with_halo() const {
    return Box{{-halo, -halo, -halo}, {n[0] + halo, n[1] + halo, n[2] + halo}};
  }
  index_t interior_points() const { return n[0] * n[1] * n[2]; }
};

// Whether the default execution space runs on the host (no device backend): host builds.
inline constexpr bool kHostBuild = std::is_same_v<Kokkos::DefaultExecutionSpace::memory_space, Kokkos::HostSpace>;

// Row alignment: a 128-byte line on GPU builds (a warp's coalesced access), a 64-byte cache line on
// host builds, where a wider one leaves padding lines between rows that the hardware prefetchers
// stream in with the rows (256 floats: 20 lines per row fetched for 18 used at 128 bytes).
inline constexpr int kRowAlignBytes = kHostBuild ? 64 : 128;

// The largest extent of a grid along one axis.
inline constexpr index_t kMaxExtent = index_t(1) << 31;

// Throws Error when an extent is outside 1..kMaxExtent or smaller than the halo.
Layout make_layout(const Index3& n, int halo, bool pad_rows, std::size_t elem_bytes);

// One field (u^n or u^{n-1}) on the device.
template <class T>
struct Field {
  Kokkos::View<T*> data;
  Layout layout;
};

template <class T>
Field<T> make_field(const std::string& label, const Layout& layout) {
  return Field<T>{Kokkos::View<T*>(Kokkos::view_alloc(label, Kokkos::WithoutInitializing),
                                   layout.alloc),
                  layout};
}

// The field's interior on the host, x fastest (fences, then copies from the device): what tests,
// checks and tools compare.
template <class T>
std::vector<double> interior_values(const Field<T>& f) {
  Kokkos::fence("wavefd::interior_values");
  const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, f.data);
  const Layout& l = f.layout;
  std::vector<double> out;
  out.reserve(std::size_t(l.interior_points()));
  for (index_t k = 0; k < l.n[2]; ++k)
    for (index_t j = 0; j < l.n[1]; ++j)
      for (index_t i = 0; i < l.n[0]; ++i) out.push_back(double(host(l.at(i, j, k))));
  return out;
}

}  // namespace wavefd
