#!/usr/bin/env bash
# Device-side (not part of the project): cuda-star-tma's 64-plane chunks for the seismic inner box; Coeffs in launch_shape.cuh; the 16-lane pair on this GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
log "test_engine (engine, star, two-step, ghost images, eigenmode tiles, registry)"
timeout 150 $T --gtest_filter="SeismicEngine.*:Star*:TwoStep*:GhostImages*:Eigenmode*:Registry*" 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure" -A3 | head -20 | tee -a "$OUT/log.txt"
log "minimod 100^3 (reference: min -0.205824 max 0.140117)"
for v in cuda-star-tma cuda-star-pair cuda-star-stream; do timeout 10 $B seismic inputs/seismic-minimod-100.toml --scheme.variant $v --output.progress none 2>&1 | grep -E "min u|rror" | tee -a "$OUT/log.txt"; done
log "bench star M=4 512^3 float (copy probe; constant coefficient)"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma,cuda-star-stream --json "$OUT/bench.json" 2>&1 | tail -3 | tee -a "$OUT/log.txt"
for v in "cuda-star-tma" "cuda-star-tma --scheme.tile 32x16x128" "cuda-star-pair" "cuda-star-tma" "cuda-star-tma --scheme.tile 32x16x128"; do
  log "minimod 1000^3 $v"
  n=$(echo $v | tr -c 'a-z0-9' _)
  timeout 60 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none --output.summary "$OUT/m1000-$n.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$OUT/log.txt"
done
