#!/bin/bash
# Device call 5: half 1000^3 max u 37.6875 (4 blocks per SM) against 37.0 (3 and 2): seven-domain
# twice, unified and three-domain (one launch at a time: no slabs beside the inner box), and
# seven-domain with the halo's ... same binary.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd
bash gpu/half/build.sh $1 || exit 1
rm -f $OUT/*.log
for W in seven-domain seven-domain unified three-domain; do
  timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.work $W --output.progress none \
    --output.summary '' 2>&1 | grep -E "s for" | sed "s/^/$W: /" | cut -c1-160
done
timeout 90 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision bfloat16 --output.progress none \
    --output.summary $OUT/m1000-bfloat16-min3.json 2>&1 | grep -E "s for|per step" | sed "s/^/bf16 min3: /" | cut -c1-160
