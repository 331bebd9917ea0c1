#!/bin/sh
# Regenerates docs/img/motion_*.png from the examples' output.
#   docs/plots/motion_plots.sh [EXAMPLES_DIR]   (default: build/examples)
# Needs gnuplot (Debian: gnuplot-nox) and the built examples 20..23.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/examples}
img=$here/../img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pair in 20_springs:springs 21_tail:tail 22_jiggle:jiggle 23_camera_shake:shake; do
    example=${pair%%:*}
    name=${pair##*:}
    "$bin/example_$example" "$tmp/$name.dat" >/dev/null
    gnuplot -e "data='$tmp/$name.dat'; out='$img/motion_$name.png'" "$here/motion_$name.gp"
    echo "docs/img/motion_$name.png"
done
