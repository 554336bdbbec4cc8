#!/bin/bash
# Device call (issue 40) on nvidia-h200, main at 5ab1216; from the repository root: commands.sh <commit>.
# Builds (../storage-16bit-seismic/scripts/build.sh: Kokkos 4.6.01 for sm_90 from gpu/kokkos-src, wavefd without MPI), the GPU tests,
# verify in 4 precisions, minimod 100^3 traces against the CPU's, star M=4 512^3 in float, half and
# bfloat16 in one bench run, minimod 1000^3 in half (twice), bfloat16 and float, and in half at 3 chunks.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && mv ../wavefd-build.log . ; rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 120 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*:Room*:GhostImages*' > engine.txt 2>&1
echo "$(date +%T) tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
timeout 120 $B verify --precision half bfloat16 float double --variant cuda-star-tma > verify.log 2>&1; echo "verify rc=$? $(tail -1 verify.log)"
for P in half bfloat16 float; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P traces rc=$RC $R"
done; rm -f t.bin m100.log
timeout 200 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma \
  --tiles default,32x16x64,32x16x128,32x16x256,32x16x512,32x8x256 --precision float half bfloat16 --json tma-m4-512.json > tma-m4-512.log 2>&1
echo "bench rc=$?"; grep -E "copy probe" tma-m4-512.log; grep -E "^star" tma-m4-512.log | cut -c30-150
for R in half-1 half-2 bfloat16 float; do P=${R%-*}
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --output.progress none \
    --output.summary m1000-$R.json > m1000-$R.log 2>&1; echo "$R rc=$? $(grep -E 's for|per step' m1000-$R.log | cut -c16-125 | tr '\n' ';')"
done
# The inner box's chunk with the unrolled loop (its 2R planes of start per chunk): longer chunks won on the star.
for TL in 32x8x128 32x8x256 32x16x128; do
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.tile $TL --output.progress none \
    --output.summary m1000-half-$TL.json > m1000-half-$TL.log 2>&1; echo "half $TL rc=$? $(grep -E 's for|per step' m1000-half-$TL.log | cut -c16-125 | tr '\n' ';')"
done
cd .. && tar -cf call1.tar r && rm -rf r
