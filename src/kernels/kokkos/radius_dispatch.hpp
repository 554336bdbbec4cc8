#pragma once
// Kernels with a compile-time radius: turn the run-time radius into a template argument.
#include <string>
#include <type_traits>
#include <utility>

#include "wavefd/types.hpp"

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

}  // namespace wavefd::kernels
