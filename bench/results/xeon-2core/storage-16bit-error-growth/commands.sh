#!/bin/bash
cd /tmp/growth
B=/work/main/build/openmp/wavefd
for P in half bfloat16 float; do
  for S in 100 1000 10000; do
    [ $P = float ] && [ $S = 100000 ] && continue
    OMP_NUM_THREADS=1 nice $B run /work/main/inputs/quickstart.toml --grid.n 64 64 64 --stencil.M 4 --scheme.init mode --scheme.precision $P \
      --scheme.steps $S --output.progress none --output.summary growth-$P-$S.json > growth-$P-$S.log 2>&1
    echo "$P $S $(grep -o 'eigenmode [0-9.e+-]*' growth-$P-$S.log) $(grep -o '[0-9.]* s, CTPN' growth-$P-$S.log)"
  done
done
