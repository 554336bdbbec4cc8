#!/usr/bin/env bash
# What ran, wavefd e8a8652 (main), built off the node as bench/results/h200/room-hall-mesh-3cm/commands.sh
# says (Kokkos 4.6.1 CUDA sm_90, nvcc 13.0 with clang++-16 as host compiler, no MPI), carried there.
# The voxel files, here (Debian sid dev root, assimp + CGAL; 2 cm: 21 MB, 1.5 cm: 38 MB, 2.6 min on 2 cores):
#   build/openmp/wavefd room inputs/room-hall.toml --grid.spacing 0.02  --output.voxels hall-2cm.voxels
#   build/openmp/wavefd room inputs/room-hall.toml --grid.spacing 0.015 --output.voxels hall-1.5cm.voxels
# On one H200 (nvidia-h200): first the room's GPU checks (room-tests.log, 13 passed):
#   test_engine --gtest_filter='Room.BulkOverTheAirColumns*:Room.VoxelizedBox*:RoomEnergy.VoxelWallsBalanceInDouble:Cells/RoomModes.*star_M_1_float*'
# then per grid (H = 0.02, 0.015), the hall against the periodic grid of its cells, same variant
# (cuda-star-tma) and Courant number, 300 and 900 steps (per step from the difference):
B=wavefd
for S in 300 900; do
  $B room inputs/room-hall.toml --room.voxels hall-$H.voxels --grid.spacing $H --stencil.M 1 \
    --scheme.steps $S --output.progress none --receivers.wav '' --receivers.file ir-M1-$S.bin --output.summary fd-M1-$S.json
  $B run --grid.n $N --grid.boundary periodic --stencil.family star --stencil.M 1 \
    --scheme.courant $C --scheme.steps $S --scheme.variant cuda-star-tma --output.progress none --output.summary run-M1-$S.json
done
# (N and C from fd-M1-$S.json's model.cells and model.courant.) marginal.txt: per step from the
# difference of 900 and 300 steps. 2 cm: the periodic JSONs and marginal.txt did not come back (the
# device tool returns 8 files a call); marginal.txt there is the line the call printed.
