#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): the inner box's kernel with fewer blocks than
# tiles (each block takes every P-th tile; WAVEFD_EXP_INNER_BLOCKS=P) and the slabs beside it
# (WAVEFD_EXP_BESIDE), minimod 1000^3.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd test_engine > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
WAVEFD_EXP_INNER_BLOCKS=7 build/cuda/ctest/test_engine --gtest_color=no --gtest_filter='SeismicEngine.*' > "$O/test_engine.txt" 2>&1; log "SeismicEngine tests on the GPU, 7 inner blocks: rc $? ($(grep -E '^\[  PASSED|FAILED' "$O/test_engine.txt" | tr '\n' ' '))"
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$B seismic $S --output.slices $W/base 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 default] /" | tee -a "$O/log.txt"
WAVEFD_EXP_INNER_BLOCKS=20 $B seismic $S --output.slices $W/cap 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 20 blocks] /" | tee -a "$O/log.txt"
WAVEFD_EXP_BESIDE=1 $B seismic $S --output.slices $W/beside 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 beside] /" | tee -a "$O/log.txt"
WAVEFD_EXP_BESIDE=1 WAVEFD_EXP_INNER_BLOCKS=20 $B seismic $S --output.slices $W/both 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 beside, 20 blocks] /" | tee -a "$O/log.txt"
for v in cap beside both; do for s in 000500 001000; do
  cmp -s $W/base-$s.bin $W/$v-$s.bin && log "slice $s: $v == default byte for byte" || log "slice $s: $v DIFFERS from default"
done; done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
run() {  # label, env assignments...
  local l=$1; shift
  log "minimod 1000^3 $l"
  env "$@" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
}
run default X=1
run cap132 WAVEFD_EXP_INNER_BLOCKS=132
run beside WAVEFD_EXP_BESIDE=1
run beside-cap66 WAVEFD_EXP_BESIDE=1 WAVEFD_EXP_INNER_BLOCKS=66
run beside-cap88 WAVEFD_EXP_BESIDE=1 WAVEFD_EXP_INNER_BLOCKS=88
run beside-cap100 WAVEFD_EXP_BESIDE=1 WAVEFD_EXP_INNER_BLOCKS=100
run beside-cap44 WAVEFD_EXP_BESIDE=1 WAVEFD_EXP_INNER_BLOCKS=44
run cap66 WAVEFD_EXP_INNER_BLOCKS=66
run default X=1
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
