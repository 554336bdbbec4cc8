#!/bin/bash
# Device call (issue 40): cuda-star-stream's PML branch with per-column phi cursor, 32-bit bounds,
# branch-free reciprocal and update, eta_z slid along, 16-bit loop unrolled 2R + 1 times.
# build; the GPU's seismic/eigenmode tests; minimod 100^3 traces == CPU's; minimod 1000^3 in half,
# bfloat16 and float; ncu of the six slab launches in half where time is left.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
echo "$(date +%T) tests built"
timeout 240 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half bfloat16 float; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P defaults rc=$RC traces $R"
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for L in half bfloat16 float; do
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $L --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step' m1000-$L.log | cut -c16-150 | tr '\n' ';')"
done
if [ $SECONDS -lt 470 ]; then
  M="gpu__time_duration.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio"
  timeout $((560 - SECONDS)) ncu --clock-control none --metrics $M --kernel-name-base demangled -k regex:star_stream_kernel --launch-skip 6 --launch-count 6 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 3 --output.progress none --output.summary '' > ncu-slabs-half.txt 2>&1
  echo "ncu rc=$?"; grep -E "gpu__time_duration|sm__inst_executed|warps_active|issue_active" ncu-slabs-half.txt | awk '{print $1, $(NF)}' | paste - - - - | head -8
fi
cd .. && tar -cf layer1.tar r && rm -rf r
echo "$(date +%T) done"
