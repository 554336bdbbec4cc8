#!/usr/bin/env bash
# minimod's 2021 code (CPE21-Artifact, the code of Sai et al. 2021) built and run beside wavefd on
# one GPU: min/max of u after 1000 steps at 100^3 and 1000^3 from several of its CUDA targets and
# from wavefd's decks for that code (inputs/seismic-minimod-cpe21-{100,1000}.toml), and the time of
# each code's 1000 steps (the CPE21 code's "Time kernel": the sum of its synchronised steps; wavefd's
# loop time).
#
# Run from the repository root with the fetched sources in gpu/ (listed in .git/info/exclude, never
# committed):
#   gpu/kokkos-src    kokkos/kokkos 4.6.01; CUDA 13 changed three calls in
#                     core/src/Cuda/Kokkos_Cuda_Instance.hpp (cudaMemAdvise and cudaMemPrefetchAsync
#                     take a cudaMemLocation, cudaGraphAddDependencies edge data), and nvcc 13 has
#                     no sm_70, bin/nvcc_wrapper's default architecture (sm_90 here)
#   gpu/tomlplusplus  toml++ 3.4 headers with a header-only CMake config (TOML_HEADER_ONLY=1)
#   gpu/cpe21         drryuichis/CPE21-Artifact at fc83883
# Three phases, one device-tool call each on one warm machine (gpu carried):
#   commands.sh build <commit>; commands.sh check; commands.sh large
# Each writes $OUT/log-<phase>.txt and $OUT/<phase>.tar (the summaries and the codes' output).
set -uo pipefail
[ -d gpu/cpe21 ] || { echo "commands.sh: run it from the repository root, gpu/ carried" >&2; exit 2; }
export PATH=/usr/local/cuda/bin:$PATH
export Kokkos_ROOT=$PWD/build/kokkos-cuda tomlplusplus_ROOT=$PWD/gpu/tomlplusplus
PHASE=$1
OUT=${OUT:-$PWD/gpu-out}
R=$(mktemp -d)
LOG=$OUT/log-$PHASE.txt
log() { echo "== $* (at ${SECONDS}s)" | tee -a "$LOG"; }
B=build/cuda/wavefd
# The CPE21 code's targets run here: a global-memory 3-D kernel, a shared-memory one and the 2.5-D
# streaming kernels (register, shifted-register, semi, shared-memory, double-buffered), each with
# the code's seven regions (inner box and six PML slabs on seven streams).
TARGETS="mnmd_gmem_7r_3d_32x4x4 mnmd_smem_u_7r_3d_32x4x4 mnmd_st_reg_fixed_7r_25d_32x32
 mnmd_st_reg_shft_7r_25d_32x32 mnmd_st_semi_7r_25d_32x32 mnmd_st_smem_7r_25d_16x16
 mnmd_st_reg_fixed_db_7r_25d_32x32"

cpe21() {  # target, grid size: its printed lines
  local t=$1 n=$2
  (cd build/cpe21-$t && ./main_${t}_nvcc --grid "$n" --nsteps 1000) > "$R/cpe21-$t-$n.txt" 2>&1
  echo "cpe21 $t $n^3: $(grep -E 'FINAL' "$R/cpe21-$t-$n.txt") | $(grep -E 'Time kernel' "$R/cpe21-$t-$n.txt")" | tee -a "$LOG"
}
wavefd() {  # label, deck, flags: wavefd's run line, loop time and min/max
  local label=$1 deck=$2; shift 2
  $B seismic "inputs/$deck" --output.progress none --output.summary "$R/$label.json" "$@" > "$R/$label.txt" 2>&1
  echo "wavefd $label: $(grep -E 'min u' "$R/$label.txt") | $(grep -E 's for' "$R/$label.txt")" | tee -a "$LOG"
}

