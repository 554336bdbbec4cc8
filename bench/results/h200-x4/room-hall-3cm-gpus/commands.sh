#!/usr/bin/env bash
# What ran, wavefd 3eedf98 (main), on four H200 of one node (nvidia-h200-x4; gpu.txt, topo.txt,
# mpi.txt), NCCL_NVLS_ENABLE=0: the build, the checks (room-tests.log: 4 passed) and the runs of
# ../../h200-x2/room-hall-3cm-gpus/commands.sh, with four ranks and peer first:
NP=4 TRANSPORTS="peer nccl" source "$(dirname "$0")/../../h200-x2/room-hall-3cm-gpus/commands.sh"
