#!/usr/bin/env bash
# Experiment (not committed): the x-run fast path of GhostImages::store, B (with) / A (without) / B.
set -u
export PATH=/usr/local/cuda/bin:$PATH
L=$OUT/exp2.txt
[ -x build/cuda/wavefd ] || cmake --preset cuda -DWAVEFD_ENABLE_TESTS=OFF > /tmp/cfg.log 2>&1 || { tail -20 /tmp/cfg.log; exit 1; }
B=build/cuda/wavefd
H=include/wavefd/ghost_images.hpp
cp $H /tmp/fast.hpp
sed '/if (c.x_run && !c.y_has && !z_near)/,+3d' /tmp/fast.hpp > /tmp/slow.hpp
diff /tmp/fast.hpp /tmp/slow.hpp >> $L
G="--family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 7 --variant cuda-star-tma --ghost-fill kernel --overlap true"
for which in fast slow fast slow; do
  cp /tmp/$which.hpp $H
  cmake --build --preset cuda -j 16 > /tmp/build.log 2>&1 || { grep -A5 error /tmp/build.log | head; exit 1; }
  echo "== $which" >> $L
  $B bench $G 2>&1 | grep -E "^star|copy probe|error" >> $L
done
cp /tmp/fast.hpp $H
cmake --build --preset cuda -j 16 > /tmp/build.log 2>&1
ncu --clock-control none -k regex:star_tma --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,gpu__time_duration.sum $B run inputs/quickstart.toml --grid.n 512 512 512 --scheme.steps 4 --scheme.variant cuda-star-tma --output.progress none --output.summary '' --parallel.ghost_fill kernel 2>&1 | grep -E "dram__|inst_executed|Duration|Throughput" >> $L
cat $L
