#!/usr/bin/env bash
# What ran, wavefd 3eedf98 (main), built off the node (the node has no Kokkos): Kokkos 4.6.1 (CUDA,
# sm_90, Serial host space; CUDA 13 call-site fixes), nvcc 13.0 through nvcc_wrapper with clang++-16
# as the host compiler, bookworm's Open MPI 4.1 and NCCL 2.28 (/usr/local/cuda-13.0):
#   cmake --preset cuda -B wavefd-mpi -DWAVEFD_GIT_COMMIT=3eedf98 -DWAVEFD_ENABLE_SEGYIO=OFF -DWAVEFD_ENABLE_MESH=OFF \
#     -DWAVEFD_ENABLE_AUDIO=OFF -DWAVEFD_ENABLE_MPI=ON -DWAVEFD_ENABLE_NCCL=ON -DWAVEFD_ENABLE_KOKKOSKERNELS=OFF
#   cmake --build wavefd-mpi --target wavefd test_engine
# The voxel file: build/openmp/wavefd room inputs/room-hall.toml --grid.spacing 0.03 --output.voxels hall-3cm.voxels
# On two H200 of one node (nvidia-h200-x2; gpu.txt, topo.txt, mpi.txt), NCCL_NVLS_ENABLE=0:
#   test_engine --gtest_filter='Room.BulkOverTheAirColumns*:RoomEnergy.VoxelWallsBalanceInDouble:RoomEnergy.FrequencyDependentWallsBalance:Room.VoxelizedBox*'
#     (room-tests.log: 4 passed), then:
run() {  # $1 = ranks, $2 = transport, $3 = steps, $4 = tag
  mpirun --allow-run-as-root -np $1 -x NCCL_NVLS_ENABLE wavefd room inputs/room-hall.toml --room.voxels hall-3cm.voxels \
    --grid.spacing 0.03 --scheme.steps $3 --output.progress none --receivers.wav '' --receivers.file ir-$4-$3.bin \
    --parallel.transport $2 --output.summary $4-$3.json
}
for S in 300 900; do run 1 auto $S np1; done
NP=${NP:-2}  # ../../h200-x4/room-hall-3cm-gpus/ ran these with NP=4 and TRANSPORTS="peer nccl"
for T in ${TRANSPORTS:-nccl peer}; do
  for S in 300 900; do run $NP $T $S np$NP-$T; cmp ir-np$NP-$T-$S.bin ir-np1-$S.bin; done
done
# walls.txt: each run's wall time (setup included) and cmp's verdict; marginal.txt: per step from
# the difference of 900 and 300 steps (timing.seconds, the slowest rank's), speed-up and efficiency.
