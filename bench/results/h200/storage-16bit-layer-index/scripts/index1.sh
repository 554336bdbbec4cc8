#!/bin/bash
# Device call (issue 40): the PML branch reading vp as a byte per point (experiment build: the switch
# WAVEFD_EXP_NO_INDEX=1 takes the float values as before). Build; the GPU's seismic/eigenmode tests;
# minimod 100^3 traces == CPU's with and without the index; minimod 1000^3 in half, float and
# bfloat16 with and without; ncu of the six slab launches in half (stall reasons).
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half bfloat16 float; do
  for X in "" 1; do
    WAVEFD_EXP_NO_INDEX=$X timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
    [ -z "$X" ] && unset WAVEFD_EXP_NO_INDEX
    cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P no_index=$X traces rc=$RC $R"
  done
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
run() {  # name, precision, no-index switch
  if [ -n "$3" ]; then export WAVEFD_EXP_NO_INDEX=1; else unset WAVEFD_EXP_NO_INDEX; fi
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $2 --output.progress none \
    --output.summary m1000-$1.json > m1000-$1.log 2>&1; echo "$1 rc=$? $(grep -E 's for|per step' m1000-$1.log | cut -c16-125 | tr '\n' ';')"
  unset WAVEFD_EXP_NO_INDEX
}
run half half
run half-noindex half 1
run float float
run float-noindex float 1
run bfloat16 bfloat16
run half-again half
run half-noindex-again half 1
M=gpu__time_duration.sum,sm__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio
if [ $SECONDS -lt 420 ]; then
  timeout $((540 - SECONDS)) ncu --clock-control none --metrics $M --kernel-name-base demangled -k regex:star_stream_kernel --launch-skip 6 --launch-count 6 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 3 --output.progress none --output.summary '' > ncu-slabs-half.txt 2>&1
  echo "ncu rc=$?"; grep -E "gpu__time_duration|sm__inst_executed|dram__bytes|issue_active|warps_active" ncu-slabs-half.txt | awk "{print \$1, \$NF}" | head -40
fi
cd .. && tar -cf index1.tar r && rm -rf r
echo "$(date +%T) done"
