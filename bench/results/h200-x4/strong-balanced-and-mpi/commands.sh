#!/usr/bin/env bash
# Issue 38 acceptance points at $1: strong 1024^3 on 4 GPUs, balanced 1x2x2 and z split, against one
# GPU; weak 512^3 per GPU with the host-staged mpi transport, balanced and z split. Star M=4 float,
# cuda-star-tma, overlap on.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"
if [ ! -x build/cuda/wavefd ]; then
  log "Kokkos"
  cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
    -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
    cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
fi
log "wavefd ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 mode=$2 transport=$3; shift 3
  python3 scripts/scaling.py $mode --out "$R/$name" --wavefd build/cuda/wavefd --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport $transport --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "pack %.1f wait %.1f unpack %.1f us" % (b["pack"]["max"] * 1e6, b["wait"]["max"] * 1e6, b["unpack"]["max"] * 1e6),
          "packed by", d["case"]["full_step"].get("pack", "?"),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
pt strong-one strong nccl --global 1024 1024 1024 --ranks 1
pt strong-balanced strong nccl --global 1024 1024 1024 --ranks 4 --split balanced
pt strong-z strong nccl --global 1024 1024 1024 --ranks 4 --split z
pt weak-one weak nccl --local 512 512 512 --ranks 1
pt weak-balanced-mpi weak mpi --local 512 512 512 --ranks 4
pt weak-z-mpi weak mpi --local 512 512 512 --ranks 4 --split z
pt weak-balanced-nccl weak nccl --local 512 512 512 --ranks 4
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/strong-mpi.tar" .
