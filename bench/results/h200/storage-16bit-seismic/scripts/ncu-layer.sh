#!/bin/bash
# Device call 3: ncu of the seismic layer kernel over minimod's 1000^3 inner box, half against bfloat16 (and float).
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && rm -f ../*.log ../gpu.txt
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_bytes.sum,lts__t_bytes.sum,launch__grid_size,launch__block_size"
for P in half bfloat16 float; do
  X=""; [ $P = float ] && X="--scheme.variant layer"
  timeout 120 ncu --clock-control none --metrics $M --kernel-name-base demangled -k regex:LayerStream --launch-skip 7 --launch-count 7 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P $X --scheme.steps 3 --output.progress none --output.summary '' > ncu-layer-$P.txt 2>&1
  echo "ncu $P rc=$?"; grep -E "LayerStream|gpu__time|dram__bytes|inst_exec|registers|warps_active|issue_active|lts__t|l1tex|grid_size|block_size" ncu-layer-$P.txt | sed 's/  */ /g' | grep -v "^ *$" | cut -c1-160 | tail -14
done
cd .. && tar -cf ncu-layer.tar r && rm -rf r
