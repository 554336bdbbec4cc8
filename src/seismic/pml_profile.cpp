#include "wavefd/pml_profile.hpp"

#include <cmath>
#include <string>

namespace wavefd {

std::string_view to_string(PmlProfile p) {
  switch (p) {
    case PmlProfile::symmetric: return "symmetric";
    case PmlProfile::minimod: return "minimod";
    case PmlProfile::minimod_2021: return "minimod-2021";
  }
  return "?";
}

PmlProfile parse_pml_profile(const std::string& name, const std::string& key) {
  for (PmlProfile p : {PmlProfile::symmetric, PmlProfile::minimod, PmlProfile::minimod_2021})
    if (name == to_string(p)) return p;
  throw Error(key + " = '" + name + "' is unknown; accepted: symmetric, minimod, minimod-2021");
}

int pml_width(double vmax, double fmax, double h, double wavelengths) {
  const double cells = wavelengths * (vmax / fmax) / h;
  if (!(std::isfinite(cells) && cells >= 1))
    throw Error("pml.wavelengths = " + std::to_string(wavelengths) +
                " gives a layer of no cell; accepted: wavelengths x vmax / fmax >= the grid spacing");
  return int(cells);
}

double pml_peak(double dt, double vmax, int width, double h) {
  return dt * 3 * vmax * std::log(1000.0) / (2 * width * h);
}

std::vector<double> pml_profile(index_t n, int width, double peak, PmlProfile kind) {
  if (width < 1 || 2 * index_t(width) > n)
    throw Error("pml.width = " + std::to_string(width) + " cells does not fit twice in an axis of " +
                std::to_string(n) + " points; accepted: 1 <= width <= n / 2");
  std::vector<double> eta(std::size_t(n + 2), 0.0);
  auto at = [&](index_t i) -> double& { return eta[std::size_t(i + 1)]; };
  auto value = [&](double m) { return peak * (m / width) * (m / width); };
  for (index_t i = 0; i < width; ++i) at(i) = value(double(width - i));  // low end: m = width .. 1
  if (kind == PmlProfile::symmetric) {
    for (index_t i = 0; i < width; ++i) at(n - 1 - i) = at(i);
    at(-1) = at(n) = value(width + 1);
  } else if (kind == PmlProfile::minimod) {
    // Written at index i + 1, read at i: m = width at the ghost down to 0 at the innermost cell.
    for (index_t i = -1; i < width; ++i) at(i) = value(double(width - 1 - i));
    for (index_t i = -1; i < width; ++i) at(n - 1 - i) = at(i);
  } else {
    // minimod fills a profile over its 1-based indices 0 .. n+1 and reads it with 0-based ones:
    // the high layer starts two cells late and runs into the ghost.
    for (index_t m = 1; m <= width; ++m) {
      const index_t i = n + 1 - width + m;
      if (i <= n) at(i) = value(double(m));
    }
  }
  return eta;
}

}  // namespace wavefd
