#!/usr/bin/env bash
# Debian sid development root for wavefd: a chroot with a modern toolchain and Kokkos,
# kept outside the clone and reused between runs.
#
#   scripts/devroot.sh setup            create the root, or bring its packages up to date
#   scripts/devroot.sh run CMD [ARG..]  run CMD inside the root, in this repository
#
# Environment: WAVEFD_SID_ROOT (default /var/cache/wavefd/sid-root).
# The package mirror is read from this machine's apt sources; none is written here.
set -euo pipefail

ROOT=${WAVEFD_SID_ROOT:-/var/cache/wavefd/sid-root}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KK_PREFIX=/opt/trilinos-kokkos     # inside the root: Trilinos' Kokkos + Kokkos Kernels (serial)
APT_OPTS=(-o Acquire::Check-Valid-Until=false -o APT::Get::Assume-Yes=true -o Dpkg::Use-Pty=0)

# Packages the root needs; changing this list makes `setup` install the difference.
PACKAGES=(g++ cmake ninja-build git libkokkos-dev libcli11-dev libopenmpi-dev openmpi-bin
          libgtest-dev nlohmann-json3-dev python3-numpy python3-matplotlib
          libblas-dev liblapack-dev ca-certificates hipcc libamdhip64-dev
          libtomlplusplus-dev libsndfile1-dev libsoxr-dev libkissfft-dev libcgal-dev libassimp-dev)
KK_PACKAGES=(libtrilinos-kokkos-17.0 libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-17.0
             libtrilinos-kokkos-kernels-dev trilinos-dev)
# segyio (SEG-Y files, WAVEFD_ENABLE_SEGYIO): sid has none, so Debian 12's is unpacked into a private
# prefix as well, which CMake finds through segyio_ROOT. Plain C, needing only libc6 (>= 2.33).
# The suite is in the root's sources pinned at -1: its packages are downloaded by name, never
# installed. Python's segyio from there is built for Python 3.11 only, so it is not taken.
SEGYIO_PREFIX=/opt/segyio
SEGYIO_SUITE=bookworm
SEGYIO_PACKAGES=(libsegyio1 libsegyio-dev)

