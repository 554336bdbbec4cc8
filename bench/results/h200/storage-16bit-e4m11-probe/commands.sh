#!/bin/bash
# Device call (issue 40) on nvidia-h200, a probe: "half" stored as e4m11 (sign, 4 exponent and 11 significand bits in float's
# lowest 16 binades; the field scale times 2^WAVEFD_SHIFT puts the field there), decoded and
# encoded by integer operations in every device path: minimod 1000^3, u^(n-1), loop time and misfit. From the
# repository root of the probe's tree (README.md): commands.sh <label>.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
for k in -120 -121 -119; do run=e4m11$k
  WAVEFD_SHIFT=$k timeout 60 $B seismic $DECK --scheme.precision half --output.progress none \
    --receivers.file traces-$run.bin --output.summary $run.json > $run.log 2>&1
  echo "$run rc=$? $(grep -E 's for|per step|hold' $run.log | cut -c16-150 | tr '\n' ';')"
  python3 $ROOT/bench/results/xeon-2core/storage-16bit-seismic/misfit.py $ROOT/bench/results/h200/storage-16bit-minimod-1000-accuracy/traces-double.bin traces-$run.bin | tail -1
done
cd .. && tar -cf call7.tar r && rm -rf r
