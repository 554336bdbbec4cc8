#!/usr/bin/env bash
# ncu sections of one seven-domain step's launches (inner box + 6 layer slabs), minimod 1000^3.
set -u
export PATH=/usr/local/cuda/bin:$PATH
B=gpu/bin-old/wavefd
timeout 400 ncu --clock-control none --kernel-name-base demangled --kernel-name regex:"star_tma|LayerStream" --launch-skip 7 --launch-count 7 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats --section LaunchStats \
  $B seismic inputs/seismic-minimod-1000.toml --scheme.steps 3 --output.progress none > $OUT/ncu-seven.txt 2> $OUT/ncu-seven.err
echo "ncu rc $?"; tail -3 $OUT/ncu-seven.err
grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Block Size|Grid Size|Memory Throughput|Stall|Warp Cycles Per Issued|Theoretical Occ|Mem Busy|Max Bandwidth|L2 Compression|Waves" $OUT/ncu-seven.txt | cut -c1-150 | head -150
