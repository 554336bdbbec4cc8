#!/usr/bin/env bash
# Issue 38 at $1: boundary first (v1, the commit) against the core first (v0: boundary_first_ off);
# one GPU, the balanced 1x2x2 grid and the z split, 512^3 per GPU, star M=4 float, cuda-star-tma,
# nccl, overlap on; then v1's strong 1024^3 (balanced, z) and the host-staged mpi transport.
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
cp src/model/two_step.cpp "$R/two_step.v1"
sed -i 's/  boundary_first_ = overlap() \&\& exchanging()/  boundary_first_ = false \&\& overlap() \&\& exchanging()/' src/model/two_step.cpp
grep -q "boundary_first_ = false &&" src/model/two_step.cpp || { echo "V0 edit did not apply"; exit 1; }
log "wavefd V0 (core first)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-v0.log" 2>&1 || { grep -m3 -A12 error "$R/build-v0.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-v0; cp "$R/two_step.v1" src/model/two_step.cpp
log "built both"
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2 mode=$3 transport=$4; shift 4
  python3 scripts/scaling.py $mode --out "$R/$name" --wavefd "build/wavefd-$bin" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport $transport --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); b = d["breakdown_per_rank_s"]; p = d["case"]["parts_alone_per_step_s"]; fs = d["case"]["full_step"]
    print(sys.argv[2], d["scaling"]["rank_grid"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")),
          "pack %.1f wait %.1f unpack %.1f us" % (b["pack"]["max"] * 1e6, b["wait"]["max"] * 1e6, b["unpack"]["max"] * 1e6),
          "pack by", fs.get("pack", "?"), "boundary first", fs.get("boundary_first", "?"),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
NG=$(nvidia-smi -L | wc -l)
W="--local 512 512 512"
if [ "$NG" -ge 4 ]; then
  for round in 1 2; do
    pt v0-balanced-$round v0 weak nccl $W --ranks 4
    pt v1-balanced-$round v1 weak nccl $W --ranks 4
    pt v1-one-$round v1 weak nccl $W --ranks 1
  done
  pt v0-z v0 weak nccl $W --ranks 4 --split z
  pt v1-z v1 weak nccl $W --ranks 4 --split z
  S="--global 1024 1024 1024"
  pt v1-strong-one v1 strong nccl $S --ranks 1
  pt v1-strong-balanced v1 strong nccl $S --ranks 4 --split balanced
  pt v1-strong-z v1 strong nccl $S --ranks 4 --split z
  pt v1-balanced-mpi v1 weak mpi $W --ranks 4
  pt v0-balanced-mpi v0 weak mpi $W --ranks 4
else  # two GPUs: the y split (1x2x1) and the z split, each 512^3 per GPU, and one GPU
  yb() { local name=$1 bin=$2; shift 2
    mpirun --allow-run-as-root -np 2 build/wavefd-$bin bench --family star --M 4 --n 512 1024 512 --ranks 1,2,1 \
      --precision float --variant cuda-star-tma --transport nccl --overlap true --steps 20 --reps 5 "$@" \
      --json "$R/$name.json" > "$R/$name.txt" 2>&1
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=[c for c in d['cases'] if 'full_step' in c][0]; f=c['full_step']; print(sys.argv[2], 'step %.4f ms' % (f['seconds']['min']*1e3), 'pack by', f['pack'], 'boundary first', f['boundary_first'], 'verified' if c['verification']['passed'] else 'NOT VERIFIED')" "$R/$name.json" "$name" 2>&1 | tee -a "$LOG" || tail -5 "$R/$name.txt" | tee -a "$LOG"
  }
  for round in 1 2; do
    yb v0-y-$round v0
    yb v1-y-$round v1
    pt v0-z-$round v0 weak nccl $W --ranks 2 --split z
    pt v1-z-$round v1 weak nccl $W --ranks 2 --split z
    pt v1-one-$round v1 weak nccl $W --ranks 1
  done
fi
log done
tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='two_step.v1' -cf "$O/bf-ab.tar" .
