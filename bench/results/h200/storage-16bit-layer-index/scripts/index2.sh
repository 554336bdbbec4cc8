#!/bin/bash
# Device call (issue 40): the order of the step's launches (experiment build: WAVEFD_EXP_ORDER = 0:
# the host's fences around the slabs' instances, as committed; 1: CUDA events instead; 2: every
# launch on the compute instance, the slabs first; 3: the inner box first). Build; the GPU's seismic
# tests; minimod 100^3 traces == CPU's in each order; minimod 1000^3 in half (twice) and float.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half float; do
  for X in 0 1 2 3; do
    WAVEFD_EXP_ORDER=$X timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
    cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P order=$X traces rc=$RC $R"
  done
done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
run() {  # name, precision, order
  WAVEFD_EXP_ORDER=$3 timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $2 --output.progress none \
    --output.summary m1000-$1.json > m1000-$1.log 2>&1; echo "$1 rc=$? $(grep -E 's for|per step' m1000-$1.log | cut -c16-125 | tr '\n' ';')"
}
for X in 0 1 2 3; do run half-order$X half $X; done
for X in 0 1 2 3; do run half-order$X-again half $X; done
for X in 0 1; do [ $SECONDS -lt 540 ] && run float-order$X float $X; done
[ $SECONDS -lt 555 ] && run bfloat16-order1 bfloat16 1
cd .. && tar -cf index2.tar r && rm -rf r
echo "$(date +%T) done"
