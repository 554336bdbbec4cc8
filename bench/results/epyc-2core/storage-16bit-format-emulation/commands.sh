#!/bin/bash
# Fields stored in formats wavefd does not have, emulated in float storage (README.md): minimod's
# 100^3 deck with 12 receivers, 1000 steps, three source amplitudes (three realisations of the
# rounding errors), against the double run of the same amplitude. Inside scripts/devroot.sh, the
# OpenMP build (-march=native) of 7d84c88 with the experiment's env switches (README.md); one
# thread per run, two runs at a time.
set -e
cd "$(dirname "$0")"
B=${WAVEFD:-/work/main/build/openmp/wavefd}
run() {  # NAME AMPLITUDE PRECISION EMULATION
  WAVEFD_EMU_SRC=1 WAVEFD_EMU=$4 OMP_NUM_THREADS=1 $B seismic minimod-100-amplitude-$2.toml --scheme.precision $3 \
    --scheme.variant layer --receivers.file traces-$1-a$2.bin --output.summary summary-$1-a$2.json > log-$1-a$2.log 2>&1
}
export -f run; export B
for a in 0 1 2; do
  echo "half-a$a $a half x"; echo "d-a$a $a double x"
  for m in 9 10 11 12; do echo "m$m-a$a $a float m$m"; done
  echo "b14-a$a $a float b14"; echo "b13-a$a $a float b13"
done | xargs -P 2 -L 1 bash -c 'run "$@"' run
for a in 0 1 2; do
  echo "# amplitude $a (minimod-100-amplitude-$a.toml), against traces-d-a$a.bin"
  python3 ../../xeon-2core/storage-16bit-seismic/misfit.py traces-d-a$a.bin traces-{half,m9,m10,m11,m12,b13,b14}-a$a.bin
done > misfit.txt
