#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): the distributed bit-for-bit test on 2 GPUs.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; mkdir -p "$O"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=3d0b71c > "$O/configure.log" 2>&1
cmake --build --preset cuda -j 34 --target test_mpi_halo > "$O/build.log" 2>&1 || { tail -30 "$O/build.log"; exit 1; }
echo "== built at ${SECONDS}s"
timeout $((215 - SECONDS)) mpirun --allow-run-as-root -np 2 build/cuda/ctest/test_mpi_halo \
  --gtest_filter='MpiHalo.DistributedEqualsSingleRankBitForBit' > "$O/test.txt" 2>&1
echo "== rc $? at ${SECONDS}s"; grep -v "^\[ RUN\|^\[       OK" "$O/test.txt" | tail -40
