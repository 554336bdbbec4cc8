#!/bin/bash
# The eigenmode on a periodic 64^3 grid, star M=4, Courant 0.4, one thread, after 10^2..10^5 steps
# in float, half and bfloat16 (inside scripts/devroot.sh; OpenMP build, -march=native, of the commit
# the summaries name). summary.txt: the echo lines.
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
for S in 100 1000 10000 100000; do
  for P in float bfloat16 half; do
    OMP_NUM_THREADS=1 nice $B run ../../../../inputs/quickstart.toml --grid.n 64 64 64 --stencil.M 4 --scheme.init mode \
      --scheme.precision $P --scheme.steps $S --output.progress none --output.summary growth-$P-$S.json > growth-$P-$S.log 2>&1
    echo "$P $S $(grep -o 'eigenmode [0-9.e+-]*' growth-$P-$S.log) $(grep -o "amplitude .*" growth-$P-$S.log) $(grep -o '[0-9.]* s, CTPN' growth-$P-$S.log)"
  done
done | tee summary.txt
