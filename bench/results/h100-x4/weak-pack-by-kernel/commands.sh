#!/usr/bin/env bash
# Issue 38: z faces in place beside packed y faces (0e79e8c) and faces packed by the update kernel
# (d0c257a, --pack auto against --pack separate), against the plan before (V0: 8c83afd's
# exchange_plan.cpp); one GPU, the balanced 1x2x2 grid and the z split, 512^3 per GPU, star M=4
# float, cuda-star-tma, nccl, overlap on. Then the MpiHalo tests on 2 and 4 GPUs.
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
log "wavefd V1 ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v1
cp src/comm/exchange_plan.cpp "$R/exchange_plan.v1"; cp gpu/base/exchange_plan.cpp src/comm/exchange_plan.cpp
log "wavefd V0 (8c83afd's plan)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-v0.log" 2>&1 || { grep -m3 -A12 error "$R/build-v0.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v0; cp "$R/exchange_plan.v1" src/comm/exchange_plan.cpp
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2 pack=$3; shift 3
  python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport nccl --overlap true --pack $pack 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/weak-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "pack %.1f unpack %.1f us" % (b["pack"]["max"] * 1e6, b["unpack"]["max"] * 1e6),
          "packed by", d["case"]["full_step"].get("pack", "?"),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
for round in 1 2; do
  pt v0-balanced-$round v0 separate --ranks 4
  pt v1-balanced-separate-$round v1 separate --ranks 4
  pt v1-balanced-kernel-$round v1 auto --ranks 4
  pt v1-one-$round v1 auto --ranks 1
done
pt v1-z-kernel v1 auto --ranks 4 --split z
log "MpiHalo on 4 and 2 GPUs, in the time left"
for np in 4 2; do
  left=$((575 - SECONDS)); [ $left -gt 20 ] || break
  timeout $left mpirun --allow-run-as-root -np $np build/cuda/ctest/test_mpi_halo > "$R/test_mpi_halo_np_$np.log" 2>&1
  echo "test_mpi_halo np $np: rc $?; $(grep -cE '^\[       OK' "$R/test_mpi_halo_np_$np.log") OK lines, $(grep -c 'Failure' "$R/test_mpi_halo_np_$np.log") failures" | tee -a "$LOG"
done
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='exchange_plan.v1' -cf "$O/pack-ab.tar" .
