#!/usr/bin/env bash
# Issue 38, run 4 (four GPUs): minimod's deck with the seismic shell enqueued beside the core (1x2x2
# by default through peer; the z split and nccl beside), traces against one GPU's; pseudo-nodes of 2
# on the balanced grid at 1536^3 per GPU (NCCL's sockets at 4 threads x 4 sockets).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/run4.tar" .; }
nvidia-smi -L | tee -a "$LOG"
if [ ! -f "$Kokkos_ROOT/lib/cmake/Kokkos/KokkosConfig.cmake" ]; then
  log "Kokkos"
  cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
    -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
    cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
fi
log "wavefd ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log" | tee -a "$LOG"; exit 1; }
B=$PWD/build/cuda/wavefd
log "seismic deck: one GPU; four GPUs by default (1x2x2, auto transport, overlap), then nccl, then the z split"
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
seis() { grep -E "rank\(s\)|s for|per step|traces|error" | tee -a "$LOG"; }
timeout 60 $B seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seis
s4() { local name=$1; shift
  timeout 40 mpirun --allow-run-as-root -np 4 $B seismic "$DECK" --output.progress none \
    --receivers.file "$R/traces-$name.bin" --output.summary "$R/seismic-$name.json" "$@" 2>&1 | seis
  cmp -s "$R/traces-1.bin" "$R/traces-$name.bin" && echo "traces-$name.bin equals traces-1.bin byte for byte" | tee -a "$LOG" ||
    echo "traces-$name.bin DIFFERS from traces-1.bin" | tee -a "$LOG"; }
s4 4-default
s4 4-z-peer --parallel.ranks 1 1 4
s4 4-nccl --parallel.transport nccl
s4 4-default-2
s4 4-z-peer-2 --parallel.ranks 1 1 4
timeout 60 $B seismic "$DECK" --output.progress none --receivers.file "$R/traces-1b.bin" --output.summary "$R/seismic-1b.json" 2>&1 | seis
save
L="mpirun --allow-run-as-root -np {np}"
summ() { python3 - "$1" "$2" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); c = d["case"]; p = c["parts_alone_per_step_s"]; t = c.get("timeline_per_step_s", {})
    s = d["scaling"]
    print(sys.argv[2], s["rank_grid"], s["global"], s["transport"], "(%s)" % d.get("bench", {}).get("parallel", {}).get("transport_choice", ""),
          "step %.4f ms" % (d["full_step_s"] * 1e3), " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "| timeline us (mean/max):", " ".join("%s %.1f/%.1f" % (k, t[k]["mean"] * 1e6, t[k]["max"] * 1e6) for k in ("started", "finished", "core", "shell", "end") if k in t),
          "verified" if c["verification"]["passed"] else "NOT VERIFIED")
PY
}
pt() { local name=$1; shift
  timeout 120 python3 scripts/scaling.py "$@" 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  summ "$R/$name" "$name"; }
log "pseudo-nodes of 2 (NCCL_SOCKET_NTHREADS=4, NCCL_NSOCKS_PERTHREAD=4): balanced grid at 1536 per GPU"
PN="scripts/pseudo_nodes.sh 2"
export NCCL_SOCKET_NTHREADS=4 NCCL_NSOCKS_PERTHREAD=4
pt pseudo-balanced-1536 weak --local 1536 1536 1536 --ranks 1,4 --out "$R/pseudo-balanced-1536" --wavefd $B \
  --launcher "mpirun --allow-run-as-root -np {np} $PN" --steps 4 --reps 3 -- --family star --M 4
log done
save
