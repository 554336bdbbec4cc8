#!/usr/bin/env bash
# Five more interleaved rounds, star M = 8 float 256^3, rows-stream only (inside scripts/devroot.sh).
export OMP_PROC_BIND=false
for round in 1 2 3 4 5; do for b in before after; do
  gpu/wavefd-$b bench --family star --M 8 --n 256 256 256 --precision float --variant rows-stream \
    --steps 10 --reps 5 --json $OUT/$b-M8-r$round.json > /dev/null 2>&1
done; done
