#pragma once
// Test data: a value in [-1, 1] from a global index and a seed, so that every rank and every
// engine computes the same initial field, and a misplaced or stale ghost changes the result.
#include "wavefd/grid.hpp"

namespace wavefd {

inline double datum(index_t i, index_t j, index_t k, int seed) {
  const unsigned long long h = (unsigned long long)(i * 73856093LL) ^ (unsigned long long)(j * 19349663LL) ^
                               (unsigned long long)(k * 83492791LL) ^ (unsigned long long)(seed * 2654435761LL);
  return double((h * 0x9E3779B97F4A7C15ULL) >> 40) / double(1ULL << 24) * 2.0 - 1.0;
}

}  // namespace wavefd
