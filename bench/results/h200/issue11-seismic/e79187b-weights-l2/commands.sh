#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): PML weight tables in the layer; the inner box's
# launch order and L2 promotion (experiment switches), minimod 1000^3.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/usr/local/cuda/bin:$PATH Kokkos_ROOT=$PWD/gpu/kokkos tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
F=${OUT:-$PWD/gpu-out}; O=$F/r; mkdir -p "$O"
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$O/log.txt"; }
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$O/log.txt"
cmake --preset cuda -DWAVEFD_GIT_COMMIT=$1 > "$O/configure.log" 2>&1 && cmake --build --preset cuda -j 16 --target wavefd > "$O/build.log" 2>&1 || { grep -m3 -A12 error "$O/build.log"; exit 1; }
log built
B=build/cuda/wavefd
W=$(mktemp -d)
S="inputs/seismic-minimod-100.toml --output.progress none --output.slice_every 500"
$B seismic $S --output.slices $W/tab 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 tables] /" | tee -a "$O/log.txt"
WAVEFD_EXP_NO_WEIGHTS=1 $B seismic $S --output.slices $W/div 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 divide] /" | tee -a "$O/log.txt"
for work in unified three-domain; do
  $B seismic $S --scheme.work $work --output.slices $W/$work 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 $work] /" | tee -a "$O/log.txt"
done
WAVEFD_EXP_ROWS_FIRST=1 WAVEFD_EXP_PROMO=0 $B seismic $S --output.slices $W/rows 2>&1 | grep -E "min u|rror" | sed "s/^/[100^3 rows-first] /" | tee -a "$O/log.txt"
for v in div unified three-domain rows; do for s in 000500 001000; do
  cmp -s $W/tab-$s.bin $W/$v-$s.bin && log "slice $s: $v == tables byte for byte" || log "slice $s: $v DIFFERS from tables"
done; done
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json "$O/bench.json" 2>&1 | tail -1 | tee -a "$O/log.txt"
run() {  # label, env...
  local l=$1; shift
  log "minimod 1000^3 $l"
  env "$@" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" 2>&1 | grep -E "s for|per step|rror" | tee -a "$O/log.txt"
}
run tables X=1
run divide WAVEFD_EXP_NO_WEIGHTS=1
run promo128 WAVEFD_EXP_PROMO=128
run promo-none WAVEFD_EXP_PROMO=0
run rows-first WAVEFD_EXP_ROWS_FIRST=1
run rows-first-promo-none WAVEFD_EXP_ROWS_FIRST=1 WAVEFD_EXP_PROMO=0
run rows-first-promo64 WAVEFD_EXP_ROWS_FIRST=1 WAVEFD_EXP_PROMO=64
run divide WAVEFD_EXP_NO_WEIGHTS=1
run tables X=1
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__inst_executed.sum"
nc() {  # label, kernel regex, count, env...
  local l=$1 k=$2 c=$3; shift 3
  log "ncu $l"
  env "$@" timeout 120 ncu --clock-control none --metrics $M -k regex:$k --launch-skip $((c * 2)) --launch-count $c \
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 4 --output.progress none > "$O/ncu-$l.txt" 2>&1
  grep -E "star_|gpu__time|dram__bytes|hit_rate|inst_exec" "$O/ncu-$l.txt" | sed 's/  */ /g' | cut -c1-140 | tee -a "$O/log.txt"
}
nc inner star_tma 1 X=1
nc inner-rows-first-promo-none star_tma 1 WAVEFD_EXP_ROWS_FIRST=1 WAVEFD_EXP_PROMO=0
nc inner-promo-none star_tma 1 WAVEFD_EXP_PROMO=0
nc layer-tables star_stream 6 X=1
nc layer-divide star_stream 6 WAVEFD_EXP_NO_WEIGHTS=1
log done
tar -C "$O" --exclude=build.log --exclude=configure.log -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
