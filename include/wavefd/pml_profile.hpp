#pragma once
// The damping profile of the perfectly matched layer (PML) along one axis, after minimod (Sai et
// al. 2021; docs/seismic.md): in a layer of `width` cells at each end, eta = P (m / width)^2 with
// m = width at the outermost cell and 1 at the innermost, and P = dt 3 vmax ln(1000) / (2 width h).
// In 3-D, eta = eta_x + eta_y + eta_z. Plain C++: the engine fills its field from these values.
#include <string>
#include <string_view>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

enum class PmlProfile {
  symmetric,     // the high end mirrors the low end; the ghost beyond each end continues the parabola
  minimod,       // the code that printed minimod's published results (results/Time.md, August 2020):
                 // eta written one cell out from where it is read, so every value sits one cell
                 // inwards: the ghosts hold P, the innermost layer cell 0; mirrored at the high end
  minimod_2021,  // the reference code since its 2021 rewrite (CPE21-Artifact): the high end sits two
                 // cells further out (its outermost cell has m = width - 2), the low ghost holds 0
};

// "symmetric", "minimod", "minimod-2021": boundary.profile's names.
std::string_view to_string(PmlProfile p);
// boundary.profile = `name`; throws Error naming `key` and the accepted names.
PmlProfile parse_pml_profile(const std::string& name, const std::string& key);

// Cells of the layer: wavelengths x (vmax / fmax) / h, truncated as minimod does (27 for 3 x
// 4500 / 25 / 20). Throws Error naming pml.wavelengths when the layer has no cell.
int pml_width(double vmax, double fmax, double h, double wavelengths);

// P, the damping at m = width.
double pml_peak(double dt, double vmax, int width, double h);

// eta along an axis of n interior points, at indices -1 .. n (one ghost each side): n + 2 values,
// element i + 1 for index i. Throws Error when 2 width > n (the layers would overlap).
std::vector<double> pml_profile(index_t n, int width, double peak, PmlProfile kind);

}  // namespace wavefd
