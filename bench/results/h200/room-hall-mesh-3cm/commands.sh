#!/usr/bin/env bash
# What ran, wavefd c62ae2c (main). The device node has no Kokkos and the device time left was short,
# so the binaries were built here and carried (gpu/ is listed in .git/info/exclude, never committed):
#   Kokkos 4.6.1 (kokkos/kokkos, CUDA, Kokkos_ARCH_HOPPER90, Serial host space; CUDA 13 call-site
#   fixes in core/src/Cuda/Kokkos_Cuda_Instance.hpp), nvcc 13.0 through nvcc_wrapper (default arch
#   sm_90) with clang++-16 as the host compiler (bookworm's g++ 12 stops with an internal error on
#   src/io/deck_schema.hpp), on bookworm's glibc 2.36, so that the binaries run on the node:
#     cmake --preset cuda -B gpu/local/wavefd -DWAVEFD_GIT_COMMIT=c62ae2c -DWAVEFD_ENABLE_SEGYIO=OFF \
#       -DWAVEFD_ENABLE_MESH=OFF -DWAVEFD_ENABLE_AUDIO=OFF -DWAVEFD_ENABLE_MPI=OFF -DWAVEFD_ENABLE_NCCL=OFF \
#       -DWAVEFD_ENABLE_KOKKOSKERNELS=OFF
#     cmake --build gpu/local/wavefd --target wavefd test_engine
#   the voxel file, here (Debian sid dev root, assimp + CGAL):
#     build/openmp/wavefd room inputs/room-hall.toml --grid.spacing 0.03 --output.voxels gpu/hall/hall-3cm.voxels
# On the H200 (nvidia-h200), one call:
#   test_engine --gtest_filter='Room.BulkOverTheAirColumns*:Room.VoxelizedBox*:RoomEnergy.VoxelWallsBalanceInDouble:Cells/RoomModes.*star_M_1_float*'
#     (room-tests.log: 13 passed), then for S in 300 900:
B=gpu/local/bin/wavefd
for S in 300 900; do
  $B room inputs/room-hall.toml --room.voxels gpu/hall/hall-3cm.voxels --grid.spacing 0.03 --stencil.M 1 \
    --scheme.steps $S --output.progress none --receivers.wav '' --receivers.file ir-M1-$S.bin --output.summary fd-M1-$S.json
done
# The periodic grid of the same cells, same variant and Courant number (a second call on the same
# lease: the first call's periodic JSONs did not come back, the device tool returns 8 files a call;
# that call's own periodic step was 1.3867 ms):
for S in 300 900; do
  $B run --grid.n 1000 867 467 --grid.boundary periodic --stencil.family star --stencil.M 1 \
    --scheme.courant 0.5715767664977295 --scheme.steps $S --scheme.variant cuda-star-tma \
    --output.progress none --output.summary run-M1-$S.json
done
# marginal.txt: per step from the difference of 900 and 300 steps (computed here from the JSONs).
