#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): minimod 1000^3 on the inner box's knobs:
# clipped tensor maps (WAVEFD_EXP_CLIP), z chunks, L2 promotion (WAVEFD_EXP_PROMO), layer tile.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -2 | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
run() {
  local l=$1; shift
  local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "minimod 1000^3 $l"
  env "${e[@]}" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror|EXPERIMENT" | tee -a "$O/log.txt"
}
C=WAVEFD_EXP_CLIP=1
run default X=1
run clip $C
run clip-z32 $C -- --scheme.tile 32x16x32
run clip-z48 $C -- --scheme.tile 32x16x48
run clip-promo0 $C WAVEFD_EXP_PROMO=0
run clip-promo128 $C WAVEFD_EXP_PROMO=128
run clip-layer32 $C -- --scheme.layer_tile 32x4x32
run clip-z32-layer32 $C -- --scheme.tile 32x16x32 --scheme.layer_tile 32x4x32
run default X=1
run clip $C
run clip-z32 $C -- --scheme.tile 32x16x32
run clip-z48 $C -- --scheme.tile 32x16x48
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench2.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench2.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
