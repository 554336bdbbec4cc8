#!/usr/bin/env bash
# Device-side (not part of the project): cuda-star-pair with the tile's halo prefetched into L1; cuda-star-tma tiles on minimod.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd; T=build/cuda/ctest/test_engine
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
M="smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,dram__bytes.sum"
for s in barrier long_scoreboard short_scoreboard mio_throttle wait not_selected; do M="$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"; done
log "SeismicEngine tests"
timeout 100 $T --gtest_filter='SeismicEngine.*' 2>&1 | grep -E "^\[  (PASSED|FAILED)|Failure" -A3 | head -20 | tee -a "$OUT/log.txt"
log "minimod 100^3 cuda-star-pair (reference: min -0.205824 max 0.140117)"
for t in default 32x16x64; do timeout 10 $B seismic inputs/seismic-minimod-100.toml --scheme.variant cuda-star-pair --scheme.tile $t --output.progress none 2>&1 | grep -E "min u|rror" | tee -a "$OUT/log.txt"; done
log "bench copy probe"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma --json "$OUT/bench.json" 2>&1 | tail -2 | tee -a "$OUT/log.txt"
for v in "cuda-star-pair" "cuda-star-tma" "cuda-star-pair --scheme.tile 32x32x64" "cuda-star-tma --scheme.tile 32x16x64" "cuda-star-pair" "cuda-star-tma"; do
  log "minimod 1000^3 $v"
  n=$(echo $v | tr -c 'a-z0-9' _)
  timeout 60 $B seismic inputs/seismic-minimod-1000.toml --scheme.variant $v --output.progress none --output.summary "$OUT/m1000-$n.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$OUT/log.txt"
done
log "ncu cuda-star-pair 32x32x128 (512^3)"
timeout 100 ncu --kernel-name-base demangled --kernel-name regex:star_pair_kernel --launch-skip 2 --launch-count 1 --metrics "$M" $B seismic inputs/seismic-minimod-1000.toml --grid.n 512 512 512 --scheme.steps 8 --scheme.variant cuda-star-pair --scheme.tile 32x32x128 --output.progress none 2>&1 | grep -E "^\s+(smsp|l1tex|sm__|gpu__|dram)" | awk '{print $1, $(NF)}' | tee -a "$OUT/log.txt"
