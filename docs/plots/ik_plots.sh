#!/bin/sh
# Regenerates the IK plots in docs/img from the examples' output.
#   docs/plots/ik_plots.sh [BUILD_DIR]     (default: build)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
ex=$(cd "$build" && pwd)/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ex/example_10_two_bone" --plot fade > "$tmp/fade.dat"
"$ex/example_10_two_bone" --plot soft > "$tmp/soft.dat"
"$ex/example_11_fabrik" --plot chain > "$tmp/chain.dat"
"$ex/example_11_fabrik" --plot converge > "$tmp/converge.dat"
"$ex/example_12_look_at" --plot > "$tmp/look_at.dat"
cd "$here"
gnuplot -e "data='$tmp/fade.dat'; out='../img/ik_two_bone_fade.png'" ik_two_bone_fade.gp
gnuplot -e "data='$tmp/soft.dat'; out='../img/ik_softness.png'" ik_softness.gp
gnuplot -e "chain='$tmp/chain.dat'; conv='$tmp/converge.dat'; out='../img/ik_fabrik.png'" ik_fabrik.gp
gnuplot -e "data='$tmp/look_at.dat'; out='../img/ik_look_at.png'" ik_look_at.gp
