#!/usr/bin/env bash
# Device-side (issue 13, not part of the project): ghost images on several ranks (bb904c3)
# against the early fill pass (7ea45bc) on two GPUs: the distributed halo test on the GPUs, then weak
# 512^3 per GPU and strong 1024^3, star M=4 float, nccl and mpi, overlap on (and off), two rounds.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
export NCCL_NVLS_ENABLE=0
F=${OUT:-$PWD/gpu-out}; R=$F/r; mkdir -p "$R"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$R/log.txt"; }
nvidia-smi -L | tee -a "$R/log.txt"
build() {  # tree label targets...
  local t=$1 l=$2; shift 2
  (cd "$t" && cmake --preset cuda -DWAVEFD_GIT_COMMIT="$l" > "$R/configure-$l.log" 2>&1 &&
    cmake --build --preset cuda -j 16 --target "$@" > "$R/build-$l.log" 2>&1) || { echo "BUILD FAILED $l"; grep -m3 -A12 error "$R/build-$l.log"; }
}
build . bb904c3 wavefd test_mpi_halo & build gpu/base 7ea45bc wavefd & wait
log built
N=$PWD/build/cuda/wavefd; B=$PWD/gpu/base/build/cuda/wavefd
[ -x "$N" ] && [ -x "$B" ] || exit 1
log "test_mpi_halo on 2 GPUs (bb904c3)"
timeout 200 mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np 2 build/cuda/ctest/test_mpi_halo --gtest_color=no > "$R/test-halo-2.txt" 2>&1; echo "rc $?" | tee -a "$R/log.txt"
grep -E "^\[  (PASSED|FAILED) |Failure" "$R/test-halo-2.txt" | sort | uniq -c | tee -a "$R/log.txt"
L="mpirun --allow-run-as-root -x NCCL_NVLS_ENABLE=0 -np {np}"
sc() {  # label binary kind ranks args...
  local lab=$1 bin=$2 kind=$3 np=$4; shift 4
  log "$lab"
  if [ "$kind" = weak ]; then size=(--local 512 512 512); steps=20; else size=(--global 1024 1024 1024); steps=10; fi
  python3 scripts/scaling.py $kind "${size[@]}" --ranks $np --out "$R/$lab" --wavefd "$bin" --launcher "$L" \
    --steps $steps --reps 5 -- --family star --M 4 "$@" 2>&1 | grep -E " ok |full step|rror" | tee -a "$R/log.txt"
}
sc weak-1 $N weak 1
sc strong1024-1 $N strong 1
for r in 1 2; do
  sc weak-nccl-on-r$r $N weak 2 --transport nccl --overlap true
  sc base-weak-nccl-on-r$r $B weak 2 --transport nccl --overlap true
  sc strong1024-nccl-on-r$r $N strong 2 --transport nccl --overlap true
  sc base-strong1024-nccl-on-r$r $B strong 2 --transport nccl --overlap true
done
sc weak-nccl-off $N weak 2 --transport nccl --overlap false
sc strong1024-nccl-off $N strong 2 --transport nccl --overlap false
sc weak-mpi-on $N weak 2 --transport mpi --overlap true
sc base-weak-nccl-off $B weak 2 --transport nccl --overlap false
sc base-weak-mpi-on $B weak 2 --transport mpi --overlap true
log done
tar -C "$R" --exclude='build-*' -cf "$F/all.tar" . && cp "$R/log.txt" "$F/log.txt" && rm -rf "$R"
