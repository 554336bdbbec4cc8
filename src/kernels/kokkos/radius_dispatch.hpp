#pragma once
// Kernels with a compile-time radius: turn the run-time radius into a template argument.
#include <string>
#include <type_traits>
#include <utility>

#include "wavefd/variant.hpp"

namespace wavefd::kernels {

// Calls launch(std::integral_constant<int, R>{}) for R = radius, 1 <= R <= MaxRadius; throws Error
// (naming `variant`) for a radius that is not compiled in.
template <int MaxRadius, class Launch>
void with_radius(int radius, const std::string& variant, Launch&& launch) {
  const bool found = [&]<int... Rs>(std::integer_sequence<int, Rs...>) {
    return ((radius == Rs + 1 ? (launch(std::integral_constant<int, Rs + 1>{}), true) : false) || ...);
  }(std::make_integer_sequence<int, MaxRadius>{});
  if (!found)
    throw Error(variant + ": radius " + std::to_string(radius) + " is not compiled in; accepted: 1.." +
                std::to_string(MaxRadius));
}

// A variant whose kernels take the radius as a template parameter: run() dispatches to
// Derived::launch_radius<T, R>(args, box), which must be public.
template <class Derived, int MaxRadius>
class RadiusVariantFor : public VariantFor<Derived> {
 public:
  static constexpr int kMaxRadius = MaxRadius;

  template <class T>
  void run(const TwoStepArgs<T>& a, const Box& box) const {
    if (box.empty()) return;
    const auto& self = static_cast<const Derived&>(*this);
    with_radius<MaxRadius>(a.weights->radius, self.name(),
                           [&](auto R) { self.template launch_radius<T, decltype(R)::value>(a, box); });
  }

 protected:
  // Star (leggy) stencils up to the compiled radius.
  static bool star_within_radius(const Stencil& s) {
    return s.family == Family::star && s.radius >= 1 && s.radius <= MaxRadius;
  }
};

}  // namespace wavefd::kernels
