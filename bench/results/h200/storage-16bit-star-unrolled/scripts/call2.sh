#!/bin/bash
# Device call 2 (issue 40): as call1.sh, with the unrolled body storing every image that is a whole
# run (the y faces' too: in call 1 their rows took the general body, and the full step lost).
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 100 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "$(date +%T) tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
timeout 120 $B verify --precision half bfloat16 --variant cuda-star-tma > verify.log 2>&1; echo "$(date +%T) verify rc=$? $(tail -1 verify.log)"
grep -E "FAIL" verify.log | head -5
for P in half bfloat16; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P traces rc=$RC $R"
done
rm -f t.bin m100.log
timeout $((540 - SECONDS > 60 ? 200 : 60)) $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles all \
  --precision float half bfloat16 --json tma-m4-512.json > tma-m4-512.log 2>&1; echo "$(date +%T) bench rc=$?"
grep -E "copy probe" tma-m4-512.log; grep -E "^star" tma-m4-512.log | cut -c30-150
timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --output.progress none \
  --output.summary m1000-half.json > m1000-half.log 2>&1; echo "m1000 half rc=$? $(grep -E 's for|per step' m1000-half.log | cut -c16-125 | tr '\n' ';')"
M=gpu__time_duration.sum,sm__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for P in half float; do
  [ $SECONDS -lt 540 ] || break
  timeout $((585 - SECONDS)) ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 $B run \
    --grid.n 512 512 512 --stencil.M 4 --scheme.precision $P --scheme.variant cuda-star-tma --scheme.steps 4 --output.progress none \
    --output.summary '' > ncu-tma-$P.txt 2>&1
  echo "ncu $P rc=$? $(grep -E 'gpu__time|inst_executed|inst_issued|dram__bytes|warps_active|registers' ncu-tma-$P.txt | awk '{print $1, $NF}' | tr '\n' ';')"
done
cd .. && tar -cf call2.tar r && rm -rf r
echo "$(date +%T) done"
