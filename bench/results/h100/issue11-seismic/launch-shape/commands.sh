#!/usr/bin/env bash
# Device-side (not part of the project): launch_shape.cuh (shared check and automatic z chunk): GPU tests, and the pair kernel's chunks of 128 against 473.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
log "test_engine (all)"
timeout 300 $T 2>&1 | grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|Failure" -A3 | head -40 | tee -a "$OUT/log.txt"
for v in "cuda-star-pair" "cuda-star-pair --scheme.tile 32x16x473" "cuda-star-pair" "cuda-star-pair --scheme.tile 32x16x473" "cuda-star-tma"; do
  log "minimod 1000^3 $v"
  n=$(echo $v | tr -c 'a-z0-9' _)
  timeout 60 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none --output.summary "$OUT/m1000-$n.json" 2>&1 | grep -E "s for|per step" | tee -a "$OUT/log.txt"
done
