#!/usr/bin/env bash
# Device-side (issue 11, not part of the project): where cuda-star-tma's excess DRAM reads on
# minimod's inner box come from: u's box without its x or y halo (WAVEFD_EXP_HALO, wrong results),
# tensor maps clipped (WAVEFD_EXP_CLIP), z chunks of 32/64/128; ncu bytes and time.
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
sl() { local l=$1; shift; env "$@" $B seismic $S --output.slices $W/$l 2>&1 | grep -E "min u|rror|EXPERIMENT" | sed "s/^/[100^3 $l] /" | tee -a "$O/log.txt"; }
sl base X=1
sl clip WAVEFD_EXP_CLIP=1
for s in 000500 001000; do cmp -s $W/base-$s.bin $W/clip-$s.bin && log "slice $s: clip == base byte for byte" || log "slice $s: clip DIFFERS from base"; done
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"
nc() {  # label, env..., -- args
  local l=$1; shift
  local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "ncu $l"
  env "${e[@]}" timeout 120 ncu --clock-control none --metrics $M -k regex:star_tma --launch-skip 2 --launch-count 1 \
    $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 4 --output.progress none "$@" > "$O/ncu-$l.txt" 2>&1
  grep -E "gpu__time|dram__bytes|hit_rate|lts__t_sectors" "$O/ncu-$l.txt" | sed 's/  */ /g' | cut -c1-140 | tee -a "$O/log.txt"
}
nc default X=1
nc clip WAVEFD_EXP_CLIP=1
nc no-x-halo WAVEFD_EXP_HALO=2
nc no-y-halo WAVEFD_EXP_HALO=4
nc no-halo WAVEFD_EXP_HALO=6
nc no-halo-clip WAVEFD_EXP_HALO=6 WAVEFD_EXP_CLIP=1
nc z32 X=1 -- --scheme.tile 32x16x32
nc z128 X=1 -- --scheme.tile 32x16x128
nc z946 X=1 -- --scheme.tile 32x16x946
nc rows8 X=1 -- --scheme.tile 32x8x64
log "ncu star M=4 512^3 bench"
timeout 120 ncu --clock-control none --metrics $M -k regex:star_tma --launch-skip 5 --launch-count 1 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 3 --reps 1 --variant cuda-star-tma > "$O/ncu-bench512.txt" 2>&1
grep -E "gpu__time|dram__bytes|hit_rate|lts__t_sectors" "$O/ncu-bench512.txt" | sed 's/  */ /g' | cut -c1-140 | tee -a "$O/log.txt"
run() {
  local l=$1; shift
  local e=(); while [ $# -gt 0 ] && [ "$1" != -- ]; do e+=("$1"); shift; done; [ $# -gt 0 ] && shift
  log "minimod 1000^3 $l"
  env "${e[@]}" timeout 40 $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$O/m1000-$l-$SECONDS.json" "$@" 2>&1 | grep -E "s for|per step|rror|EXPERIMENT" | tee -a "$O/log.txt"
}
run default X=1
run clip WAVEFD_EXP_CLIP=1
run z32 X=1 -- --scheme.tile 32x16x32
run default X=1
run clip WAVEFD_EXP_CLIP=1
log done
tar -C "$O" --exclude=build.log --exclude='configure*.log' -cf "$F/all.tar" . && cp "$O/log.txt" "$F/log.txt" && rm -rf "$O"
