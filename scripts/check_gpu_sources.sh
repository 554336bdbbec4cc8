#!/usr/bin/env bash
# Compile-only check of the native GPU translation units (no GPU needed): every CUDA source with
# nvcc for sm_80 and sm_90, every HIP source with hipcc for gfx90a and gfx942. They are plain
# CUDA / HIP C++ on raw pointers, so no Kokkos is needed (include/ and src/ on the path, as in the
# CMake build). hipcc comes from the development root
# (scripts/devroot.sh) when the host has none.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "check_gpu_sources: no nvcc found (set NVCC=...); the CUDA sources were NOT compiled" >&2
  exit 1
fi
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
# WAVEFD_JOBS compilations at a time (each star_tma_*.cu takes a minute or two per architecture).
export NVCC out
for src in src/kernels/cuda/*.cu; do printf '%s sm_80\n%s sm_90\n' "$src" "$src"; done |
  xargs -P "${WAVEFD_JOBS:-$(nproc)}" -L 1 bash -c '
    "$NVCC" -std=c++20 -O3 -Iinclude -Isrc -arch=$1 -Xcompiler -Wall -c "$0" -o "$out/$(basename "$0").$1.o" &&
    echo "check_gpu_sources: $0 compiles for $1"'
n=$((2 * $(ls src/kernels/cuda/*.cu | wc -l)))
hip_cmd='for src in src/kernels/hip/*.hip; do for arch in gfx90a gfx942; do
  hipcc -std=c++20 -O3 -Iinclude -Isrc --offload-arch=$arch -Wall -Werror -c "$src" -o /tmp/wavefd-hip-check.o || exit 1
  echo "check_gpu_sources: $src compiles for $arch"; done; done; rm -f /tmp/wavefd-hip-check.o'
if command -v hipcc >/dev/null; then bash -c "$hip_cmd"
elif [ "$(id -u)" = 0 ] && { [ -x "${WAVEFD_SID_ROOT:-/var/cache/wavefd/sid-root}/usr/bin/apt-get" ] || [ "${WAVEFD_REQUIRE_HIPCC:-}" = 1 ]; }; then
  scripts/devroot.sh run bash -c "$hip_cmd"
else
  echo "check_gpu_sources: no hipcc (and no development root): the HIP sources were NOT compiled"
  [ "${WAVEFD_REQUIRE_HIPCC:-}" != 1 ] || exit 1
  echo "check_gpu_sources: $n compilations passed"; exit 0
fi
n=$((n + 2 * $(ls src/kernels/hip/*.hip | wc -l)))
echo "check_gpu_sources: $n compilations passed"
