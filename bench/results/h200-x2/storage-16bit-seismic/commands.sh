#!/bin/bash
# Device call (issue 40) on two H200s: minimod's 1000^3 deck with a line of 95 receivers in half on
# one GPU and on two (1 x 1 x 2, through peer and nccl): the traces against one GPU's byte for byte,
# and the loops. Builds Kokkos and the cuda preset (MPI, NCCL; no segyio, mesh, audio).
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
cp inputs/seismic-minimod-1000.toml $DECK
cat >> $DECK <<'TOML'

# a line of 95 receivers 100 cells above the source (x = 30 .. 970 cells), as issue 13's runs
[receivers]
every = 4
[[receivers.line]]
from = [600, 10000, 8000]
to = [19400, 10000, 8000]
count = 95
TOML
cd $R
show() { grep -E "rank\(s\)|s for|per step|error|scale"; }
timeout 90 $B seismic $DECK --scheme.precision half --output.progress none --receivers.file traces-1.bin --output.summary seismic-1.json > seismic-1.log 2>&1; show < seismic-1.log
for t in peer nccl; do
  timeout 90 mpirun --allow-run-as-root -np 2 $B seismic $DECK --scheme.precision half --output.progress none --parallel.transport $t \
    --receivers.file traces-2-$t.bin --output.summary seismic-2-$t.json > seismic-2-$t.log 2>&1; show < seismic-2-$t.log
  cmp -s traces-1.bin traces-2-$t.bin && echo "2 GPUs $t: traces == one GPU's" || echo "2 GPUs $t: traces DIFFER"
done
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
cd $OUT && tar -cf x2.tar r && rm -rf r
echo "$(date +%T) done"
