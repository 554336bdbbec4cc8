#!/bin/bash
# One device call (issue 40, seismic in 16 bits): build; minimod's
# 100^3 deck with receivers (bench/results/xeon-2core/storage-16bit-seismic/) in every format and
# rounding, traces compared byte for byte with the CPU's; minimod's 1000^3 deck in float (the
# defaults) and half/bfloat16 (the layer kernel), with the copy bandwidth for the floor.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
bash gpu/half/build.sh $1 || exit 1
rm -f $OUT/kokkos-*.log $OUT/wavefd-*.log
STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
cd $OUT
echo "$(date +%T) 100^3"
run100() {  # NAME ARGS...
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml "${@:2}" --receivers.file traces-$1.bin --output.summary '' > m100-$1.log 2>&1
  echo "$1 rc=$? $(grep -E 's for' m100-$1.log | cut -c16-90)"
  cmp -s traces-$1.bin $STUDY/traces-$1.bin && echo "  $1: traces equal the CPU's byte for byte" || echo "  $1: traces DIFFER from the CPU's"
}
for P in double float half bfloat16; do run100 $P --scheme.precision $P; done
for P in half bfloat16; do run100 $P-stochastic --scheme.precision $P --scheme.rounding stochastic; done
for W in unified three-domain; do
  run100 half-$W --scheme.precision half --scheme.work $W; cmp -s traces-half-$W.bin $STUDY/traces-half.bin && echo "  == half seven-domain"
done
echo "$(date +%T) copy"
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -iE "copy" bench.log | head -3
echo "$(date +%T) 1000^3"
for L in float half bfloat16 half-stochastic; do
  P=${L%-stochastic}; R=nearest; [ $L != $P ] && R=stochastic
  timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --scheme.rounding $R --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step' m1000-$L.log | cut -c16-140 | tr '\n' ';')"
done
echo "$(date +%T) done"