die() { echo "devroot: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (chroot and bind mounts); run it with sudo"

mirror() {
  local uri=""
  if compgen -G "/etc/apt/sources.list.d/*.sources" >/dev/null; then
    uri=$(awk '/^URIs:/{for(i=2;i<=NF;i++) if ($i !~ /security/) {print $i; exit}}' \
          /etc/apt/sources.list.d/*.sources | head -n1)
  fi
  if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1=="deb" && $0 !~ /security/ {for(i=2;i<=NF;i++) if ($i ~ /:\/\//) {print $i; exit}}' \
          /etc/apt/sources.list | head -n1)
  fi
  [ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list"
  echo "$uri"
}

# Several runs may use the root at once (a build in one shell, tests in another): each holds a
# shared lock on $ROOT.lock while it runs, and only the last one out (the one that can turn its
# lock exclusive) unmounts, so no run pulls /proc or the repository from under another.
LOCK_FD=""
hold_root() {
  [ -z "$LOCK_FD" ] || return 0
  exec {LOCK_FD}>"$ROOT.lock"
  flock -s "$LOCK_FD"
}
release_root() {
  [ -n "$LOCK_FD" ] || return 0
  if flock -x -n "$LOCK_FD"; then
    local m  # every mount below the root, children before parents
    for m in $(awk -v r="$ROOT/" 'index($2, r) == 1 {print $2}' /proc/mounts | sort -r); do
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
  fi
  exec {LOCK_FD}>&-
  LOCK_FD=""
}
trap release_root EXIT INT TERM

bind() {  # bind SRC DST: mount unless already mounted (by a run still sharing the root)
  mkdir -p "$2"
  if mountpoint -q "$2"; then return; fi
  mount --bind "$1" "$2"
}

mount_all() {
  hold_root
  bind /proc "$ROOT/proc"
  bind /sys "$ROOT/sys"
  bind /dev "$ROOT/dev"
  bind /dev/shm "$ROOT/dev/shm"
  bind "$REPO" "$ROOT$REPO"
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
}

in_root() {  # run a command in the root with the wavefd environment
  chroot "$ROOT" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 CI="${CI:-}" WAVEFD_KK_PREFIX="$KK_PREFIX" segyio_ROOT="$SEGYIO_PREFIX/usr" \
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false \
    "$@"
}

setup() {
  local uri; uri=$(mirror)
  if [ ! -x "$ROOT/usr/bin/apt-get" ]; then
    command -v mmdebstrap >/dev/null || { apt-get update -qq && apt-get install -y -qq mmdebstrap; }
    echo "devroot: creating Debian sid root at $ROOT (about a minute)"
    mkdir -p "$(dirname "$ROOT")"
    rm -rf "$ROOT.partial"
    mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
      --include="$(IFS=,; echo "${PACKAGES[*]}")" sid "$ROOT.partial" "deb $uri sid main"
    mv "$ROOT.partial" "$ROOT"
  fi
  # One stamp per part (sid and experimental; the segyio suite), so that adding to one part leaves
  # the other as it is on an existing root.
  local want want_segyio have have_segyio
  want=$(printf '%s\n' "${PACKAGES[@]}" "${KK_PACKAGES[@]}" | sha1sum | cut -c1-12)
  want_segyio=$(printf '%s\n' "$SEGYIO_SUITE" "${SEGYIO_PACKAGES[@]}" | sha1sum | cut -c1-12)
  have=$(cat "$ROOT/.wavefd-stamp" 2>/dev/null || true)
  have_segyio=$(cat "$ROOT/.wavefd-stamp-segyio" 2>/dev/null || true)
  if [ "$have" = "$want" ] && [ "$have_segyio" = "$want_segyio" ]; then return; fi
  mount_all
  printf 'deb %s sid main\ndeb %s experimental main\ndeb %s %s main\n' "$uri" "$uri" "$uri" "$SEGYIO_SUITE" \
    > "$ROOT/etc/apt/sources.list"
  rm -f "$ROOT"/etc/apt/sources.list.d/*
  printf 'Package: *\nPin: release n=%s\nPin-Priority: -1\n' "$SEGYIO_SUITE" \
    > "$ROOT/etc/apt/preferences.d/wavefd-$SEGYIO_SUITE"
  in_root apt-get "${APT_OPTS[@]}" -qq update
  if [ "$have" != "$want" ]; then
    in_root apt-get "${APT_OPTS[@]}" -qq install "${PACKAGES[@]}"
    # Debian's libkokkos-dev exports targets naming two archives it does not ship.
    for lib in libkokkosalgorithms.a libkokkossimd.a; do
      [ -e "$ROOT/usr/lib/x86_64-linux-gnu/$lib" ] || in_root ar rcs "/usr/lib/x86_64-linux-gnu/$lib"
    done
    # Trilinos' Kokkos + Kokkos Kernels clash with libkokkos-dev: unpack them into a private prefix.
    unpack "$KK_PREFIX" experimental "${KK_PACKAGES[@]}"
    echo "$want" > "$ROOT/.wavefd-stamp"
  fi
  if [ "$have_segyio" != "$want_segyio" ]; then
    unpack "$SEGYIO_PREFIX" "$SEGYIO_SUITE" "${SEGYIO_PACKAGES[@]}"
    echo "$want_segyio" > "$ROOT/.wavefd-stamp-segyio"
  fi
}

unpack() {  # unpack PREFIX SUITE PACKAGE...: download the packages of SUITE and unpack them under PREFIX
  local prefix=$1 suite=$2; shift 2
  in_root bash -ec "rm -rf $prefix /tmp/wavefd-debs && mkdir -p $prefix /tmp/wavefd-debs && cd /tmp/wavefd-debs &&
    apt-get ${APT_OPTS[*]} -qq download $(printf "%s/$suite " "$@") &&
    for f in *.deb; do dpkg -x \$f $prefix; done && rm -rf /tmp/wavefd-debs"
}

case "${1:-}" in
  setup) setup ;;
  run)
    shift; [ $# -gt 0 ] || die "usage: $0 run CMD [ARG...]"
    setup
    mount_all
    in_root /bin/bash -c 'cd "$0" && exec "$@"' "$REPO" "$@"
    ;;
  *) die "usage: $0 setup | run CMD [ARG...]" ;;
esac
