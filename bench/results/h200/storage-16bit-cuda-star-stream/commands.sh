#!/bin/bash
# What made this folder: one nvidia-h200 lease, one call, from the tree of this folder's commit (the
# build's label 4457639+stream16), with Kokkos 4.6.01 (CUDA 13 call-site fixes) in gpu/kokkos-src and
# toml++ headers in gpu/tomlplusplus. Build: as ../storage-16bit-mdrange-star/commands.sh (call 1).
# The host's errors beside them (dev VM, OpenMP build): wavefd run ... --scheme.variant host-star, same grid.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
cd $OUT
for V in cuda-star-stream cuda-star-tma; do
  timeout 200 $B verify --precision half bfloat16 float --variant $V > verify-$V.log 2>&1; echo "verify $V rc=$? $(tail -1 verify-$V.log)"
  grep -E "FAIL" verify-$V.log | head -5
done
for P in half bfloat16; do
  $B run --grid.n 131 37 66 --scheme.init mode --scheme.precision $P --scheme.variant cuda-star-tma --scheme.steps 12 \
    --output.progress none --output.summary '' > run-unaligned-$P.log 2>&1; echo "tma unaligned $P rc=$? $(tail -1 run-unaligned-$P.log)"
done
timeout 120 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-stream --precision float half bfloat16 \
  --json stream-m4-512.json > stream-m4-512.log 2>&1; echo "bench rc=$?"; grep -E "^star" stream-m4-512.log | cut -c1-150
echo "$(date +%T) done"
