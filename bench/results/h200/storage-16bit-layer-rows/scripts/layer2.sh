#!/bin/bash
# Device call (issue 40), experiment: the PML branch in half with (WAVEFD_EXP bits) 1 = the in-plane
# neighbours staged a plane ahead (cp.async), 2 = the loop not unrolled; minimod 1000^3 per setting.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
WAVEFD_EXP=1 timeout 120 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*' > engine-exp1.txt 2>&1
echo "tests exp1 rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine-exp1.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine-exp1.txt | head -20
for E in 1 2 3; do for P in half bfloat16; do
  WAVEFD_EXP=$E timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "exp $E $P rc=$RC traces $R"
done; done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
run() {  # name, env, precision, extra flags
  env $2 timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $3 $4 --output.progress none \
    --output.summary m1000-$1.json > m1000-$1.log 2>&1; echo "$1 rc=$? $(grep -E 's for|per step' m1000-$1.log | cut -c16-125 | tr '\n' ';')"
}
run half-exp0 WAVEFD_EXP=0 half
run half-exp1 WAVEFD_EXP=1 half
run half-exp2 WAVEFD_EXP=2 half
run half-exp3 WAVEFD_EXP=3 half
run half-exp1-rows8 WAVEFD_EXP=1 half "--scheme.layer_tile 32x8x64"
run half-exp3-rows8 WAVEFD_EXP=3 half "--scheme.layer_tile 32x8x64"
[ $SECONDS -lt 540 ] && run float WAVEFD_EXP=0 float
[ $SECONDS -lt 555 ] && run bfloat16-exp1 WAVEFD_EXP=1 bfloat16
cd .. && tar -cf layer2.tar r && rm -rf r
echo "$(date +%T) done"
