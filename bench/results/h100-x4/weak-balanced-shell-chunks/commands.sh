#!/usr/bin/env bash
# Issue 38, second increment: the shell's y slabs in chunks down to 4 R planes (V1, the commit), and
# V1 with the core cut into four times as many blocks (V2: 16 instead of 4 per SM slot); one GPU,
# the balanced 1x2x2 grid and the z split each, 512^3 per GPU, star M=4 float, cuda-star-tma, nccl,
# overlap on.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
nvidia-smi -L | tee -a "$LOG"
log "Kokkos"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "wavefd V1 ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v1
cp src/kernels/cuda/star_tma.cu "$R/star_tma.v1"
sed -i 's/132 \* MinBlocks \* 4, shortest/132 * MinBlocks * 16, shortest/' src/kernels/cuda/star_tma.cu
grep -q "MinBlocks \* 16, shortest" src/kernels/cuda/star_tma.cu || { echo "V2 edit did not apply"; exit 1; }
log "wavefd V2"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-v2.log" 2>&1 || { grep -m3 -A12 error "$R/build-v2.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v2; cp "$R/star_tma.v1" src/kernels/cuda/star_tma.cu
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2; shift 2
  python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport nccl --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/weak-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "pack %.1f unpack %.1f us" % (b["pack"]["max"] * 1e6, b["unpack"]["max"] * 1e6),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
for round in 1 2; do
  for v in v1 v2; do
    pt $v-one-$round $v --ranks 1
    pt $v-balanced-$round $v --ranks 4
  done
done
pt v1-z v1 --ranks 4 --split z
pt v2-z v2 --ranks 4 --split z
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='star_tma.v1' -cf "$O/chunk-ab.tar" .
