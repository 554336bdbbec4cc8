#!/bin/bash
# Device call (issue 40): vp as a byte index (speed-index) on top of the unrolled 16-bit inner box:
# build; the failing engine tests plainly and under compute-sanitizer (where is the illegal
# instruction?); minimod 100^3 traces == CPU's; minimod 1000^3 half x2, bfloat16, float; ncu inner.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
T=$ROOT/build/cuda-dev/ctest/test_engine
for F in 'SeismicEngine.ByteIndex*' 'SeismicEngine.SevenDomainMatches*'; do
  CUDA_LAUNCH_BLOCKING=1 timeout 120 $T --gtest_filter="$F" > "t-$F.txt" 2>&1; echo "$F rc=$? $(grep -E '^\[  (PASSED|FAILED)|illegal|error' "t-$F.txt" | head -3 | tr '\n' ';')"
done
timeout 150 compute-sanitizer --tool memcheck --print-limit 5 $T --gtest_filter='SeismicEngine.ByteIndex*' > sanitizer.txt 2>&1
echo "sanitizer rc=$?"; grep -E "=========" sanitizer.txt | grep -vE "^========= *$" | head -30
timeout 200 $T --gtest_filter='SeismicEngine.LayerVariants*:SeismicEngine.SixteenBit*:SeismicEngine.UnifiedAndSevenDomain*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure" -A3 engine.txt | head -10
for P in half bfloat16; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P defaults rc=$RC traces $R $(grep -E 'byte per point' m100.log | cut -c16-)"
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for L in half-1 bfloat16-1 float-1 half-2; do
  P=${L%%-*}
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step|byte per' m1000-$L.log | cut -c16-150 | tr '\n' ';')"
done
M="gpu__time_duration.sum,dram__bytes.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
timeout 90 ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 $B seismic \
  $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 4 --output.progress none --output.summary '' > ncu-inner-half.txt 2>&1
echo "ncu rc=$?"; grep -E "gpu__time|dram__bytes|inst_exec|issue_active|registers" ncu-inner-half.txt | sed 's/  */ /g'
cd .. && tar -cf index2.tar r && rm -rf r
echo "$(date +%T) done"
