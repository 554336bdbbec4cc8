#!/usr/bin/env bash
# Compile-and-link check of the GPU halo transports (no GPU needed): the CUDA, NCCL and MPI calls
# of `nccl` (src/comm/nccl_messages.cpp) and of `mpi-gpu` (src/comm/mpi_messages.hpp: device
# buffers handed to MPI, the library's CUDA query) are compiled by nvcc for sm_90 as a CUDA build
# compiles them, with the toolkit's nccl.h and the MPI's mpi.h, then linked with libnccl, libcudart
# and libmpi into ctest/gpu_transport_link.cpp's program (every symbol bound at load), which is run
# (where there is a GPU, it exchanges device buffers through both).
# CI has no CUDA build of Kokkos, so the Kokkos side of `nccl` (nccl_halo.cpp: buffers, stream) is
# compiled by GPU builds only; mpi_gpu_halo.cpp is compiled by every MPI build.
#
# Runs on the host: nvcc from CUDA_HOME or PATH (else /usr/local/cuda), NCCL from NCCL_ROOT (else
# the toolkit, else /usr), MPI's `mpicxx` from PATH (else Debian's libopenmpi-dev, installed when run as root),
# whose compiler nvcc must accept. With WAVEFD_REQUIRE_NVCC=1 a check that cannot run fails;
# otherwise it says what was not compiled and passes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc_path=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA=${CUDA_HOME:-$(dirname "$(dirname "$(readlink -f "$nvcc_path")")")}
NCCL=${NCCL_ROOT:-$CUDA}
[ -n "${NCCL_ROOT:-}" ] || [ -f "$CUDA/include/nccl.h" ] || NCCL=/usr  # a distribution's libnccl-dev
NVCC=$CUDA/bin/nvcc
say() { echo "check_gpu_transports: $*"; }
cannot() {
  say "$*: the GPU transports were NOT compiled" >&2
  [ "${WAVEFD_REQUIRE_NVCC:-}" != 1 ] || exit 1
  exit 0
}

[ -x "$NVCC" ] || cannot "no nvcc at $NVCC (set CUDA_HOME)"
nccl_lib=$({ compgen -G "$NCCL/lib*/libnccl.so*"; compgen -G "$NCCL/lib/*-linux-gnu/libnccl.so*"; } | head -n1 || true)
[ -f "$NCCL/include/nccl.h" ] && [ -n "$nccl_lib" ] || cannot "no nccl.h or libnccl under $NCCL (set NCCL_ROOT)"
nccl_lib=$(dirname "$nccl_lib")
if ! command -v mpicxx >/dev/null; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || cannot "no mpicxx (install an MPI)"
  say "installing Debian's libopenmpi-dev"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    libopenmpi-dev openmpi-bin >/dev/null || cannot "libopenmpi-dev could not be installed"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# mpicxx as nvcc's host compiler brings MPI's include paths; the underlying g++ is what nvcc checks.
# Open MPI 4's C++ bindings (unused) do not pass -Wextra, hence OMPI_SKIP_MPICXX.
host=$(mpicxx --version | head -n1)
nvcc_version=$("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')
nccl_include=()
[ "$NCCL" = /usr ] || nccl_include=(-I"$NCCL/include")
objects=()
for src in src/comm/nccl_messages.cpp src/comm/peer_messages.cpp ctest/gpu_transport_link.cpp; do
  objects+=("$out/$(basename "$src").o")
  "$NVCC" -ccbin mpicxx -x cu -std=c++20 -O2 -arch=sm_90 -Xcompiler -Wall,-Wextra -Werror all-warnings \
    -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -Iinclude -Isrc "${nccl_include[@]}" -c "$src" -o "${objects[-1]}"
  say "$src compiles (nvcc $nvcc_version, sm_90, host compiler: $host)"
done
exe=$out/gpu_transport_link
mpicxx "${objects[@]}" -o "$exe" -L"$nccl_lib" -lnccl -L"$CUDA/lib64" -lcudart \
  -Wl,-rpath,"$nccl_lib:$CUDA/lib64" -Wl,-z,now -Wl,--no-undefined
say "links: $(ldd "$exe" | awk '/libnccl|libcudart|libmpi\./ {printf "%s%s", sep, $3; sep=", "}')"
if nvidia-smi -L >/dev/null 2>&1; then "$exe" --exchange  # a GPU: the exchanges run too
else "$exe"; fi
say "passed"
