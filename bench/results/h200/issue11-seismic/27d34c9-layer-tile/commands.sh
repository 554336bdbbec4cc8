#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): the layer's tile (cuda-star-stream's PML branch,
# scheme.layer_tile: rows per block and planes per chunk) on minimod's 1000^3 deck.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
for t in default 32x4x16 32x4x32 32x8x32 32x8x64; do
  timeout 20 $B seismic inputs/seismic-minimod-100.toml --scheme.layer_tile $t --output.progress none 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $t] /" | tee -a "$O/log.txt"
done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
for t in default 32x4x16 32x4x32 32x8x32 32x8x64 default; do
  log "minimod 1000^3 layer_tile $t"
  timeout 40 $B seismic inputs/seismic-minimod-1000.toml --scheme.layer_tile $t --output.progress none --output.summary "$O/m1000-$t-$SECONDS.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
done
log done
tar -C "$O" --exclude=build.log --exclude=configure.log -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
