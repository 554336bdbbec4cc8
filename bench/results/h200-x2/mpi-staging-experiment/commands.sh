#!/usr/bin/env bash
# Issue 38 at $1: the host-staged mpi transport with each message staged on its own (v1, the
# commit) against one copy of all faces before the sends (v0: the mpi_halo.cpp before it); 512^3
# per GPU, star M=4 float, cuda-star-tma, overlap on. Four GPUs: the balanced 1x2x2 grid and the z
# split; two: the y split (1x2x1) and the z split.
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
  cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v1
cp src/comm/mpi_halo.cpp "$R/mpi_halo.v1"; cp gpu/base/mpi_halo.cpp src/comm/mpi_halo.cpp
log "wavefd V0 (one copy of all faces)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-v0.log" 2>&1 || { grep -m3 -A12 error "$R/build-v0.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v0; cp "$R/mpi_halo.v1" src/comm/mpi_halo.cpp
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2; shift 2
  python3 scripts/scaling.py weak --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport mpi --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]; fs = d["case"]["full_step"]
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "pack %.1f wait %.1f unpack %.1f us" % (b["pack"]["max"] * 1e6, b["wait"]["max"] * 1e6, b["unpack"]["max"] * 1e6),
          "pack by", fs.get("pack", "?"), "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
yb() { local name=$1 bin=$2
  mpirun --allow-run-as-root -np 2 build/wavefd-$bin bench --family star --M 4 --n 512 1024 512 --ranks 1,2,1 \
    --precision float --variant cuda-star-tma --transport mpi --overlap true --steps 20 --reps 5 \
    --json "$R/$name.json" > "$R/$name.txt" 2>&1
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=[c for c in d['cases'] if 'full_step' in c][0]; f=c['full_step']; h=f['halo_phases_per_step_s']; print(sys.argv[2], 'step %.4f ms' % (f['seconds']['min']*1e3), 'pack/wait/unpack us %.1f/%.1f/%.1f' % (h['pack']*1e6, h['wait']*1e6, h['unpack']*1e6), 'pack by', f['pack'], 'verified' if c['verification']['passed'] else 'NOT VERIFIED')" "$R/$name.json" "$name" 2>&1 | tee -a "$LOG" || tail -5 "$R/$name.txt" | tee -a "$LOG"
}
W="--local 512 512 512"
NG=$(nvidia-smi -L | wc -l)
for round in 1 2; do
  if [ "$NG" -ge 4 ]; then
    pt v0-balanced-$round v0 $W --ranks 4
    pt v1-balanced-$round v1 $W --ranks 4
  else
    yb v0-y-$round v0
    yb v1-y-$round v1
  fi
  pt v0-z-$round v0 $W --ranks $NG --split z
  pt v1-z-$round v1 $W --ranks $NG --split z
done
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='mpi_halo.v1' -cf "$O/mpi-ab.tar" .
