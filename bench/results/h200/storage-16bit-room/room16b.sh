#!/bin/bash
# Device call (issue 40): cuda-star-tma taking 16-bit boxes whose x extent is whole 4-point vectors
# (its threads' width), not 8: the eigenmode verification of cuda-star-tma in half and bfloat16, the
# room's, seismic engine's and eigenmode CTests on the GPU, the shoebox deck against the CPU, and the
# 2 cm hall (1500 cells along x) in half, 300 and 900 steps, beside the periodic grid.
set -o pipefail
export NCCL_NVLS_ENABLE=0
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; CPU=$ROOT/bench/results/xeon-2core/storage-16bit-room
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
timeout 90 $B verify --variant cuda-star-tma --precision half bfloat16 > verify.txt 2>&1; echo "verify rc=$? $(tail -2 verify.txt | tr '\n' ' ')"
echo "$(date +%T) tests"
timeout 200 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='*Room*:SeismicEngine.*:*Eigenmode*:-RoomEnergy.RigidAndAbsorbing*:RoomEnergy.FrequencyDependent*:RoomEnergy.Float*' > tests.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' tests.txt | tr '\n' ';')"; grep -E "^\[  FAILED|Failure" -A3 tests.txt | head -20
timeout 60 $B room $ROOT/inputs/room-shoebox.toml --scheme.precision half --output.progress none --receivers.file r-half.bin \
  --output.summary shoebox-half.json > shoebox-half.log 2>&1; RC=$?
cmp -s r-half.bin $CPU/responses-half.bin && R="== CPU" || R="DIFFER"; echo "shoebox half rc=$RC responses $R; $(grep -E 's for' shoebox-half.log | cut -c14-80)"
rm -f r-*.bin
echo "$(date +%T) hall"
for S in 300 900; do
  timeout 60 $B room $ROOT/inputs/room-shoebox.toml --room.size 30 20 12 --grid.spacing 0.02 --output.progress none \
    --scheme.steps $S --scheme.precision half --walls.default carpet --walls.z_low carpet --walls.z_high 'ceiling tiles' \
    --output.summary fd-half-$S.json > fd-half-$S.log 2>&1 || tail -3 fd-half-$S.log
  C=$(python3 -c "import json; print(json.load(open('fd-half-$S.json'))['model']['courant'])")
  timeout 60 $B run --grid.n 1500 1000 600 --grid.boundary periodic --stencil.family star --stencil.M 1 --scheme.precision half \
    --scheme.courant $C --scheme.steps $S --scheme.variant cuda-star-tma --output.progress none --output.summary run-half-$S.json > run-half-$S.log 2>&1 || tail -3 run-half-$S.log
done
python3 - <<'PY' | tee marginal.txt
import json
P = "half"
t = {(k, S): json.load(open(f"{k}-{P}-{S}.json"))["timing"]["seconds"] for k in ("run", "fd") for S in (300, 900)}
per = {k: (t[k, 900] - t[k, 300]) / 600 * 1e3 for k in ("run", "fd")}
j = json.load(open(f"fd-{P}-900.json")); n = j["model"]["cells"]; cells = n[0] * n[1] * n[2]
print(f"{P}: hall {n[0]}x{n[1]}x{n[2]} by {j['work']['bulk_variant']}: per step periodic {per['run']:.4f} ms, "
      f"frequency-dependent room {per['fd']:.4f} ms ({per['run']/per['fd']:.3f} of periodic, {cells/per['fd']/1e6:.1f} G cells/s), "
      f"wall bytes {j['work']['wall_bytes']/1e6:.1f} MB, max |u| {j['result']['max_abs_u']:.4g}")
PY
grep -h "Gpts" run-half-900.log
cd .. && tar -cf room16b.tar r && rm -rf r
echo "$(date +%T) done"
