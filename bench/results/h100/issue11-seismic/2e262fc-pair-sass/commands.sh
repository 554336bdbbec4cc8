#!/usr/bin/env bash
# Device-side (not part of the project): the pair kernel's SASS and ncu's per-instruction stall samples (for planning, no code change).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
B=build/cuda/wavefd
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$OUT/log.txt"
cuobjdump -sass $B > build/all.sass 2>/dev/null
awk '/Function : .*star_pair_kernelIfLi4ELi16ELi16ELi16ELi1E/{f=1} f&&/Function : /&&!/star_pair_kernelIfLi4ELi16ELi16ELi16ELi1E/{f=0} f' build/all.sass > "$OUT/pair-f4-sass.txt"
awk '/Function : .*star_tma_kernelIfLi4ELi16ELi3ELi1ELb1ELb1ELb0E/{f=1} f&&/Function : /&&!/star_tma_kernelIfLi4ELi16ELi3ELi1ELb1ELb1ELb0E/{f=0} f' build/all.sass > "$OUT/tma-f4-coef-sass.txt"
wc -l "$OUT"/*.txt | tee -a "$OUT/log.txt"
log "ncu full + source counters, cuda-star-pair 32x32x128 (512^3)"
timeout 200 ncu --set full --import-source no -o "$OUT/pair512" --kernel-name-base demangled --kernel-name regex:star_pair_kernel --launch-skip 2 --launch-count 1 $B seismic inputs/seismic-minimod-1000.toml --grid.n 512 512 512 --scheme.steps 8 --scheme.variant cuda-star-pair --scheme.tile 32x32x128 --output.progress none 2>&1 | tail -3 | tee -a "$OUT/log.txt"
timeout 60 ncu -i "$OUT/pair512.ncu-rep" --page source --csv --print-source sass > "$OUT/pair512-source.csv" 2>"$OUT/source-err.txt"
timeout 60 ncu -i "$OUT/pair512.ncu-rep" --page details > "$OUT/pair512-details.txt" 2>&1
wc -c "$OUT"/* | tee -a "$OUT/log.txt"
gzip -9 "$OUT/pair512-source.csv"; rm -f "$OUT/pair512.ncu-rep"
