#!/usr/bin/env bash
# What ran on the H100 (nvidia-h100-x1): gpu/walls1.sh COMMIT (build Kokkos 4.6.01 for CUDA sm_90 and wavefd,
# the room CTests on the GPU), then gpu/walls2.sh "30 20 12" 0.02 "4 1" hall-2cm at e345b27 and
# gpu/walls2.sh "20 15 10" 0.01 "1" hall-1cm at e1f5a5c (the same tree). The two scripts follow.

# ---- gpu/walls1.sh
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

# ---- gpu/walls2.sh
# Device run 2 (after gpu/walls1.sh on the same lease): marginal cost per step, 300 and 900 steps,
# of the periodic grid, the rigid room and the room with frequency-dependent walls on every face
# (carpet, ceiling tiles: fitted branches), same variant and Courant number.
# $1 = "x y z" metres, $2 = spacing, $3 = list of M, $4 = tag.
set -o pipefail
ROOT=$PWD
mkdir -p /tmp/$4 && cd /tmp/$4
N=$(python3 -c "print(' '.join(str(round(float(L)/$2)) for L in '$1'.split()))")
for M in $3; do
  for S in 300 900; do
    for walls in rigid fd; do
      if [ $walls = rigid ]; then W=(--walls.default rigid --walls.z_low rigid --walls.z_high rigid)
      else W=(--walls.default carpet --walls.z_low carpet --walls.z_high 'ceiling tiles'); fi
      $ROOT/build/cuda/wavefd room $ROOT/inputs/room-shoebox.toml --room.size $1 --grid.spacing $2 --output.progress none \
        --stencil.M $M --scheme.steps $S "${W[@]}" --output.summary $walls-M$M-$S.json > $walls-M$M-$S.log 2>&1
    done
    C=$(python3 -c "import json; print(json.load(open('fd-M$M-$S.json'))['model']['courant'])")
    V=$(python3 -c "import json; print(json.load(open('fd-M$M-$S.json'))['work']['bulk_variant'])")
    $ROOT/build/cuda/wavefd run --grid.n $N --grid.boundary periodic --stencil.family star --stencil.M $M \
      --scheme.courant $C --scheme.steps $S --scheme.variant $V --output.progress none --output.summary run-M$M-$S.json > run-M$M-$S.log 2>&1
  done
done
python3 - "$3" <<'PY' | tee marginal.txt
import json, sys
for M in sys.argv[1].split():
    t = {}
    for kind in ("run", "rigid", "fd"):
        for S in (300, 900):
            t[kind, S] = json.load(open(f"{kind}-M{M}-{S}.json"))["timing"]["seconds"]
    per = {k: (t[k, 900] - t[k, 300]) / 600 * 1e3 for k in ("run", "rigid", "fd")}
    j = json.load(open(f"fd-M{M}-900.json")); fd = j["work"]; n = j["model"]["cells"]
    cells = n[0] * n[1] * n[2]
    print(f"star M={M}, {n[0]}x{n[1]}x{n[2]}: per step periodic {per['run']:.4f} ms, rigid room {per['rigid']:.4f} ms "
          f"({per['run']/per['rigid']:.3f}), frequency-dependent room {per['fd']:.4f} ms ({per['run']/per['fd']:.3f}, "
          f"{cells/per['fd']/1e6:.1f} G cells/s); wall cells {fd['wall_cells']:.0f} ({100*fd['wall_share']:.2f} %), "
          f"branch states {fd['wall_branch_states']:.0f}, wall bytes {fd['wall_bytes']/1e6:.1f} MB")
PY
rm -f *.bin; tar czf $OUT/$4.tgz -C /tmp $4; cp marginal.txt $OUT/$4-marginal.txt
