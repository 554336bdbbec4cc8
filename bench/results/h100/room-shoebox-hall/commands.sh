#!/usr/bin/env bash
# What ran on the H100 (nvidia-h100-x1, one lease), in order: gpu/room1.sh built Kokkos 4.6.01 for CUDA
# (sm_90, nvcc 13.0) and wavefd, then gpu/room3.sh a9566c1 ran the room tests on the GPU and
# gpu/room2.sh (the marginal timing) and packed the results in this folder. The three scripts follow.

# ---- gpu/room1.sh
# Device run: build Kokkos (CUDA, Hopper) and wavefd, run the room's CTests on the GPU, then time the
# room against the periodic grid with the same variant. $1 = commit for provenance.
set -o pipefail
export NCCL_NVLS_ENABLE=0
ROOT=$PWD
KK=$ROOT/build/kokkos-cuda
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv | tee $OUT/gpu.txt
if [ ! -x $KK/install/bin/nvcc_wrapper ]; then
  cmake -S gpu/kokkos-src -B $KK/build -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON \
    -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX=$KK/install -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_CXX_COMPILER=$ROOT/gpu/kokkos-src/bin/nvcc_wrapper > $OUT/kokkos.log 2>&1 || { tail -30 $OUT/kokkos.log; exit 1; }
  cmake --build $KK/build -j 16 >> $OUT/kokkos.log 2>&1 && cmake --install $KK/build >> $OUT/kokkos.log 2>&1 || { tail -30 $OUT/kokkos.log; exit 1; }
fi
export Kokkos_ROOT=$KK/install CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 -DWAVEFD_ENABLE_SEGYIO=OFF > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
cmake --build build/cuda -j 16 --target wavefd test_engine >> $OUT/build.log 2>&1 || { grep -B2 -A8 "error" $OUT/build.log | head -60; exit 1; }
[ "$2" = timing ] || { echo "== room tests on the GPU"; build/cuda/ctest/test_engine --gtest_filter='*Room*' 2>&1 | tee $OUT/room-tests.log | grep -E "^\[  (PASSED|FAILED)|FAILED|tests ran"; }
echo "== timing: room (zero ghosts + wall pass) against the periodic grid, same variant"
cd $OUT
for M in 1 4; do
  for rep in 1 2; do
    $ROOT/build/cuda/wavefd room $ROOT/inputs/room-shoebox.toml --room.size 30 20 12 --grid.spacing 0.02 --stencil.M $M \
      --scheme.steps 300 --output.progress none --receivers.file '' --output.summary room-M$M-$rep.json 2>&1 | grep -E "bulk by|cells/s" | tee -a timing.txt
    V=$(python3 -c "import json; print(json.load(open('room-M$M-$rep.json'))['work']['bulk_variant'])")
    C=$(python3 -c "import json; print(json.load(open('room-M$M-$rep.json'))['model']['courant'])")
    $ROOT/build/cuda/wavefd run --grid.n 1500 1000 600 --grid.boundary periodic --stencil.family star --stencil.M $M \
      --scheme.courant $C --scheme.steps 300 --scheme.variant $V --output.progress none --output.summary run-M$M-$rep.json 2>&1 | grep -E "Gpts/s" | tee -a timing.txt
  done
done
python3 - <<'PY' | tee summary.txt
import json
for M in (1, 4):
    for rep in (1, 2):
        r = json.load(open(f"room-M{M}-{rep}.json")); p = json.load(open(f"run-M{M}-{rep}.json"))
        a, b = r["timing"]["gcells_per_s"], p["timing"]["gpts_per_s"]
        print(f"star M={M} rep {rep}: room {a:.2f} G cells/s, periodic {b:.2f} G pts/s, room/periodic {a/b:.3f}; "
              f"wall cells {r['work']['wall_share']*100:.2f} %, variant {r['work']['bulk_variant']}")
PY

# ---- gpu/room3.sh
# The recorded run: the room's CTests on the GPU, then gpu/room2.sh's marginal timing; everything in
# one tarball. $1 = commit. Needs gpu/room1.sh's build (Kokkos) on this lease.
set -o pipefail
ROOT=$PWD
export Kokkos_ROOT=$ROOT/build/kokkos-cuda/install CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 -DWAVEFD_ENABLE_SEGYIO=OFF > /dev/null 2>&1
cmake --build build/cuda -j 16 --target wavefd test_engine > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
mkdir -p /tmp/res && cd /tmp/res
nvidia-smi > gpu.txt
$ROOT/build/cuda/ctest/test_engine --gtest_filter='*Room*' > room-tests.log 2>&1; grep -E "^\[  (PASSED|FAILED)" room-tests.log
OUT_SAVE=$OUT; OUT=/tmp/res bash -c "cd $ROOT && bash gpu/room2.sh" > /dev/null 2>&1
cp /tmp/res/marginal.txt $OUT_SAVE/ 2>/dev/null; cat /tmp/res/marginal.txt
tar czf $OUT_SAVE/room-h100.tgz -C /tmp/res .

# ---- gpu/room2.sh
# Marginal cost per step: 300 and 900 steps of the room and of the periodic grid (same variant), so
# that one-time costs (first launches, the first fill) drop out. Needs gpu/room1.sh's build.
set -o pipefail
ROOT=$PWD
export Kokkos_ROOT=$ROOT/build/kokkos-cuda/install CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus
cmake --build build/cuda -j 16 --target wavefd > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
cd $OUT
for M in 1 4; do
  for S in 300 900; do
    $ROOT/build/cuda/wavefd room $ROOT/inputs/room-shoebox.toml --room.size 30 20 12 --grid.spacing 0.02 --stencil.M $M \
      --scheme.steps $S --output.progress none --receivers.file '' --output.summary room-M$M-$S.json > /dev/null 2>&1
    C=$(python3 -c "import json; print(json.load(open('room-M$M-$S.json'))['model']['courant'])")
    $ROOT/build/cuda/wavefd run --grid.n 1500 1000 600 --grid.boundary periodic --stencil.family star --stencil.M $M \
      --scheme.courant $C --scheme.steps $S --scheme.variant cuda-star-tma --output.progress none --output.summary run-M$M-$S.json > /dev/null 2>&1
  done
done
python3 - <<'PY' | tee marginal.txt
import json
for M in (1, 4):
    t = {}
    for kind in ("room", "run"):
        for S in (300, 900):
            t[kind, S] = json.load(open(f"{kind}-M{M}-{S}.json"))["timing"]["seconds"]
    room = (t["room", 900] - t["room", 300]) / 600 * 1e3
    run = (t["run", 900] - t["run", 300]) / 600 * 1e3
    print(f"star M={M}: per step room {room:.4f} ms, periodic {run:.4f} ms, periodic/room {run/room:.3f}; "
          f"one-time room {(t['room',300]*1e3 - 300*room):.1f} ms, periodic {(t['run',300]*1e3 - 300*run):.1f} ms")
PY
