#!/usr/bin/env bash
# Issue 38: where the x faces' early delay goes (peer). Event marks inside PeerMessages per
# exchange (WAVEFD_PEER_EVENTS), and two toggles: flags by cuStreamWriteValue32 on the peer's
# mapped memory (WAVEFD_PEER_FLAGS=memop), staged x faces without the ready round trip
# (WAVEFD_PEER_STAGED_READY=off, staging double-buffered by exchange parity).
set -uo pipefail
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
O=${OUT:-$PWD/gpu-out}; R=$(mktemp -d); LOG=$O/log.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
save() { tar -C "$R" --exclude='build*.log' --exclude='kokkos.log' -czf "$O/run11.tgz" .; }
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
              "verified" if c.get("verification", {}).get("passed") else "NOT VERIFIED")
PY
}
marks() { python3 - "$1" <<'PY' | tee -a "$LOG"
import csv, glob, os, statistics, sys
names = {1: "post", 2: "ready sent", 3: "x0 peer ready", 4: "x0 packed", 5: "x0 landed", 6: "x1 peer ready", 7: "x1 packed",
         8: "x1 landed", 9: "late copied", 10: "late landed", 11: "x0 flag seen", 12: "x1 flag seen", 13: "unpacked"}
for rank in range(4):
    files = glob.glob(os.path.join(sys.argv[1], "rank%d-inst*.csv" % rank))
    if not files: continue
    f = max(files, key=os.path.getsize)  # the timed engine's
    rows = [(int(a), int(b), float(c)) for a, b, c in csv.reader(open(f))]
    ex = sorted({r[0] for r in rows})
    keep = set(ex[25:110])  # full steps after the first repetition
    by = {}
    for e, m, us in rows:
        if e in keep: by.setdefault(m, []).append(us)
    print("  rank %d:" % rank, ", ".join("%s %.1f" % (names[m], statistics.median(v)) for m, v in sorted(by.items())))
PY
}
log "MpiHalo through peer, memop flags and staged x faces without ready"
timeout 100 env WAVEFD_TEST_TRANSPORTS=peer WAVEFD_PEER_FLAGS=memop WAVEFD_PEER_STAGED_READY=off mpirun --allow-run-as-root -np 4 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test_mpi_halo_peer_toggles_np_4.log" 2>&1
echo "test_mpi_halo, peer only, toggles on, np 4: rc $?; $(grep -c '^\[       OK' "$R/test_mpi_halo_peer_toggles_np_4.log") OK, $(grep -c 'Failure' "$R/test_mpi_halo_peer_toggles_np_4.log") failures" | tee -a "$LOG"
save
log "weak 512^3 per GPU, x splits: event marks (us from the compute stream's step start, medians)"
for cfg in base memop noready both; do
  case $cfg in
    base) E="";; memop) E="WAVEFD_PEER_FLAGS=memop";; noready) E="WAVEFD_PEER_STAGED_READY=off";;
    both) E="WAVEFD_PEER_FLAGS=memop WAVEFD_PEER_STAGED_READY=off";;
  esac
  for g in 2,1,2 4,1,1 2,2,1; do
    IFS=, read -r px py pz <<< "$g"
    D=$R/ev-$cfg-$g; mkdir -p "$D"
    timeout 60 env $E WAVEFD_PEER_EVENTS=$D mpirun --allow-run-as-root -np 4 $B bench --family star --M 4 --n $((512*px)) $((512*py)) $((512*pz)) --ranks $g \
      --variant cuda-star-tma --precision float --steps 20 --reps 5 --json "$R/weak-$cfg-$g.json" > "$R/weak-$cfg-$g.log" 2>&1
    echo "$cfg $g: rc $?" | tee -a "$LOG"; summ "$R/weak-$cfg-$g.json"; marks "$D"
  done
  save
done
timeout 60 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --precision float --steps 20 --reps 5 \
  --json "$R/one.json" > "$R/one.log" 2>&1; summ "$R/one.json"
log done
save
