#!/bin/bash
# The call after the probe (its velocity-0 run and ncu-velocity-0 are kept here as the kernel's):
# 360ffd0 with the L2-policy probe of docs/performance.md's experiment table compiled in, off
# unless WAVEFD_PROBE_L2 is 1 or 2.   commands-call3.sh 360ffd0+l2-hint-probe
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --json star.json > star.log 2>&1
echo "bench rc=$?"; grep -E "copy probe" star.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
show() { grep -E "s for|per step" | cut -c16-150; }
for run in velocity-0 velocity-1 velocity-2 velocity-0b previous-0 previous-1 previous-2 previous-0b; do sf=${run%%-*}; h=${run#*-}; h=${h%b}
  WAVEFD_PROBE_L2=$h timeout 60 $B seismic $DECK --scheme.precision half --scheme.second_field $sf --scheme.steps 400 --output.progress none \
    --receivers.file traces-$run.bin --output.summary seismic-$run.json > seismic-$run.log 2>&1
  echo "$run rc=$?"; show < seismic-$run.log
done
for sf in velocity previous; do for h in 1 2 0b; do cmp -s traces-$sf-0.bin traces-$sf-$h.bin && echo "$sf-$h: traces == $sf-0's" || echo "$sf-$h: traces DIFFER"; done; done
rm -f traces-*.bin
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sector_hit_rate.pct,smsp__issue_active.avg.pct_of_peak_sustained_active
for h in 0 1 2; do
  WAVEFD_PROBE_L2=$h timeout 100 ncu --clock-control none --kernel-name regex:star_tma_kernel --launch-skip 3 --launch-count 1 --metrics $M --csv \
    $B seismic $DECK --scheme.precision half --scheme.second_field velocity --scheme.steps 6 --output.progress none > ncu-velocity-$h.log 2>&1
  echo "ncu velocity $h rc=$?"; grep -E '"(dram|gpu|sm__|smsp|lts|launch)' ncu-velocity-$h.log | awk -F'","' '{print $(NF-2), $NF}' | tr -d '"' | tr '\n' ';'; echo
done
cd $OUT && tar -cf call3.tar r && rm -rf r
echo "done $((SECONDS - T0)) s"
