#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): cuda-star-tma with tensor maps clipped to the
# box and 8R-plane chunks on the seismic inner box (the tree's defaults), against the old defaults
# (WAVEFD_EXP_NOCLIP + 64-plane chunks), L2 promotion (WAVEFD_EXP_PROMO) and 8-row tiles; GPU tests.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd test_engine > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
timeout 150 build/cuda/ctest/test_engine --gtest_color=no --gtest_filter='SeismicEngine.*:Eigenmode*' > "$O/test_engine.txt" 2>&1; log "test_engine on the GPU: rc $? ($(grep -E '^\[  PASSED|FAILED' "$O/test_engine.txt" | tr '\n' ' '))"
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
sl() { local l=$1; shift; local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  env "${e[@]}" $B seismic $S --output.slices $W/$l "$@" 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $l] /" | tee -a "$O/log.txt"; }
sl old WAVEFD_EXP_NOCLIP=1 -- --scheme.tile 32x16x64
sl new X=1
sl three-domain X=1 -- --scheme.work three-domain
sl unified X=1 -- --scheme.work unified
for v in new three-domain unified; do for s in 000500 001000; do
  cmp -s $W/old-$s.bin $W/$v-$s.bin && log "slice $s: $v == old byte for byte" || log "slice $s: $v DIFFERS from old"; done; done
for m in 1 4 8; do for p in float double; do
  $B bench --family star --M $m --n 512 512 512 --precision $p --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench-M$m-$p.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
done; done
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench-M4-float.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
run() {
  local l=$1; shift
  local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "minimod 1000^3 $l"
  env "${e[@]}" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror|EXPERIMENT" | tee -a "$O/log.txt"
}
run new X=1
run old WAVEFD_EXP_NOCLIP=1 -- --scheme.tile 32x16x64
run promo0 WAVEFD_EXP_PROMO=0
run promo128 WAVEFD_EXP_PROMO=128
run rows8 X=1 -- --scheme.tile 32x8x32
run rows8-z64 X=1 -- --scheme.tile 32x8x64
run rows8-promo0 WAVEFD_EXP_PROMO=0 -- --scheme.tile 32x8x32
run new X=1
run old WAVEFD_EXP_NOCLIP=1 -- --scheme.tile 32x16x64
run promo0 WAVEFD_EXP_PROMO=0
run rows8 X=1 -- --scheme.tile 32x8x32
run kokkos X=1 -- --scheme.variant mdrange-stream --scheme.tile 32x4x64
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench-end.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench-end.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
