#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): the halo's pack and unpack launched as kernel
# arguments (light weight) against 49d9e6d (constant memory), four GPUs, z split.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; R=$F/r; mkdir -p "$R"
LIMIT=${LIMIT:-420}
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
late() { [ $SECONDS -gt "$LIMIT" ] && { log "skipped: $*"; return 0; }; log "$*"; return 1; }
build() {  # tree label targets...
  local t=$1 l=$2; shift 2
  (cd "$t" && cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT="$l" > "$R/configure-$l.log" 2>&1 &&
    cmake --build --preset cuda -j 32 --target "$@" > "$R/build-$l.log" 2>&1) || { echo "BUILD FAILED $l"; grep -m3 -A12 error "$R/build-$l.log"; }
}
build . $1 wavefd test_mpi_halo & build gpu/base 49d9e6d wavefd & wait
log built
N=$PWD/build/cuda/wavefd; A=$PWD/gpu/base/build/cuda/wavefd
[ -x "$N" ] && [ -x "$A" ] || exit 1
L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
sc() {  # label binary kind ranks args...
  local lab=$1 bin=$2 kind=$3 np=$4; shift 4
  late "$lab" && return
  if [ "$kind" = weak ]; then size=(--local 512 512 512 --split z); steps=20; else size=(--global 1024 1024 1024 --split z); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$bin" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E " ok |full step|rror" | cut -c1-150 | tee -a "$R/log.txt"
}
sc weak-1 $N weak 1
sc weak-nccl-overlap-true $N weak 2,4 --transport nccl --overlap true
sc base-weak-nccl-overlap-true $A weak 4 --transport nccl --overlap true
sc strong1024-1 $N strong 1
sc strong1024-nccl-overlap-true $N strong 2,4 --transport nccl --overlap true
sc base-strong1024-nccl-overlap-true $A strong 4 --transport nccl --overlap true
late "test_mpi_halo on 4 GPUs" || { timeout 150 mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np 4 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test-halo-4.txt" 2>&1; echo "rc $?" | tee -a "$R/log.txt"; grep -E "^\[  (PASSED|FAILED) |Failure" "$R/test-halo-4.txt" | sort | uniq -c | tee -a "$R/log.txt"; }
DECK=$R/seismic-minimod-1000-receivers.toml
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
seismic() { grep -E "s for|per step|traces|rror" | tee -a "$R/log.txt"; }
late "seismic 1" || $N seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seismic
late "seismic 4 nccl" || mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np 4 $N seismic "$DECK" --output.progress none --parallel.transport nccl \
    --receivers.file "$R/traces-4-nccl.bin" --output.summary "$R/seismic-4-nccl.json" 2>&1 | seismic
[ -f "$R/traces-4-nccl.bin" ] && { cmp -s "$R/traces-1.bin" "$R/traces-4-nccl.bin" && log "traces-4-nccl.bin == traces-1.bin byte for byte" || log "traces-4-nccl.bin DIFFERS"; }
sc weak-nccl-overlap-false $N weak 4 --transport nccl --overlap false
sc strong1024-nccl-overlap-false $N strong 4 --transport nccl --overlap false
log done
tar -C "$R" --exclude='build-*' --exclude='configure-*' -cf "$F/all.tar" . && cp "$R/log.txt" "$F/log.txt" && rm -rf "$R"
