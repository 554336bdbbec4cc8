#!/bin/bash
# What made this folder: one nvidia-h200 lease, two calls, from the checkout of a541d4d with
# Kokkos 4.6.01 (CUDA 13 call-site fixes) in gpu/kokkos-src and toml++ headers in gpu/tomlplusplus.
# The build (gpu/half/build.sh), as in ../storage-16bit-mdrange-star/commands.sh, then:

# call 1: verify and time
bash gpu/half/build.sh $1 || exit 1
cd $OUT
echo "$(date +%T) verify"
timeout 200 $B verify --quick --precision half bfloat16 float > verify-16.log 2>&1; tail -1 verify-16.log
echo "$(date +%T) bench"
timeout 240 $B bench --family star --M 4 --n 512 512 512 --variant mdrange-stream --tiles all \
  --precision float half bfloat16 --json stream-m4-512.json > stream-m4-512.log 2>&1; tail -20 stream-m4-512.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float \
  --json tma-m4-512.json > tma-m4-512.log 2>&1; tail -2 tma-m4-512.log
echo "$(date +%T) done"

# call 2: ncu, every kernel of a 3-step run; ncu-update-*.txt keep the update kernel (the 10th)
cd $OUT
for P in float half; do
  timeout 200 ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats \
    --section WarpStateStats --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis --launch-count 40 \
    $B run --grid.n 512 512 512 --stencil.M 4 --scheme.precision $P --scheme.variant mdrange-stream --scheme.steps 3 \
    --output.progress none --output.summary '' > ncu-$P.txt 2> ncu-$P.err
  echo "$P rc=$? $(grep -c 'Duration' ncu-$P.txt) kernels"
done
