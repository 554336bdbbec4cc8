#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): the overlapped halo at 3d0b71c against its
# parent ce5f28e on two GPUs of one host. Builds both trees at once, runs the distributed
# bit-for-bit tests on the GPUs (mpi and nccl, overlap on and off), then weak 512^3 per GPU and
# strong 1024^3 star M=4 float with nccl and mpi, overlap on and off.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
R=${OUT:-$PWD/gpu-out}/r; mkdir -p "$R"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
(nvidia-smi -L; nvidia-smi topo -m) > "$R/topo.txt" 2>&1; head -2 "$R/topo.txt" | tee -a "$R/log.txt"
build() {  # tree label targets...
  local t=$1 l=$2; shift 2
  (cd "$t" && cmake --preset cuda -DWAVEFD_GIT_COMMIT="$l" > "$R/configure-$l.log" 2>&1 &&
    cmake --build --preset cuda -j 16 --target "$@" > "$R/build-$l.log" 2>&1) ||
    { echo "BUILD FAILED $l"; grep -m3 -A12 "error" "$R/build-$l.log" "$R/configure-$l.log" | head -60; }
}
build . 3d0b71c wavefd test_mpi_halo & build gpu/base ce5f28e wavefd & wait
log built
grep -E "wavefd: Kokkos|NCCL|MPI" "$R/configure-3d0b71c.log" | head -5 | tee -a "$R/log.txt"
N=$PWD/build/cuda/wavefd; B=$PWD/gpu/base/build/cuda/wavefd
[ -x "$N" ] && [ -x "$B" ] || exit 1
log "distributed == single rank, bit for bit, on 2 GPUs (mpi, nccl; overlap on and off)"
timeout 150 mpirun --allow-run-as-root -np 2 build/cuda/ctest/test_mpi_halo \
  --gtest_filter='MpiHalo.DistributedEqualsSingleRankBitForBit:MpiHalo.EveryVariantDistributedEqualsSingleRank' 2>&1 |
  grep -E "^\[  (PASSED|FAILED) |Failure|tests ran" -A3 | head -30 | tee -a "$R/log.txt"
L="mpirun --allow-run-as-root -np {np}"
sc() {  # label binary kind ranks args...
  local lab=$1 bin=$2 kind=$3 np=$4; shift 4
  log "$lab"
  if [ "$kind" = weak ]; then size=(--local 512 512 512); steps=20; else size=(--global 1024 1024 1024); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$bin" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E "ok |full step|error" | tee -a "$R/log.txt"
}
sc weak-1 $N weak 1
for ov in true false; do
  sc weak-nccl-overlap-$ov $N weak 2 --transport nccl --overlap $ov
  sc base-weak-nccl-overlap-$ov $B weak 2 --transport nccl --overlap $ov
done
sc weak-mpi-overlap-true $N weak 2 --transport mpi --overlap true
sc base-weak-mpi-overlap-true $B weak 2 --transport mpi --overlap true
sc weak-mpi-overlap-false $N weak 2 --transport mpi --overlap false
sc strong1024-1 $N strong 1
for ov in true false; do
  sc strong1024-nccl-overlap-$ov $N strong 2 --transport nccl --overlap $ov
  sc base-strong1024-nccl-overlap-$ov $B strong 2 --transport nccl --overlap $ov
done
log done
tar -C "$R" -cf "$(dirname "$R")/all.tar" . && rm -rf "$R"
