#!/bin/bash
# Device call (issue 40): the byte index's copy from the 16-byte boundary at or before each tile:
# build; the engine tests that stopped (ByteIndex, SevenDomain) and the seismic/eigenmode tests;
# minimod 100^3 traces == CPU's; minimod 1000^3 in half and float once.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 240 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half bfloat16 float; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P defaults rc=$RC traces $R $(grep -E 'byte per point' m100.log | cut -c16-)"
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for L in half float; do
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $L --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step' m1000-$L.log | cut -c16-150 | tr '\n' ';')"
done
cd .. && tar -cf index3.tar r && rm -rf r
echo "$(date +%T) done"
