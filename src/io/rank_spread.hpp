#pragma once
// A per-rank figure as the JSON results report it: {min, mean, max} over all ranks.
#include <nlohmann/json.hpp>

#include "wavefd/parallel.hpp"

namespace wavefd {

// Collective: every rank must call it, in the same order.
inline nlohmann::json spread_over_ranks(double v) {
  return {{"min", min_over_ranks(v)}, {"mean", sum_over_ranks(v) / world_size()}, {"max", max_over_ranks(v)}};
}

}  // namespace wavefd
