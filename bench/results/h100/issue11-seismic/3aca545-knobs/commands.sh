#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): knobs on the seismic step: inner chunks 80/96, 64-byte / no L2 promotion, layer tiles, slabs first in the loop.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
run() { local l=$1; shift; local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "minimod 1000^3 $l"
  env "${e[@]}" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"; }
run defaults X=1
run slabsfirst WAVEFD_EXP_SLABS_FIRST=1
run z80 X=1 -- --scheme.tile 32x8x80
run promo64 WAVEFD_EXP_PROMO=64
run layer32x4x32 X=1 -- --scheme.layer_tile 32x4x32
run z96 X=1 -- --scheme.tile 32x8x96
run promo0 WAVEFD_EXP_PROMO=0
run layer32x8x32 X=1 -- --scheme.layer_tile 32x8x32
run layer32x4x16 X=1 -- --scheme.layer_tile 32x4x16
run defaults X=1
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
