#pragma once
// Velocity models of the seismic model: the speed of sound V at every grid point. Depth is the z
// axis, z = 0 at the top of the global grid; a point's position is its global index times the
// grid spacing h (metres). Plain C++ (no Kokkos): a rank fills the speeds of its own box on the
// host and copies them to the device once.
#include <memory>
#include <string>
#include <vector>

#include "wavefd/types.hpp"

namespace wavefd {

class VelocityModel {
 public:
  virtual ~VelocityModel() = default;
  virtual std::string describe() const = 0;  // one line for the banner and the summary
  // Speeds (m/s) at the global points of `box` (x fastest), spacing h metres: box.size() values.
  virtual std::vector<double> fill(const Box& box, double h) const = 0;
  // Slowest and fastest speed on a global grid of n points (the time step needs vmax).
  virtual double vmin(const Index3& n, double h) const = 0;
  virtual double vmax(const Index3& n, double h) const = 0;
};

// One layer of a layered model: from depth `top` (m) down to the next layer's top.
struct Layer {
  double top = 0;
  double speed = 0;
};

// Each throws Error naming the deck key (velocity.*) and the accepted range.
std::unique_ptr<VelocityModel> make_constant_velocity(double speed);
// Layers with strictly increasing tops, the first at 0; a point exactly at a top belongs to the
// layer below it.
std::unique_ptr<VelocityModel> make_layered_velocity(std::vector<Layer> layers);
// V = speed + gradient * depth (gradient in 1/s); must stay > 0 over the grid, checked by vmin().
std::unique_ptr<VelocityModel> make_gradient_velocity(double speed, double gradient);

}  // namespace wavefd
