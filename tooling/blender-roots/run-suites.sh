#!/usr/bin/env bash
# Runs the Blender adapter's test suites on each newer Blender: builds the roots when missing
# (build-root.sh), then runs packages/blender's vitest suite with BLENDER_BIN pointing at the
# root's launcher and the adapter's OS sandbox off (it cannot start inside the root's bwrap; the
# sandboxed path is tested on the host's Blender). Prints one summary line per version and exits
# non-zero when a root cannot be built or a suite fails.
#
#   run-suites.sh [suite...]        default: trixie sid (Blender 4.3.2 and 5.2.2)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
package="$here/../../packages/blender"
suites=("$@")
[ "${#suites[@]}" -eq 0 ] && suites=(trixie sid)

# Each run writes the package's .vitest/results.json (the project's reporter setting): the host
# run's is kept aside and put back after, each version's renamed to results-<suite>.json.
results="$package/.vitest/results.json"
[ -f "$results" ] && mv -f "$results" "$results.host"
status=0
for suite in "${suites[@]}"; do
  started=$SECONDS
  if ! launcher="$("$here/build-root.sh" "$suite" | tail -n 1)"; then
    echo "Blender root '$suite' could not be built" >&2
    status=1
    continue
  fi
  echo "Blender root '$suite' ready in $((SECONDS - started)) s: $launcher"
  version="$("$launcher" -b --factory-startup --python-expr 'import bpy; print("version:", bpy.app.version_string)' 2>/dev/null | sed -n 's/^version: //p' | head -n 1)"
  report=".vitest/results-$suite.json"
  started=$SECONDS
  (
    cd "$package" &&
      env -u DCC_REQUIRE_BWRAP BLENDER_BIN="$launcher" BLENDER="$launcher" \
        DCC_BLENDER_TEST_SANDBOX=off DCC_REQUIRE_BLENDER=1 npx vitest run
  )
  code=$?
  [ -f "$results" ] && mv -f "$results" "$package/$report"
  summary="$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    console.log(`${r.numPassedTests} tests passed and ${r.numFailedTests} failed (${r.numPendingTests} skipped)`);
  ' "$package/$report" 2>/dev/null || echo "no report")"
  echo "Blender ${version:-?} ($suite) suite: $summary, exit code $code, $((SECONDS - started)) s"
  [ "$code" -eq 0 ] || status=1
done
[ -f "$results.host" ] && mv -f "$results.host" "$results"
exit "$status"
