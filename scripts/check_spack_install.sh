#!/usr/bin/env bash
# Installs wavefd with Spack for real and runs it (not part of the CI tests: it needs a Spack, a
# spack-packages checkout and a machine whose packages Spack can take as externals).
#
#   scripts/check_spack_install.sh [options] [SPEC ...]
#
#   --spack DIR      a Spack 1.0 or later (bin/spack); default: $SPACK_ROOT
#   --packages DIR   a checkout of spack/spack-packages, used as the `builtin` repository;
#                    default: $SPACK_PACKAGES
#   --mirror DIR     a Spack source mirror (e.g. compiler-wrapper's tarball, which spack-packages
#                    v2026.03 and later download; see spack/README.md), added to the configuration
#   --head           build a clone of HEAD instead of the working tree (others' uncommitted edits
#                    stay out); the recipe is still this checkout's spack/spack_repo/wavefd
#   --test-root      `spack install --test=root`: also build and run the CTest suite
#   --keep DIR       work in DIR (kept afterwards: installs, logs, environments) instead of a
#                    temporary folder that is removed at the end
#   SPEC ...         the specs to install, each in its own environment; default: the CPU specs of
#                    spack/README.md:
#                      wavefd@main +openmp ~mpi
#                      wavefd@main +openmp +mpi
#                      wavefd@main +openmp +segyio
#                      wavefd@main +kokkos-kernels ^kokkos@5.0.2
#
# In a throw-away Spack configuration (~/.spack is neither read nor written) it
#   1. declares this machine's packages as externals, not buildable: the compiler (gcc, through
#      `spack compiler find`), cmake, gmake, openmpi (`spack external find`), and kokkos,
#      kokkos-kernels, cli11, nlohmann-json, tomlplusplus, googletest, segyio, whose versions are
#      read from their CMake package files (or Debian's package database) under /usr, Trilinos'
#      Kokkos prefix ($WAVEFD_KK_PREFIX/usr, as in the dev root) and $segyio_ROOT;
#   2. for each SPEC: `spack env create`, `spack add SPEC`, `spack develop --path <checkout>
#      wavefd@main`, `spack concretize`, `spack install -j 2`;
#   3. runs the installed wavefd: `wavefd --version`, `wavefd info` and
#      `wavefd run <prefix>/share/wavefd/inputs/quickstart.toml` (in a scratch folder);
#   4. `spack test run wavefd` (the recipe's stand-alone tests).
# Externals that are missing are left out; a SPEC needing one then fails to concretize.
# In the dev root (Debian sid, scripts/devroot.sh), with Spack and spack-packages under the
# checkout (the root sees only the checkout):
#   scripts/devroot.sh run scripts/check_spack_install.sh --spack build/spack/spack-1.1.0 \
#     --packages build/spack/spack-packages-v2026.06.0 --mirror build/spack/mirror
# Spack needs a Python with clingo (SPACK_PYTHON, PYTHONPATH); see spack/README.md.
# Exit code 0 only when every SPEC installed, ran and passed its tests.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

SPACK_DIR=${SPACK_ROOT:-}
PACKAGES=${SPACK_PACKAGES:-}
MIRROR=""; HEAD=0; TEST_ROOT=0; KEEP=""
SPECS=()
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --spack) SPACK_DIR=$2; shift 2 ;;
    --packages) PACKAGES=$2; shift 2 ;;
    --mirror) MIRROR=$(cd "$2" && pwd); shift 2 ;;
    --head) HEAD=1; shift ;;
    --test-root) TEST_ROOT=1; shift ;;
    --keep) KEEP=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "check_spack_install: unknown option $1" >&2; usage ;;
    *) SPECS+=("$1"); shift ;;
  esac
done
[ -n "$SPACK_DIR" ] && [ -x "$SPACK_DIR/bin/spack" ] ||
  { echo "check_spack_install: give --spack DIR (or SPACK_ROOT) with a bin/spack" >&2; exit 2; }
