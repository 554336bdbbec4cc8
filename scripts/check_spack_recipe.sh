#!/usr/bin/env bash
# Checks the Spack recipe with a given Spack, where Spack exists (not part of the CI tests:
# Spack needs its Python clingo, which Debian does not package).
#
#   scripts/check_spack_recipe.sh SPACK_ROOT [SPACK_PACKAGES] [-- CONFIG_DIR]
#
#   SPACK_ROOT       a Spack checkout or release (bin/spack)
#   SPACK_PACKAGES   Spack >= 1.0: a checkout of spack/spack-packages to use as `builtin`
#                    (default: whatever that Spack is configured with)
#   CONFIG_DIR       an extra configuration scope (e.g. a packages.yaml with externals)
#
# It runs, in a throw-away user configuration (your ~/.spack is not read or touched):
#   spack audit packages wavefd
#   spack info wavefd
#   spack python scripts/spack_recipe_check.py: every spec spack/README.md names and every
#     environment in spack/environments, concretized, checked (Kokkos +wrapper and, for 4.x,
#     +cuda_lambda wherever it has CUDA; C++20; the develop path) and their cmake_args printed.
# Exit code 0 only when all of it passed.
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
# The repositories: this one's spack/ first, then Spack's builtin packages.
if [ "$major" -ge 1 ]; then
  {
    echo "repos::"
    echo "  wavefd: $REPO/spack"
    if [ -n "$PACKAGES" ]; then echo "  builtin: $PACKAGES/repos/spack_repo/builtin"
    else echo "  builtin: {}"; fi
  } > "$WORK/scope/repos.yaml"
  [ -n "$PACKAGES" ] || sed -i '/builtin: {}/d; s/^repos::/repos:/' "$WORK/scope/repos.yaml"
else
  [ -z "$PACKAGES" ] || { echo "check_spack_recipe: Spack $version has its builtin packages inside" >&2; exit 2; }
  printf 'repos::\n- %s/spack\n- $spack/var/spack/repos/builtin\n' "$REPO" > "$WORK/scope/repos.yaml"
fi

spack() { "$SPACK_ROOT/bin/spack" -C "$WORK/scope" ${EXTRA:+-C "$EXTRA"} "$@"; }
packages_at=""
[ -z "$PACKAGES" ] || packages_at=" (builtin: $(git -C "$PACKAGES" describe --tags 2>/dev/null || echo "$PACKAGES"))"
echo "== Spack $version$packages_at, recipe $REPO/spack"

status=0
echo "== spack audit packages wavefd"
spack audit packages wavefd || status=1
echo "== spack info wavefd"
spack info wavefd >/dev/null || status=1
echo "== concretize the README's specs and the environments"
spack python "$REPO/scripts/spack_recipe_check.py" "$REPO" || status=1
[ "$status" = 0 ] && echo "check_spack_recipe: all checks passed" || echo "check_spack_recipe: FAILED"
exit "$status"
