#!/usr/bin/env bash
# Rehearse a run over several nodes on one host: the ranks, in blocks of G consecutive ranks, act as
# nodes of G GPUs. Each rank gets NCCL_HOSTID=wavefd-pseudo-node-<rank / G>, by which NCCL puts
# ranks of different blocks on its network transport (sockets; over the loopback interface unless
# NCCL_SOCKET_IFNAME says otherwise) and ranks of one block on NVLink or shared memory, and by which
# wavefd labels its links (`wavefd probe`: node or network; docs/scaling.md). Each rank still
# takes its GPU among those of the real host. Then the command runs in its place:
#   mpirun -np 4 scripts/pseudo_nodes.sh 2 wavefd bench --ranks 1,2,2 --transport nccl ...
# Reads the rank from Open MPI, MPICH/PMI, PMIx or Slurm. NCCL's socket transport takes its
# threads and sockets per thread from NCCL_SOCKET_NTHREADS and NCCL_NSOCKS_PERTHREAD.
set -euo pipefail
fail() { echo "pseudo_nodes.sh: $*" >&2; exit 2; }
[ $# -ge 2 ] || fail "usage: pseudo_nodes.sh G COMMAND [ARGS...]; accepted: G >= 1 ranks per pseudo-node, then the command"
G=$1
shift
[[ $G =~ ^[1-9][0-9]*$ ]] || fail "G = '$G' is not valid; accepted: an integer >= 1 (ranks per pseudo-node)"
rank=${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-${SLURM_PROCID:-}}}}
[ -n "$rank" ] || fail "no MPI rank in the environment (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID); accepted: a launch by mpirun, mpiexec or srun"
export NCCL_HOSTID="wavefd-pseudo-node-$((rank / G))"
export NCCL_SOCKET_IFNAME=${NCCL_SOCKET_IFNAME:-lo}
exec "$@"
