#!/bin/bash
# Device call (issue 40) on nvidia-h200: minimod's 1000^3 deck with a line of 95 receivers in half
# and bfloat16 with the velocity stored as the second field (scheme.second_field = velocity: the
# layer kernel over the whole box), beside half storing u^{n-1} by the same kernel
# (scheme.variant = layer); traces against the double run of
# ../storage-16bit-minimod-1000-accuracy/ (misfit.txt). From the repository root: commands.sh <commit>.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
for run in half-velocity bfloat16-velocity half-previous-layer; do p=${run%%-*}
  case $run in *velocity) extra="--scheme.second_field velocity" ;; *) extra="--scheme.variant layer" ;; esac
  timeout 90 $B seismic $DECK --scheme.precision $p $extra --output.progress none \
    --receivers.file traces-$run.bin --output.summary seismic-$run.json > seismic-$run.log 2>&1
  echo "$run rc=$? $(grep -E 's for|per step' seismic-$run.log | cut -c16-130 | tr '\n' ' ')"
done
cd .. && tar -cf vel.tar r && rm -rf r
