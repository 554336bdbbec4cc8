#!/bin/bash
# Half, 1000 and 2000 steps: the mode's amplitude error against the grid and the Courant number
# (same build as commands.sh). sensitivity.txt: the echo lines.
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
while read -r N L S; do
  OMP_NUM_THREADS=1 nice $B run ../../../../inputs/quickstart.toml --grid.n $N $N $N --stencil.M 4 --scheme.init mode \
    --scheme.precision half --scheme.courant $L --scheme.steps $S --output.progress none \
    --output.summary sensitivity-half-$N-$L-$S.json > sensitivity-half-$N-$L-$S.log 2>&1
  echo "half ${N}^3 courant $L $S steps: $(grep -o "amplitude .*" sensitivity-half-$N-$L-$S.log)"
done <<LIST | tee sensitivity.txt
32 0.2 1000
32 0.4 1000
64 0.2 1000
64 0.2 2000
64 0.3 1000
96 0.4 1000
LIST
