#!/usr/bin/env bash
# Device-side experiment (not part of the project): the layer kernel in 8-byte packs (V = 2 in
# float: fewer registers) at 6 and 5 blocks per SM, against HEAD in the same lease.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}; mkdir -p "$OUT"
B=build/cuda/wavefd
export PATH=/usr/local/cuda/bin:$PATH
log() { echo "== $*" | tee -a "$OUT/log.txt"; }
deck() { log "$1: minimod 1000^3 seven-domain"; $B seismic inputs/seismic-minimod-1000.toml --output.progress none --output.summary "$OUT/$1.json" 2>&1 | tee -a "$OUT/log.txt" | grep -E "s for|per step"; }
check() { log "$1: minimod 100^3"; $B seismic inputs/seismic-minimod-100.toml --output.progress none 2>&1 | grep "min u" | tee -a "$OUT/log.txt"
  cuobjdump -res-usage $B 2>/dev/null | grep -A1 "LayerStreamIfLi4ELi[24]ELi1EE" | grep -oE "REG:[0-9]+ STACK:[0-9]+" | sort -u | tee -a "$OUT/log.txt"; }
.gpu/build.sh "$1"; tail -1 build/gpu-build.log; grep -q "BUILD DONE" build/gpu-build.log || exit 1
deck head
sed -i 's|constexpr int pack = int(16 / sizeof(T));|constexpr int pack = int(8 / sizeof(T)) > 1 ? int(8 / sizeof(T)) : 1;|; s/Kokkos::LaunchBounds<kLayerThreads, 4>/Kokkos::LaunchBounds<kLayerThreads, 6>/' src/model/seismic_step.cpp
grep -n "constexpr int pack =\|LaunchBounds<kLayerThreads" src/model/seismic_step.cpp | tee -a "$OUT/log.txt"
cmake --build build/cuda -j 16 --target wavefd >build/wf-build2.log 2>&1 || { grep error -A3 build/wf-build2.log | head; exit 1; }
check v2-lb6; deck v2-lb6
sed -i 's/Kokkos::LaunchBounds<kLayerThreads, 6>/Kokkos::LaunchBounds<kLayerThreads, 4>/' src/model/seismic_step.cpp
cmake --build build/cuda -j 16 --target wavefd >build/wf-build3.log 2>&1 || { grep error -A3 build/wf-build3.log | head; exit 1; }
check v2-lb4; deck v2-lb4
