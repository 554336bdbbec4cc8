#!/bin/bash
# Device call 2 (issue 40, seismic in 16 bits): build; minimod's 1000^3 deck in float (the defaults),
# half and bfloat16 (the layer kernel; nearest and stochastic) with the copy probe for the floor;
# ncu of the layer kernel over the inner box in half and bfloat16. Everything in one tar.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
echo "$(date +%T) copy"
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
echo "$(date +%T) 1000^3"
for L in float half bfloat16 half-stochastic bfloat16-stochastic float-layer; do
  P=${L%-*}; R=nearest; [ "${L#*-}" = stochastic ] && R=stochastic; X=""; [ $L = float-layer ] && P=float X="--scheme.variant layer"
  timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --scheme.rounding $R $X --output.progress none \
    --output.summary m1000-$L.json > m1000-$L.log 2>&1; echo "$L rc=$? $(grep -E 's for|per step' m1000-$L.log | cut -c16-140 | tr '\n' ';')"
done
echo "$(date +%T) ncu"
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
for P in half bfloat16 float; do
  X=""; [ $P = float ] && X="--scheme.variant layer"
  timeout 90 ncu --clock-control none --metrics $M -k regex:LayerStream --launch-skip 7 --launch-count 7 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P $X --scheme.steps 3 --output.progress none --output.summary '' > ncu-layer-$P.txt 2>&1
  echo "ncu $P rc=$?"; grep -E "gpu__time|dram__bytes|inst_exec|registers|warps_active|issue_active" ncu-layer-$P.txt | sed 's/  */ /g' | sort | uniq -c | head -20
done
cd .. && tar -cf seismic16.tar r && rm -rf r
echo "$(date +%T) done"
