#!/bin/sh
# Regenerates docs/img/foot_step.png, walker_gait.png and walker_spine_wander.png
# from the examples' output.
#   docs/plots/walker_plots.sh [EXAMPLES_DIR]   (default: build/examples)
# Needs gnuplot (Debian: gnuplot-nox), the built examples 40..42 and the CMU
# capture they default to (Debian's assimp-testmodels).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../../build/examples}
img=$here/../img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin/example_40_foot_placement" --plot > "$tmp/foot.dat"
"$bin/example_41_walker" --plot > "$tmp/walker.dat"
"$bin/example_42_spine_wander" --plot > "$tmp/spine.dat"
gnuplot -e "data='$tmp/foot.dat'; out='$img/foot_step.png'" "$here/foot_step.gp"
gnuplot -e "data='$tmp/walker.dat'; out='$img/walker_gait.png'" "$here/walker_gait.gp"
gnuplot -e "data='$tmp/spine.dat'; out='$img/walker_spine_wander.png'" "$here/walker_spine_wander.gp"
for f in foot_step walker_gait walker_spine_wander; do echo "docs/img/$f.png"; done
