#!/bin/bash
# Device call 6: 16-bit fields with an inner variant (the coefficient in float): minimod 100^3 with
# receivers, every inner kernel and work, traces == the CPU's layer-kernel traces byte for byte;
# minimod 1000^3 in half and bfloat16 with the defaults (cuda-star-tma inner box) and the copy probe.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
for P in half bfloat16; do for V in cuda-star-tma cuda-star-stream mdrange-stream; do for W in seven-domain three-domain; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --scheme.variant $V --scheme.work $W \
    --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P $V $W rc=$RC traces $R $(grep -oE 'inner box by [a-z-]+' m100.log)"
done; done; done
rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
for P in half bfloat16 float; do
  timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --output.progress none \
    --output.summary m1000-$P.json > m1000-$P.log 2>&1; echo "$P rc=$? $(grep -E 'inner box by|s for|per step' m1000-$P.log | cut -c16-150 | tr '\n' ';')"
done
cd .. && tar -cf inner16.tar r && rm -rf r
