#!/bin/bash
# Device call (issue 40): the committed PML branch (rows staged ahead in 16 bits, not unrolled):
# build; the GPU's seismic/eigenmode tests; minimod 100^3 traces == CPU's; minimod 1000^3 in half
# (default tiles and two layer tiles), bfloat16 and float.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half bfloat16 float; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P traces rc=$RC $R"
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
run() {  # name, precision, extra flags
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $2 $3 --output.progress none \
    --output.summary m1000-$1.json > m1000-$1.log 2>&1; echo "$1 rc=$? $(grep -E 's for|per step' m1000-$1.log | cut -c16-125 | tr '\n' ';')"
}
run half half
run half-32x8x64 half "--scheme.layer_tile 32x8x64"
run half-32x4x128 half "--scheme.layer_tile 32x4x128"
[ $SECONDS -lt 520 ] && run float float
[ $SECONDS -lt 540 ] && run bfloat16 bfloat16
[ $SECONDS -lt 555 ] && run half-again half
cd .. && tar -cf layer3.tar r && rm -rf r
echo "$(date +%T) done"
