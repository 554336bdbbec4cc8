#!/usr/bin/env bash
# wavefd developer entry point.
#
#   scripts/dev.sh quickstart   build (openmp preset) and run inputs/quickstart.toml
#   scripts/dev.sh test         build and test the openmp and serial-kk configurations, and
#                               compile the native CUDA (sm_80/sm_90) and HIP (gfx90a/gfx942)
#                               sources where nvcc / hipcc (or the dev root) exist, and the GPU
#                               transports' CUDA/NCCL/MPI calls (linked) where nvcc and NCCL exist
#   scripts/dev.sh build PRESET build one preset
#   scripts/dev.sh shell        a shell inside the development root
#
# With a Kokkos of your own (Kokkos_ROOT set, or a Spack environment active), everything runs
# directly with the `host` preset. Otherwise it runs inside a Debian sid root (scripts/devroot.sh)
# that brings g++, CMake, Kokkos 5.2 (OpenMP) and Trilinos' Kokkos + Kokkos Kernels (Serial).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS=${WAVEFD_JOBS:-$(nproc)}

own_kokkos() { [ -n "${Kokkos_ROOT:-}" ] || [ -n "${SPACK_ENV:-}" ]; }

in_env() {  # run a command where the toolchain lives
  if own_kokkos || [ "${WAVEFD_IN_DEVROOT:-}" = 1 ]; then "$@"
  else scripts/devroot.sh run env WAVEFD_IN_DEVROOT=1 "$@"
  fi
}

build() {  # build PRESET
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$JOBS"
}

cmd=${1:-}; shift || true
case "$cmd" in
  build)
    if [ "${WAVEFD_IN_DEVROOT:-}" = 1 ] || own_kokkos; then build "${1:?preset}"; else in_env "$0" build "$@"; fi ;;
  quickstart)
    if [ "${WAVEFD_IN_DEVROOT:-}" = 1 ] || own_kokkos; then
      preset=openmp; own_kokkos && preset=host
      build "$preset"
      OMP_PROC_BIND=${OMP_PROC_BIND:-false} "build/$preset/wavefd" run inputs/quickstart.toml "$@"
    else in_env "$0" quickstart "$@"; fi ;;
  test)
    # Native GPU sources and GPU transports first: compile-only with the host's nvcc (required
    # when WAVEFD_REQUIRE_NVCC=1).
    if [ "${WAVEFD_IN_DEVROOT:-}" != 1 ]; then
      if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || [ "${WAVEFD_REQUIRE_NVCC:-}" = 1 ]; then
        scripts/check_gpu_sources.sh
        scripts/check_gpu_transports.sh
      else echo "== no nvcc on this machine: native CUDA sources not compile-checked"; fi
    fi
    if [ "${WAVEFD_IN_DEVROOT:-}" = 1 ] || own_kokkos; then
      presets=(openmp serial-kk); own_kokkos && presets=(host)
      for p in "${presets[@]}"; do
        echo "== $p: build"; build "$p"
        echo "== $p: test"; ctest --preset "$p" -j "$JOBS"
      done
    else in_env "$0" test "$@"; fi ;;
  shell) in_env bash -l ;;
  *) echo "usage: $0 quickstart | test | build PRESET | shell" >&2; exit 2 ;;
esac
