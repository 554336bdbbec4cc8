#!/usr/bin/env bash
# Experiment (not committed): width of the periodic x ghost images (32/64/128-byte) and tiles, kernel-written ghosts.
set -u
export PATH=/usr/local/cuda/bin:$PATH
L=$OUT/exp.txt
if [ ! -x build/cuda/wavefd ]; then
  cmake --preset cuda -DWAVEFD_ENABLE_TESTS=OFF > /tmp/cfg.log 2>&1 || { tail -20 /tmp/cfg.log; exit 1; }
fi
B=build/cuda/wavefd
G="--family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 7 --variant cuda-star-tma"
for round in 1 2; do
for sector in 32 64 128; do
  sed -i "s|const int sector = int([0-9]* / elem_bytes);|const int sector = int($sector / elem_bytes);|" src/model/two_step.cpp
  cmake --build --preset cuda -j 16 > /tmp/build.log 2>&1 || { grep -A5 error /tmp/build.log | head; exit 1; }
  echo "== round $round sector $sector" >> $L
  $B bench $G --ghost-fill kernel 2>&1 | grep -E "^star|copy probe|error" >> $L
done
done
sed -i "s|const int sector = int([0-9]* / elem_bytes);|const int sector = int(32 / elem_bytes);|" src/model/two_step.cpp
cmake --build --preset cuda -j 16 > /tmp/build.log 2>&1
echo "== tiles, kernel ghosts" >> $L
$B bench --family star --M 4 --n 512 512 512 --precision float --steps 20 --reps 5 --variant cuda-star-tma --tiles all --ghost-fill kernel 2>&1 | grep -E "^star|error" >> $L
cat $L
