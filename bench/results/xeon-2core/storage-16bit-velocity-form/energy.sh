#!/bin/bash
# The discrete energy within rigid walls with the velocity as the second field, half and bfloat16:
# CTest's SeismicAbsorbing.SixteenBitEnergyDriftWithinRigidWalls with $WAVEFD_ENERGY_STEPS, as
# ../storage-16bit-seismic/energy.sh (which has u^{n-1}'s rows). Inside scripts/devroot.sh, the
# OpenMP build's test_engine; two threads.
cd "$(dirname "$0")"
T=${TEST_ENGINE:-/work/main/build/openmp/ctest/test_engine}
for S in 1000 10000 100000; do
  WAVEFD_ENERGY_STEPS=$S OMP_NUM_THREADS=2 OMP_PROC_BIND=false $T \
    --gtest_filter=SeismicAbsorbing.SixteenBitEnergyDriftWithinRigidWalls | grep 'second field velocity'
done | tee energy.txt
