#!/bin/sh
# The observer test (CTest observer_demo, issue #15): runs `sinew demo` into
# OUT, then measures its demo.glb with three.js (measure.mjs), comparing the
# demo's printed observer figures (metrics.json) with its own.
# usage: run.sh NODE SINEW OUT [--open ACTORS] [demo options...]
set -eu
node=$1 cli=$2 out=$3
shift 3
open=
if [ "${1:-}" = --open ]; then open="--open $2"; shift 2; fi
mkdir -p "$out"
"$cli" demo --out "$out" "$@" >"$out/demo.txt"
cat "$out/demo.txt"
exec "$node" "$(dirname "$0")/measure.mjs" "$out/demo.glb" --json "$out/observer.json" \
    --metrics "$out/metrics.json" $open
