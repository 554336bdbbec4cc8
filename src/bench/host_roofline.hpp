#pragma once
// The host's roofline for bench (host builds): a copy probe sized well beyond the last-level
// cache and a compute probe (fused multiply-adds per second on every thread), so that each host
// result is reported against min(memory, compute) as well as against copy.
#include <cstddef>

#include "wavefd/measure.hpp"

namespace wavefd {

// Bytes of last-level cache on this node: the largest cache level's size (sysfs) times its
// instances (sockets, or core complexes that do not share it); where sysfs has no cache entries
// (some virtual machines), the C library's figure for the largest level; 0 when neither says.
std::size_t last_level_cache_bytes();

// Bytes per array of the host's copy probe, for `ranks` ranks probing at once: 4 x the last-level
// cache shared among them, at least 256 MiB in all and `field_bytes` each, at most 1 GiB and an
// eighth of the node's memory in all. Why: 128 MiB arrays partly fit the cache of the development
// machine's host, and its probe read 45 to 87 GB/s from run to run.
std::size_t host_copy_probe_bytes(std::size_t field_bytes, int ranks);

// The host's copy bandwidth: every thread copies its own contiguous part of `bytes` with STREAM's
// copy loop (GB/s counts 2 x bytes, as STREAM and the device probe do), the parts first touched by
// the same threads; best of `reps`. Why not Kokkos::deep_copy: on the development machine it read
// 39 to 61 GB/s over 2 GiB arrays in consecutive runs (memcpy per thread: 51 to 58).
CopyProbe probe_host_copy_bandwidth(std::size_t bytes, int reps);

// Fused multiply-adds per second (precision of `bytes` = 4 or 8) on every thread of the default
// host execution space: independent chains in registers, best of `reps`. Where the build has no
// FMA instruction, a multiply and an add count as one.
struct FmaProbe {
  double fma_per_s = 0;
  Stats seconds;
  double fmas = 0;  // per repetition
};
FmaProbe probe_fma_rate(int bytes, int reps);

}  // namespace wavefd
