#include "wavefd/velocity.hpp"

#include <algorithm>
#include <cmath>

namespace wavefd {
namespace {

void check_speed(double v, const std::string& key) {
  if (!(std::isfinite(v) && v > 0)) throw Error(key + " = " + format_number(v) + " is outside speed > 0; accepted: a finite speed in m/s, > 0");
}

// A model whose speed depends on depth only: evaluated once per plane.
class DepthModel : public VelocityModel {
 public:
  explicit DepthModel(std::string key) : key_(std::move(key)) {}
  virtual double at_depth(double depth) const = 0;

  std::vector<double> fill(const Box& box, double h) const override {
    std::vector<double> v;
    v.reserve(std::size_t(box.size()));
    for (index_t z = box.lo[2]; z < box.hi[2]; ++z) {
      const double speed = at_depth(double(z) * h);
      if (!(std::isfinite(speed) && speed > 0))
        throw Error(key_ + " gives " + format_number(speed) + " m/s at the depth " + format_number(double(z) * h) +
                    " m (z = " + std::to_string(z) + "); accepted: speeds > 0 over the whole grid");
      v.insert(v.end(), std::size_t(box.extent(0) * box.extent(1)), speed);
    }
    return v;
  }

 private:
  std::string key_;
};

class Constant final : public DepthModel {
 public:
  explicit Constant(double v) : DepthModel("velocity.speed"), v_(v) {}
  std::string describe() const override { return "constant " + format_number(v_) + " m/s"; }
  double at_depth(double) const override { return v_; }

 private:
  double v_;
};

class Layered final : public DepthModel {
 public:
  explicit Layered(std::vector<Layer> layers) : DepthModel("velocity.layer"), layers_(std::move(layers)) {}
  std::string describe() const override {
    std::string s = "layered:";
    for (const Layer& l : layers_) s += " " + format_number(l.speed) + " m/s from " + format_number(l.top) + " m,";
    s.pop_back();
    return s;
  }
  double at_depth(double depth) const override {
    // The deepest layer whose top is at or above the point.
    auto next = std::upper_bound(layers_.begin(), layers_.end(), depth,
                                 [](double d, const Layer& l) { return d < l.top; });
    return std::prev(next)->speed;
  }

 private:
  std::vector<Layer> layers_;
};

class Gradient final : public DepthModel {
 public:
  Gradient(double v0, double g) : DepthModel("velocity.gradient = " + format_number(g)), v0_(v0), g_(g) {}
  std::string describe() const override {
    return "gradient " + format_number(v0_) + " m/s + " + format_number(g_) + " /s x depth";
  }
  double at_depth(double depth) const override { return v0_ + g_ * depth; }

 private:
  double v0_, g_;
};

}  // namespace

std::unique_ptr<VelocityModel> make_constant_velocity(double speed) {
  check_speed(speed, "velocity.speed");
  return std::make_unique<Constant>(speed);
}

std::unique_ptr<VelocityModel> make_layered_velocity(std::vector<Layer> layers) {
  if (layers.empty()) throw Error("velocity.layer is empty; accepted: at least one [[velocity.layer]] with top and speed");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string key = "velocity.layer[" + std::to_string(i) + "]";
    check_speed(layers[i].speed, key + ".speed");
    if (i == 0 && layers[i].top != 0)
      throw Error(key + ".top = " + format_number(layers[i].top) + " is not 0; accepted: top = 0 (the first layer starts at the top)");
    if (i > 0 && !(layers[i].top > layers[i - 1].top))
      throw Error(key + ".top = " + format_number(layers[i].top) + " is not below the layer above it; accepted: top > " +
                  format_number(layers[i - 1].top) + " m");
  }
  return std::make_unique<Layered>(std::move(layers));
}

std::unique_ptr<VelocityModel> make_gradient_velocity(double speed, double gradient) {
  check_speed(speed, "velocity.speed");
  if (!std::isfinite(gradient)) throw Error("velocity.gradient = " + format_number(gradient) + " is not finite; accepted: a finite gradient in 1/s");
  return std::make_unique<Gradient>(speed, gradient);
}

}  // namespace wavefd
