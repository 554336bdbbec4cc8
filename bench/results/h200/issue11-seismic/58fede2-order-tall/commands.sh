#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): the slabs launched in reverse order (the x slabs
# first; WAVEFD_EXP_REVERSE) and 8 x 32-thread tiles for the x slabs (WAVEFD_EXP_TALL), minimod 1000^3.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$B seismic $S --output.slices $W/base 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 default] /" | tee -a "$O/log.txt"
WAVEFD_EXP_TALL=1 WAVEFD_EXP_REVERSE=1 $B seismic $S --output.slices $W/exp 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 tall, reverse] /" | tee -a "$O/log.txt"
for s in 000500 001000; do cmp -s $W/base-$s.bin $W/exp-$s.bin && log "slice $s: equal" || log "slice $s: DIFFERS"; done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
run() {  # label, env assignments...
  local l=$1; shift
  log "minimod 1000^3 $l"
  env "$@" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
}
run default X=1
run reverse WAVEFD_EXP_REVERSE=1
run tall WAVEFD_EXP_TALL=1
run default X=1
run reverse WAVEFD_EXP_REVERSE=1
run tall WAVEFD_EXP_TALL=1
log done
tar -C "$O" --exclude=build.log --exclude=configure.log -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
