#!/bin/bash
# Device call (issue 40): the velocity form with the inner box in 16-row tiles (4e67522). Build
# (cuda preset); the velocity tests on the GPU; the copy probe (the fp32 floor of this call);
# minimod 1000^3 with 95 receivers in half with the velocity (twice) and bfloat16 on one GPU, and
# half on two (1 x 1 x 2, peer): traces against one GPU's byte for byte.
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
cmake --build --preset cuda -j 32 --target wavefd test_engine > /tmp/build.log 2>&1 || { grep error -A5 /tmp/build.log | head -30; exit 1; }
grep -E "MPI|NCCL" $R/configure.log | head -5
echo "$(date +%T) built"
B=$ROOT/build/cuda/wavefd
DECK=$R/seismic-minimod-1000-receivers.toml
cp bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml $DECK
cd $R
CUDA_VISIBLE_DEVICES=0 timeout 150 $ROOT/build/cuda/ctest/test_engine --gtest_filter='SeismicEngine.Velocity*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
CUDA_VISIBLE_DEVICES=0 timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --json star.json > star.log 2>&1
echo "bench rc=$?"; grep -E "copy probe" star.log
show() { grep -E "s for|per step" | cut -c16-150; }
for run in half-velocity-1 half-velocity-2 bfloat16-velocity; do p=${run%%-*}
  sf=${run#*-}; sf=${sf%-*}
  timeout 90 $B seismic $DECK --scheme.precision $p --scheme.second_field $sf --output.progress none --receivers.file traces-1-$run.bin \
    --output.summary seismic-1-$run.json > seismic-1-$run.log 2>&1; echo "1 GPU $run rc=$?"; show < seismic-1-$run.log
done
for c in half-peer; do p=${c%-*}; t=${c#*-}
  timeout 90 mpirun --allow-run-as-root -np 2 $B seismic $DECK --scheme.precision $p --scheme.second_field velocity --output.progress none \
    --parallel.transport $t --receivers.file traces-2-$p-velocity-$t.bin --output.summary seismic-2-$p-velocity-$t.json \
    > seismic-2-$p-velocity-$t.log 2>&1; echo "2 GPUs $p velocity $t rc=$?"; show < seismic-2-$p-velocity-$t.log
  one=traces-1-$p-velocity-1.bin; [ -f $one ] || one=traces-1-$p-velocity.bin
  cmp -s $one traces-2-$p-velocity-$t.bin && echo "2 GPUs $p $t: traces == one GPU's" || echo "2 GPUs $p $t: traces DIFFER"
  rm -f traces-2-$p-velocity-$t.bin
done
cd $OUT && tar -cf x2.tar r && rm -rf r
echo "$(date +%T) done"
