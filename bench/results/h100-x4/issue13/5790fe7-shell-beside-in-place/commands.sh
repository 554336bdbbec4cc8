#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): the shell beside the core on the halo's stream
# and z faces in place, against 70e9dfe, four GPUs, z split. One build with toggles
# (WAVEFD_EXP_SHELL_ON_COMPUTE, WAVEFD_EXP_PACKED; unset = the committed code), one of 70e9dfe.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; R=$F/r; mkdir -p "$R"
LIMIT=${LIMIT:-400}
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
late() { [ $SECONDS -gt "$LIMIT" ] && { log "skipped: $*"; return 0; }; log "$*"; return 1; }
nvidia-smi -L > "$R/topo.txt" 2>&1; nvidia-smi topo -m >> "$R/topo.txt" 2>&1; head -4 "$R/topo.txt" | tee -a "$R/log.txt"
build() {  # tree label targets...
  local t=$1 l=$2; shift 2
  (cd "$t" && cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT="$l" > "$R/configure-$l.log" 2>&1 &&
    cmake --build --preset cuda -j 32 --target "$@" > "$R/build-$l.log" 2>&1) || { echo "BUILD FAILED $l"; grep -m3 -A12 error "$R/build-$l.log"; }
}
build gpu/exp4 $1-toggles wavefd test_mpi_halo & build gpu/base 70e9dfe wavefd & wait
log built
N=$PWD/gpu/exp4/build/cuda/wavefd; A=$PWD/gpu/base/build/cuda/wavefd
[ -x "$N" ] && [ -x "$A" ] || exit 1
sc() {  # label binary kind ranks env(NONE or VAR) args...
  local lab=$1 bin=$2 kind=$3 np=$4 env=$5; shift 5
  late "$lab" && return
  local L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
  [ "$env" = NONE ] || L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 $env -np {np}"
  if [ "$kind" = weak ]; then size=(--local 512 512 512 --split z); steps=20; else size=(--global 1024 1024 1024 --split z); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$bin" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E " ok |full step|rror" | cut -c1-150 | tee -a "$R/log.txt"
}
O="--transport nccl --overlap true"
for round in 1 2; do
  sc weak-1-r$round $N weak 1 NONE
  sc weak4-new-r$round $N weak 4 NONE $O
  sc weak4-shellcompute-r$round $N weak 4 "-x WAVEFD_EXP_SHELL_ON_COMPUTE=1" $O
  sc weak4-packed-r$round $N weak 4 "-x WAVEFD_EXP_PACKED=1" $O
  sc weak4-both-old-r$round $N weak 4 "-x WAVEFD_EXP_SHELL_ON_COMPUTE=1 -x WAVEFD_EXP_PACKED=1" $O
  sc weak4-base-r$round $A weak 4 NONE $O
  sc strong1024-1-r$round $N strong 1 NONE
  sc strong4-new-r$round $N strong 4 NONE $O
  sc strong4-shellcompute-r$round $N strong 4 "-x WAVEFD_EXP_SHELL_ON_COMPUTE=1" $O
  sc strong4-packed-r$round $N strong 4 "-x WAVEFD_EXP_PACKED=1" $O
  sc strong4-base-r$round $A strong 4 NONE $O
done
sc weak4-new-off $N weak 4 NONE --transport nccl --overlap false
sc weak4-base-off $A weak 4 NONE --transport nccl --overlap false
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
late "test_mpi_halo on 4 GPUs" || { timeout 170 mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np 4 gpu/exp4/build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test-halo-4.txt" 2>&1; echo "rc $?" | tee -a "$R/log.txt"; grep -E "^\[  (PASSED|FAILED) |Failure" "$R/test-halo-4.txt" | sort | uniq -c | tee -a "$R/log.txt"; }
log done
rm -f "$R"/traces-*.bin.tmp
tar -C "$R" --exclude='build-*' --exclude='configure-*' -cf "$F/all.tar" . && cp "$R/log.txt" "$F/log.txt" && rm -rf "$R"
