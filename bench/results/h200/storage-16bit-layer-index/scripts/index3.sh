#!/bin/bash
# Device call (issue 40): the inner box's unrolled 16-bit kernel with a ring of 2R + 1 slots, so that
# each unrolled plane's slots and phases are constants (experiment build: WAVEFD_EXP_SLOTS=1 takes the
# ring of R + 4 slots with the slots computed per plane, as before); the layer reads vp's byte index.
# Build; the GPU's seismic/eigenmode/two-step tests; minimod 100^3 traces == CPU's; minimod 1000^3 in
# half (both rings, twice), bfloat16 and float; ncu of one inner-box launch with each ring.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
export PATH=/usr/local/cuda/bin:$PATH
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 150 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure|illegal" -A3 engine.txt | head -20
for P in half bfloat16 float; do
  for X in "" 1; do
    [ $P = float ] && [ -n "$X" ] && continue
    if [ -n "$X" ]; then export WAVEFD_EXP_SLOTS=1; else unset WAVEFD_EXP_SLOTS; fi
    timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
    cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P old_slots=$X traces rc=$RC $R"
  done
done
unset WAVEFD_EXP_SLOTS; rm -f t.bin m100.log
timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma --json bench.json > bench.log 2>&1
grep -E "copy probe" bench.log
run() {  # name, precision, old-slots switch
  if [ -n "$3" ]; then export WAVEFD_EXP_SLOTS=1; else unset WAVEFD_EXP_SLOTS; fi
  timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $2 --output.progress none \
    --output.summary m1000-$1.json > m1000-$1.log 2>&1; echo "$1 rc=$? $(grep -E 's for|per step' m1000-$1.log | cut -c16-125 | tr '\n' ';')"
  unset WAVEFD_EXP_SLOTS
}
run half half
run half-oldslots half 1
run half-again half
run half-oldslots-again half 1
run bfloat16 bfloat16
run float float
M=gpu__time_duration.sum,sm__inst_executed.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for X in "" 1; do
  [ $SECONDS -lt 500 ] || break
  if [ -n "$X" ]; then export WAVEFD_EXP_SLOTS=1; else unset WAVEFD_EXP_SLOTS; fi
  timeout $((570 - SECONDS)) ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 1 --launch-count 1 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 3 --output.progress none --output.summary '' > ncu-inner-half$X.txt 2>&1
  echo "ncu old_slots=$X rc=$? $(grep -E 'gpu__time|inst_executed|inst_issued|dram__bytes|warps_active' ncu-inner-half$X.txt | awk '{print $1, $NF}' | tr '\n' ';')"
done
unset WAVEFD_EXP_SLOTS
cd .. && tar -cf index3.tar r && rm -rf r
echo "$(date +%T) done"
