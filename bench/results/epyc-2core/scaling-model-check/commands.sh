#!/bin/sh
# The CPU sanity-check series of docs/scaling.md: probes at 1, 2, 4 ranks, weak 64^3 per rank
# (overlap off and on) and strong 128^3, star M=4 float, transport mpi, 1 OpenMP thread per rank.
# Run inside the dev root (scripts/devroot.sh run sh bench/results/epyc-2core/scaling/commands.sh).
set -e
uptime
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe OMP_NUM_THREADS=1 OMP_PROC_BIND=false KOKKOS_DISABLE_WARNINGS=1
M=${M:-bench/results/epyc-2core/scaling}
W=build/openmp/wavefd
mpiexec -n 1 $W probe --family star --M 4 --n 64 64 64 --ranks 1,1,1 --reps 10 --json $M/probe-np1.json > $M/probe-np1.txt 2>&1
mpiexec -n 2 $W probe --family star --M 4 --n 64 64 128 --ranks 1,1,2 --reps 10 --json $M/probe-np2.json > $M/probe-np2.txt 2>&1
mpiexec -n 4 $W probe --family star --M 4 --n 64 128 128 --ranks 1,2,2 --reps 10 --json $M/probe-np4.json > $M/probe-np4.txt 2>&1
for ov in false true; do
  python3 scripts/scaling.py weak --local 64 64 64 --ranks 1,2,4 --out $M/weak-overlap-$ov --launcher 'mpiexec -n {np}' --steps 5 --reps 15 \
    -- --family star --M 4 --transport mpi --overlap $ov > $M/weak-overlap-$ov.txt 2>&1
done
python3 scripts/scaling.py strong --global 128 128 128 --ranks 1,2,4 --out $M/strong-overlap-false --launcher 'mpiexec -n {np}' --steps 5 --reps 15 \
  -- --family star --M 4 --transport mpi --overlap false > $M/strong-overlap-false.txt 2>&1
uptime
