#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): the whole series at HEAD (scripts/gpu_scaling.sh),
# then 70e9dfe's weak and strong 4-GPU points on the same machine for the before/after.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}
(cd gpu/base && cmake --preset cuda -DWAVEFD_GIT_COMMIT=70e9dfe > /tmp/base-configure.log 2>&1 && cmake --build --preset cuda -j 24 --target wavefd > /tmp/base-build.log 2>&1; echo "base build rc $?") &
GPUS=4 LIMIT=${LIMIT:-380} OUT=$F scripts/gpu_scaling.sh "$1"
wait
R=$F/base; mkdir -p "$R"
A=$PWD/gpu/base/build/cuda/wavefd
L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
for kind in weak strong; do
  if [ "$kind" = weak ]; then size=(--local 512 512 512 --split z); steps=20; else size=(--global 1024 1024 1024 --split z); steps=10; fi
  [ $SECONDS -gt 520 ] && { echo "skipped base $kind"; continue; }
  python3 scripts/scaling.py $kind "${size[@]}" --ranks 4 --out "$R/$kind-4-70e9dfe" --wavefd "$A" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 --transport nccl --overlap true 2>&1 | grep -E "full step|rror" | cut -c1-160
done
tar -C "$F" -rf "$F/all.tar" base && rm -rf "$R"
echo "== all done (at $SECONDS s)"
