#!/bin/bash
# Device call (issue 40) on nvidia-h200: where the velocity form's step goes on minimod 1000^3 in half (one H200).
# ncu of the second step's six slab launches of cuda-star-stream's PML branch, u^(n-1) against the
# velocity (time, DRAM bytes, instructions, occupancy, issue slots, stall reasons per slab), then
# the instruction mix by opcode of one z slab and of one inner-box launch (cuda-star-tma) in each form.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; export PATH=/usr/local/cuda/bin:$PATH
T0=$SECONDS; bash bench/results/h200/storage-16bit-seismic/scripts/build.sh $1 || exit 1; echo "build $((SECONDS - T0)) s"
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
DECK=$ROOT/inputs/seismic-minimod-1000.toml
M="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,l1tex__t_bytes.sum,launch__grid_size,launch__block_size,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_tex_throttle.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio"
for sf in velocity previous; do
  timeout 110 ncu --clock-control none --metrics $M --kernel-name-base demangled -k regex:star_stream_kernel --launch-skip 6 --launch-count 6 $B seismic \
    $DECK --scheme.precision half --scheme.second_field $sf --scheme.steps 3 --output.progress none --output.summary '' > ncu-slabs-$sf.txt 2>&1
  echo "ncu slabs $sf rc=$?"
  for k in star_stream_kernel star_tma_kernel; do
    timeout 60 ncu --clock-control none --metrics sass__inst_executed_per_opcode,sm__inst_executed.sum --print-metric-instances values \
      --kernel-name-base demangled -k regex:$k --launch-skip 6 --launch-count 1 $B seismic \
      $DECK --scheme.precision half --scheme.second_field $sf --scheme.steps 3 --output.progress none --output.summary '' > ncu-opcodes-$k-$sf.txt 2>&1
    echo "ncu opcodes $k $sf rc=$?"
  done
done
python3 - <<'PY' | tee slabs.txt
import re
for sf in ("previous", "velocity"):
    print("==", sf)
    text = open(f"ncu-slabs-{sf}.txt").read()
    for b in re.split(r"\n  void unnamed>::star_stream_kernel", text)[1:]:
        grid = re.search(r"\((\d+, \d+, \d+)\)x\((\d+, \d+, \d+)\)", b).group(0)
        vals = {m.group(1): (m.group(2), m.group(3)) for m in re.finditer(r"^\s+(\S+)\s+(\S+)?\s+([\d.,]+)\s*$", b, re.M)}
        g = lambda k: vals.get(k, ('', '?'))[1]
        print(f"{grid}: {g('gpu__time_duration.sum')} us, DRAM {g('dram__bytes_read.sum')}/{g('dram__bytes_write.sum')} MB, inst {g('sm__inst_executed.sum')}, warps {g('sm__warps_active.avg.pct_of_peak_sustained_active')} %, issue {g('smsp__issue_active.avg.pct_of_peak_sustained_active')} %, regs {g('launch__registers_per_thread')}")
        stalls = sorted(((float(v[1].replace(',', '')), k.split('stalled_')[1].split('.')[0]) for k, v in vals.items() if 'stalled' in k), reverse=True)[:6]
        tot = sum(float(v[1].replace(',', '')) for k, v in vals.items() if 'stalled' in k)
        print("   stalls share:", ", ".join(f"{n} {c/tot*100:.0f}%" for c, n in stalls))
PY
cd .. && tar -cf call8.tar r && rm -rf r
echo "$(date +%T) done"
