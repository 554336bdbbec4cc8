#!/bin/bash
# The discrete energy within rigid walls (22 x 26 x 30 points, three layers, star M=4, no layer, the
# source done by step 300) after 10^3, 10^4 and 10^5 more steps, in float, half and bfloat16
# rounded to nearest and stochastically: CTest's SeismicAbsorbing.SixteenBitEnergyDriftWithinRigidWalls
# with $WAVEFD_ENERGY_STEPS. Inside scripts/devroot.sh, the OpenMP build's test_engine; one thread.
cd "$(dirname "$0")"
T=${TEST_ENGINE:-/work/main/build/openmp/ctest/test_engine}
for S in 1000 10000 100000; do
  WAVEFD_ENERGY_STEPS=$S OMP_NUM_THREADS=1 OMP_PROC_BIND=false nice $T \
    --gtest_filter=SeismicAbsorbing.SixteenBitEnergyDriftWithinRigidWalls | grep measured
done | tee energy.txt
