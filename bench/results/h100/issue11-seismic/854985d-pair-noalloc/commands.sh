#!/usr/bin/env bash
# Device-side (not part of the project): cuda-star-pair with u^{n-1} read around L1 (no_allocate).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
log "SeismicEngine tests"
timeout 60 $T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure" -A3 | head -20 | tee -a "$OUT/log.txt"
log "minimod 100^3 cuda-star-pair (reference: min -0.205824 max 0.140117)"
timeout 10 $B seismic inputs/seismic-minimod-100.toml --scheme.variant cuda-star-pair --output.progress none 2>&1 | grep -E "min u|rror" | tee -a "$OUT/log.txt"
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
for v in "cuda-star-pair" "cuda-star-tma" "cuda-star-pair"; do
  log "minimod 1000^3 $v"
  timeout 40 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none --output.summary "$OUT/m1000-$v.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$OUT/log.txt"
done
