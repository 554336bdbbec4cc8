#!/usr/bin/env bash
# The seismic model on one GPU (issue 11): build the cuda preset against $Kokkos_ROOT (and
# $tomlplusplus_ROOT where the machine lacks toml++), check the build, run minimod's check problem
# (100^3, 1000 steps: min/max u against the reference code's printed values), then minimod's
# benchmark deck (1000^3, 1000 steps) seven-domain and unified, beside the device's copy bandwidth.
# Summaries (JSON) and the log go to $OUT (default ./gpu-out).
#   Kokkos_ROOT=/path/to/kokkos-cuda tomlplusplus_ROOT=/path/to/toml++ scripts/gpu_seismic.sh [commit]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
log "configure"
W=$(mktemp -d)
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=OFF ${1:+-DWAVEFD_GIT_COMMIT=$1} >"$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
log "build"
cmake --build --preset cuda -j "$(nproc)" >"$W/build.log" 2>&1 || { grep -E "error" -A5 "$W/build.log" | head -40; exit 1; }
B=build/cuda/wavefd
log "verify --quick"
$B verify --quick 2>&1 | tail -2 | tee -a "$OUT/log.txt"
log "copy bandwidth (bench's in-run probe, star M=4 512^3 float, the fastest variant)"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma \
  --json "$OUT/bench-star4-512.json" 2>&1 | tail -4 | tee -a "$OUT/log.txt"
log "minimod's check problem, 100^3, 1000 steps (reference code: min -0.205806, max 0.140146)"
for work in seven-domain unified; do
  $B seismic inputs/seismic-minimod-100.toml --scheme.work $work --output.progress none \
    --output.summary "$OUT/seismic-minimod-100-$work.json" 2>&1 | tee -a "$OUT/log.txt"
done
log "minimod's benchmark deck, 1000^3, 1000 steps"
for work in seven-domain unified; do
  $B seismic inputs/seismic-minimod-1000.toml --scheme.work $work --output.progress none \
    --output.summary "$OUT/seismic-minimod-1000-$work.json" 2>&1 | tee -a "$OUT/log.txt"
done
if [ "${TILES:-0}" = 1 ]; then
  log "tiles of the layer kernel and of the inner variant, 1000^3, 200 steps, seven-domain"
  for lt in default 32x4x1 32x8x1 64x4x1 128x2x1 32x4x2 16x8x2 256x1x1; do
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 200 --scheme.layer_tile $lt --output.progress none \
      --output.summary "$W/tile-layer-$lt.json" 2>&1 | grep -E "s for|per step" | sed "s/^/layer_tile $lt: /" | tee -a "$OUT/log.txt"
  done
  for t in 32x4x64 32x4x128 64x2x128 32x2x128 16x8x128; do
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 200 --scheme.tile $t --output.progress none \
      --output.summary "$W/tile-inner-$t.json" 2>&1 | grep -E "s for|per step" | sed "s/^/tile $t: /" | tee -a "$OUT/log.txt"
  done
  tar -C "$W" -cf "$OUT/tiles.tar" .
fi
