#pragma once
// What a run may allocate, checked before it allocates: a grid too large for the memory of the
// ranks (or too large to count) is refused in one line naming the grid and the ranks, instead of
// failing in an allocation with the allocator's words.
#include <string>

#include "wavefd/types.hpp"

namespace wavefd {

// Throws Error naming `key` when an extent of `n` exceeds 2^31 or the points (with a halo of
// `halo` on every side) do not fit a 64-bit count.
void check_grid_extents(const Index3& n, int halo, const std::string& key);

// What a two-step run allocates per rank: u and u- with their halos and padding, and the halo's
// send and receive buffers (staged on the host too for the mpi transport).
double two_step_bytes(const Index3& local, int radius, bool pad, std::size_t elem_bytes);

// The bytes this rank can still allocate where the fields live: the device's free memory on
// device builds, else the host's available memory (MemAvailable, the cgroup's limit and the
// process's address-space limit, whichever is least), shared among the ranks of this node (of
// this device). Collective.
double allocatable_bytes_per_rank();

// Throws Error on a rank whose `bytes` exceed allocatable_bytes_per_rank(): "<what> needs X GiB per
// rank (<contents>); rank r has Y GiB (<where>); accepted: ...". Collective (call inside agree()).
void check_memory(double bytes, const std::string& what, const std::string& contents);

}  // namespace wavefd
