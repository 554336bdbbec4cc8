#!/bin/bash
# Device call 4: the layer kernel's launch bound for 16-bit fields: 3 and 2 blocks per SM (170 and
# 255 registers) against 4 (128, spilling: ncu-layer.sh). minimod 1000^3 half and bfloat16; 100^3 traces == the CPU's.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
one() {
  cd $OUT/r
  for P in half bfloat16; do
    timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t-$P-$1.bin --output.summary '' > /dev/null 2>&1
    cmp -s t-$P-$1.bin $STUDY/traces-$P.bin && echo "$1 $P: 100^3 traces == CPU" || echo "$1 $P: 100^3 traces DIFFER"
    timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --output.progress none \
      --output.summary m1000-$P-$1.json > m1000-$P-$1.log 2>&1; echo "$1 $P rc=$? $(grep -E 's for|per step' m1000-$P-$1.log | cut -c16-120 | tr '\n' ';')"
  done
  rm -f t-*.bin; cd $ROOT
}
mkdir -p $OUT/r
sed -i 's/constexpr int kLayerMinBlocks = kSixteenBit<T> ? 4 : 4;/constexpr int kLayerMinBlocks = kSixteenBit<T> ? 3 : 4;/' src/model/seismic_step.cpp
bash gpu/half/build.sh $1 || exit 1
rm -f $OUT/*.log; mv $OUT/gpu.txt $OUT/r/
one min3
sed -i 's/constexpr int kLayerMinBlocks = kSixteenBit<T> ? 3 : 4;/constexpr int kLayerMinBlocks = kSixteenBit<T> ? 2 : 4;/' src/model/seismic_step.cpp
echo "$(date +%T) rebuild min2"
cmake --build build/cuda-dev -j 16 --target wavefd > $OUT/build-2.log 2>&1 || { grep -A5 error $OUT/build-2.log | head; exit 1; }
rm -f $OUT/build-2.log
one min2
cd $OUT && tar -cf layer-blocks.tar r && rm -rf r
echo "$(date +%T) done"
