#!/bin/bash
# What made this folder: one nvidia-h200 lease, one call, from the tree of this folder's commit (main
# 8466afa plus the commit that added this folder; the build's label is 17a7eb9+pairs), with Kokkos
# 4.6.01 (CUDA 13 call-site fixes) in gpu/kokkos-src and toml++ headers in gpu/tomlplusplus.
# Build: as ../storage-16bit-mdrange-star/commands.sh (call 1), into build/cuda-dev.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
cd $OUT
echo "$(date +%T) verify"
$B run --grid.n 136 35 70 --scheme.init mode --scheme.precision half --scheme.variant cuda-star-tma --scheme.steps 12 \
  --output.progress none --output.summary '' > run-half.log 2>&1; RC=$?; echo "run rc=$RC $(tail -1 run-half.log)"
[ $RC != 0 ] && exit 1
timeout 240 $B verify --precision half bfloat16 float double --variant cuda-star-tma > verify-tma.log 2>&1; echo "verify rc=$? $(tail -1 verify-tma.log)"
grep -E "FAIL" verify-tma.log | head -5
echo "$(date +%T) bench"
timeout 200 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles all --precision float half bfloat16 \
  --json tma-m4-512.json > tma-m4-512.log 2>&1; echo "bench rc=$?"; grep -E "^star" tma-m4-512.log | cut -c30-150
echo "$(date +%T) ncu"
for P in half bfloat16 float; do
timeout 60 ncu --clock-control none -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 --section LaunchStats --section SpeedOfLight \
  --section InstructionStats --section WarpStateStats --section Occupancy $B run --grid.n 512 512 512 --stencil.M 4 \
  --scheme.precision $P --scheme.variant cuda-star-tma --scheme.steps 4 --output.progress none --output.summary '' > ncu-tma-$P.txt 2>&1
echo "ncu $P: $(grep -E 'Registers Per|Executed Instructions  |DRAM Throughput|Duration|Warp Cycles Per Issued|Achieved Occ' ncu-tma-$P.txt | tr -s ' ' | tr '\n' ';')"
done
echo "$(date +%T) done"
