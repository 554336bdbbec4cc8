#!/usr/bin/env bash
# Interleaved A/B on the 2-core development machine (inside scripts/devroot.sh): rows-stream and
# host-star, star float 256^3, M = 6 and 8, the build of 571c1c4 (before) against a058fb0 (after),
# 5 rounds, each bench the min of 5 repetitions of 10 steps.
export OMP_PROC_BIND=false
for round in 1 2 3 4 5; do for b in before after; do for M in 6 8; do
  gpu/wavefd-$b bench --family star --M $M --n 256 256 256 --precision float --variant rows-stream,host-star \
    --steps 10 --reps 5 --json $OUT/$b-M$M-r$round.json > /dev/null 2>&1
done; done; done
