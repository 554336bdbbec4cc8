#!/usr/bin/env bash
# Issue 38: the `peer` transport (copy-engine copies into the neighbours' ghosts through CUDA IPC)
# against nccl on four GPUs: MpiHalo's cases through peer (bit for bit against one rank), weak
# 512^3 per GPU (one GPU, balanced 1x2x2 and z split, each transport) and strong 1024^3, star M=4
# float, cuda-star-tma, overlap on, with the step timeline; then minimod's deck on 1 and 4 GPUs.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"
log "Kokkos"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "wavefd ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log" | tee -a "$LOG"; exit 1; }
log "built"
B=build/cuda/wavefd
L="mpirun --allow-run-as-root -np {np}"
log "smoke: peer on 4 GPUs, 128^3 per GPU"
timeout 60 mpirun --allow-run-as-root -np 4 $B bench --family star --M 4 --precision float --variant cuda-star-tma \
  --n 128 256 256 --ranks 1,2,2 --transport peer --overlap true --steps 5 --reps 2 2>&1 | tail -4 | tee -a "$LOG"
log "MpiHalo through peer on 4 GPUs"
timeout 150 env WAVEFD_TEST_TRANSPORTS=peer mpirun --allow-run-as-root -np 4 build/cuda/ctest/test_mpi_halo > "$R/test_mpi_halo_peer_np_4.log" 2>&1
echo "test_mpi_halo peer np 4: rc $?; $(grep -cE '^\[       OK' "$R/test_mpi_halo_peer_np_4.log") OK lines, $(grep -c 'Failure' "$R/test_mpi_halo_peer_np_4.log") failures" | tee -a "$LOG"
show() { python3 - "$@" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); p = d["case"]["parts_alone_per_step_s"]; t = d["case"].get("timeline_per_step_s", {})
    print(sys.argv[2], d["scaling"]["rank_grid"], d["scaling"]["transport"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")), "| timeline us (mean/max):",
          " ".join("%s %.1f/%.1f" % (k, t[k]["mean"] * 1e6, t[k]["max"] * 1e6) for k in ("started", "finished", "core", "shell", "end") if k in t),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
pt() { local name=$1 tr=$2; shift 2
  timeout 120 python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd $B --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport $tr --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  show "$R/$name" "$name"
}
st() { local name=$1 tr=$2 split=$3 ranks=$4
  timeout 120 python3 scripts/scaling.py strong --global 1024 1024 1024 --ranks $ranks --out "$R/$name" --wavefd $B --launcher "$L" \
    --steps 10 --reps 5 --split $split -- --family star --M 4 --transport $tr --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  show "$R/$name" "$name"
}
for round in 1 2; do
  pt one-$round nccl --ranks 1
  pt balanced-nccl-$round nccl --ranks 4
  pt balanced-peer-$round peer --ranks 4
done
pt z-nccl nccl --ranks 4 --split z
pt z-peer peer --ranks 4 --split z
st strong-balanced-nccl nccl balanced 1,4
st strong-balanced-peer peer balanced 4
st strong-z-nccl nccl z 4
log "seismic deck, 1 and 4 GPUs, nccl"
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
[ $SECONDS -lt 480 ] && timeout 60 $B seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seis
[ $SECONDS -lt 540 ] && timeout 40 mpirun --allow-run-as-root -np 4 $B seismic "$DECK" --output.progress none --parallel.transport nccl \
  --receivers.file "$R/traces-4-nccl.bin" --output.summary "$R/seismic-4-nccl.json" 2>&1 | seis
[ -f "$R/traces-4-nccl.bin" ] && { cmp -s "$R/traces-1.bin" "$R/traces-4-nccl.bin" && echo "traces-4-nccl.bin equals traces-1.bin byte for byte" || echo "traces-4-nccl.bin DIFFERS"; } | tee -a "$LOG"
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/peer.tar" .
