#!/bin/sh
# Regenerates docs/img/character_walk.png from the default humanoid.
#   docs/plots/character_plots.sh [BUILD_DIR]   (default: build)
# Needs gnuplot (Debian: gnuplot-nox), a C compiler and a build folder with
# libsinew_showcase.a, libsinew_tools.a and libsinew.a.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-$root/build}
img=$here/../img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -I"$root/include" "$here/character_table.c" \
  "$build/libsinew_showcase.a" "$build/libsinew_tools.a" "$build/libsinew.a" \
  $(pkg-config --libs assimp 2>/dev/null || echo -lassimp) -lm -o "$tmp/character_table"
"$tmp/character_table" walk sticks > "$tmp/sticks.dat"
"$tmp/character_table" walk heights > "$tmp/heights.dat"
gnuplot -e "sticks='$tmp/sticks.dat'; heights='$tmp/heights.dat'; out='$img/character_walk.png'" \
  "$here/character_walk.gp"
echo docs/img/character_walk.png
