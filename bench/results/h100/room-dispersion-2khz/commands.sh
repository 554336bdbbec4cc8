#!/usr/bin/env bash
# On this machine: the cell sizes (2 % worst error of the modes below 2 kHz).
scripts/room_dispersion.py --fmax 2000 --volume 7200 --seconds 1 > dispersion.txt
# On the H100 (nvidia-h100-x1, a fresh lease): gpu/room4.sh 5c19170, which follows.
# The dispersion comparison measured: 7200 m^3 (30 x 20 x 12 m, rounded to whole cells), 1 s of response,
# at the cell sizes scripts/room_dispersion.py gives for 2 % worst error of the modes below 2 kHz:
# star M = 1 at 22.85 mm, star M = 4 at 41.11 mm. Builds first (gpu/room1.sh's steps). $1 = commit.
set -o pipefail
ROOT=$PWD
KK=$ROOT/build/kokkos-cuda
if [ ! -x $KK/install/bin/nvcc_wrapper ]; then
  cmake -S gpu/kokkos-src -B $KK/build -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON \
    -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX=$KK/install -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_CXX_COMPILER=$ROOT/gpu/kokkos-src/bin/nvcc_wrapper > /tmp/kokkos.log 2>&1 && cmake --build $KK/build -j 16 >> /tmp/kokkos.log 2>&1 \
    && cmake --install $KK/build >> /tmp/kokkos.log 2>&1 || { tail -30 /tmp/kokkos.log; exit 1; }
fi
export Kokkos_ROOT=$KK/install CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 -DWAVEFD_ENABLE_SEGYIO=OFF > /tmp/build.log 2>&1 && cmake --build build/cuda -j 16 --target wavefd test_engine >> /tmp/build.log 2>&1 || { grep -A8 error /tmp/build.log | head -40; exit 1; }
mkdir -p /tmp/res && cd /tmp/res
$ROOT/build/cuda/ctest/test_engine --gtest_filter='*RoomModes*' > room-modes.log 2>&1; grep -E "^\[  (PASSED|FAILED)" room-modes.log
for case in "1 0.02285" "4 0.04111"; do
  set -- $case
  size=$(python3 -c "h=$2; print(' '.join(str(round(L/h)*h) for L in (30, 20, 12)))")
  $ROOT/build/cuda/wavefd room $ROOT/inputs/room-shoebox.toml --room.size $size --grid.spacing $2 --stencil.M $1 \
    --scheme.time 1 --output.progress none --receivers.file ir-M$1.bin --output.summary room-M$1.json 2>&1 | grep -E "wavefd room: (shoebox|[0-9.]+ s for)" | tee -a log.txt
done
cp log.txt $OUT/; tar czf $OUT/room-dispersion-h100.tgz -C /tmp/res room-modes.log log.txt room-M1.json room-M4.json
