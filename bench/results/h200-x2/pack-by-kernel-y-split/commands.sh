#!/usr/bin/env bash
# Issue 38 at $1 on two GPUs: the y split (1x2x1, 512^3 per GPU) with the faces packed by the
# update kernel against the pack kernel, and the MpiHalo test on 2 GPUs.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"
log "Kokkos"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "wavefd ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
log "built"
B=build/cuda/wavefd
for round in 1 2; do
  for pack in separate kernel; do
    mpirun --allow-run-as-root -np 2 $B bench --family star --M 4 --n 512 1024 512 --ranks 1,2,1 --precision float \
      --variant cuda-star-tma --transport nccl --overlap true --pack $pack --steps 20 --reps 5 \
      --json "$R/y-split-$pack-$round.json" > "$R/y-split-$pack-$round.txt" 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=[c for c in d['cases'] if 'full_step' in c][0]; f=c['full_step']; print(sys.argv[2], 'step %.4f ms' % (f['seconds']['min']*1e3), 'pack by', f['pack'], 'pack/unpack us %.1f/%.1f' % (f['halo_phases_per_step_s']['pack']*1e6, f['halo_phases_per_step_s']['unpack']*1e6), 'verified' if c['verification']['passed'] else 'NOT VERIFIED')" "$R/y-split-$pack-$round.json" "y-split $pack $round" 2>&1 | tee -a "$LOG" || tail -5 "$R/y-split-$pack-$round.txt" | tee -a "$LOG"
  done
done
log "MpiHalo on 2 GPUs"
left=$((570 - SECONDS))
timeout $left mpirun --allow-run-as-root -np 2 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_np_2.log" 2>&1
echo "test_mpi_halo np 2: rc $?" | tee -a "$LOG"; tail -5 "$R/test_mpi_halo_np_2.log" | tee -a "$LOG"
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/two-gpu.tar" .
