#!/usr/bin/env bash
# Device-side (issue 11): the committed tree (the PML slabs launched first in the loop, the inner
# box beside them): GPU tests, copy probe, minimod 1000^3 (defaults three times, Kokkos only,
# three-domain), then the same bits as 3aca545 (its seismic_step files from gpu/old3).
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
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
run() { local l=$1; shift; log "minimod 1000^3 $l"
  timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"; }
run defaults
run kokkos --scheme.variant mdrange-stream --scheme.tile 32x4x64
run defaults
run three-domain --scheme.work three-domain
run defaults
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench-end.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench-end.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$B seismic $S --output.slices $W/new 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 committed] /" | tee -a "$O/log.txt"
cp -r gpu/old3/. . && cmake --build --preset cuda -j 16 --target wavefd > "$O/build-old.log" 2>&1 || { grep -m3 -A12 error "$O/build-old.log"; exit 1; }
log "built 3aca545's seismic step"
$B seismic $S --output.slices $W/old 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 3aca545] /" | tee -a "$O/log.txt"
for s in 000500 001000; do cmp -s $W/old-$s.bin $W/new-$s.bin && log "slice $s: committed == 3aca545 byte for byte" || log "slice $s: DIFFERS"; done
log done
tar -C "$O" --exclude='build*.log' --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
