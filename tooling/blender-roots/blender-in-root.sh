#!/bin/sh
# Runs the Blender of a root made by build-root.sh, with the host's /tmp, the checkout (read-only)
# and the caller's working folder bound at their own paths, so a Blender launched by the adapter
# finds its start-up script, its data folder and its socket where the host put them.
#
#   blender-in-root.sh <root> [blender arguments]
#
# bwrap does not pass signals on to what it runs: SIGTERM, SIGINT and SIGHUP sent to this script
# are passed to Blender, so Blender stops as it would outside (its own handlers run). When the
# caller dies, Blender's link watchdog sees it as it would outside. bwrap cannot start inside
# another bwrap sandbox: run this with the adapter's OS sandbox off.
set -eu
root="$1"
shift
checkout="$(cd "$(dirname "$0")/../.." && pwd)"
cwd=""
case "$PWD" in
  /tmp | /tmp/* | "$checkout" | "$checkout"/*) ;;
  *) cwd="$PWD" ;;
esac
# An asynchronous command's standard input would otherwise be /dev/null. A high descriptor
# carries it across: the low ones are the caller's (the link's watchdog pipe is one of them).
exec 9<&0
bwrap --bind "$root" / --bind /tmp /tmp --dev /dev --proc /proc \
  --ro-bind "$checkout" "$checkout" ${cwd:+--bind "$cwd" "$cwd"} \
  /usr/bin/blender "$@" <&9 9<&- &
sandbox=$!
exec 9<&-
forward() {
  for child in $(pgrep -P "$sandbox" 2>/dev/null); do kill -s "$1" "$child" 2>/dev/null || true; done
}
trap 'forward TERM' TERM
trap 'forward INT' INT
trap 'forward HUP' HUP
while :; do
  status=0
  wait "$sandbox" || status=$?
  kill -0 "$sandbox" 2>/dev/null || exit "$status"
done
