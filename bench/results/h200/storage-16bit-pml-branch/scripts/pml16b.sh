#!/bin/bash
# Device call (issue 40): the inner variant's box on the coefficient's 32-byte sectors (16-bit x slabs
# 32 points wide, not 40); GPU tests; minimod 1000^3 timings; ncu of each layer launch (half, float).
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.LayerVariants*:SeismicEngine.SixteenBit*' > engine16.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine16.txt | tr '\n' ';')"; grep -E "FAILED|Failure" -A3 engine16.txt | head -20
for P in half bfloat16; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P defaults rc=$RC traces $R"
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for L in half float bfloat16 half-layer; do
  P=${L%%-*}; X=""; [ $L = half-layer ] && X="--scheme.layer_variant layer"
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P $X --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step' m1000-$L.log | cut -c16-150 | tr '\n' ';')"
done
M="gpu__time_duration.sum,launch__grid_size,launch__block_size,smsp__inst_executed.sum,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
for P in half float; do
  timeout 90 ncu --clock-control none --metrics $M -k regex:star_stream_kernel --launch-skip 12 --launch-count 6 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --scheme.steps 4 --output.progress none --output.summary '' > ncu-slabs-$P.txt 2>&1
  echo "ncu $P rc=$?"; grep -E "gpu__time|grid_size|block_size|inst_exec|dram__bytes|warps_active|issue_active" ncu-slabs-$P.txt | sed 's/  */ /g' | head -60
done
cd .. && tar -cf pml16b.tar r && rm -rf r
echo "$(date +%T) done"
