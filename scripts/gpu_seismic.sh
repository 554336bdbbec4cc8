#!/usr/bin/env bash
# The seismic model on one GPU (issue 11): build the cuda preset against $Kokkos_ROOT (and
# $tomlplusplus_ROOT where the machine lacks toml++), check the build and every inner kernel
# against the CPU reference (CTest's SeismicEngine tests, run on the GPU), run minimod's check
# problem (100^3, 1000 steps: min/max u against the reference code's printed values) with every
# inner kernel and every decomposition of the work (their slices of u against seven-domain's, byte
# for byte), then minimod's benchmark deck (1000^3, 1000 steps) seven-domain with the native inner
# kernel and with the Kokkos-only one, three-domain and unified, beside the device's copy bandwidth.
# Summaries (JSON) and the log go to $OUT (default ./gpu-out).
#   Kokkos_ROOT=/path/to/kokkos-cuda tomlplusplus_ROOT=/path/to/toml++ scripts/gpu_seismic.sh [commit]
# WAVEFD_BIN=DIR takes wavefd and test_engine built already (a cuda-preset build of the same
# commit) instead of building. INNER=<variant> picks the native runs' inner kernel (default: auto);
# TILES=1 adds a tile sweep.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
W=$(mktemp -d)
B=build/cuda/wavefd T=build/cuda/ctest/test_engine
if [ -n "${WAVEFD_BIN:-}" ]; then
  B=$WAVEFD_BIN/wavefd T=$WAVEFD_BIN/test_engine
  log "built already: $B ($($B info | grep -E '^(wavefd|compiler|MPI)' | tr '\n' ' '))"
else
  log "configure"
  cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON ${1:+-DWAVEFD_GIT_COMMIT=$1} >"$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
  log "build"
  cmake --build --preset cuda -j "$(nproc)" --target wavefd >"$W/build.log" 2>&1 || { grep -E "error" -A5 "$W/build.log" | head -40; exit 1; }
  cmake --build --preset cuda -j "$(nproc)" --target test_engine >"$W/build-tests.log" 2>&1 ||
    { log "test_engine did not build"; grep -E "error" -A5 "$W/build-tests.log" | head -20 | tee -a "$OUT/log.txt"; }
fi
log "verify --quick"
$B verify --quick 2>&1 | tail -2 | tee -a "$OUT/log.txt"
log "the seismic engine against the CPU reference, every inner kernel (CTest's SeismicEngine tests)"
$T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |Failure|work by|core by" -A4 | cut -c1-200 | head -80 | tee -a "$OUT/log.txt"
log "copy bandwidth (bench's in-run probe, star M=4 512^3 float, the fastest variant)"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma \
  --json "$OUT/bench-star4-512.json" 2>&1 | tail -4 | tee -a "$OUT/log.txt"
log "minimod's check problem, 100^3, 1000 steps (reference code: min -0.205806, max 0.140146)"
for inner in auto cuda-star-stream mdrange-stream layer; do
  $B seismic inputs/seismic-minimod-100.toml --scheme.variant $inner --output.progress none \
    --output.summary "$W/seismic-minimod-100-$inner.json" 2>&1 | grep -E "inner box by|min u" | tee -a "$OUT/log.txt"
done
mkdir -p "$W/w"
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$B seismic $S --output.slices "$W/w/seven" >/dev/null 2>&1
for work in unified three-domain; do
  for inner in auto layer; do
    $B seismic $S --scheme.work $work --scheme.variant $inner --output.slices "$W/w/$work-$inner" \
      --output.summary "$W/seismic-minimod-100-$work-$inner.json" 2>&1 | grep -E "work by|work:|min u" | tee -a "$OUT/log.txt"
    for step in 000500 001000; do
      if cmp -s "$W/w/seven-$step.bin" "$W/w/$work-$inner-$step.bin"; then log "$work by $inner, step $step: seven-domain's slice byte for byte"
      else log "$work by $inner, step $step: slice DIFFERS from seven-domain's"; fi
    done
  done
done
if $B info | grep -q "MPI: enabled"; then
log "two ranks sharing the GPU against one (minimod 100^3, transport mpi, slices of u at steps 500 and 1000)"
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
mkdir -p "$W/np1" "$W/np2"
$B seismic $S --output.slices "$W/np1/s" --output.summary "$W/np1.json" >"$W/np1.log" 2>&1
mpirun --allow-run-as-root --oversubscribe -np 2 $B seismic $S --parallel.transport mpi --output.slices "$W/np2/s" \
  --output.summary "$W/np2.json" >"$W/np2.log" 2>&1
grep -E "rank\(s\)|min u" "$W/np2.log" | tee -a "$OUT/log.txt"
for step in 000500 001000; do
  if cmp -s "$W/np1/s-$step.bin" "$W/np2/s-$step.bin"; then log "step $step: 2 ranks' slice equals 1 rank's byte for byte"
  else log "step $step: 2 ranks' slice DIFFERS from 1 rank's"; fi
done
else log "this build has no MPI: two ranks against one not run"; fi
log "minimod's benchmark deck, 1000^3, 1000 steps: seven-domain native (auto: the layer by cuda-star-stream's PML branch; and by the layer kernel), Kokkos-only (mdrange-stream), three-domain (auto: the native PML branch on the core), unified (auto: the native PML branch; and the layer kernel)"
$B seismic inputs/seismic-minimod-1000.toml --scheme.variant "${INNER:-auto}" --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-seven-domain.json" 2>&1 | tee -a "$OUT/log.txt"
$B seismic inputs/seismic-minimod-1000.toml --scheme.variant "${INNER:-auto}" --scheme.layer_variant layer --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-seven-domain-layer-kernel.json" 2>&1 | tee -a "$OUT/log.txt"
$B seismic inputs/seismic-minimod-1000.toml --scheme.variant mdrange-stream --scheme.tile 32x4x64 --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-seven-domain-kokkos.json" 2>&1 | tee -a "$OUT/log.txt"
$B seismic inputs/seismic-minimod-1000.toml --scheme.work three-domain --scheme.variant "${INNER:-auto}" --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-three-domain.json" 2>&1 | tee -a "$OUT/log.txt"
$B seismic inputs/seismic-minimod-1000.toml --scheme.work unified --scheme.variant "${INNER:-auto}" --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-unified.json" 2>&1 | tee -a "$OUT/log.txt"
$B seismic inputs/seismic-minimod-1000.toml --scheme.work unified --scheme.variant layer --output.progress none \
  --output.summary "$OUT/seismic-minimod-1000-unified-layer.json" 2>&1 | tee -a "$OUT/log.txt"
if [ "${TILES:-0}" = 1 ]; then
  log "tiles of the layer kernel and of the inner variant, 1000^3, 200 steps, seven-domain"
  for lt in default 32x4x8 32x4x16 32x4x32 32x8x16 64x2x16 16x8x16 32x4x64; do
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 200 --scheme.variant "${INNER:-auto}" --scheme.layer_variant layer --scheme.layer_tile $lt --output.progress none \
      --output.summary "$W/tile-layer-$lt.json" 2>&1 | grep -E "s for|per step" | sed "s/^/layer_tile $lt: /" | tee -a "$OUT/log.txt"
  done
  for t in 32x16x64 32x16x128 32x16x256 32x8x64 32x8x128; do
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 200 --scheme.variant "${INNER:-auto}" --scheme.tile $t --output.progress none \
      --output.summary "$W/tile-inner-$t.json" 2>&1 | grep -E "s for|per step" | sed "s/^/tile $t: /" | tee -a "$OUT/log.txt"
  done
  tar -C "$W" -cf "$OUT/tiles.tar" .
fi
