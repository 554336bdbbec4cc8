#!/bin/bash
# The layered deck (inputs/seismic-layered.toml: 256 x 64 x 192 points, four layers, 1441 steps,
# 112 receivers) in double, float, half and bfloat16 (rounded to nearest, and stochastically);
# traces against the double run's (../storage-16bit-seismic/misfit.py). Inside scripts/devroot.sh,
# the OpenMP build (-march=native) of the commit the summaries name; two threads.
set -e
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
run() {  # NAME ARGS...
  OMP_NUM_THREADS=2 OMP_PROC_BIND=false $B seismic ../../../../inputs/seismic-layered.toml "${@:2}" --output.slices '' \
    --receivers.file traces-$1.bin --receivers.format raw --output.summary summary-$1.json > seismic-$1.log 2>&1
}
for P in double float half bfloat16; do run $P --scheme.precision $P; done
for P in half bfloat16; do run $P-stochastic --scheme.precision $P --scheme.rounding stochastic; done
python3 ../storage-16bit-seismic/misfit.py traces-double.bin traces-float.bin traces-half.bin traces-bfloat16.bin \
  traces-half-stochastic.bin traces-bfloat16-stochastic.bin | tee misfit.txt
