#!/bin/bash
# Device call (issue 40, the room in 16 bits): build wavefd + test_engine (CUDA); the room's CTests on
# the GPU (every CUDA variant, 16-bit modes, energy, responses); the shoebox deck's responses in half
# and float against the CPU's (bench/results/xeon-2core/storage-16bit-room/); the 2 cm hall
# (7-point, frequency-dependent walls) in float and half, 300 and 900 steps, beside the periodic grid.
set -o pipefail
export NCCL_NVLS_ENABLE=0
ROOT=$PWD; B=$ROOT/build/cuda-dev/wavefd; CPU=$ROOT/bench/results/xeon-2core/storage-16bit-room
bash gpu/half/build.sh $1 || exit 1
mkdir -p $OUT/r && cd $OUT/r && mv ../gpu.txt . && rm -f ../*.log
(cd $ROOT && cmake --build build/cuda-dev -j 16 --target test_engine > $OUT/r/build-tests.log 2>&1) || { grep -A5 error build-tests.log | head -30; }
echo "$(date +%T) tests"
timeout 200 $ROOT/build/cuda-dev/ctest/test_engine --gtest_filter='*Room*:-RoomEnergy.RigidAndAbsorbing*:RoomEnergy.FrequencyDependent*:RoomEnergy.Float*' > room-tests.txt 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' room-tests.txt | tr '\n' ';')"; grep -E "^\[  FAILED|Failure" -A3 room-tests.txt | head -20
grep -E "measured" room-tests.txt | head -20
for P in half float; do
  timeout 60 $B room $ROOT/inputs/room-shoebox.toml --scheme.precision $P --output.progress none --receivers.file r-$P.bin \
    --output.summary shoebox-$P.json > shoebox-$P.log 2>&1; RC=$?
  cmp -s r-$P.bin $CPU/responses-$P.bin && R="== CPU" || R="DIFFER"; echo "shoebox $P rc=$RC responses $R; $(grep -E 's for' shoebox-$P.log | cut -c14-80)"
done
rm -f r-*.bin
echo "$(date +%T) hall"
N="1500 1000 600"
for P in float half; do
  for S in 300 900; do
    timeout 60 $B room $ROOT/inputs/room-shoebox.toml --room.size 30 20 12 --grid.spacing 0.02 --output.progress none \
      --scheme.steps $S --scheme.precision $P --walls.default carpet --walls.z_low carpet --walls.z_high 'ceiling tiles' \
      --output.summary fd-$P-$S.json > fd-$P-$S.log 2>&1 || tail -3 fd-$P-$S.log
    C=$(python3 -c "import json; print(json.load(open('fd-$P-$S.json'))['model']['courant'])")
    V=$(python3 -c "import json; print(json.load(open('fd-$P-$S.json'))['work']['bulk_variant'])")
    timeout 60 $B run --grid.n $N --grid.boundary periodic --stencil.family star --stencil.M 1 --scheme.precision $P \
      --scheme.courant $C --scheme.steps $S --scheme.variant $V --output.progress none --output.summary run-$P-$S.json > run-$P-$S.log 2>&1 || tail -3 run-$P-$S.log
  done
done
python3 - <<'PY' | tee marginal.txt
import json
for P in ("float", "half"):
    t = {(k, S): json.load(open(f"{k}-{P}-{S}.json"))["timing"]["seconds"] for k in ("run", "fd") for S in (300, 900)}
    per = {k: (t[k, 900] - t[k, 300]) / 600 * 1e3 for k in ("run", "fd")}
    j = json.load(open(f"fd-{P}-900.json")); n = j["model"]["cells"]; cells = n[0] * n[1] * n[2]
    print(f"{P}: hall {n[0]}x{n[1]}x{n[2]} by {j['work']['bulk_variant']}: per step periodic {per['run']:.4f} ms, "
          f"frequency-dependent room {per['fd']:.4f} ms ({per['run']/per['fd']:.3f} of periodic, {cells/per['fd']/1e6:.1f} G cells/s), "
          f"wall bytes {j['work']['wall_bytes']/1e6:.1f} MB, max |u| {j['result']['max_abs_u']:.4g}")
PY
cd .. && tar -cf room16.tar r && rm -rf r
echo "$(date +%T) done"
