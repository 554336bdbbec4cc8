#!/usr/bin/env bash
# Issue 38, first increment: the y slabs of the shell 16 rows deep (new) against R deep (base, the
# previous two_step.cpp in gpu/two_step.cpp.base), weak scaling 512^3 per GPU on 4 GPUs, star M=4
# float, cuda-star-tma, nccl, overlap on; the balanced grid twice each, interleaved, and the z split.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"; nvidia-smi topo -m > "$R/topo.txt" 2>&1
log "Kokkos"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "wavefd new ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-new
cp src/model/two_step.cpp "$R/two_step.new"; cp gpu/two_step.cpp.base src/model/two_step.cpp
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-base.log" 2>&1 || { grep -m3 -A12 error "$R/build-base.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-base; cp "$R/two_step.new" src/model/two_step.cpp
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2; shift 2
  python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport nccl --overlap true 2>&1 | grep -E "ranks as|error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/weak-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]
    print("   ", d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, b[k]["max"] * 1e6) for k in ("core", "shell", "halo", "pack", "unpack")), "us",
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
pt weak-1 new --ranks 1
pt balanced-base-1 base --ranks 4
pt balanced-new-1 new --ranks 4
pt balanced-base-2 base --ranks 4
pt balanced-new-2 new --ranks 4
pt z-new new --ranks 4 --split z
pt weak-1-again new --ranks 1
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/shell-ab.tar" .
