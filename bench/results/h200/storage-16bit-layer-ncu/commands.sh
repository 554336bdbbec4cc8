#!/bin/bash
# Device call (issue 40): ncu of the six slab launches of minimod's 1000^3 layer in half (cuda-star-stream's
# PML branch, seven-domain work): time, DRAM bytes, instructions, occupancy, issue slots and the
# warps' stall reasons per slab, to choose the next change to the layer.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,l1tex__t_bytes.sum,launch__grid_size,launch__block_size,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_tex_throttle.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_drain.ratio,smsp__average_warp_latency_issue_stalled_membar.ratio,smsp__average_warp_latency_issue_stalled_imc_miss.ratio,smsp__average_warp_latency_issue_stalled_sleeping.ratio"
timeout 200 ncu --clock-control none --metrics $M --kernel-name-base demangled -k regex:star_stream_kernel --launch-skip 6 --launch-count 6 $B seismic \
  $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 3 --output.progress none --output.summary '' > ncu-slabs-half.txt 2>&1
echo "ncu rc=$?"
python3 - <<'PY' | tee slabs.txt
import re
text = open("ncu-slabs-half.txt").read()
blocks = re.split(r"\n  star_stream_kernel", text)[1:]
for b in blocks:
    vals = {}
    for m in re.finditer(r"^\s+(\S+)\s+(\S+)\s+([\d.,]+)\s*$", b, re.M):
        vals[m.group(1)] = (m.group(2), m.group(3))
    head = b.split("\n")[0][:60]
    keys = ["launch__grid_size", "gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "sm__inst_executed.sum",
            "sm__warps_active.avg.pct_of_peak_sustained_active", "smsp__issue_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread"]
    print(head, "; ".join(f"{k.split('__')[1]} {vals.get(k, ('', '?'))[1]} {vals.get(k, ('', ''))[0]}" for k in keys))
    stalls = sorted(((float(v[1].replace(',', '')), k.split('stalled_')[1].split('.')[0]) for k, v in vals.items() if 'stalled' in k), reverse=True)[:6]
    print("   stalls (cycles per issue):", ", ".join(f"{n} {c:.1f}" for c, n in stalls))
PY
cd .. && tar -cf ncu-slabs.tar r && rm -rf r
echo "$(date +%T) done"
