#!/usr/bin/env bash
# Builds (once) a minimal Debian root holding that suite's Blender, and a launcher that runs it.
#
#   build-root.sh <suite>...        e.g. build-root.sh trixie sid
#
# Each root is cached at $DCC_BLENDER_ROOTS/<suite> (default /var/cache/dcc-blender-roots): built
# in <suite>.tmp and renamed only once Blender runs in it, so an interrupted build is resumed (a
# finished debootstrap is kept, apt-get carries on) and a cached root is never half made. The
# launcher tooling/blender-roots/.bin/blender-<suite> of this checkout runs the root's
# /usr/bin/blender with this checkout bound (see blender-in-root.sh): checkouts that share the
# cached roots never share a launcher. Prints each launcher's path. Needs root, debootstrap and
# bwrap (installed with apt-get when missing).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cache="${DCC_BLENDER_ROOTS:-/var/cache/dcc-blender-roots}"
# libopengl0, libgl1 and libglx-mesa0: Blender 5 aborts without libOpenGL.so.0 (to render) and
# libGL.so.1 with Mesa's GLX (to open a window), which its Debian package does not pull in.
packages=(blender python3-numpy libegl1 libegl-mesa0 libopengl0 libgl1 libglx-mesa0)

if [ "$#" -eq 0 ]; then
  echo "usage: build-root.sh <suite>... (a Debian suite name, e.g. trixie or sid)" >&2
  exit 2
fi

need() {
  local missing=()
  for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  echo "installing ${missing[*]}" >&2
  apt-get update -q >&2 && apt-get install -y -q "${missing[@]/bwrap/bubblewrap}" >&2
}

# Runs a command as root inside a root being built (network and resolver of the host).
in_root() {
  local dir="$1"
  shift
  bwrap --bind "$dir" / --dev /dev --proc /proc --ro-bind /etc/resolv.conf /etc/resolv.conf \
    --setenv DEBIAN_FRONTEND noninteractive --setenv PATH /usr/sbin:/usr/bin:/sbin:/bin \
    --setenv HOME /root "$@"
}

write_launcher() {
  local suite="$1"
  mkdir -p "$here/.bin"
  local launcher="$here/.bin/blender-$suite"
  printf '#!/bin/sh\nexec %q %q "$@"\n' "$here/blender-in-root.sh" "$cache/$suite" >"$launcher.tmp"
  chmod +x "$launcher.tmp"
  mv -f "$launcher.tmp" "$launcher"
}

build() {
  local suite="$1"
  case "$suite" in
    *[!a-z0-9-]* | "") echo "not a Debian suite name: '$suite'" >&2; return 2 ;;
  esac
  local final="$cache/$suite" work="$cache/$suite.tmp"
  local marker="/var/lib/dcc-blender-root.packages"
  if [ -x "$final/usr/bin/blender" ]; then
    # A root made with a shorter package list gets what is missing.
    if [ "$(cat "$final$marker" 2>/dev/null)" != "${packages[*]}" ]; then
      need bwrap
      in_root "$final" apt-get -q -o Acquire::Check-Valid-Until=false update >&2
      in_root "$final" apt-get install -y -q --no-install-recommends "${packages[@]}" >&2
      in_root "$final" apt-get clean >&2
      echo "${packages[*]}" >"$final$marker"
    fi
    write_launcher "$suite"
    return 0
  fi
  need debootstrap bwrap
  # debootstrap removes its /debootstrap folder only when the base system is complete.
  if [ ! -x "$work/usr/bin/apt-get" ] || [ -d "$work/debootstrap" ]; then
    rm -rf "$work"
    echo "debootstrap --variant=minbase $suite $work" >&2
    debootstrap --variant=minbase "$suite" "$work" >&2
  fi
  # A suite's snapshot may have a Release file whose Valid-Until has passed.
  in_root "$work" apt-get -q -o Acquire::Check-Valid-Until=false update >&2
  in_root "$work" apt-get install -y -q --no-install-recommends "${packages[@]}" >&2
  in_root "$work" apt-get clean >&2
  local said
  said="$(in_root "$work" /usr/bin/blender -b --factory-startup --python-expr \
    'import bpy; print("blender-root-ok", bpy.app.version_string)' 2>&1)" || true
  case "$said" in
    *blender-root-ok*) ;;
    *) echo "Blender does not run in $work: $said" >&2; return 1 ;;
  esac
  echo "${packages[*]}" >"$work$marker"
  mv "$work" "$final"
  write_launcher "$suite"
}

mkdir -p "$cache"
for suite in "$@"; do
  # One build of a suite at a time on the machine.
  exec 9>"$cache/$suite.lock"
  flock 9
  build "$suite"
  flock -u 9
  echo "$here/.bin/blender-$suite"
done
