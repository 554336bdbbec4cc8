#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): four GPUs in one lease, in order of what the
# issue asks most: the probe, weak and strong scaling with nccl and overlap on, minimod's seismic
# deck on 1, 2, 4 GPUs (traces against the one-GPU run), then the other transports and overlap off.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; R=$F/r; mkdir -p "$R"
LIMIT=${LIMIT:-470}
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
late() { [ $SECONDS -gt "$LIMIT" ] && { log "skipped: $*"; return 0; }; log "$*"; return 1; }
nvidia-smi -L > "$R/topo.txt" 2>&1; nvidia-smi topo -m >> "$R/topo.txt" 2>&1; cat "$R/topo.txt" | tee -a "$R/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 && cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
log built
B=$PWD/build/cuda/wavefd
MPI="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np"
L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
late "probe 4" || { $MPI 4 $B probe --family star --M 4 --n 2048 512 512 --transport all --json "$R/probe-4.json" > "$R/probe-4.log" 2>&1; tail -14 "$R/probe-4.log" | tee -a "$R/log.txt"; }
sc() {  # label kind ranks args...
  local lab=$1 kind=$2 np=$3; shift 3
  late "$lab" && return
  if [ "$kind" = weak ]; then size=(--local 512 512 512); steps=20; else size=(--global 1024 1024 1024); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$B" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E " ok |full step|rror|efficien" | tee -a "$R/log.txt"
}
sc weak-1 weak 1
sc weak-nccl-overlap-true weak 2,4 --transport nccl --overlap true
sc strong1024-1 strong 1
sc strong1024-nccl-overlap-true strong 2,4 --transport nccl --overlap true
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
seismic() { grep -E "rank\(s\)|s for|per step|traces|rror" | tee -a "$R/log.txt"; }
late "seismic 1" || $B seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seismic
for n in 4 2; do
  late "seismic $n nccl" || $MPI $n $B seismic "$DECK" --output.progress none --parallel.transport nccl \
    --receivers.file "$R/traces-$n-nccl.bin" --output.summary "$R/seismic-$n-nccl.json" 2>&1 | seismic
done
for f in "$R"/traces-[0-9]*-*.bin; do
  [ -f "$f" ] || continue
  if cmp -s "$R/traces-1.bin" "$f"; then log "$(basename "$f"): equal to traces-1.bin byte for byte"
  else log "$(basename "$f"): DIFFERS from traces-1.bin"; fi
done
sc weak-nccl-overlap-false weak 2,4 --transport nccl --overlap false
sc strong1024-nccl-overlap-false strong 2,4 --transport nccl --overlap false
sc weak-mpi-overlap-true weak 2,4 --transport mpi --overlap true
sc strong1024-mpi-overlap-true strong 2,4 --transport mpi --overlap true
log done
tar -C "$R" --exclude=build.log --exclude=configure.log -cf "$F/all.tar" . && cp "$R/log.txt" "$F/log.txt" && rm -rf "$R"
