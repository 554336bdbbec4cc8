#!/bin/bash
# Device call (issue 40's acceptance) on two H200s: the copy probe and star M=4 512^3 in float, half
# and bfloat16 in one bench run; minimod's 1000^3 deck with a line of 95 receivers in half (twice),
# bfloat16 and float on one GPU, and in half and bfloat16 on two (1 x 1 x 2, through peer and nccl):
# the traces against one GPU's byte for byte, and the loops against the fp32 floor of the same call.
# Builds Kokkos and the cuda preset (MPI, NCCL; no segyio, mesh, audio).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ROOT=$PWD; R=$OUT/r; mkdir -p $R
nvidia-smi -L > $R/topo.txt; nvidia-smi topo -m >> $R/topo.txt
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt
echo "$(date +%T) kokkos"
cmake -S gpu/kokkos-src -B /tmp/kk-build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON \
  -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX=/tmp/kk -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_CXX_COMPILER=$ROOT/gpu/kokkos-src/bin/nvcc_wrapper > /tmp/kokkos.log 2>&1 && cmake --build /tmp/kk-build -j 32 >> /tmp/kokkos.log 2>&1 \
  && cmake --install /tmp/kk-build >> /tmp/kokkos.log 2>&1 || { tail -20 /tmp/kokkos.log; exit 1; }
export Kokkos_ROOT=/tmp/kk tomlplusplus_ROOT=$ROOT/gpu/tomlplusplus CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus NVCC_WRAPPER_DEFAULT_ARCH=sm_90
echo "$(date +%T) wavefd"
cmake --preset cuda -G Ninja -DWAVEFD_GIT_COMMIT=$1 -DWAVEFD_ENABLE_SEGYIO=OFF -DWAVEFD_ENABLE_MESH=OFF -DWAVEFD_ENABLE_AUDIO=OFF \
  -DWAVEFD_ENABLE_KOKKOSKERNELS=OFF > $R/configure.log 2>&1 || { tail -30 $R/configure.log; exit 1; }
cmake --build --preset cuda -j 32 --target wavefd > /tmp/build.log 2>&1 || { grep error -A5 /tmp/build.log | head -30; exit 1; }
grep -E "MPI|NCCL" $R/configure.log | head -5
echo "$(date +%T) built"
B=$ROOT/build/cuda/wavefd
DECK=$R/seismic-minimod-1000-receivers.toml
cp bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml $DECK
cd $R
timeout 150 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles default,32x16x128,32x16x512 \
  --precision float half bfloat16 --json star-m4-512.json > star-m4-512.log 2>&1
echo "bench rc=$?"; grep -E "copy probe" star-m4-512.log; grep -E "^star" star-m4-512.log | cut -c30-125
show() { grep -E "s for|per step" | cut -c16-150; }
for run in half-1 half-2 bfloat16 float; do p=${run%-*}
  timeout 90 $B seismic $DECK --scheme.precision $p --output.progress none --receivers.file traces-1-$p.bin \
    --output.summary seismic-1-$run.json > seismic-1-$run.log 2>&1; echo "1 GPU $run rc=$?"; show < seismic-1-$run.log
done
for p in half bfloat16; do for t in peer nccl; do
  timeout 90 mpirun --allow-run-as-root -np 2 $B seismic $DECK --scheme.precision $p --output.progress none --parallel.transport $t \
    --receivers.file traces-2-$p-$t.bin --output.summary seismic-2-$p-$t.json > seismic-2-$p-$t.log 2>&1; echo "2 GPUs $p $t rc=$?"; show < seismic-2-$p-$t.log
  cmp -s traces-1-$p.bin traces-2-$p-$t.bin && echo "2 GPUs $p $t: traces == one GPU's" || echo "2 GPUs $p $t: traces DIFFER"
  rm -f traces-2-$p-$t.bin
done; done
cd $OUT && tar -cf x2.tar r && rm -rf r
echo "$(date +%T) done"
