#!/bin/bash
# What made this folder: one nvidia-h200 lease, two calls (builds as ../storage-16bit-mdrange-star/commands.sh).
# Call 1 (tree of branch commit 983e6ac, = main for star_tma.cu): the eigenmode run, verify, and
# the bench, which timed float (tma-float-m4-512.log) and stopped at the first tiled half case: the
# fallback for unaligned grids then took the streaming tile to mdrange-star (fixed in 99298a9).
bash gpu/half/build.sh $1 || exit 1
cd $OUT
echo "$(date +%T) verify"
$B run --grid.n 136 35 70 --scheme.init mode --scheme.precision half --scheme.variant cuda-star-tma --scheme.steps 12 \
  --output.progress none --output.summary '' > run-half.log 2>&1; RC=$?; echo "run rc=$RC"; tail -3 run-half.log
if [ $RC != 0 ]; then
  timeout 120 compute-sanitizer --tool memcheck $B run --grid.n 136 35 70 --scheme.init mode --scheme.precision half \
    --scheme.variant cuda-star-tma --scheme.steps 2 --output.progress none --output.summary '' > sanitizer.log 2>&1
  grep -m 12 -E "=====" sanitizer.log; exit 1
fi
timeout 200 $B verify --precision half bfloat16 float --variant cuda-star-tma > verify-tma.log 2>&1; echo "verify rc=$?"; tail -1 verify-tma.log
grep -E "FAIL" verify-tma.log | head -5
echo "$(date +%T) bench"
timeout 200 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles all --precision float half bfloat16 \
  --json tma-m4-512.json > tma-m4-512.log 2>&1; grep -E "^star" tma-m4-512.log | cut -c1-150
timeout 100 ncu --clock-control none --section LaunchStats --section SpeedOfLight --section InstructionStats --section WarpStateStats \
  --launch-skip 9 --launch-count 1 $B run --grid.n 512 512 512 --stencil.M 4 --scheme.precision half --scheme.variant cuda-star-tma \
  --scheme.steps 3 --output.progress none --output.summary '' > ncu-tma-half.txt 2>&1
echo "ncu: $(grep -E 'Registers Per|Executed Instructions  |DRAM Throughput|Duration|Issue Slots Busy' ncu-tma-half.txt | tr -s ' ' | tr '\n' ';')"
echo "$(date +%T) done"

# Call 2 (tree of branch commit 99298a9, squashed into main with this folder): half and bfloat16, ncu.
bash gpu/half/build.sh $1 || exit 1
cd $OUT
timeout 100 $B bench --family star --M 4 --n 512 512 512 --variant cuda-star-tma --tiles all --precision half bfloat16 \
  --json tma16-m4-512.json > tma16-m4-512.log 2>&1; echo "bench rc=$?"; grep -E "^star" tma16-m4-512.log | cut -c1-150
timeout 60 ncu --clock-control none -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 --section LaunchStats --section SpeedOfLight \
  --section InstructionStats --section WarpStateStats --section Occupancy $B run --grid.n 512 512 512 --stencil.M 4 \
  --scheme.precision half --scheme.variant cuda-star-tma --scheme.steps 4 --output.progress none --output.summary '' > ncu-tma-half.txt 2>&1
echo "ncu: $(grep -E 'Registers Per|Executed Instructions  |DRAM Throughput|Duration|Issue Slots Busy|Achieved Occ' ncu-tma-half.txt | tr -s ' ' | tr '\n' ';')"
