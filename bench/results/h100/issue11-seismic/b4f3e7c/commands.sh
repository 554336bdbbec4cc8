#!/usr/bin/env bash
# Device-side (not part of the project): the documented seismic run on this lease's GPU, plus pairs.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
mkdir -p build/bin; ln -sf ../cuda/wavefd build/bin/wavefd; ln -sf ../cuda/ctest/test_engine build/bin/test_engine
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee "$OUT/gpu.txt"
WAVEFD_BIN=$PWD/build/bin OUT=$OUT timeout 420 scripts/gpu_seismic.sh "$1"
echo "== pairs (cuda-star-pair)" | tee -a "$OUT/log.txt"
timeout 60 build/bin/wavefd seismic inputs/seismic-minimod-1000.toml --scheme.variant cuda-star-pair --output.progress none --output.summary "$OUT/seismic-minimod-1000-pair.json" 2>&1 | tee -a "$OUT/log.txt"
