#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): cuda-star-tma's inner box with thread-block
# clusters along y (WAVEFD_EXP_CLUSTER_Y) and pairs of z chunks meeting in the middle
# (WAVEFD_EXP_ALTERNATE), minimod 1000^3: time and DRAM bytes.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
nvidia-smi -q | grep -iE "L2|SM count|multiproc" | head -5 >> "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
sl() { local l=$1; shift; env "$@" $B seismic $S --output.slices $W/$l 2>&1 | grep -E "min u|rror|EXPERIMENT" | sed "s/^/[100^3 $l] /" | tee -a "$O/log.txt"; }
sl base X=1
sl cy2 WAVEFD_EXP_CLUSTER_Y=2
sl cy4 WAVEFD_EXP_CLUSTER_Y=4
sl alt WAVEFD_EXP_ALTERNATE=1
sl cy2alt WAVEFD_EXP_CLUSTER_Y=2 WAVEFD_EXP_ALTERNATE=1
for v in cy2 cy4 alt cy2alt; do for s in 000500 001000; do
  cmp -s $W/base-$s.bin $W/$v-$s.bin && log "slice $s: $v == base byte for byte" || log "slice $s: $v DIFFERS from base"
done; done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -2 | tee -a "$O/log.txt"
WAVEFD_EXP_CLUSTER_Y=4 WAVEFD_EXP_ALTERNATE=1 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench-cy4alt.json" 2>&1 | grep -E "EXPERIMENT|verif|cuda-star-tma" | tail -4 | tee -a "$O/log.txt"
run() {  # label, env assignments..., -- args
  local l=$1; shift
  log "minimod 1000^3 $l"
  local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  env "${e[@]}" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror|EXPERIMENT" | tee -a "$O/log.txt"
}
run default X=1
run cy2 WAVEFD_EXP_CLUSTER_Y=2
run cy4 WAVEFD_EXP_CLUSTER_Y=4
run alt WAVEFD_EXP_ALTERNATE=1
run cy4alt WAVEFD_EXP_CLUSTER_Y=4 WAVEFD_EXP_ALTERNATE=1
run cy8 WAVEFD_EXP_CLUSTER_Y=8
run cy4-z128 WAVEFD_EXP_CLUSTER_Y=4 -- --scheme.tile 32x16x128
run default X=1
run cy2alt WAVEFD_EXP_CLUSTER_Y=2 WAVEFD_EXP_ALTERNATE=1
run cy4 WAVEFD_EXP_CLUSTER_Y=4
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__inst_executed.sum"
nc() {  # label, env...
  local l=$1; shift
  log "ncu $l"
  env "$@" timeout 120 ncu --clock-control none --metrics $M -k regex:star_tma --launch-skip 2 --launch-count 1 \
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 4 --output.progress none > "$O/ncu-$l.txt" 2>&1
  grep -E "star_|gpu__time|dram__bytes|hit_rate|inst_exec" "$O/ncu-$l.txt" | sed 's/  */ /g' | cut -c1-140 | tee -a "$O/log.txt"
}
nc default X=1
nc cy4 WAVEFD_EXP_CLUSTER_Y=4
nc alt WAVEFD_EXP_ALTERNATE=1
nc cy4alt WAVEFD_EXP_CLUSTER_Y=4 WAVEFD_EXP_ALTERNATE=1
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
