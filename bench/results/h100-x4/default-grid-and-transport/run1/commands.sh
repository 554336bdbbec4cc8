#!/usr/bin/env bash
# Issue 38, run 2 (four GPUs): the default code (chooser 1x2x2, auto -> peer, shell chunks beside
# the core, seismic overlap auto) timed as docs/scaling.md's commands run it; the cost of an x
# split; NCCL's socket threads between pseudo-nodes.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/run2.tar" .; }
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
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log" | tee -a "$LOG"; exit 1; }
B=$PWD/build/cuda/wavefd
timeout 60 env WAVEFD_TEST_TRANSPORTS=peer mpirun --allow-run-as-root -np 4 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_peer_np_4.log" 2>&1
echo "test_mpi_halo, peer only, np 4: rc $?; $(grep -c '^\[       OK' "$R/test_mpi_halo_peer_np_4.log") OK, $(grep -c 'Failure' "$R/test_mpi_halo_peer_np_4.log") failures" | tee -a "$LOG"
L="mpirun --allow-run-as-root -np {np}"
summ() { python3 - "$1" "$2" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); c = d["case"]; p = c["parts_alone_per_step_s"]; t = c.get("timeline_per_step_s", {})
    s = d["scaling"]
    print(sys.argv[2], s["rank_grid"], s["transport"], "(%s)" % d.get("bench", {}).get("parallel", {}).get("transport_choice", ""),
          "step %.4f ms" % (d["full_step_s"] * 1e3), " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "| timeline us (mean/max):", " ".join("%s %.1f/%.1f" % (k, t[k]["mean"] * 1e6, t[k]["max"] * 1e6) for k in ("started", "finished", "core", "shell", "end") if k in t),
          "verified" if c["verification"]["passed"] else "NOT VERIFIED")
PY
}
# One point of a series; everything after the name goes to scaling.py (bench options after --).
pt() { local name=$1; shift
  timeout 90 python3 scripts/scaling.py "$@" 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  summ "$R/$name" "$name"; }
log "defaults (docs/scaling.md's commands, no transport or overlap given)"
for round in 1 2; do
  pt one-$round weak --local 512 512 512 --ranks 1 --out "$R/one-$round" --wavefd $B --launcher "$L" --steps 20 --reps 5 -- --family star --M 4
  pt weak-$round weak --local 512 512 512 --ranks 4 --out "$R/weak-$round" --wavefd $B --launcher "$L" --steps 20 --reps 5 -- --family star --M 4
done
pt weak-z weak --local 512 512 512 --ranks 4 --split z --out "$R/weak-z" --wavefd $B --launcher "$L" --steps 20 --reps 5 -- --family star --M 4
pt weak-nccl weak --local 512 512 512 --ranks 4 --out "$R/weak-nccl" --wavefd $B --launcher "$L" --steps 20 --reps 5 -- --family star --M 4 --transport nccl
pt strong strong --global 1024 1024 1024 --ranks 1,4 --out "$R/strong" --wavefd $B --launcher "$L" --steps 10 --reps 5 -- --family star --M 4
pt strong-z strong --global 1024 1024 1024 --ranks 4 --split z --out "$R/strong-z" --wavefd $B --launcher "$L" --steps 10 --reps 5 -- --family star --M 4
save
log "what an x split costs: weak 512^3 per GPU on 2x1x2 and 2x2x1 (and 1x2x2 again)"
for g in 2,1,2 2,2,1 1,2,2; do
  IFS=, read -r px py pz <<< "$g"
  timeout 60 mpirun --allow-run-as-root -np 4 $B bench --family star --M 4 --n $((512*px)) $((512*py)) $((512*pz)) --ranks $g \
    --variant cuda-star-tma --precision float --steps 20 --reps 5 --json "$R/xsplit-$g.json" > "$R/xsplit-$g.log" 2>&1
  echo "x split $g: $(grep -E 'transport|cuda-star-tma ' "$R/xsplit-$g.log" | tr -s ' ' | tr '\n' ' ')" | tee -a "$LOG"
done
save
log "seismic deck: one GPU, four GPUs with the default decomposition and overlap"
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
timeout 40 mpirun --allow-run-as-root -np 4 $B seismic "$DECK" --output.progress none \
  --receivers.file "$R/traces-4.bin" --output.summary "$R/seismic-4.json" 2>&1 | seis
cmp -s "$R/traces-1.bin" "$R/traces-4.bin" && echo "traces-4.bin equals traces-1.bin byte for byte" | tee -a "$LOG" ||
  echo "traces-4.bin DIFFERS from traces-1.bin" | tee -a "$LOG"
save
log "pseudo-nodes of 2: NCCL's socket threads x sockets per thread"
PN="scripts/pseudo_nodes.sh 2"
for ts in default 4x4 8x8 16x4; do
  if [ $ts = default ]; then E=""; else E="NCCL_SOCKET_NTHREADS=${ts%x*} NCCL_NSOCKS_PERTHREAD=${ts#*x}"; fi
  timeout 60 env $E mpirun --allow-run-as-root -np 4 $PN $B probe --family star --M 4 --n 512 1024 1024 \
    --ranks 1,2,2 --transport nccl --iters 5 --reps 3 --json "$R/probe-pseudo-$ts.json" > "$R/probe-pseudo-$ts.log" 2>&1
  python3 - "$R/probe-pseudo-$ts.json" "$ts" <<'PY' | tee -a "$LOG"
import json, sys
d = json.load(open(sys.argv[1]))
n = d["transports"][0]["summary"].get("network", {})
print("probe", sys.argv[2], "network: latency %.1f us, %.2f GB/s (median)" % (n["latency_s"]["median"] * 1e6, n["bandwidth_gb_per_s"]["median"]) if n else "no network pairs")
PY
  timeout 90 env $E python3 scripts/scaling.py weak --local 512 512 512 --ranks 4 --out "$R/pseudo-$ts" --wavefd $B \
    --launcher "mpirun --allow-run-as-root -np {np} $PN" --steps 10 --reps 3 -- --family star --M 4 2>&1 | grep -E "error" | tee -a "$LOG"
  summ "$R/pseudo-$ts" "pseudo-$ts"
  save
done
log done
save
