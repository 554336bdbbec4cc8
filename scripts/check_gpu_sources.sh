#!/usr/bin/env bash
# Compile-only check of the native GPU translation units (no GPU needed): every CUDA source with
# nvcc for sm_80 and sm_90. They are plain CUDA C++ on raw pointers, so no Kokkos is needed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "check_gpu_sources: no nvcc found (set NVCC=...); the CUDA sources were NOT compiled" >&2
  exit 1
fi
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
n=0
for src in src/kernels/cuda/*.cu; do
  for arch in sm_80 sm_90; do
    "$NVCC" -std=c++20 -O3 -arch=$arch -Xcompiler -Wall -c "$src" -o "$out/$(basename "$src").$arch.o"
    echo "check_gpu_sources: $src compiles for $arch"
    n=$((n + 1))
  done
done
echo "check_gpu_sources: $n compilations passed"
