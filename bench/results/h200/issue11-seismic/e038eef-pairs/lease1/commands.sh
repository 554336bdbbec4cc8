#!/usr/bin/env bash
# Device-side experiment (not part of the project): cuda-star-pair (two steps per pass) on the
# seismic inner box against cuda-star-tma single steps, same lease.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
deck() { local name=$1; shift; log "$name: minimod 1000^3 $*"; $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$OUT/$name.json" "$@" 2>&1 | tee -a "$OUT/log.txt" | grep -E "s for|per step|pairs|inner box by"; }
log "prediction: pair inner ~2.8 ms/step (10 B/pt at ~72% copy), loop ~4.65 s (1.21x floor)"
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
cp build/gpu-build.log "$OUT/"
cuobjdump -res-usage $B 2>/dev/null | grep -A1 "star_pair_kernelIfLi4E" | grep -oE "REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+" | tee -a "$OUT/log.txt"
log "SeismicEngine tests on the GPU"
timeout 200 $T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|fuses" -A4 | cut -c1-220 | head -80 | tee -a "$OUT/log.txt"
log "copy"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma --json "$OUT/bench-star4-512.json" 2>&1 | tail -4 | tee -a "$OUT/log.txt"
log "minimod 100^3 (reference -0.205806 / 0.140146)"
for v in cuda-star-pair cuda-star-tma; do $B seismic inputs/seismic-minimod-100.toml --scheme.variant $v --output.progress none 2>&1 | grep -E "min u|pairs" | tee -a "$OUT/log.txt"; done
deck tma --scheme.variant cuda-star-tma
deck pair16 --scheme.variant cuda-star-pair
deck pair32 --scheme.variant cuda-star-pair --scheme.tile 32x32x256
deck pair24 --scheme.variant cuda-star-pair --scheme.tile 32x24x256
deck pair16z128 --scheme.variant cuda-star-pair --scheme.tile 32x16x128
