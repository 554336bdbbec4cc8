#!/usr/bin/env bash
# Device-side experiment (not part of the project): cuda-star-pair at two blocks per SM (16 warps,
# 8-byte vectors, 64 registers) as tile 32x24, and ncu of the pair kernel against cuda-star-tma.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
B=build/cuda/wavefd
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
deck() { local name=$1; shift; log "$name: minimod 1000^3 $*"; $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$OUT/$name.json" "$@" 2>&1 | tee -a "$OUT/log.txt" | grep -E "s for|per step|pairs"; }
sed -i 's|  if (a.rows == 32) return launch<T, R, 32, 8>(a);|&\n  if (a.rows == 24) return launch<T, R, 16, 8, 2>(a);|; s/(a.rows == 0 || a.rows == 16 || a.rows == 32)/(a.rows == 0 || a.rows == 16 || a.rows == 24 || a.rows == 32)/' src/kernels/cuda/star_pair.cu
sed -i 's/kRows{16, 32}/kRows{16, 32, 24}/; s/std::array<int, 2> kRows/std::array<int, 3> kRows/' src/kernels/cuda/star_pair_variant.cpp
grep -n "rows == 24" src/kernels/cuda/star_pair.cu | tee -a "$OUT/log.txt"
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || { tail -40 build/gpu-build.log; exit 1; }
cuobjdump -res-usage $B 2>/dev/null | grep -A1 "star_pair_kernelIfLi4E" | grep -oE "REG:[0-9]+ STACK:[0-9]+ SHARED:[0-9]+" | tee -a "$OUT/log.txt"
deck pair16x8b2 --scheme.variant cuda-star-pair --scheme.tile 32x24x256
deck pair16 --scheme.variant cuda-star-pair
S="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy"
log "ncu pair kernel (512^3, default tile)"
timeout 150 ncu --kernel-name-base demangled --kernel-name regex:star_pair_kernel --launch-skip 2 --launch-count 1 $S $B seismic inputs/seismic-minimod-1000.toml --grid.n 512 512 512 --scheme.steps 8 --scheme.variant cuda-star-pair --output.progress none > "$OUT/ncu-pair.txt" 2>&1; grep -E "Throughput|Duration|L1/TEX Hit|Stall|Warp Cycles|Achieved Occ|Registers" "$OUT/ncu-pair.txt" | head -30 | tee -a "$OUT/log.txt"
log "ncu tma kernel (512^3)"
timeout 150 ncu --kernel-name-base demangled --kernel-name regex:star_tma_kernel --launch-skip 4 --launch-count 1 $S $B seismic inputs/seismic-minimod-1000.toml --grid.n 512 512 512 --scheme.steps 8 --scheme.variant cuda-star-tma --output.progress none > "$OUT/ncu-tma.txt" 2>&1; grep -E "Throughput|Duration|L1/TEX Hit|Warp Cycles|Achieved Occ" "$OUT/ncu-tma.txt" | head -20 | tee -a "$OUT/log.txt"
