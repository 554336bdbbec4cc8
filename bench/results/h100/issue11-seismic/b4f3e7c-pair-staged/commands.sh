#!/usr/bin/env bash
# Device-side (not part of the project): cuda-star-pair with u^n staged by cp.async: bits, then minimod 1000^3.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
log "SeismicEngine tests"
timeout 200 $T --gtest_filter='SeismicEngine.*:FirstTouch.*' 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure" -A3 | cut -c1-200 | tail -40 | tee -a "$OUT/log.txt"
log "minimod 100^3 cuda-star-pair (reference: min -0.205824 max 0.140117)"
$B seismic inputs/seismic-minimod-100.toml --scheme.variant cuda-star-pair --output.progress none 2>&1 | grep -E "min u" | tee -a "$OUT/log.txt"
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
for v in "cuda-star-tma" "cuda-star-pair" "cuda-star-pair --scheme.tile 32x32x256" "cuda-star-pair --scheme.tile 32x16x128"; do
  log "minimod 1000^3 $v"
  n=$(echo $v | tr -c 'a-z0-9' _)
  timeout 60 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none --output.summary "$OUT/m1000-$n.json" 2>&1 | grep -E "s for|per step|pairs" | tee -a "$OUT/log.txt"
done
