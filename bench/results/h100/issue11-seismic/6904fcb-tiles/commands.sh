#!/usr/bin/env bash
# Device-side (not part of the project): chunks and tile heights of cuda-star-pair and cuda-star-tma on minimod 1000^3 at 6904fcb.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
for v in "cuda-star-pair" "cuda-star-pair --scheme.tile 32x16x64" "cuda-star-pair --scheme.tile 32x32x128" "cuda-star-pair --scheme.tile 32x32x64" "cuda-star-tma" "cuda-star-tma --scheme.tile 32x16x64" "cuda-star-pair"; do
  log "minimod 1000^3 $v"
  timeout 60 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none 2>&1 | grep -E "s for|per step" | tee -a "$OUT/log.txt"
done
