#!/bin/bash
# Device call (issue 40, 16-bit PML branches): build; the GPU's SeismicEngine tests of layer variants
# and 16-bit fields; minimod 100^3 with receivers in half and bfloat16 by every inner kernel and
# work (the layer by the variants' PML branches), traces == the CPU's layer-kernel traces; minimod
# 1000^3: copy probe, float defaults, half/bfloat16 defaults, half three-domain and unified, half
# with the layer kernel on the layer. Everything in one tar.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
echo "$(date +%T) tests"
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.LayerVariants*:SeismicEngine.SixteenBit*' > engine16.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine16.txt | tr '\n' ';')"; grep -E "FAILED|Failure" -A3 engine16.txt | head -20
echo "$(date +%T) 100^3"
for P in half bfloat16; do for V in cuda-star-tma cuda-star-stream mdrange-stream; do for W in seven-domain three-domain unified; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --scheme.variant $V --scheme.work $W \
    --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P $V $W rc=$RC traces $R $(grep -oE '(inner box|layer|core|box) by [a-z-]+' m100.log | tr '\n' ' ')"
done; done; done
rm -f t.bin m100.log
echo "$(date +%T) 1000^3"
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for L in float half bfloat16 half-three half-unified half-layer; do
  P=${L%%-*}; X=""; [ $L = half-three ] && X="--scheme.work three-domain"; [ $L = half-unified ] && X="--scheme.work unified"
  [ $L = half-layer ] && X="--scheme.layer_variant layer"
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P $X --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 'work,|s for|per step' m1000-$L.log | cut -c16-160 | tr '\n' ';')"
done
cd .. && tar -cf pml16.tar r && rm -rf r
echo "$(date +%T) done"
