#!/bin/bash
# Device call (issue 40) on nvidia-h200: half's misfit on minimod 1000^3 against the 16-bit field scale.
# WAVEFD_SHIFT=k multiplies the scale by 2^k (an env switch of the experiment's build only, README.md), so the
# largest value a source adds in one step lands in [2^k, 2^(k+1)) instead of [1, 2). From the repository root:
# commands.sh <label>.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/bench/results/h200-x2/storage-16bit-seismic/seismic-minimod-1000-receivers.toml
for run in previous-0 previous-2 previous-4 previous-6 previous-8 previous-10 velocity-0 velocity-6; do sf=${run%-*}; k=${run#*-}
  WAVEFD_SHIFT=$k timeout 60 $B seismic $DECK --scheme.precision half --scheme.second_field $sf --output.progress none \
    --receivers.file traces-$run.bin --output.summary $run.json > $run.log 2>&1
  echo "$run rc=$? $(grep -E 's for|hold' $run.log | cut -c16-150 | tr '\n' ';')"
  python3 $ROOT/bench/results/xeon-2core/storage-16bit-seismic/misfit.py $ROOT/bench/results/h200/storage-16bit-minimod-1000-accuracy/traces-double.bin traces-$run.bin | tail -1
done
cd .. && tar -cf call6.tar r && rm -rf r
