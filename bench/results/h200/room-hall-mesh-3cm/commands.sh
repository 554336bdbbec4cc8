#!/usr/bin/env bash
# What ran on the H200 (nvidia-h200), tree of wavefd 86a8904 (main) plus the voxel file:
#   here (Debian sid dev root, assimp + CGAL): build/openmp/wavefd room inputs/room-hall.toml --grid.spacing 0.03 --output.voxels gpu/hall/hall-3cm.voxels
#   on the device: sed "$d" gpu/walls1.sh > /tmp/build.sh && bash /tmp/build.sh $(git rev-parse --short HEAD)   (build only; the room CTests
#   passed on a previous lease of the same commit: 63 tests, room-tests.log in ../room-voxel-walls-ctest/)
#   then: timeout 330 bash gpu/walls3.sh gpu/hall/hall-3cm.voxels 0.03 "1" hall-mesh-3cm

# ---- gpu/walls1.sh
#!/bin/bash
# Device run 1: build Kokkos (CUDA, Hopper) and wavefd, run the room's CTests on the GPU. $1 = commit.
set -o pipefail
export NCCL_NVLS_ENABLE=0
ROOT=$PWD
KK=$ROOT/build/kokkos-cuda
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt
if [ ! -x $KK/install/bin/nvcc_wrapper ]; then
  cmake -S gpu/kokkos-src -B $KK/build -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON \
    -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX=$KK/install -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_CXX_COMPILER=$ROOT/gpu/kokkos-src/bin/nvcc_wrapper > /tmp/kokkos.log 2>&1 && cmake --build $KK/build -j 16 >> /tmp/kokkos.log 2>&1 \
    && cmake --install $KK/build >> /tmp/kokkos.log 2>&1 || { tail -30 /tmp/kokkos.log; exit 1; }
fi
export Kokkos_ROOT=$KK/install CMAKE_PREFIX_PATH=$ROOT/gpu/tomlplusplus
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 -DWAVEFD_ENABLE_SEGYIO=OFF > /tmp/build.log 2>&1 && cmake --build build/cuda -j 16 --target wavefd test_engine >> /tmp/build.log 2>&1 || { grep -A8 error /tmp/build.log | head -40; exit 1; }
build/cuda/ctest/test_engine --gtest_filter='*Room*' > $OUT/room-tests.log 2>&1; grep -E "^\[  (PASSED|FAILED)|FAILED" $OUT/room-tests.log

# ---- gpu/walls3.sh
#!/bin/bash
# Device run 3 (after gpu/walls1.sh on the same lease): the hall deck from its voxel file (written
# where assimp and CGAL are: wavefd room inputs/room-hall.toml --grid.spacing H --output.voxels F),
# marginal cost per step (300 and 900 steps) of the hall with its five fitted materials and of the
# periodic grid of the same cells, same variant and Courant number.
# $1 = voxel file (relative to the checkout), $2 = spacing, $3 = list of M, $4 = tag.
set -o pipefail
ROOT=$PWD
VOX=$ROOT/$1
mkdir -p $OUT/$4 && cd $OUT/$4  # written as it goes: a run cut short still brings back its logs
for M in $3; do
  for S in 300 900; do
    START=$SECONDS; echo "$(date +%T) fd-M$M-$S start" >> walls.txt
    $ROOT/build/cuda/wavefd room $ROOT/inputs/room-hall.toml --room.voxels $VOX --grid.spacing $2 \
      --stencil.M $M --scheme.steps $S --output.progress none --receivers.wav '' --receivers.file ir-M$M-$S.bin \
      --output.summary fd-M$M-$S.json > fd-M$M-$S.log 2>&1 || { tail -5 fd-M$M-$S.log; exit 1; }
    echo "fd-M$M-$S: $((SECONDS - START)) s wall, setup included" >> walls.txt
    read C V N < <(python3 -c "import json; j=json.load(open('fd-M$M-$S.json')); print(j['model']['courant'], j['work']['bulk_variant'], ' '.join(map(str, j['model']['cells'])))")
    echo "$(date +%T) run-M$M-$S start" >> walls.txt
    $ROOT/build/cuda/wavefd run --grid.n $N --grid.boundary periodic --stencil.family star --stencil.M $M \
      --scheme.courant $C --scheme.steps $S --scheme.variant $V --output.progress none --output.summary run-M$M-$S.json > run-M$M-$S.log 2>&1
  done
done
python3 - "$3" <<'PY' | tee marginal.txt
import json, sys
for M in sys.argv[1].split():
    t = {}
    for kind in ("run", "fd"):
        for S in (300, 900):
            t[kind, S] = json.load(open(f"{kind}-M{M}-{S}.json"))["timing"]["seconds"]
    per = {k: (t[k, 900] - t[k, 300]) / 600 * 1e3 for k in ("run", "fd")}
    j = json.load(open(f"fd-M{M}-900.json")); w = j["work"]; n = j["model"]["cells"]
    cells = n[0] * n[1] * n[2]; air = j["model"]["mesh"]["air_cells"]
    print(f"star M={M}, {n[0]}x{n[1]}x{n[2]} ({air} air cells, {100*air/cells:.1f} %): per step periodic {per['run']:.4f} ms, "
          f"hall {per['fd']:.4f} ms ({per['run']/per['fd']:.3f} of the periodic step; {air/per['fd']/1e6:.1f} G air cells/s, "
          f"{cells/per['fd']/1e6:.1f} G cells/s); wall cells {w['wall_cells']:.0f} ({100*w['wall_share']:.2f} %), "
          f"branch states {w['wall_branch_states']:.0f}, wall bytes {w['wall_bytes']/1e6:.1f} MB")
PY
cat walls.txt
rm -f *.bin
