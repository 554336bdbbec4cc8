#!/usr/bin/env bash
# Issue 38: where the balanced step's time goes (the step timeline, bench's timeline_per_step_s) on
# four GPUs, 512^3 per GPU, star M=4 float, cuda-star-tma, nccl, overlap on: one GPU, the balanced
# 1x2x2 grid and the z split; then the balanced grid with (B) the shell's y slabs streamed in chunks
# of at least 16 R planes (0a6959a's 4 R undone) and (C) NCCL_MIN_NCHANNELS=8.
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
log "wavefd A ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-a
cp src/kernels/cuda/star_tma.cu "$R/star_tma.a"
sed -i 's/const int shortest = tiles < 16 ? 4 \* R : 16 \* R;/const int shortest = 16 * R;/' src/kernels/cuda/star_tma.cu
grep -q "const int shortest = 16 \* R;" src/kernels/cuda/star_tma.cu || { echo "B: sed did not apply"; exit 1; }
log "wavefd B (shell chunks of at least 16 R)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-b.log" 2>&1 || { grep -m3 -A12 error "$R/build-b.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-b; cp "$R/star_tma.a" src/kernels/cuda/star_tma.cu
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
  pt a-one-$round a --ranks 1
  pt a-balanced-$round a --ranks 4
  pt b-balanced-$round b --ranks 4
  NCCL_MIN_NCHANNELS=8 pt c-balanced-$round a --ranks 4
done
pt a-z a --ranks 4 --split z
pt b-z b --ranks 4 --split z
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='star_tma.a' -cf "$O/timeline.tar" .
