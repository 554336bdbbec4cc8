#!/usr/bin/env bash
# Device-side (not part of the project): cuda-star-stream's PML branch with its streams copied
# Ahead planes ahead into per-thread shared-memory slots (WAVEFD_LAYER_AHEAD, experiment only).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
SECONDS=0
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
for a in 0 1 2 3 12; do
  log "AHEAD=$a: layer-variant test, minimod 100^3 (reference: min -0.205824 max 0.140117) (${SECONDS}s)"
  WAVEFD_LAYER_AHEAD=$a timeout 60 $T --gtest_filter='SeismicEngine.LayerVariants*:SeismicEngine.UnifiedAndSeven*' 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure" -A2 | head -10 | tee -a "$OUT/log.txt"
  WAVEFD_LAYER_AHEAD=$a timeout 20 $B seismic inputs/seismic-minimod-100.toml --scheme.layer_variant cuda-star-stream --output.progress none 2>&1 | grep -E "min u|rror" | tee -a "$OUT/log.txt"
done
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -1 | tee -a "$OUT/log.txt"
for a in layer 0 2 1 3 12 2; do
  lv=cuda-star-stream; [ $a = layer ] && lv=layer
  log "minimod 1000^3 layer $lv AHEAD=$a (${SECONDS}s)"
  WAVEFD_LAYER_AHEAD=$a timeout 45 $B seismic inputs/seismic-minimod-1000.toml --scheme.layer_variant $lv --output.progress none --output.summary "$OUT/m1000-$lv-ahead$a.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$OUT/log.txt"
done
M="smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,dram__bytes.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active"
for s in long_scoreboard short_scoreboard wait lg_throttle mio_throttle; do M="$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"; done
log "ncu AHEAD=2 the layer by cuda-star-stream (1000^3, the second step's six launches; ${SECONDS}s)"
WAVEFD_LAYER_AHEAD=2 timeout 150 ncu --kernel-name-base demangled --kernel-name regex:star_stream_kernel --launch-skip 6 --launch-count 6 --metrics "$M" $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 3 --scheme.layer_variant cuda-star-stream --output.progress none 2>&1 | grep -E "^\s+(smsp|l1tex|sm__|gpu__|dram|launch)" | awk '{print $1, $(NF-1), $(NF)}' | tee -a "$OUT/log.txt"
log "all done at ${SECONDS}s"
