#!/bin/sh
# The observer tests (CTest observer_*, issue #15): runs `sinew demo` into
# OUT, then measures its demo.glb with three.js (measure.mjs), comparing the
# demo's printed observer figures (metrics.json) with its own.
# usage: run.sh NODE SINEW OUT [--sole-bound ACTORS] [--asset NAME] [demo options...]
#   --sole-bound ACTORS  bounds these actors' skinned surface at 2 mm under the
#                  ground (measure.mjs --sole-bound, comma-separated names)
#   --asset NAME   runs the demo with --character $SINEW_ASSETS/NAME (default
#                  ../shared/assets beside the repository); exits 77 (skip) when absent
set -eu
node=$1 cli=$2 out=$3
shift 3
soles=
if [ "${1:-}" = --sole-bound ]; then
    soles=$2
    shift 2
fi
if [ "${1:-}" = --asset ]; then
    assets=${SINEW_ASSETS:-$(dirname "$0")/../../../shared/assets}
    if [ ! -f "$assets/$2" ]; then
        echo "observer: $assets/$2 absent (set SINEW_ASSETS): skipped"
        exit 77
    fi
    character=$assets/$2
    shift 2
    set -- --character "$character" "$@"
fi
mkdir -p "$out"
"$cli" demo --out "$out" "$@" >"$out/demo.txt"
cat "$out/demo.txt"
exec "$node" "$(dirname "$0")/measure.mjs" "$out/demo.glb" --json "$out/observer.json" \
    --metrics "$out/metrics.json" ${soles:+--sole-bound "$soles"}
