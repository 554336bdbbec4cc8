#!/bin/bash
# host-star in float, half and bfloat16, star M=4 256^3, 2 threads (verified against the exact
# eigenmode first). Inside scripts/devroot.sh, the OpenMP build (-march=native) of the commit the JSON names.
set -e
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
OMP_NUM_THREADS=2 OMP_PROC_BIND=false $B bench --family star --M 4 --n 256 256 256 --variant host-star \
  --precision float half bfloat16 --steps 10 --reps 3 --json bench.json | tee bench.log
