#!/bin/bash
# A probe (issue 40): the velocity form's inner box (cuda-star-tma) with its copies, loads and stores but
# without the stencil. Built from 8697b6a (whose default tiles run the loop body of a128516 and
# 360ffd0) with two loops of star_tma.cuh's plane body compiled out in the Velocity && !Pml kernel:
# the x-row loads (`for (int n = 0; n < XR / V; ++n)`) and the y / multiply-add loop
# (`for (int m = 1; m <= R; ++m)`), both given 0 trips there (`kNoStencil = Velocity && !Pml`).
# The u^{n-1} form's kernel is unchanged. One device call, from the repository root:
#   commands.sh 8697b6a+nostencil-probe
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --json star.json > star.log 2>&1
echo "bench rc=$?"; grep -E "copy probe" star.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
show() { grep -E "s for|per step" | cut -c16-150; }
for run in velocity-probe previous velocity-probe-b; do sf=${run%%-*}
  timeout 60 $B seismic $DECK --scheme.precision half --scheme.second_field $sf --scheme.steps 400 --output.progress none \
    --output.summary seismic-$run.json > seismic-$run.log 2>&1
  echo "$run rc=$?"; show < seismic-$run.log
done
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,launch__registers_per_thread,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
timeout 150 ncu --clock-control none --kernel-name regex:star_tma_kernel --launch-skip 3 --launch-count 1 --metrics $M --csv \
  $B seismic $DECK --scheme.precision half --scheme.second_field velocity --scheme.steps 6 --output.progress none > ncu-velocity-probe.log 2>&1
echo "ncu rc=$?"; grep -E '"(dram|gpu|sm__|smsp|lts|launch)' ncu-velocity-probe.log | awk -F'","' '{print $(NF-2), $NF}' | tr -d '"'
cd $OUT && tar -cf call2.tar r && rm -rf r
echo "done $((SECONDS - T0)) s"
