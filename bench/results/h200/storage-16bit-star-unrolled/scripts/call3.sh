#!/bin/bash
# Device call 3 (issue 40): as call2.sh, with each ghost-image run stored as whole 32-bit words (no
# unpacking and packing again), the plane's flat index stepped, not recomputed, and the last planes
# of a chunk through the rolled copy of the runs-only body. Verify all four precisions (float's
# loop changed too) and cuda-star-stream's images; star M=4 512^3 bench at chunks up to 512;
# minimod 1000^3 in half twice; ncu of the 512^3 launch and of minimod's inner box in half.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 100 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "$(date +%T) tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
timeout 120 $B verify --precision half bfloat16 float double --variant cuda-star-tma > verify.log 2>&1; echo "$(date +%T) verify rc=$? $(tail -1 verify.log)"
timeout 120 $B verify --precision half float --variant cuda-star-stream > verify-stream.log 2>&1; echo "$(date +%T) verify stream rc=$? $(tail -1 verify-stream.log)"
grep -E "FAIL" verify*.log | head -5
for P in half bfloat16; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P traces rc=$RC $R"
done
rm -f t.bin m100.log
T=default,32x16x64,32x16x128,32x16x256,32x16x512,32x8x128,32x8x256,32x8x512
timeout 200 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles $T \
  --precision float half bfloat16 --json tma-m4-512.json > tma-m4-512.log 2>&1; echo "$(date +%T) bench rc=$?"
grep -E "copy probe" tma-m4-512.log; grep -E "^star" tma-m4-512.log | cut -c30-150
for I in 1 2; do
timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --output.progress none \
  --output.summary m1000-half-$I.json > m1000-half-$I.log 2>&1; echo "m1000 half rc=$? $(grep -E 's for|per step' m1000-half-$I.log | cut -c16-125 | tr '\n' ';')"
done
M=gpu__time_duration.sum,sm__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
timeout $((585 - SECONDS)) ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 $B run \
  --grid.n 512 512 512 --stencil.M 4 --scheme.precision half --scheme.variant cuda-star-tma --scheme.steps 4 --output.progress none \
  --output.summary '' > ncu-tma-half.txt 2>&1
echo "ncu 512 half rc=$? $(grep -E 'gpu__time|inst_executed|inst_issued|dram__bytes|warps_active|registers' ncu-tma-half.txt | awk '{print $1, $NF}' | tr '\n' ';')"
[ $SECONDS -lt 550 ] && timeout $((585 - SECONDS)) ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 1 --launch-count 1 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 3 --output.progress none --output.summary '' > ncu-inner-half.txt 2>&1
echo "ncu inner half rc=$? $(grep -E 'gpu__time|inst_executed|inst_issued|dram__bytes|warps_active|registers' ncu-inner-half.txt | awk '{print $1, $NF}' | tr '\n' ';')"
cd .. && tar -cf call3.tar r && rm -rf r
echo "$(date +%T) done"
