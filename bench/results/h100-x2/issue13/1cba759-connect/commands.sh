#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): halos connected at construction (1cba759)
# against 25c4e5b: minimod's deck with a receiver line on 1 GPU and on 2 GPUs (nccl), loop time
# against the sum of the fenced parts; traces compared byte for byte; the distributed halo test.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi -L | tee -a "$O/log.txt"
build() {  # tree label targets...
  local t=$1 l=$2; shift 2
  (cd "$t" && cmake --preset cuda -DWAVEFD_GIT_COMMIT="$l" > "$O/configure-$l.log" 2>&1 &&
    cmake --build --preset cuda -j 16 --target "$@" > "$O/build-$l.log" 2>&1) || { echo "BUILD FAILED $l"; grep -m3 -A12 error "$O/build-$l.log"; }
}
build . 1cba759 wavefd test_mpi_halo & build gpu/base 25c4e5b wavefd & wait
log built
M="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np"
DECK=$O/seismic-minimod-1000-receivers.toml
cp inputs/seismic-minimod-1000.toml "$DECK"
cat >> "$DECK" <<'TOML'

# issue 13: a line of 95 receivers 100 cells above the source (x = 30 .. 970 cells)
[receivers]
every = 4
[[receivers.line]]
from = [600, 10000, 8000]
to = [19400, 10000, 8000]
count = 95
TOML
sei() { grep -E "s for|per step|rror" | tee -a "$O/log.txt"; }
N=$PWD/build/cuda/wavefd; B=$PWD/gpu/base/build/cuda/wavefd
log "seismic 1 GPU (1cba759)"
timeout 60 $N seismic "$DECK" --output.progress none --receivers.file "$O/traces-1.bin" --output.summary "$O/seismic-1.json" 2>&1 | sei
for r in 1 2; do for b in 1cba759 25c4e5b; do
  bin=$N; [ $b = 25c4e5b ] && bin=$B
  log "seismic 2 GPUs nccl $b round $r"
  timeout 90 $M 2 $bin seismic "$DECK" --output.progress none --parallel.transport nccl \
    --receivers.file "$O/traces-2-$b-$r.bin" --output.summary "$O/seismic-2-nccl-$b-$r.json" 2>&1 | sei
  cmp -s "$O/traces-1.bin" "$O/traces-2-$b-$r.bin" && log "traces equal to the 1-GPU run byte for byte" || log "traces DIFFER"
done; done
log "wavefd run, 2 ranks nccl, 1024^3 star M=4 float, 100 steps (1cba759, then 25c4e5b)"
for b in 1cba759 25c4e5b; do bin=$N; [ $b = 25c4e5b ] && bin=$B
  timeout 60 $M 2 $bin run inputs/quickstart.toml --grid.n 1024 1024 1024 --scheme.steps 100 --output.summary "$O/run-$b.json" --parallel.transport nccl 2>&1 | grep -E "s for|Gpts|rror" | tee -a "$O/log.txt"; done
log "test_mpi_halo on 2 GPUs"
timeout 200 $M 2 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$O/test-halo-2.txt" 2>&1; echo "rc $?" | tee -a "$O/log.txt"
grep -E "^\[  (PASSED|FAILED) |Failure|^\[  SKIPPED" "$O/test-halo-2.txt" | sort | uniq -c | tee -a "$O/log.txt"
rm -f "$O"/traces-*.bin
log done
tar -C "$O" -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
