#!/usr/bin/env bash
# Multi-GPU runs of one host (issue 13; device kinds nvidia-h200-x2/x4/x8): the links between the
# GPUs, weak scaling (512^3 per GPU) and strong scaling (1024^3, 1536^3) of the 25-point star in
# float with each transport and overlap on and off, and minimod's seismic deck with a receiver
# line on 1 and N GPUs (traces compared byte for byte with the one-GPU run). Builds the cuda
# preset against $Kokkos_ROOT (and $tomlplusplus_ROOT). Results go to $OUT/r, then $OUT/all.tar
# (one file: the device tool returns few). Parts that would start after LIMIT seconds are skipped
# and say so.
#   Kokkos_ROOT=... tomlplusplus_ROOT=... GPUS=2 OUT=... scripts/gpu_scaling.sh [commit]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH=/usr/local/cuda/bin:$PATH
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}  # NVLink multicast off (the device tool's KINDS.md)
GPUS=${GPUS:-2}
FINAL=${OUT:-$PWD/gpu-out}; OUT=$FINAL/r; mkdir -p "$OUT"
LIMIT=${LIMIT:-440}
late() { [ $SECONDS -gt "$LIMIT" ] && { echo "== skipped (at $SECONDS s): $*"; return 0; }; echo "== $* (at $SECONDS s)"; return 1; }
ranks=""; for n in 2 4 8; do [ $n -le "$GPUS" ] && ranks="$ranks${ranks:+,}$n"; done
nvidia-smi -L > "$OUT/topo.txt" 2>&1; nvidia-smi topo -m >> "$OUT/topo.txt" 2>&1; cat "$OUT/topo.txt"
cmake --preset cuda ${1:+-DWAVEFD_GIT_COMMIT=$1} > "$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$OUT/build.log" 2>&1 || { grep error -A5 "$OUT/build.log" | head -30; exit 1; }
echo "== built (at $SECONDS s)"
B=$PWD/build/cuda/wavefd
MPI="mpirun --allow-run-as-root -np"
L="mpirun --allow-run-as-root -np {np}"
late "probe" || { $MPI "$GPUS" "$B" probe --family star --M 4 --n $((512 * GPUS)) 512 512 --transport all \
  --json "$OUT/probe-$GPUS.json" > "$OUT/probe-$GPUS.log" 2>&1; tail -12 "$OUT/probe-$GPUS.log"; }
S="python3 scripts/scaling.py"
sc() { "$@" 2>&1 | grep -vE "^\s*$" | tail -3; }
late "weak 1" || sc $S weak --local 512 512 512 --ranks 1 --out "$OUT/weak-1" --wavefd "$B" --launcher "$L" --steps 20 --reps 5 -- --family star --M 4
# Weak series on wavefd's rank grid (4 GPUs: 1x2x2) through each transport (peer: what `auto`
# takes on one node), and split along z (whole planes in place) through peer for comparison.
for t in peer nccl mpi; do for ov in true false; do
  late "weak $ranks $t overlap $ov" || sc $S weak --local 512 512 512 --ranks "$ranks" --out "$OUT/weak-$t-overlap-$ov" \
    --wavefd "$B" --launcher "$L" --steps 20 --reps 5 -- --family star --M 4 --transport $t --overlap $ov
done; done
late "weak $ranks peer overlap true, z split" || sc $S weak --local 512 512 512 --ranks "$ranks" --split z --out "$OUT/weak-z-peer-overlap-true" \
  --wavefd "$B" --launcher "$L" --steps 20 --reps 5 -- --family star --M 4 --transport peer --overlap true
late "strong 1024 1" || sc $S strong --global 1024 1024 1024 --ranks 1 --out "$OUT/strong1024-1" --wavefd "$B" --launcher "$L" --steps 10 --reps 5 -- --family star --M 4
for t in peer nccl mpi; do for ov in true false; do
  late "strong 1024 $ranks $t overlap $ov" || sc $S strong --global 1024 1024 1024 --ranks "$ranks" --out "$OUT/strong1024-$t-overlap-$ov" \
    --wavefd "$B" --launcher "$L" --steps 10 --reps 5 -- --family star --M 4 --transport $t --overlap $ov
done; done
DECK=$OUT/seismic-minimod-1000-receivers.toml
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
seismic() { grep -E "rank\(s\)|s for|per step|traces|error"; }
late "seismic 1" || "$B" seismic "$DECK" --output.progress none --receivers.file "$OUT/traces-1.bin" --output.summary "$OUT/seismic-1.json" 2>&1 | seismic
for n in ${ranks//,/ }; do for t in peer nccl mpi; do
  late "seismic $n $t" || $MPI $n "$B" seismic "$DECK" --output.progress none --parallel.transport $t \
    --receivers.file "$OUT/traces-$n-$t.bin" --output.summary "$OUT/seismic-$n-$t.json" 2>&1 | seismic
done; done
for f in "$OUT"/traces-[0-9]*-*.bin; do
  [ -f "$f" ] || continue
  if cmp -s "$OUT/traces-1.bin" "$f"; then echo "$(basename "$f"): equal to traces-1.bin byte for byte"
  else echo "$(basename "$f"): DIFFERS from traces-1.bin (compare the samples)"; fi
done
late "strong 1536 1" || sc $S strong --global 1536 1536 1536 --ranks 1 --out "$OUT/strong1536-1" --wavefd "$B" --launcher "$L" --steps 10 --reps 3 -- --family star --M 4
late "strong 1536 $ranks" || sc $S strong --global 1536 1536 1536 --ranks "$ranks" --out "$OUT/strong1536-peer-overlap-true" --wavefd "$B" \
  --launcher "$L" --steps 10 --reps 3 -- --family star --M 4 --transport peer --overlap true
echo "== done (at $SECONDS s)"
tar -C "$OUT" -cf "$FINAL/all.tar" . && rm -rf "$OUT"
