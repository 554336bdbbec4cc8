#!/usr/bin/env bash
# Checks the Spack recipe with a given Spack, where Spack exists (not part of the CI tests:
# Spack needs its Python clingo, which Debian does not package).
#
#   scripts/check_spack_recipe.sh SPACK_ROOT [SPACK_PACKAGES] [-- CONFIG_DIR]
#
#   SPACK_ROOT       a Spack checkout or release (bin/spack), 1.0 or later
#   SPACK_PACKAGES   Spack >= 1.0: a checkout of spack/spack-packages to use as `builtin`
#                    (default: whatever that Spack is configured with)
#   CONFIG_DIR       an extra configuration scope (e.g. a packages.yaml with externals)
#
# It runs, in a throw-away user configuration (your ~/.spack is not read or touched):
#   spack audit packages wavefd
#   spack info wavefd
#   spack python scripts/spack_recipe_check.py: every spec spack/README.md names and every
#     environment in spack/environments, concretized, checked (Kokkos +wrapper and, for 4.x,
#     +cuda_lambda wherever it has CUDA; C++20; +nccl with nccl's cuda_arch wherever +cuda +mpi;
#     the develop path) and their cmake_args printed. Nothing in the checkout is written.
# Exit code 0 only when all of it passed. scripts/check_spack_install.sh goes further: it installs
# the CPU specs and runs them.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { echo "usage: $0 SPACK_ROOT [SPACK_PACKAGES] [-- CONFIG_DIR]" >&2; exit 2; }
[ $# -ge 1 ] || usage
SPACK_ROOT=$(cd "$1" && pwd); shift
PACKAGES=""; EXTRA=""
if [ $# -ge 1 ] && [ "$1" != "--" ]; then PACKAGES=$(cd "$1" && pwd); shift; fi
if [ $# -ge 1 ]; then [ "$1" = "--" ] && [ $# -eq 2 ] || usage; EXTRA=$(cd "$2" && pwd); fi
[ -x "$SPACK_ROOT/bin/spack" ] || { echo "check_spack_recipe: no bin/spack in $SPACK_ROOT" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SPACK_USER_CONFIG_PATH="$WORK/user" SPACK_USER_CACHE_PATH="$WORK/cache" SPACK_DISABLE_LOCAL_CONFIG=1
mkdir -p "$WORK/scope"

version=$("$SPACK_ROOT/bin/spack" --version | sed 's/ .*//')
major=${version%%.*}
# The recipe is a package API v2 repository (spack/spack_repo/wavefd), which Spack 0.x cannot read.
[ "$major" -ge 1 ] || { echo "check_spack_recipe: Spack $version is older than 1.0, which the recipe needs" >&2; exit 2; }
# The repositories: this one's spack/spack_repo/wavefd first, then Spack's builtin packages.
{
  echo "repos::"
  echo "  wavefd: $REPO/spack/spack_repo/wavefd"
  if [ -n "$PACKAGES" ]; then echo "  builtin: $PACKAGES/repos/spack_repo/builtin"
  else echo "  builtin: {}"; fi
} > "$WORK/scope/repos.yaml"
[ -n "$PACKAGES" ] || sed -i '/builtin: {}/d; s/^repos::/repos:/' "$WORK/scope/repos.yaml"

spack() { "$SPACK_ROOT/bin/spack" -C "$WORK/scope" ${EXTRA:+-C "$EXTRA"} "$@"; }
packages_at=""
[ -z "$PACKAGES" ] || packages_at=" (builtin: $(git -C "$PACKAGES" describe --tags 2>/dev/null || echo "$PACKAGES"))"
echo "== Spack $version$packages_at, recipe $REPO/spack/spack_repo/wavefd, $("${SPACK_PYTHON:-python3}" --version 2>&1)"

status=0
echo "== spack audit packages wavefd"
spack audit packages wavefd || status=1
echo "== spack info wavefd"
spack info wavefd >/dev/null || status=1
echo "== concretize the README's specs and the environments"
spack python "$REPO/scripts/spack_recipe_check.py" "$REPO" || status=1
[ "$status" = 0 ] && echo "check_spack_recipe: all checks passed" || echo "check_spack_recipe: FAILED"
exit "$status"
