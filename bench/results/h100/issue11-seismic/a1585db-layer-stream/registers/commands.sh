#!/usr/bin/env bash
# Device-side (not part of the project): the seismic layer by cuda-star-stream's PML branch
# (scheme.layer_variant) against the Kokkos layer kernel.
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
timeout 150 $T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure|layer by|PML branch" -A2 | head -60 | tee -a "$OUT/log.txt"
log "tests done at ${SECONDS}s; minimod 100^3 (reference: min -0.205824 max 0.140117)"
for args in "" "--scheme.layer_variant cuda-star-stream" "--scheme.layer_variant cuda-star-stream --scheme.variant layer" \
            "--scheme.variant cuda-star-stream --scheme.work unified" "--scheme.variant cuda-star-stream --scheme.work three-domain"; do
  echo "[$args]" | tee -a "$OUT/log.txt"
  timeout 20 $B seismic inputs/seismic-minimod-100.toml $args --output.progress none 2>&1 | grep -E "min u|rror" | tee -a "$OUT/log.txt"
done
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
for r in 1 2; do
  for lv in layer cuda-star-stream; do
    log "minimod 1000^3 layer_variant $lv (round $r, ${SECONDS}s)"
    timeout 45 $B seismic inputs/seismic-minimod-1000.toml --scheme.layer_variant $lv --output.progress none --output.summary "$OUT/m1000-$lv-r$r.json" 2>&1 | grep -E "layer by|s for|per step|rror" | tee -a "$OUT/log.txt"
  done
done
M="smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,dram__bytes.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active"
for s in long_scoreboard short_scoreboard wait math_pipe_throttle lg_throttle not_selected; do M="$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"; done
for pair in "layer:LayerStream" "cuda-star-stream:star_stream_kernel"; do
  lv=${pair%%:*}; kn=${pair##*:}
  log "ncu the layer by $lv (1000^3, the second step's six launches; ${SECONDS}s)"
  timeout 150 ncu --kernel-name-base demangled --kernel-name regex:$kn --launch-skip 6 --launch-count 6 --metrics "$M" $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 3 --scheme.layer_variant $lv --output.progress none 2>&1 | grep -E "^\s+(smsp|l1tex|sm__|gpu__|dram|launch)|Context|\(" | awk '{print $1, $(NF-1), $(NF)}' | tee -a "$OUT/log.txt"
done
log "all done at ${SECONDS}s"
