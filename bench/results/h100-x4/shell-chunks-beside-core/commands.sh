#!/usr/bin/env bash
# Issue 38, next session's first run (four GPUs): MpiHalo through peer on 4 and 2 GPUs; the y slabs
# in 64-plane chunks (B) against 16 (A) under nccl and peer; minimod's deck on 1 and 4 GPUs with
# parallel.overlap false and true, traces compared byte for byte.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' --exclude='star_tma.a' -cf "$O/next.tar" .; }
nvidia-smi -L | tee -a "$LOG"
log "Kokkos"
cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
  -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
  -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos.log" 2>&1 &&
  cmake --build build/kokkos-cuda-build -j "$(nproc)" --target install >> "$R/kokkos.log" 2>&1 || { tail -20 "$R/kokkos.log"; exit 1; }
log "wavefd A ($1)"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$R/configure.log" 2>&1 &&
  cmake --build --preset cuda -j "$(nproc)" --target wavefd test_mpi_halo > "$R/build.log" 2>&1 || { grep -m3 -A12 error "$R/build.log" | tee -a "$LOG"; exit 1; }
cp build/cuda/wavefd build/wavefd-a
for np in 4 2; do
  timeout 60 env WAVEFD_TEST_TRANSPORTS=peer mpirun --allow-run-as-root -np $np build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_peer_np_$np.log" 2>&1
  echo "test_mpi_halo, peer only, np $np: rc $?; $(grep -c '^\[       OK' "$R/test_mpi_halo_peer_np_$np.log") OK, $(grep -c 'Failure' "$R/test_mpi_halo_peer_np_$np.log") failures" | tee -a "$LOG"
done
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
timeout 60 build/wavefd-a seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seis
for ov in false true; do
  timeout 40 mpirun --allow-run-as-root -np 4 build/wavefd-a seismic "$DECK" --output.progress none --parallel.transport nccl \
    --parallel.overlap $ov --receivers.file "$R/traces-4-overlap-$ov.bin" --output.summary "$R/seismic-4-overlap-$ov.json" 2>&1 | seis
  cmp -s "$R/traces-1.bin" "$R/traces-4-overlap-$ov.bin" && echo "traces-4-overlap-$ov.bin equals traces-1.bin byte for byte" | tee -a "$LOG" ||
    echo "traces-4-overlap-$ov.bin DIFFERS from traces-1.bin" | tee -a "$LOG"
done
save
cp src/kernels/cuda/star_tma.cu "$R/star_tma.a"
sed -i 's/const int shortest = tiles < 16 ? 4 \* R : 16 \* R;/const int shortest = 16 * R;/' src/kernels/cuda/star_tma.cu
grep -q "const int shortest = 16 \* R;" src/kernels/cuda/star_tma.cu || { echo "B: sed did not apply"; exit 1; }
log "wavefd B (shell chunks of at least 16 R)"
cmake --build --preset cuda -j "$(nproc)" --target wavefd > "$R/build-b.log" 2>&1 || { grep -m3 -A12 error "$R/build-b.log"; exit 1; }
cp build/cuda/wavefd build/wavefd-b; cp "$R/star_tma.a" src/kernels/cuda/star_tma.cu
L="mpirun --allow-run-as-root -np {np}"
pt() { local name=$1 bin=$2 tr=$3; shift 3
  timeout 60 python3 scripts/scaling.py weak --local 512 512 512 --out "$R/$name" --wavefd build/wavefd-$bin --launcher "$L" \
    --steps 20 --reps 5 "$@" -- --family star --M 4 --transport $tr --overlap true 2>&1 | grep -E "error" | sed "s/^/$name: /" | tee -a "$LOG"
  python3 - "$R/$name" "$name" <<'PY' | tee -a "$LOG"
import json, glob, sys
for f in sorted(glob.glob(sys.argv[1] + "/*-np*.json")):
    d = json.load(open(f)); p = d["case"]["parts_alone_per_step_s"]; t = d["case"].get("timeline_per_step_s", {})
    print(sys.argv[2], d["scaling"]["rank_grid"], d["scaling"]["transport"], "step %.4f ms" % (d["full_step_s"] * 1e3),
          " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo")), "| timeline us (mean/max):",
          " ".join("%s %.1f/%.1f" % (k, t[k]["mean"] * 1e6, t[k]["max"] * 1e6) for k in ("started", "finished", "core", "shell", "end") if k in t),
          "verified" if d["case"]["verification"]["passed"] else "NOT VERIFIED")
PY
}
for round in 1 2; do
  pt a-one-$round a nccl --ranks 1
  for tr in nccl peer; do
    pt a-balanced-$tr-$round a $tr --ranks 4
    pt b-balanced-$tr-$round b $tr --ranks 4
  done
done
pt a-z-nccl a nccl --ranks 4 --split z
pt b-z-nccl b nccl --ranks 4 --split z
pt a-balanced-mpi a mpi --ranks 4
log done
save
