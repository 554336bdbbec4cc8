#!/usr/bin/env bash
# Device-side (not part of the project): stall reasons of cuda-star-pair (staged u^n) and of cuda-star-tma.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd
M=""
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle math_pipe_throttle wait not_selected selected dispatch_stall no_instruction drain membar sleeping tex_throttle branch_resolving imc_miss misc; do M="$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio"; done
M="${M#,},smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,dram__bytes.sum,smsp__warps_active.avg.per_cycle_active"
for k in "star_pair_kernel:cuda-star-pair:2" "star_pair_kernel:cuda-star-pair --scheme.tile 32x32x256:2" "star_tma_kernel:cuda-star-tma:4"; do
  IFS=: read -r kn v skip <<<"$k"
  log "ncu $v"
  timeout 200 ncu --kernel-name-base demangled --kernel-name regex:$kn --launch-skip $skip --launch-count 1 --metrics "$M" $B seismic inputs/seismic-minimod-1000.toml --grid.n 512 512 512 --scheme.steps 8 --scheme.variant $v --output.progress none 2>&1 | grep -E "^\s+(smsp|l1tex|sm__|gpu__|dram)" | awk '{print $1, $(NF)}' | tee -a "$OUT/log.txt"
done
