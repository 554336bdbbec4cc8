#!/usr/bin/env bash
# Device-side check (not part of the project): the whole test_engine on the GPU after the first-touch
# change, and minimod 1000^3 with the defaults.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
log "test_engine (all)"
timeout 300 $T 2>&1 | grep -E "^\[  (PASSED|FAILED)|^\[  FAILED|Failure" -A3 | head -40 | tee -a "$OUT/log.txt"
log "minimod 1000^3 defaults"
$B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$OUT/auto.json" 2>&1 | tee -a "$OUT/log.txt" | grep -E "s for|per step|inner box by"
log "minimod 1000^3 cuda-star-pair"
$B seismic inputs/seismic-minimod-1000.toml --scheme.variant cuda-star-pair --output.progress none --output.summary "$OUT/pair.json" 2>&1 | tee -a "$OUT/log.txt" | grep -E "s for|per step|pairs"
log "bench star M=4 512^3 float cuda-star-tma, cuda-star-stream"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma,cuda-star-stream --json "$OUT/bench.json" 2>&1 | tail -4 | tee -a "$OUT/log.txt"
