#!/usr/bin/env bash
# Issue 38: four GPUs as two pseudo-nodes of two (scripts/pseudo_nodes.sh 2): which NCCL transport
# each pair takes, the probe's links, and weak points on the balanced grid and the z split.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "Kokkos built"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
log "wavefd built ($1)"
B=$PWD/build/cuda/wavefd
PN="scripts/pseudo_nodes.sh 2"
timeout 60 env NCCL_DEBUG=INFO mpirun --allow-run-as-root -np 4 $PN $B probe --family star --M 4 --n 512 1024 1024 \
  --ranks 1,2,2 --transport nccl --iters 5 --reps 3 --json "$R/probe-pseudo-4.json" > "$R/probe-pseudo-4.log" 2>&1
log "probe rc $?; NCCL's channels by transport:"
grep -oE "via (NET/[A-Za-z]+|P2P/[A-Za-z/]+|SHM[A-Za-z/]*)" "$R/probe-pseudo-4.log" | sort | uniq -c | tee -a "$LOG"
grep -E "<->" "$R/probe-pseudo-4.log" | tail -6 | tee -a "$LOG"
pt() { local name=$1; shift
  timeout 70 python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "$B" --steps 10 --reps 3 "$@" \
    -- --family star --M 4 --transport nccl --overlap true 2>&1 | grep -E "ranks as|error" | tee -a "$LOG"; }
pt weak-1 --ranks 1 --launcher "mpirun --allow-run-as-root -np {np}"
pt weak-pseudo-balanced --ranks 4 --launcher "mpirun --allow-run-as-root -np {np} $PN"
pt weak-pseudo-z --ranks 4 --split z --launcher "mpirun --allow-run-as-root -np {np} $PN"
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/pseudo.tar" .
