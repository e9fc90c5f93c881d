#!/bin/sh
# Runs the Blender of a root made by build-root.sh, with the host's /tmp, the checkout and the
# caller's working folder bound at their own paths, so a Blender launched by the adapter finds its
# start-up script, its data folder and its socket where the host put them.
#
#   blender-in-root.sh <root> [blender arguments]
#
# bwrap cannot start inside another bwrap sandbox: run this with the adapter's OS sandbox off.
set -eu
root="$1"
shift
checkout="$(cd "$(dirname "$0")/../.." && pwd)"
cwd=""
case "$PWD" in
  /tmp | /tmp/* | "$checkout" | "$checkout"/*) ;;
  *) cwd="$PWD" ;;
esac
exec bwrap --bind "$root" / --bind /tmp /tmp --dev /dev --proc /proc \
  --ro-bind "$checkout" "$checkout" ${cwd:+--bind "$cwd" "$cwd"} --die-with-parent \
  /usr/bin/blender "$@"
