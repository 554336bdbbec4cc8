#!/usr/bin/env bash
# Device-side (not part of the project): x slabs on 32-byte sectors (WAVEFD_SLAB_ALIGN=32, the
# new default) against 16-byte packs, and the seismic works with the native layer (H200).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
SECONDS=0
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
log "build done at ${SECONDS}s; SeismicEngine tests"
timeout 100 $T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure" -A2 | head -20 | tee -a "$OUT/log.txt"
log "minimod 100^3 (reference: min -0.205824 max 0.140117) (${SECONDS}s)"
for args in "" "--scheme.variant mdrange-stream" "--scheme.variant layer" "--scheme.work three-domain"; do
  timeout 20 $B seismic inputs/seismic-minimod-100.toml $args --output.progress none 2>&1 | grep -E "min u|rror" | sed "s/^/[$args] /" | tee -a "$OUT/log.txt"
done
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -1 | tee -a "$OUT/log.txt"
run() {  # label, env, args
  log "minimod 1000^3 $1 (${SECONDS}s)"
  env $2 timeout 40 $B seismic inputs/seismic-minimod-1000.toml $3 --output.progress none --output.summary "$OUT/m1000-$1.json" 2>&1 | grep -E "work,|s for|per step|rror" | tee -a "$OUT/log.txt"
}
run align32-r1 WAVEFD_SLAB_ALIGN=32 ""
run align16-r1 WAVEFD_SLAB_ALIGN=16 ""
run align32-r2 WAVEFD_SLAB_ALIGN=32 ""
run align16-r2 WAVEFD_SLAB_ALIGN=16 ""
run kokkos-only WAVEFD_SLAB_ALIGN=32 "--scheme.variant mdrange-stream --scheme.tile 32x4x64"
run layer-kernel WAVEFD_SLAB_ALIGN=32 "--scheme.layer_variant layer"
run three-domain WAVEFD_SLAB_ALIGN=32 "--scheme.work three-domain"
log "all done at ${SECONDS}s"
