#!/usr/bin/env bash
# Issue 38, run 5 (four GPUs): peer copies rows shorter than 128 bytes (x faces) with a kernel
# instead of the copy engines: MpiHalo through peer, then x splits of 512^3 per GPU and the
# default weak point.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/run5.tar" .; }
nvidia-smi -L | tee -a "$LOG"
if [ ! -f "$Kokkos_ROOT/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
  log "Kokkos"
  cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
    -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
    cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
fi
log "wavefd ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log" | tee -a "$LOG"; exit 1; }
B=$PWD/build/cuda/wavefd
timeout 60 env WAVEFD_TEST_TRANSPORTS=peer mpirun --allow-run-as-root -np 4 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_peer_np_4.log" 2>&1
echo "test_mpi_halo, peer only, np 4: rc $?; $(grep -c '^\[       OK' "$R/test_mpi_halo_peer_np_4.log") OK, $(grep -c 'Failure' "$R/test_mpi_halo_peer_np_4.log") failures" | tee -a "$LOG"
log "x splits: weak 512^3 per GPU on 2x1x2, 2x2x1, 1x2x2 (peer, the default)"
for g in 2,1,2 2,2,1 1,2,2; do
  IFS=, read -r px py pz <<< "$g"
  timeout 60 mpirun --allow-run-as-root -np 4 $B bench --family star --M 4 --n $((512*px)) $((512*py)) $((512*pz)) --ranks $g \
    --variant cuda-star-tma --precision float --steps 20 --reps 5 --json "$R/xsplit-$g.json" > "$R/xsplit-$g.log" 2>&1
  echo "x split $g: $(grep -E 'transport|cuda-star-tma ' "$R/xsplit-$g.log" | tr -s ' ' | tr '\n' ' ')" | tee -a "$LOG"
  save
done
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --steps 20 --reps 5 \
  --json "$R/one.json" > "$R/one.log" 2>&1
echo "one GPU: $(grep -E 'cuda-star-tma ' "$R/one.log" | tr -s ' ')" | tee -a "$LOG"
log done
save