[ -n "$PACKAGES" ] && [ -d "$PACKAGES/repos/spack_repo/builtin" ] ||
  { echo "check_spack_install: give --packages DIR (or SPACK_PACKAGES): a spack-packages checkout" >&2; exit 2; }
SPACK_DIR=$(cd "$SPACK_DIR" && pwd); PACKAGES=$(cd "$PACKAGES" && pwd)
[ ${#SPECS[@]} -gt 0 ] || SPECS=("wavefd@main +openmp ~mpi" "wavefd@main +openmp +mpi"
                                 "wavefd@main +openmp +segyio" "wavefd@main +kokkos-kernels ^kokkos@5.0.2")

if [ -n "$KEEP" ]; then mkdir -p "$KEEP"; WORK=$(cd "$KEEP" && pwd)
else WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT; fi
# Spack's user and system scopes point into WORK (the found compiler and externals go to the user
# one), so ~/.spack and /etc/spack are neither read nor written.
export SPACK_USER_CONFIG_PATH="$WORK/user" SPACK_SYSTEM_CONFIG_PATH="$WORK/system" SPACK_USER_CACHE_PATH="$WORK/cache"
unset SPACK_DISABLE_LOCAL_CONFIG
SCOPE="$WORK/scope"
mkdir -p "$SCOPE" "$WORK/user" "$WORK/system" "$WORK/logs"
rm -f "$SCOPE"/*.yaml "$WORK/user/packages.yaml"   # written afresh below, also with --keep
spack() { "$SPACK_DIR/bin/spack" -C "$SCOPE" "$@"; }

version=$(spack --version | sed 's/ .*//')
[ "${version%%.*}" -ge 1 ] || { echo "check_spack_install: Spack $version is older than 1.0" >&2; exit 2; }
packages_version=$(git -C "$PACKAGES" describe --tags 2>/dev/null || basename "$PACKAGES")

# ---- configuration ----------------------------------------------------------------------------
cat > "$SCOPE/repos.yaml" <<EOF
repos::
  wavefd: $REPO/spack/spack_repo/wavefd
  builtin: $PACKAGES/repos/spack_repo/builtin
EOF
cat > "$SCOPE/config.yaml" <<EOF
config:
  install_tree:
    root: $WORK/opt
  build_stage: [$WORK/stage]
  source_cache: $WORK/source-cache
  misc_cache: $WORK/cache/misc
  test_stage: $WORK/test-stage
  build_jobs: 2
EOF
if [ -n "$MIRROR" ]; then printf 'mirrors::\n  local: file://%s\n' "$MIRROR"; else echo "mirrors:: {}"; fi \
  > "$SCOPE/mirrors.yaml"

# Versions of the machine's packages, from their CMake package version files.
cmake_version() {  # cmake_version PREFIX NAME...: the first <NAME>ConfigVersion.cmake under PREFIX
  local prefix=$1 name f; shift
  for name in "$@"; do
    for f in "$prefix"/lib/*/cmake/"$name"/*[Vv]ersion.cmake "$prefix"/lib/cmake/"$name"/*[Vv]ersion.cmake \
             "$prefix"/share/cmake/"$name"/*[Vv]ersion.cmake "$prefix"/share/"$name"/cmake/*[Vv]ersion.cmake; do
      [ -f "$f" ] || continue
      sed -n 's/^ *set(PACKAGE_VERSION "\([0-9][0-9.]*\)").*/\1/p' "$f" | head -n1
      return 0
    done
  done
  return 1
}
deb_version() {  # deb_version PACKAGE: Debian's upstream version of an installed package, if any
  command -v dpkg-query >/dev/null || return 1
  dpkg-query -W -f='${Version}' "$1" 2>/dev/null | sed 's/^[0-9]*://; s/[-+~].*//' | grep . || return 1
}
kokkos_variants() {  # kokkos_variants PREFIX: +openmp/+serial/... and cxxstd of a Kokkos install
  local common
  common=$(ls "$1"/lib/*/cmake/Kokkos/KokkosConfigCommon.cmake "$1"/lib/cmake/Kokkos/KokkosConfigCommon.cmake 2>/dev/null | head -n1)
  [ -n "$common" ] || return 0
  local devices std v=""
  devices=$(sed -n 's/^set(Kokkos_DEVICES \(.*\))/\1/p' "$common" | head -n1)
  std=$(sed -n 's/^set(Kokkos_CXX_STANDARD \([0-9]*\))/\1/p' "$common" | head -n1)
  case ";$devices;" in *";OPENMP;"*) v+=" +openmp" ;; *) v+=" ~openmp" ;; esac
  case ";$devices;" in *";SERIAL;"*) v+=" +serial" ;; *) v+=" ~serial" ;; esac
  case ";$devices;" in *";CUDA;"*) v+=" +cuda" ;; *) v+=" ~cuda" ;; esac
  [ -z "$std" ] || v+=" cxxstd=$std"
  echo "$v"
}
declare -A EXTERNALS=()   # package -> its externals: entries, in packages.yaml form
external() {  # external PACKAGE SPEC PREFIX: one more external of PACKAGE
  EXTERNALS[$1]+="    - spec: \"$2\"
      prefix: $3
"
  echo "   external: $2 at $3"
}

echo "== Spack $version, spack-packages $packages_version, $("${SPACK_PYTHON:-python3}" --version 2>&1), checkout $REPO"
echo "== externals"
spack compiler find --scope user > "$WORK/logs/compiler-find.log" 2>&1 || { cat "$WORK/logs/compiler-find.log"; exit 1; }
grep -E '^ +(gcc|llvm|clang)@' "$WORK/logs/compiler-find.log" | sed 's/^ */   compiler: /' || true
spack external find --scope user --not-buildable cmake gmake ninja openmpi > "$WORK/logs/external-find.log" 2>&1 ||
  { cat "$WORK/logs/external-find.log"; exit 1; }
grep -E '^(cmake|gmake|ninja|openmpi)@' "$WORK/logs/external-find.log" | sed 's/^/   external: /' || true
# CMake packages build with make by default; where the machine has only ninja (the dev root), with ninja.
GENERATOR=""
if ! grep -q '^gmake@' "$WORK/logs/external-find.log" && grep -q '^ninja@' "$WORK/logs/external-find.log"; then
  GENERATOR=ninja
  echo "   (no make: CMake packages build with generator=ninja)"
fi

if v=$(cmake_version /usr Kokkos); then external kokkos "kokkos@$v$(kokkos_variants /usr)" /usr; fi
# Trilinos' Kokkos and Kokkos Kernels (the dev root's $WAVEFD_KK_PREFIX); its Kokkos Kernels ships
# no version file: it is the release of the Kokkos beside it.
KK=${WAVEFD_KK_PREFIX:-/opt/trilinos-kokkos}/usr
if v=$(cmake_version "$KK" Kokkos); then
  external kokkos "kokkos@$v$(kokkos_variants "$KK")" "$KK"
  if ls -d "$KK"/lib/*/cmake/KokkosKernels >/dev/null 2>&1; then
    external kokkos-kernels "kokkos-kernels@$(cmake_version "$KK" KokkosKernels || echo "$v")" "$KK"
  fi
fi
if v=$(cmake_version /usr CLI11); then external cli11 "cli11@$v" /usr; fi
if v=$(cmake_version /usr nlohmann_json); then external nlohmann-json "nlohmann-json@$v" /usr; fi
if v=$(cmake_version /usr tomlplusplus); then external tomlplusplus "tomlplusplus@$v" /usr; fi
if v=$(deb_version libgtest-dev || cmake_version /usr GTest); then external googletest "googletest@$v" /usr; fi
SEGYIO=${segyio_ROOT:-/opt/segyio/usr}   # the dev root's segyio (Debian 12's, unpacked)
if [ -f "$SEGYIO/include/segyio/segy.h" ]; then
  v=$(zcat "$SEGYIO"/share/doc/libsegyio1/changelog.Debian.gz 2>/dev/null | sed -n '1s/^[^(]*(\([0-9.]*\).*/\1/p' || true)
  v=${v:-$(deb_version libsegyio-dev || true)}
  [ -z "$v" ] || external segyio "segyio@$v" "$SEGYIO"
fi
{
  echo "packages:"
  for name in "${!EXTERNALS[@]}"; do
    printf '  %s:\n    externals:\n%s    buildable: false\n' "$name" "${EXTERNALS[$name]}"
  done
  echo "  mpi:"
  echo "    buildable: false"
  [ -z "$GENERATOR" ] || printf '  all:\n    variants: generator=%s\n' "$GENERATOR"
} > "$SCOPE/packages.yaml"

# ---- the checkout to build ----------------------------------------------------------------------
SRC=$REPO
if [ "$HEAD" = 1 ]; then
  SRC="$WORK/src"
  rm -rf "$SRC"
  git clone -q --no-hardlinks "$REPO" "$SRC"
  echo "== building a clone of HEAD ($(git -C "$SRC" rev-parse --short HEAD)) at $SRC"
else
  echo "== building the working tree $SRC ($(git -C "$SRC" rev-parse --short HEAD 2>/dev/null || echo "no git")$(git -C "$SRC" diff --quiet HEAD 2>/dev/null || echo ", with uncommitted changes"))"
fi

# ---- install, run, test --------------------------------------------------------------------------
results=()
status=0
step() {  # step NAME CMD...: run CMD with its output in $log.NAME; on failure, say so
  local name=$1; shift
  if "$@" > "$log.$name" 2>&1; then return 0; fi
  echo "   FAIL: $name (last lines of $log.$name):"; tail -n 25 "$log.$name" | sed 's/^/     /'
  outcome="FAILED at $name"
  return 1
}
i=0
for spec in "${SPECS[@]}"; do
  i=$((i + 1))
  env_dir="$WORK/envs/$i"
  log="$WORK/logs/$i"
  rm -rf "$env_dir"; mkdir -p "$env_dir"
  echo "== [$i] $spec"
  outcome=""
  start=$SECONDS
  if step create spack env create -d "$env_dir" &&
     step add spack -e "$env_dir" add "$spec" &&
     step develop spack -e "$env_dir" develop --path "$SRC" wavefd@main &&
     step concretize spack -e "$env_dir" concretize -f; then
    grep -E '\^?(wavefd|kokkos|kokkos-kernels|openmpi|segyio|compiler-wrapper|gmake|ninja)@' "$log.concretize" |
      sed 's/ \(build_system\|platform\)=.*//; s/^/   /' || true
    install_args=(-j 2 --fail-fast)
    [ "$TEST_ROOT" = 0 ] || install_args+=(--test=root)
    if step install spack -e "$env_dir" install "${install_args[@]}"; then
      prefix=$(spack -e "$env_dir" location -i wavefd)
      scratch="$WORK/run/$i"; rm -rf "$scratch"; mkdir -p "$scratch"
      if step version "$prefix/bin/wavefd" --version &&
         step info "$prefix/bin/wavefd" info &&
         step run bash -c 'cd "$1" && "$2/bin/wavefd" run "$2/share/wavefd/inputs/quickstart.toml"' _ "$scratch" "$prefix" &&
         step test spack -e "$env_dir" test run wavefd; then
        outcome="passed: installed in $((SECONDS - start)) s, ran, spack test run PASSED"
        echo "   wavefd --version: $(head -n1 "$log.version")"
        sed -n '1,12p' "$log.info" | sed 's/^/   info: /'
        tail -n 3 "$log.run" | sed 's/^/   run: /'
        grep -E "PASSED|FAILED|passed|failed" "$log.test" | tail -n 4 | sed 's/^/   test: /'
      fi
    fi
  fi
  [ -n "$outcome" ] && [ "${outcome#passed}" != "$outcome" ] || status=1
  echo "   => $outcome"
  results+=("$spec: $outcome")
done

echo "== summary (Spack $version, spack-packages $packages_version)"
printf '   %s\n' "${results[@]}"
[ "$status" = 0 ] && echo "check_spack_install: all specs passed" || echo "check_spack_install: FAILED"
exit "$status"
