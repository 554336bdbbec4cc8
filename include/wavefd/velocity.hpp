#pragma once
// Velocity models of the seismic model: the speed of sound V at every grid point. Depth is the z
// axis, z = 0 at the top of the global grid; a point's position is its global index times the
// grid spacing h (metres). Plain C++ (no Kokkos): a rank fills the speeds of its own box on the
// host and copies them to the device once; the slowest and fastest speed of the model (the time
// step needs vmax) are those of the filled boxes, reduced over the ranks.
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
  // Throws Error naming the model's deck key and the point for a speed that is not finite and
  // > 0, and for a file that cannot be read.
  virtual std::vector<double> fill(const Box& box, double h) const = 0;
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
// V = speed + gradient * depth (gradient in 1/s); fill() refuses a point where V <= 0.
std::unique_ptr<VelocityModel> make_gradient_velocity(double speed, double gradient);

// A raw float32 file (velocity.file): one line of JSON, then nx * ny * nz little-endian float32
// speeds, x fastest, e.g.
//   {"wavefd": "velocity", "n": [400, 300, 200], "spacing": 20, "dtype": "float32"}
// Its n and spacing must be the run's grid.n and grid.spacing. Only the header is read here;
// fill() reads the rows of its box. numpy: `hdr = json.loads(f.readline());
// v = np.fromfile(f, "<f4").reshape(hdr["n"][::-1])`.
std::unique_ptr<VelocityModel> open_raw_velocity(const std::string& path, const Index3& n, double h);
// Writes such a file (tests and conversions); throws Error naming `path` when it cannot.
// A SEG-Y model (velocity.model = segy, a build with segyio) is opened by open_segy_velocity
// (segy.hpp).
void write_raw_velocity(const std::string& path, const Index3& n, double h, const std::vector<float>& speeds);

}  // namespace wavefd
