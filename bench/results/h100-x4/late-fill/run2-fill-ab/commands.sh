#!/usr/bin/env bash
# Issue 38: the late ghost fill skipped for stencils that read no edges (B, $1) against the fill of
# every edge beside the late faces (A, 6c27ad6's ghost_shell.hpp and exchange_halo.hpp); four GPUs,
# 512^3 per GPU, star M=4 float, cuda-star-tma, nccl, overlap on, with the step timeline.
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
log "wavefd B ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-b
for f in ghost_shell.hpp exchange_halo.hpp; do cp src/comm/$f "$R/$f.b"; cp gpu/base/$f src/comm/$f; done
log "wavefd A (6c27ad6's fill)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-a.log" 2>&1 || { grep -m3 -A12 error "$R/build-a.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-a
for f in ghost_shell.hpp exchange_halo.hpp; do cp "$R/$f.b" src/comm/$f; done
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2; shift 2
  python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport nccl --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/weak-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]
    t = d["case"].get("timeline_per_step_s", {})
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "| timeline us (mean/max over ranks):",
          " ".join("%s %.1f/%.1f" % (k, t[k]["mean"] * 1e6, t[k]["max"] * 1e6)
                   for k in ("started", "finished", "core", "shell", "end") if k in t),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
for round in 1 2; do
  pt b-one-$round b --ranks 1
  pt a-balanced-$round a --ranks 4
  pt b-balanced-$round b --ranks 4
done
pt a-z a --ranks 4 --split z
pt b-z b --ranks 4 --split z
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='*.b' -cf "$O/fill-ab.tar" .
