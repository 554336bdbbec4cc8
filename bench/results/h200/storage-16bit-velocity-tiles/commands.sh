#!/bin/bash
# Device call (issue 40): why the velocity form's inner box takes 2.80 ms, not the ~1.9-2.1 ms its
# 9 bytes a point predict. ncu on one inner-box launch (cuda-star-tma) in half with u^(n-1) and with
# the velocity (DRAM bytes, instructions, issue activity); then the velocity form's inner tiles and
# the layer's tiles on minimod 1000^3 (400 steps).
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio
for sf in previous velocity; do
  timeout 120 ncu --kernel-name regex:star_tma_kernel --launch-skip 3 --launch-count 1 --metrics $M --csv \
    $B seismic $DECK --scheme.precision half --scheme.second_field $sf --scheme.steps 6 --output.progress none > ncu-$sf.log 2>&1
  echo "ncu $sf rc=$?"; grep -E '"(dram|gpu|sm__|smsp|lts|launch)' ncu-$sf.log | awk -F'","' '{print $(NF-2), $NF}' | tr -d '"'
done
for run in default 32x8x64 32x8x256 32x16x128 32x16x64 layer-32x8x64 layer-32x4x64; do
  case $run in layer-*) o="--scheme.layer_tile ${run#layer-}" ;; default) o= ;; *) o="--scheme.tile $run" ;; esac
  timeout 60 $B seismic $DECK --scheme.precision half --scheme.second_field velocity --scheme.steps 400 $o --output.progress none \
    --output.summary tile-$run.json > tile-$run.log 2>&1
  echo "$run rc=$? $(grep -E 's for|per step' tile-$run.log | cut -c16-125 | tr '\n' ';')"
done
cd .. && tar -cf call3.tar r && rm -rf r