case $PHASE in
build)
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"
  log "Kokkos 4.6.01 (CUDA, HOPPER90)"
  cmake -S gpu/kokkos-src -B build/kokkos-cuda-build -DCMAKE_INSTALL_PREFIX="$Kokkos_ROOT" \
    -DCMAKE_CXX_COMPILER="$PWD/gpu/kokkos-src/bin/nvcc_wrapper" -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_BUILD_TYPE=Release -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON > "$R/kokkos-configure.log" 2>&1 &&
    cmake --build build/kokkos-cuda-build -j 16 --target install > "$R/kokkos-build.log" 2>&1 ||
    { tail -30 "$R"/kokkos-*.log; exit 1; }
  log "the CPE21 code's targets (nvcc -O3 -arch=sm_90), in parallel"
  for t in $TARGETS; do
    rm -rf build/cpe21-$t && cp -r gpu/cpe21 build/cpe21-$t &&
      make -C build/cpe21-$t TARGET=$t COMPILER=nvcc NVCCFLAGS="-arch=sm_90" > "$R/cpe21-build-$t.log" 2>&1 &
  done
  log "wavefd (cuda preset) at ${2:-HEAD}"
  cmake --preset cuda -DWAVEFD_ENABLE_TESTS=ON ${2:+-DWAVEFD_GIT_COMMIT=$2} > "$R/configure.log" 2>&1 &&
    cmake --build --preset cuda -j 16 --target wavefd test_engine > "$R/build.log" 2>&1 ||
    { grep -m5 -A12 error "$R/build.log" | tee -a "$LOG"; }
  wait
  for t in $TARGETS; do
    [ -x build/cpe21-$t/main_${t}_nvcc ] && log "built $t" || { log "$t did NOT build"; grep -m3 -A5 error "$R/cpe21-build-$t.log" | tee -a "$LOG"; }
  done
  [ -x $B ] && log "built wavefd: $($B info | grep -E '^(wavefd|compiler|Kokkos)' | tr '\n' ' ')"
  ;;
check)
  log "wavefd verify --quick"
  $B verify --quick 2>&1 | tail -2 | tee -a "$LOG"
  log "the seismic engine against the CPU reference (CTest's SeismicEngine tests, on the GPU)"
  timeout 200 build/cuda/ctest/test_engine --gtest_color=no --gtest_filter='SeismicEngine.*' > "$R/test_engine.txt" 2>&1
  grep -E '^\[  PASSED|FAILED' "$R/test_engine.txt" | tee -a "$LOG"
  log "100^3, 1000 steps: the CPE21 code's targets"
  for t in $TARGETS; do cpe21 $t 100; done
  log "100^3, 1000 steps: wavefd, the 2021 code's deck (inner kernel auto, layer, mdrange-stream) and the 2020 code's"
  wavefd cpe21-100-auto seismic-minimod-cpe21-100.toml
  wavefd cpe21-100-layer seismic-minimod-cpe21-100.toml --scheme.variant layer
  wavefd cpe21-100-mdrange-stream seismic-minimod-cpe21-100.toml --scheme.variant mdrange-stream
  wavefd minimod-2020-100 seismic-minimod-100.toml
  ;;
large)
  log "copy bandwidth (bench's probe, star M=4 512^3 float, cuda-star-tma)"
  $B bench --family star --M 4 --n 512 512 512 --precision float --steps 10 --reps 3 --variant cuda-star-tma \
    --json "$R/bench-star4-512.json" 2>&1 | grep -E "cuda-star-tma|copy" | tee -a "$LOG"
  log "1000^3, 1000 steps: the CPE21 code's targets"
  for t in $TARGETS; do cpe21 $t 1000; done
  log "1000^3, 1000 steps: wavefd, the 2021 code's deck, twice (defaults: seven-domain, inner kernel auto)"
  wavefd cpe21-1000-r1 seismic-minimod-cpe21-1000.toml
  wavefd cpe21-1000-r2 seismic-minimod-cpe21-1000.toml
  ;;
*) echo "commands.sh: phase '$PHASE' is not one of build, check, large" >&2; exit 2 ;;
esac
tar -C "$R" --exclude='*build*.log' --exclude='kokkos-*.log' -cf "$OUT/$PHASE.tar" .
[ "$PHASE" = build ] && tar -C "$R" -cf "$OUT/build-logs.tar" .
log done
