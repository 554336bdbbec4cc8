#!/bin/bash
# Device call (issue 40): cuda-star-tma's z loop unrolled 2R+1 times (the window shifts by renaming),
# A/B in one binary (WAVEFD_TMA_ROLLED=1: the loop as before); star-stream's kernel choice rewritten.
# Build; GPU tests; minimod 100^3 traces == CPU's; minimod 1000^3 half/bfloat16/float A/B; star M=4
# 512^3 float and half A/B; ncu of the inner box in half A/B; SASS of the half inner kernel.
set -o pipefail
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; STUDY=$ROOT/bench/results/xeon-2core/storage-16bit-seismic
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 200 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='SeismicEngine.LayerVariants*:SeismicEngine.SixteenBit*:SeismicEngine.UnifiedAndSevenDomain*:SeismicEngine.SevenDomainMatches*:Eigenmode*:TwoStep*' > engine.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' engine.txt | tr '\n' ';')"; grep -E "FAILED|Failure" -A3 engine.txt | head -20
for P in half bfloat16; do
  timeout 60 $B seismic $STUDY/minimod-100-receivers.toml --scheme.precision $P --receivers.file t.bin --output.summary '' > m100.log 2>&1; RC=$?
  cmp -s t.bin $STUDY/traces-$P.bin && R="== CPU" || R="DIFFER"; echo "$P defaults rc=$RC traces $R"
done
rm -f t.bin m100.log
for AB in unrolled rolled; do
  [ $AB = rolled ] && export WAVEFD_TMA_ROLLED=1 || unset WAVEFD_TMA_ROLLED
  for P in float half; do
    timeout 60 $B verify --quick --precision $P --variant cuda-star-tma > verify-$P-$AB.log 2>&1; echo "verify $P $AB rc=$? $(tail -1 verify-$P-$AB.log | cut -c1-120)"
    timeout 60 $B bench --family star --M 4 --n 512 512 512 --precision $P --steps 10 --reps 3 --variant cuda-star-tma --json bench-$P-$AB.json > bench-$P-$AB.log 2>&1
    echo "bench $P $AB: $(grep -E 'copy probe|Gpts' bench-$P-$AB.log | cut -c1-150 | tr '\n' ';')"
  done
done
for REP in 1 2; do for AB in unrolled rolled; do
  [ $AB = rolled ] && export WAVEFD_TMA_ROLLED=1 || unset WAVEFD_TMA_ROLLED
  for P in half bfloat16 float; do
    [ $REP = 2 ] && [ $P != half ] && continue
    timeout 60 $B seismic $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision $P --output.progress none \
      --output.summary m1000-$P-$AB-$REP.json > m1000-$P-$AB-$REP.log 2>&1; echo "$P $AB $REP rc=$? $(grep -E 's for|per step' m1000-$P-$AB-$REP.log | cut -c16-150 | tr '\n' ';')"
  done
done; done
M="gpu__time_duration.sum,dram__bytes.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active"
for AB in unrolled rolled; do
  [ $AB = rolled ] && export WAVEFD_TMA_ROLLED=1 || unset WAVEFD_TMA_ROLLED
  timeout 90 ncu --clock-control none --metrics $M -k regex:star_tma_kernel --launch-skip 2 --launch-count 1 $B seismic \
    $ROOT/inputs/seismic-minimod-1000.toml --scheme.precision half --scheme.steps 4 --output.progress none --output.summary '' > ncu-inner-half-$AB.txt 2>&1
  echo "ncu $AB rc=$?"; grep -E "gpu__time|dram__bytes|inst_exec|issue_active|registers|warps_active" ncu-inner-half-$AB.txt | sed 's/  */ /g'
done
cd .. && tar -cf unroll.tar r && rm -rf r
echo "$(date +%T) done"
