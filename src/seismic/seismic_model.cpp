#include "wavefd/seismic_model.hpp"

namespace wavefd {

std::string_view to_string(OuterBoundary b) { return b == OuterBoundary::zero ? "zero" : "rigid"; }

std::string_view to_string(Absorbing a) {
  switch (a) {
    case Absorbing::none: return "none";
    case Absorbing::pml: return "pml";
    case Absorbing::sponge: return "sponge";
  }
  return "?";
}

OuterBoundary parse_outer_boundary(std::string_view name, std::string_view key) {
  if (name == "zero") return OuterBoundary::zero;
  if (name == "rigid") return OuterBoundary::rigid;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: zero, rigid");
}

Absorbing parse_absorbing(std::string_view name, std::string_view key) {
  if (name == "none") return Absorbing::none;
  if (name == "pml") return Absorbing::pml;
  if (name == "sponge") return Absorbing::sponge;
  throw Error(std::string(key) + " = '" + std::string(name) + "' is unknown; accepted: pml, sponge, none");
}

std::vector<Box> SeismicModel::layer_boxes() const {
  if (width == 0) return {};
  const index_t w = width;
  const Box all{{0, 0, 0}, n};
  std::vector<Box> boxes;
  // z first over everything, then y over the inner z range, then x over the inner y and z ranges.
  for (int axis = 2; axis >= 0; --axis) {
    Box low = all, high = all;
    for (int inner = axis + 1; inner < 3; ++inner)
      low.lo[inner] = high.lo[inner] = w, low.hi[inner] = high.hi[inner] = n[inner] - w;
    low.hi[axis] = w;
    high.lo[axis] = n[axis] - w;
    boxes.push_back(low), boxes.push_back(high);
  }
  return boxes;
}

Box SeismicModel::inner_box() const {
  const index_t w = width;
  return Box{{w, w, w}, {n[0] - w, n[1] - w, n[2] - w}};
}

std::vector<double> SeismicModel::axis_profile(int axis) const {
  if (absorbing == Absorbing::none || width == 0) return std::vector<double>(std::size_t(n[axis] + 2), 0.0);
  return pml_profile(n[axis], width, peak, profile);
}

std::vector<double> SeismicModel::axis_weights() const {
  if (stencil.family != Family::star) throw Error("stencil.family = '" + std::string(to_string(stencil.family)) +
                                                  "': the seismic model takes star stencils; accepted: star");
  std::vector<double> c(std::size_t(stencil.radius + 1), 0.0);
  for (std::size_t k = 0; k < stencil.size(); ++k) {
    const Offset& o = stencil.offsets[k];
    if (o.y == 0 && o.z == 0 && o.x >= 0) c[std::size_t(o.x)] = stencil.weights[k];
  }
  return c;
}

}  // namespace wavefd
