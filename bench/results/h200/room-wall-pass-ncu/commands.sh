#!/usr/bin/env bash
# On one H200, with the carried binaries of e8a8652 and then of the tree of 93c891a:
ncu --clock-control none --csv --page raw \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum --launch-skip 0 --launch-count 600 \
  wavefd room inputs/room-hall.toml --room.voxels hall-3cm.voxels --grid.spacing 0.03 \
  --scheme.steps 60 --output.progress none --receivers.wav '' --receivers.file ir.bin --output.summary fd.json > ncu.csv
# the sections of one wall-pass launch (e8a8652):
ncu --clock-control none --kernel-name-base demangled --kernel-name 'regex:WallPass' --launch-skip 8 --launch-count 3 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
  --section LaunchStats --section SchedulerStats \
  wavefd room inputs/room-hall.toml --room.voxels hall-3cm.voxels --grid.spacing 0.03 \
  --scheme.steps 20 --output.progress none --receivers.wav '' --receivers.file ir.bin --output.summary fd.json > ncu.txt
# here: python3 kernel_times.py e8a8652.csv > e8a8652.txt (likewise 93c891a)
