#!/usr/bin/env bash
# Issue 38 deliverable 5 (four GPUs): host-staged `mpi` in pieces (WAVEFD_MPI_PIECE_BYTES: whole
# faces, 1 MiB, 256 KiB). MpiHalo through mpi only (one node, pseudo-nodes), the probe's
# exchange alone, then weak 512^3 per GPU on the default grid and the z split through mpi, and the
# one-GPU point.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/run7.tar" .; }
nvidia-smi -L | tee -a "$LOG"; nvidia-smi topo -m > "$R/topo.txt" 2>&1
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
PN="scripts/pseudo_nodes.sh 2"
t() { local name=$1; shift
  timeout 90 env WAVEFD_TEST_TRANSPORTS=mpi mpirun --allow-run-as-root -np 4 "$@" build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/$name.log" 2>&1
  echo "$name: rc $?; $(grep -c '^\[       OK' "$R/$name.log") OK, $(grep -c 'Failure' "$R/$name.log") failures" | tee -a "$LOG"; }
t test_mpi_halo_mpi_np_4
WAVEFD_MPI_PIECE_BYTES=64 t test_mpi_halo_mpi_pieces64_np_4
save
log "probe: the exchange alone through mpi, 1x2x2 of 512^3"
timeout 60 mpirun --allow-run-as-root -np 4 $B probe --family star --M 4 --n 512 1024 1024 --ranks 1,2,2 --transport mpi \
  --iters 10 --reps 3 --json "$R/probe-mpi.json" > "$R/probe-mpi.log" 2>&1
tail -8 "$R/probe-mpi.log" | tee -a "$LOG"
L="mpirun --allow-run-as-root -np {np}"
w() { local name=$1 tr=$2; shift 2
  timeout 80 python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd "$B" --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport $tr 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); p = d["case"]["parts_alone_per_step_s"]
    print(sys.argv[2], d["scaling"]["rank_grid"], d["scaling"]["transport"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo") if k in p),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
  save; }
w weak-1 auto --ranks 1
WAVEFD_MPI_PIECE_BYTES=4194304 w weak-mpi-balanced-whole mpi --ranks 4
w weak-mpi-balanced mpi --ranks 4
WAVEFD_MPI_PIECE_BYTES=262144 w weak-mpi-balanced-256k mpi --ranks 4
w weak-mpi-z mpi --ranks 4 --split z
w weak-mpi-balanced-2 mpi --ranks 4
w weak-1b auto --ranks 1
log done
save
