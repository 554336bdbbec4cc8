#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): the x slabs' phi in whole packs and phi's
# address once per plane in cuda-star-stream's PML branch, against the committed tree (gpu/base).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
( cd gpu/base && cmake --preset cuda -DWAVEFD_GIT_COMMIT=base > "$O/configure-base.log" 2>&1 && cmake --build --preset cuda -j 6 --target wavefd > "$O/build-base.log" 2>&1; echo "base build rc $?" >> "$O/log.txt" ) &
cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 12 --target wavefd test_engine > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
wait
log "base built"
B=build/cuda/wavefd A=gpu/base/build/cuda/wavefd
build/cuda/ctest/test_engine --gtest_color=no --gtest_filter='SeismicEngine.*' > "$O/test_engine.txt" 2>&1; log "SeismicEngine tests on the GPU: rc $? ($(grep -E '^\[  PASSED|FAILED' "$O/test_engine.txt" | tr '\n' ' '))"
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$A seismic $S --output.slices $W/base 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 base] /" | tee -a "$O/log.txt"
$B seismic $S --output.slices $W/new 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 new] /" | tee -a "$O/log.txt"
$B seismic $S --scheme.layer_variant layer --output.slices $W/layer 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 layer kernel] /" | tee -a "$O/log.txt"
for work in unified three-domain; do
  $B seismic $S --scheme.work $work --output.slices $W/$work 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $work] /" | tee -a "$O/log.txt"
done
for v in new layer unified three-domain; do for s in 000500 001000; do
  cmp -s $W/base-$s.bin $W/$v-$s.bin && log "slice $s: $v == base byte for byte" || log "slice $s: $v DIFFERS from base"
done; done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
run() {  # label, binary, args...
  local l=$1 b=$2; shift 2
  log "minimod 1000^3 $l"
  timeout 40 $b seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
}
run new $B; run base $A; run new $B; run base $A
run new-three-domain $B --scheme.work three-domain
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,smsp__warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active"
for l in new base; do
  b=$B; [ $l = base ] && b=$A
  log "ncu layer $l"
  timeout 120 ncu --clock-control none --metrics $M -k regex:star_stream --launch-skip 12 --launch-count 6 \
    $b seismic inputs/seismic-minimod-1000.toml --scheme.steps 4 --output.progress none > "$O/ncu-layer-$l.txt" 2>&1
  grep -E "star_|gpu__time|dram__bytes|inst_exec|stalled|issue_active" "$O/ncu-layer-$l.txt" | sed 's/  */ /g' | cut -c1-110 | tee -a "$O/log.txt"
done
cuobjdump -sass build/cuda/CMakeFiles/wavefd_core.dir/src/kernels/cuda/star_stream.cu.o > $W/sass.txt 2>&1
awk '/Function : /{if(p)exit} /Function : .*star_stream_kernelIfLi4ELi32ELi4ELi4ELb0ELb1ELb1ELi1E/{p=1} p' $W/sass.txt | grep -v "^\s*/\*[0-9a-f]*\*/\s*$" > "$O/sass-layer-32x4.txt"
wc -l "$O/sass-layer-32x4.txt" | tee -a "$O/log.txt"
log done
tar -C "$O" --exclude=build.log --exclude=build-base.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
