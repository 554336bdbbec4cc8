#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): experiments on 25c4e5b with env switches:
# WAVEFD_LAYER_AHEAD=2 (cuda-star-stream's PML branch stages two planes ahead, not one) and
# WAVEFD_SLABS_FIRST=1|2 (the six slabs on their instances launched before the inner box / after
# it, running beside it; committed: the slabs side by side after the inner box has finished).
set -uo pipefail
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/../kokkos tomlplusplus_ROOT=$PWD/../tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=25c4e5b-exp > "$O/configure.log" 2>&1 &&
  cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
log "minimod 100^3 (reference: min -0.205824 max 0.140117)"
for e in "" WAVEFD_LAYER_AHEAD=2 WAVEFD_SLABS_FIRST=1 WAVEFD_SLABS_FIRST=2 "WAVEFD_LAYER_AHEAD=2 WAVEFD_SLABS_FIRST=1"; do
  env $e timeout 20 $B seismic inputs/seismic-minimod-100.toml --output.progress none 2>&1 | grep -E "min u|rror" | sed "s/^/[$e] /" | tee -a "$O/log.txt"
done
log "copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | grep -iE "copy|cuda-star-tma" | tail -3 | tee -a "$O/log.txt"
run() {  # label env...
  local l=$1; shift
  log "minimod 1000^3 $l"
  env "$@" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
}
for r in 1 2; do
  run base-r$r WAVEFD_NONE=1
  run ahead2-r$r WAVEFD_LAYER_AHEAD=2
  run slabsfirst-r$r WAVEFD_SLABS_FIRST=1
  run innerfirst-r$r WAVEFD_SLABS_FIRST=2
  run both-r$r WAVEFD_LAYER_AHEAD=2 WAVEFD_SLABS_FIRST=1
done
log done
tar -C "$O" -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
