#!/usr/bin/env bash
# Issue 38 (four GPUs): peer's flags by cuStreamWriteValue32, x faces sent +x first and unpacked
# -x first, staged x faces in two slots without "ready", and the update storing the x faces
# straight into the neighbour's staging (pack = kernel; `--pack separate` beside it). MpiHalo
# through peer, weak 512^3 per GPU on x splits, 1x2x2 and one GPU; minimod's deck on 2x1x2, 1x2x2.
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -cf "$O/run15.tar" .; }
nvidia-smi -L | tee -a "$LOG"
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
timeout 100 env WAVEFD_TEST_TRANSPORTS=peer mpirun --allow-run-as-root -np 4 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_peer_np_4.log" 2>&1
echo "test_mpi_halo, peer only, np 4: rc $?; $(grep -c '^\[       OK' "$R/test_mpi_halo_peer_np_4.log") OK, $(grep -c 'Failure' "$R/test_mpi_halo_peer_np_4.log") failures" | tee -a "$LOG"
save
summ() { python3 - "$@" <<'PY' | tee -a "$LOG"
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    for c in d["cases"]:
        if "full_step" not in c: continue
        p = c.get("parts_alone_per_step_s", {}); t = c.get("timeline_per_step_s", {})
        print(f.split("/")[-1], d.get("parallel", {}).get("rank_grid"), "step %.4f ms" % (c["full_step"]["seconds"]["min"] * 1e3),
              " ".join("%s %.1f" % (k, p[k]["min"] * 1e6) for k in ("core", "shell", "halo") if k in p),
              "| timeline us:", " ".join("%s %.1f" % (k, t[k]["mean"] * 1e6) for k in ("started", "core_start", "core", "finished", "shell", "end") if k in t),
              "pack", c["full_step"].get("pack"),
              "verified" if c.get("verification", {}).get("passed") else "NOT VERIFIED")
PY
}
log "weak 512^3 per GPU: x splits, 1x2x2, one GPU (peer, the default)"
for g in 2,1,2 2,2,1 4,1,1 1,2,2; do
  IFS=, read -r px py pz <<< "${g%-separate}"
  extra=""; [ "${g#*-}" = separate ] && extra="--pack separate"
  timeout 60 mpirun --allow-run-as-root -np 4 $B bench --family star --M 4 --n $((512*px)) $((512*py)) $((512*pz)) --ranks ${g%-separate} \
    --variant cuda-star-tma --precision float --steps 20 --reps 5 $extra --json "$R/weak-$g.json" > "$R/weak-$g.log" 2>&1
  echo "rc $? $(grep -E 'transport' "$R/weak-$g.log" | head -1)" | tee -a "$LOG"; summ "$R/weak-$g.json"; save
done
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --steps 20 --reps 5 \
  --json "$R/one.json" > "$R/one.log" 2>&1; summ "$R/one.json"
log "minimod's deck: one GPU, 2x1x2, 1x2x2 (95 receivers)"
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
timeout 60 $B seismic "$DECK" --output.progress none --receivers.file "$R/traces-1.bin" --output.summary "$R/seismic-1.json" 2>&1 | seis
for g in "2 1 2" "1 2 2"; do
  n=${g// /x}
  timeout 60 mpirun --allow-run-as-root -np 4 $B seismic "$DECK" --output.progress none --parallel.ranks $g \
    --receivers.file "$R/traces-4-$n.bin" --output.summary "$R/seismic-4-$n.json" 2>&1 | seis
  cmp -s "$R/traces-1.bin" "$R/traces-4-$n.bin" && echo "traces-4-$n.bin equals traces-1.bin byte for byte" | tee -a "$LOG" ||
    echo "traces-4-$n.bin DIFFERS from traces-1.bin" | tee -a "$LOG"
  save
done
rm -f "$R"/traces-*.bin
log done
save
