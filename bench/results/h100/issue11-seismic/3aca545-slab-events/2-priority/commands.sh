#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): the slabs at the highest stream priority, first,
# the inner box beside, events (new tree) against HEAD 3aca545 with and without the fence-based
# slabs-first switch (gpu/old2): GPU tests, same bits, two ranks, minimod 1000^3.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
N=/tmp/newfiles; mkdir -p $N/tree $N/extra
(cd gpu/old2 && find . -type f) | while read f; do [ -f $f ] && { mkdir -p $N/tree/$(dirname $f); cp $f $N/tree/$f; }; mkdir -p $(dirname $f); cp gpu/old2/$f $f; done
mv src/comm/instance_order.cpp src/comm/priority_instance.cpp include/wavefd/instance_order.hpp include/wavefd/priority_instance.hpp $N/extra/
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT=3aca545+slabs-first-fences > "$O/configure-old.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build-old.log" 2>&1 || { grep -m3 -A12 error "$O/build-old.log"; exit 1; }
cp build/cuda/wavefd /tmp/wavefd-old; log "built the old tree"
rm src/comm/halo_instance.cpp include/wavefd/halo_instance.hpp
cp -r $N/tree/. . && cp $N/extra/*.cpp src/comm/ && cp $N/extra/*.hpp include/wavefd/
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd test_engine > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd; A=/tmp/wavefd-old
timeout 150 build/cuda/ctest/test_engine --gtest_color=no --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > "$O/test_engine.txt" 2>&1; log "test_engine on the GPU: rc $? ($(grep -E '^\[  PASSED|FAILED' "$O/test_engine.txt" | tr '\n' ' '))"
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
for w in seven pairs; do
  x=(); [ $w = pairs ] && x=(--scheme.pairs on)
  $A seismic $S "${x[@]}" --output.slices $W/old-$w 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $w HEAD] /" | tee -a "$O/log.txt"
  $B seismic $S "${x[@]}" --output.slices $W/new-$w 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $w new] /" | tee -a "$O/log.txt"
  for s in 000500 001000; do cmp -s $W/old-$w-$s.bin $W/new-$w-$s.bin && log "$w slice $s: new == HEAD byte for byte" || log "$w slice $s: DIFFERS"; done
done
mpirun --allow-run-as-root --oversubscribe -np 2 $B seismic $S --parallel.transport mpi --output.slices $W/np2 > $W/np2.log 2>&1; grep -E "min u|rror" $W/np2.log | tee -a "$O/log.txt"
for s in 000500 001000; do cmp -s $W/old-seven-$s.bin $W/np2-$s.bin && log "2 ranks slice $s == 1 rank (HEAD) byte for byte" || log "2 ranks slice $s: DIFFERS"; done
mpirun --allow-run-as-root --oversubscribe -np 2 $B bench --family star --M 4 --n 256 256 256 --precision float --steps 10 --reps 2 --variant cuda-star-tma --transport mpi --overlap true 2>&1 | grep -E "cuda-star-tma|rror" | tee -a "$O/log.txt"
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
run() { local l=$1 b=$2; shift 2; local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "minimod 1000^3 $l"
  env "${e[@]}" timeout 40 $b seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"; }
run defaults $B X=1
run HEAD $A X=1
run HEAD-fences-slabs-first $A WAVEFD_EXP_SLABS_FIRST=1
run defaults $B X=1
run kokkos $B X=1 -- --scheme.variant mdrange-stream --scheme.tile 32x4x64
run HEAD-fences-slabs-first $A WAVEFD_EXP_SLABS_FIRST=1
run HEAD $A X=1
run three-domain $B X=1 -- --scheme.work three-domain
run defaults $B X=1
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench-end.json" 2>&1 | grep "cuda-star-tma" | tee -a "$O/log.txt"
python3 -c "import json; print('copy GB/s', json.load(open('$O/bench-end.json'))['copy_probe']['gb_per_s'])" | tee -a "$O/log.txt"
log done
tar -C "$O" --exclude='build*.log' --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
