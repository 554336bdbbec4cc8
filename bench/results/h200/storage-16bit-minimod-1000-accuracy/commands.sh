#!/bin/bash
# Device call (issue 40) on nvidia-h200: minimod's 1000^3 deck with a line of 95 receivers in double,
# float, half and bfloat16 (to nearest, and stochastically), for the traces' misfit against the
# double run (misfit.txt: ../../xeon-2core/storage-16bit-seismic/misfit.py). From the repository root:
# commands.sh <commit>.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
for run in double float half bfloat16 half-stochastic bfloat16-stochastic; do p=${run%-stochastic}
  [ $run = $p ] && rounding=nearest || rounding=stochastic
  timeout 90 $B seismic $DECK --scheme.precision $p --scheme.rounding $rounding --output.progress none \
    --receivers.file traces-$run.bin --output.summary seismic-$run.json > seismic-$run.log 2>&1
  echo "$run rc=$? $(grep -E 's for' seismic-$run.log | cut -c16-80)"
done
cd .. && tar -cf acc.tar r && rm -rf r
