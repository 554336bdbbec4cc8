#!/usr/bin/env bash
# The full-step study of one GPU (issue 10): build the cuda preset against $Kokkos_ROOT, check the
# build, then time the full step (what `run` does) of star M=4 at 512^3 with the ghosts written by
# the kernel, with a separate fill pass (overlap on and off) and with every transport in
# self-exchange, beside the kernel alone; star M=1 and 8 with the kernel's ghosts; and a 2-rank
# run sharing the GPU against the 1-rank run. Results (JSON and logs) go to $OUT (default ./gpu-out).
#   Kokkos_ROOT=/path/to/kokkos-cuda scripts/gpu_full_step.sh [commit]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
log "configure"
W=$(mktemp -d)  # build logs and run summaries, kept out of $OUT (a tar of them goes there)
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=OFF ${1:+-DWAVEFD_GIT_COMMIT=$1} >"$W/configure.log" 2>&1 || { tail -30 "$W/configure.log"; exit 1; }
grep "wavefd:" "$W/configure.log"
log "build"
cmake --build --preset cuda -j "$(nproc)" >"$W/build.log" 2>&1 || { grep -E "error" -A5 "$W/build.log" | head -40; exit 1; }
B=build/cuda/wavefd
$B info 2>&1 | tee -a "$OUT/log.txt"
log "verify --quick"
$B verify --quick 2>&1 | tail -3 | tee -a "$OUT/log.txt"
G="--family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5"
V=cuda-star-tma,cuda-star-stream,mdrange-stream
log "bench full step, local, overlap on, ghosts as auto picks (by the kernel where the variant writes them)"
$B bench $G --variant $V --ghost-fill auto --overlap true --json "$OUT/bench-local-kernel.json" 2>&1 | tee -a "$OUT/log.txt"
for overlap in true false; do
  log "bench full step, local, separate fill pass, overlap $overlap"
  $B bench $G --variant $V --ghost-fill separate --overlap $overlap \
    --json "$OUT/bench-local-separate-overlap-$overlap.json" 2>&1 | tee -a "$OUT/log.txt"
  for transport in mpi nccl; do
    log "bench full step, $transport self-exchange, overlap $overlap"
    $B bench $G --variant cuda-star-tma --transport $transport --overlap $overlap \
      --json "$OUT/bench-$transport-overlap-$overlap.json" 2>&1 | tee -a "$OUT/log.txt"
  done
done
for M in 1 8; do
  log "bench full step, star M=$M, local, ghosts as auto picks"
  $B bench --family star --M $M --n 512 512 512 --precision float double --steps 20 --reps 5 --variant $V \
    --json "$OUT/bench-local-kernel-M$M.json" 2>&1 | tee -a "$OUT/log.txt"
done
R="inputs/quickstart.toml --grid.n 256 256 256 --scheme.steps 50 --scheme.init mode --scheme.precision double --output.progress none"
log "run: 1 rank vs 2 ranks sharing the GPU (mpi)"
$B run $R --output.summary "$W/run-np1.json" 2>&1 | tee -a "$OUT/log.txt"
mpirun -np 2 $B run $R --parallel.transport mpi --output.summary "$W/run-np2-mpi.json" 2>&1 | tee -a "$OUT/log.txt"
log "run: the 512^3 full step as run does it (cuda-star-tma, local: ghosts by the kernel; a fill pass)"
for fill in kernel separate; do
  $B run inputs/quickstart.toml --grid.n 512 512 512 --scheme.steps 500 --scheme.variant cuda-star-tma \
    --parallel.ghost_fill $fill --output.progress none --output.summary "$W/run-512-$fill.json" 2>&1 | tee -a "$OUT/log.txt"
done
log "1 rank vs 2 ranks: result blocks"
grep -A6 '"result"' "$W/run-np1.json" "$W/run-np2-mpi.json" | tee -a "$OUT/log.txt"
log "link probe, every transport in self-exchange"
$B probe --transport all --json "$OUT/probe.json" 2>&1 | tail -12 | tee -a "$OUT/log.txt"
log "NCCL and GPU-aware MPI calls outside Kokkos (scripts/check_gpu_transports.sh)"
scripts/check_gpu_transports.sh 2>&1 | tail -6 | tee -a "$OUT/log.txt"
tar -C "$W" -cf "$OUT/runs.tar" .
if [ "${VERIFY_FULL:-0}" = 1 ]; then
  log "verify (all stencils), 1 rank"
  $B verify 2>&1 | tail -2 | tee -a "$OUT/log.txt"
  log "verify (all stencils), 2 ranks sharing the GPU, transport mpi"
  mpirun -np 2 $B verify --transport mpi 2>&1 | tail -2 | tee -a "$OUT/log.txt"
fi
# The device tool returns a few files only: the JSON results travel as one archive.
(cd "$OUT" && tar -cf json.tar ./*.json && rm -f ./*.json)
