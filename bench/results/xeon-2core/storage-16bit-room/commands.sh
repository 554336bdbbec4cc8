#!/bin/bash
# The room shoebox (inputs/room-shoebox.toml: 80 x 60 x 50 cells of 5 cm, plaster walls, a fitted
# carpet floor and ceiling, 1 s) in double, float and half (room decks refuse bfloat16): responses
# against the double run's (misfit.py), and the acoustic parameters each run's summary reports; then
# the room's 16-bit CTests (their measured lines), and the energy within rigid walls over 10^3,
# 10^4 and 10^5 steps (CTest's RoomEnergy.SixteenBitDriftWithinRigidWalls).
# Inside scripts/devroot.sh, OpenMP build of the commit the summaries name; two threads.
set -e
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp}
for P in double float half; do
  OMP_NUM_THREADS=2 OMP_PROC_BIND=false $B/wavefd room ../../../../inputs/room-shoebox.toml --scheme.precision $P \
    --output.progress none --receivers.file responses-$P.bin --output.summary summary-$P.json > room-$P.log 2>&1
done
python3 misfit.py responses-double.bin responses-float.bin responses-half.bin | tee misfit.txt
OMP_NUM_THREADS=2 $B/ctest/test_engine --gtest_filter='Room.SixteenBit*:*RoomModes*' 2>&1 | grep -E "measured|PASSED|FAILED" | tee tests.txt
for N in 1000 10000 100000; do
  WAVEFD_ENERGY_STEPS=$N OMP_NUM_THREADS=2 $B/ctest/test_engine --gtest_filter=RoomEnergy.SixteenBitDriftWithinRigidWalls
done 2>&1 | grep -E "measured|OK|FAILED" | tee energy.txt
