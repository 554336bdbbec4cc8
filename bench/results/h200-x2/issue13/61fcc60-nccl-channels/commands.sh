#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): does NCCL's kernel, on SMs beside the core, hold
# the overlapped step above core + shell? Weak 512^3 per GPU and strong 1024^3 on two GPUs, nccl,
# overlap on, with NCCL's channels (one block each) capped by NCCL_MAX_NCHANNELS / NCCL_MAX_CTAS.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; R=$F/r; mkdir -p "$R"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
nvidia-smi -L | tee -a "$R/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=61fcc60 > "$R/configure.log" 2>&1 && cmake --build --preset cuda -j 32 --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
log built
N=$PWD/build/cuda/wavefd
sc() {  # label kind ranks env-assignment-or-none args...
  local lab=$1 kind=$2 np=$3 env=$4; shift 4
  local L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
  [ "$env" != none ] && L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -x $env -np {np}"
  log "$lab ($env)"
  if [ "$kind" = weak ]; then size=(--local 512 512 512); steps=20; else size=(--global 1024 1024 1024); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$N" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E " ok |rror" | tee -a "$R/log.txt"
}
sc weak-1 weak 1 none
for r in 1 2; do
  sc weak-default-r$r weak 2 none --transport nccl --overlap true
  for c in 1 2 4 8; do sc weak-nch$c-r$r weak 2 NCCL_MAX_NCHANNELS=$c --transport nccl --overlap true; done
  sc weak-ctas2-r$r weak 2 NCCL_MAX_CTAS=2 --transport nccl --overlap true
done
sc strong1024-1 strong 1 none
sc strong1024-default strong 2 none --transport nccl --overlap true
sc strong1024-nch2 strong 2 NCCL_MAX_NCHANNELS=2 --transport nccl --overlap true
sc strong1024-nch4 strong 2 NCCL_MAX_NCHANNELS=4 --transport nccl --overlap true
log done
tar -C "$R" -cf "$F/all.tar" . && cp "$R/log.txt" "$F/log.txt" && rm -rf "$R"
