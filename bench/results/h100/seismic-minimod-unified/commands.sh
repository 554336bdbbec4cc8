#!/usr/bin/env bash
# Device-side (issue 11): the committed tree, minimod 1000^3 unified against seven-domain (short lease).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > /tmp/configure.log 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > /tmp/build.log 2>&1 || { grep -m3 -A12 error /tmp/build.log; exit 1; }
log built
B=build/cuda/wavefd
run() { local l=$1; shift; log "minimod 1000^3 $l"
  timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"; }
run unified --scheme.work unified
run defaults
log done
