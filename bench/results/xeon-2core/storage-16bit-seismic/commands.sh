#!/bin/bash
# minimod's deck on 100^3 points with 12 receivers (minimod-100-receivers.toml), 1000 steps, in
# double, float, half and bfloat16 (rounded to nearest, and stochastically); traces against the double run's (misfit.py). Inside
# scripts/devroot.sh, OpenMP build (-march=native) of the commit the summaries name; one thread.
set -e
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
run() {  # NAME ARGS...
  OMP_NUM_THREADS=1 OMP_PROC_BIND=false nice $B seismic minimod-100-receivers.toml "${@:2}" \
    --receivers.file traces-$1.bin --output.summary summary-$1.json > seismic-$1.log 2>&1
}
for P in double float half bfloat16; do run $P --scheme.precision $P; done
for P in half bfloat16; do run $P-stochastic --scheme.precision $P --scheme.rounding stochastic; done
python3 misfit.py traces-double.bin traces-float.bin traces-half.bin traces-bfloat16.bin traces-half-stochastic.bin \
  traces-bfloat16-stochastic.bin | tee misfit.txt
# The PML's reflection against a rigid wall's at normal and 45-degree incidence, in double, half and
# bfloat16 (CTest's SeismicAbsorbing.*Pml*), into pml-reflection.txt.
OMP_NUM_THREADS=2 OMP_PROC_BIND=false ${WAVEFD_TESTS:-/work/main/build/openmp/ctest/test_engine} \
  --gtest_filter='SeismicAbsorbing.*Pml*' 2>&1 | grep -E 'measured|OK|FAILED' > pml-reflection.txt
