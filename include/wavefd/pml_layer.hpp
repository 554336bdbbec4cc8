#pragma once
// The seismic model's PML layer as kernels see it, Kokkos and native alike (plain C++): where phi
// lives, eta, and which points are layer points. The update of one layer point is
// src/model/pml_point.hpp.
#include <cstdint>

#include "wavefd/host_device.hpp"

namespace wavefd {

// The slab table of PmlLayer: per slab (z low, z high, y low, y high, x low, x high) these values.
enum SlabField : int {
  kSlabLoX, kSlabLoY, kSlabLoZ,    // the slab's first point (local coordinates)
  kSlabStart,                      // where its phi starts
  kSlabExtX, kSlabExtY,            // its extents across x and y (phi: x fastest, then y, then z)
  kSlabPacked,                     // whether its rows of phi start on whole 16-byte packs
  kSlabFields
};

template <class T>
struct PmlLayer {
  T* phi = nullptr;      // phi over the six slabs, one after the other, x fastest within each
  const T* eta[3] = {};  // the 1-D damping profiles, at local index + 1 (-1 .. n): eta = their sum
  // The slab table, kSlabFields values per slab, in device memory: indexed by the slab, an array
  // passed by value would be copied to each thread's local memory.
  const std::int64_t* slabs = nullptr;
  std::int64_t ilo[3] = {}, ihi[3] = {};  // the inner box, local coordinates (not clipped)

  bool active() const { return phi != nullptr; }
  WAVEFD_HOST_DEVICE bool inner_row(std::int64_t y) const { return y >= ilo[1] && y < ihi[1]; }
  WAVEFD_HOST_DEVICE bool inner_plane(std::int64_t y, std::int64_t z) const {
    return inner_row(y) && z >= ilo[2] && z < ihi[2];
  }
  // The slab of layer point (x, y, z), by SeismicModel::layer_boxes' rule: z slabs over the whole
  // xy extent, then y slabs, then x slabs.
  WAVEFD_HOST_DEVICE int slab_of(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return z < ilo[2] ? 0 : z >= ihi[2] ? 1 : y < ilo[1] ? 2 : y >= ihi[1] ? 3 : x < ilo[0] ? 4 : 5;
  }
  // The slab table's values (SlabField) of the slab holding layer point (x, y, z).
  WAVEFD_HOST_DEVICE const std::int64_t* slab_fields(std::int64_t x, std::int64_t y, std::int64_t z) const {
    return slabs + kSlabFields * slab_of(x, y, z);
  }
  WAVEFD_HOST_DEVICE std::int64_t phi_at(std::int64_t x, std::int64_t y, std::int64_t z) const {
    const std::int64_t* t = slab_fields(x, y, z);
    return t[kSlabStart] + (x - t[kSlabLoX]) + t[kSlabExtX] * ((y - t[kSlabLoY]) + t[kSlabExtY] * (z - t[kSlabLoZ]));
  }
  // How far phi moves from (x, y, z) to (x, y, z + 1) within the point's slab.
  WAVEFD_HOST_DEVICE std::int64_t phi_plane(std::int64_t x, std::int64_t y, std::int64_t z) const {
    const std::int64_t* t = slab_fields(x, y, z);
    return t[kSlabExtX] * t[kSlabExtY];
  }
  // eta at a point from its three profiles' values (kernels load the x and y ones once per column
  // and row): in this order everywhere, so that every kernel gives the same bits.
  WAVEFD_HOST_DEVICE static T eta_sum(T eta_x, T eta_y, T eta_z) { return (eta_x + eta_y) + eta_z; }
  // eta(+1) - eta(-1) along axis a at index i.
  WAVEFD_HOST_DEVICE T eta_step(int a, std::int64_t i) const { return eta[a][i + 2] - eta[a][i]; }
};

}  // namespace wavefd
