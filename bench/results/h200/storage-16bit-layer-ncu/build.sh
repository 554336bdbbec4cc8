#!/bin/bash
# Device call 1: Kokkos (CUDA, Hopper) from gpu/kokkos-src and wavefd (CUDA, no MPI) into build/cuda-dev.
set -e -o pipefail
ROOT=$PWD
export PATH=/usr/local/cuda/bin:$PATH
GEN="Unix Makefiles"; command -v ninja > /dev/null && GEN=Ninja
echo "$(date +%T) kokkos ($GEN)"
if [ ! -f /tmp/kk/lib/cmake/Kokkos/KokkosConfig.cmake ] && [ ! -f /tmp/kk/lib64/cmake/Kokkos/KokkosConfig.cmake ]; then
  cmake -S gpu/kokkos-src -B /tmp/kk-build -G "$GEN" -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON \
    -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX=/tmp/kk -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_CXX_COMPILER=$ROOT/gpu/kokkos-src/bin/nvcc_wrapper > $OUT/kokkos-config.log 2>&1 || { tail -20 $OUT/kokkos-config.log; exit 1; }
  cmake --build /tmp/kk-build -j 16 > $OUT/kokkos-build.log 2>&1 || { tail -20 $OUT/kokkos-build.log; exit 1; }
  cmake --install /tmp/kk-build > /dev/null
fi
echo "$(date +%T) wavefd"
export NVCC_WRAPPER_DEFAULT_ARCH=sm_90
cmake -S . -B build/cuda-dev -G "$GEN" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=/tmp/kk/bin/nvcc_wrapper -DKokkos_ROOT=/tmp/kk \
  -DCMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus -DWAVEFD_GIT_COMMIT=${1:-unknown} -DWAVEFD_ENABLE_SEGYIO=OFF -DWAVEFD_ENABLE_MESH=OFF \
  -DWAVEFD_ENABLE_AUDIO=OFF -DWAVEFD_ENABLE_MPI=OFF -DWAVEFD_ENABLE_NCCL=OFF -DWAVEFD_ENABLE_KOKKOSKERNELS=OFF > $OUT/wavefd-config.log 2>&1 \
  || { tail -30 $OUT/wavefd-config.log; exit 1; }
cmake --build build/cuda-dev -j 16 --target wavefd > $OUT/wavefd-build.log 2>&1 || { grep -B2 -A8 "error" $OUT/wavefd-build.log | head -60; exit 1; }
echo "$(date +%T) built"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
