#!/usr/bin/env bash
# Issue 12's star cases only (float 256^3, M = 1, 4, 8; the two row variants), 5 rounds interleaved,
# on the development machine (2 cores), at 6521abe (host code as at 25c4e5b: a058fb0's row runs). Summary:
# scripts/cpu_bench_summary.py bench/results/epyc-2core/issue12/cpu-6521abe-star
set -euo pipefail
OUT=bench/results/epyc-2core/issue12/cpu-6521abe-star
export OMP_PROC_BIND=false
for round in 1 2 3 4 5; do
  for M in 1 4 8; do
    scripts/devroot.sh run build/openmp/wavefd bench --family star --M "$M" --n 256 256 256 --precision float \
      --steps 5 --reps 5 --variant rows-stream,host-star --json "$OUT/star$M-256-float-r$round.json" | tail -n 2
  done
done
