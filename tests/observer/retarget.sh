#!/bin/sh
# The observer on a retargeted clip (CTest observer_cmu, issue #15): runs
# `sinew retarget SRC --to default -o OUT/retarget.glb [options]`, then
# measures the glb with three.js (measure.mjs), its feet bounded as the
# demo's humanoids' and each foot joint with at least MIN_SPANS planted spans.
# usage: retarget.sh NODE SINEW OUT SRC MIN_SPANS [sinew retarget options...]
#   exits 77 (skip) when SRC is absent
set -eu
node=$1 cli=$2 out=$3 src=$4 spans=$5
shift 5
if [ ! -f "$src" ]; then
    echo "observer: $src absent: skipped"
    exit 77
fi
mkdir -p "$out"
"$cli" retarget "$src" --to default -o "$out/retarget.glb" "$@"
exec "$node" "$(dirname "$0")/measure.mjs" "$out/retarget.glb" --json "$out/observer.json" \
    --min-spans "$spans"
