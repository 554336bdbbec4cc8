#!/usr/bin/env bash
# The CPU measurements of docs/performance.md on a host build: star M = 1, 4, 8 (float) and M = 4 (double) at 256^3,
# compact R = 3 and box (2,2,2) at 192^3, and the quickstart at 256^3 with `auto`, each ROUNDS
# times (default 5), the rounds interleaved so that a drift of the shared machine reaches every
# case alike. Raw JSON per case and round goes to OUT (default
# bench/results/epyc-2core/cpu-acceptance/cpu-<commit>);
# scripts/cpu_bench_summary.py prints the medians and spreads from it. CASES=star runs only the
# star float cases with the two row variants and the quickstart (a round in about 40 s instead of
# 4 minutes, so that 5 rounds more often fall within one of the shared machine's bandwidth states).
#   WAVEFD=build/openmp/wavefd ROUNDS=5 CASES=all scripts/cpu_bench.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
B=${WAVEFD:-build/openmp/wavefd}
ROUNDS=${ROUNDS:-5}
CASES=${CASES:-all}
case "$CASES" in all | star) ;; *) echo "CASES must be all or star, not '$CASES'" >&2; exit 2 ;; esac
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
OUT=${OUT:-bench/results/epyc-2core/cpu-acceptance/cpu-$COMMIT}
mkdir -p "$OUT"
export OMP_PROC_BIND=${OMP_PROC_BIND:-false}
STAR="host-star,rows-stream,rows-general,mdrange-stream,mdrange-star"
if [ "$CASES" = star ]; then STAR="host-star,rows-stream"; fi
GENERAL="rows-general,plane-stream,mdrange-general"
for round in $(seq 1 "$ROUNDS"); do
  for M in 1 4 8; do
    "$B" bench --family star --M "$M" --n 256 256 256 --precision float --steps 5 --reps 5 --variant "$STAR" \
      --json "$OUT/star$M-256-float-r$round.json" | tail -n +7
  done
  if [ "$CASES" = all ]; then
    "$B" bench --family star --M 4 --n 256 256 256 --precision double --steps 5 --reps 5 --variant "$STAR" \
      --json "$OUT/star4-256-double-r$round.json" | tail -n +7
    "$B" bench --family compact --R 3 --n 192 192 192 --precision float --steps 5 --reps 5 --variant "$GENERAL" \
      --json "$OUT/compact3-192-float-r$round.json" | tail -n +7
    "$B" bench --family box --q 2 2 2 --n 192 192 192 --precision float --steps 3 --reps 3 --variant "$GENERAL" \
      --json "$OUT/box222-192-float-r$round.json" | tail -n +7
  fi
  "$B" run inputs/quickstart.toml --grid.n 256 256 256 --output.progress none --output.summary "$OUT/run-quickstart-256-r$round.json" |
    grep -E "Gpts/s|variant" | head -3
done
echo "results in $OUT"
