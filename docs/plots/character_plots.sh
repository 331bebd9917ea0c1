#!/bin/sh
# Regenerates docs/img/character_walk.png (gnuplot) and
# docs/img/character_mesh.png (sinew's software rasterizer) from the default
# characters.
#   docs/plots/character_plots.sh [BUILD_DIR]   (default: build)
# Needs gnuplot (Debian: gnuplot-nox), python3, a C compiler and a build
# folder with libsinew_showcase.a, libsinew_tools.a and libsinew.a.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-$root/build}
img=$here/../img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libs="$build/libsinew_showcase.a $build/libsinew_tools.a $build/libsinew.a"
extra="$(pkg-config --libs assimp 2>/dev/null || echo -lassimp) -lm"
for prog in character_table character_render; do
  cc -std=c11 -O2 -I"$root/include" "$here/$prog.c" $libs $extra -o "$tmp/$prog"
done
"$tmp/character_table" walk sticks > "$tmp/sticks.dat"
"$tmp/character_table" walk heights > "$tmp/heights.dat"
gnuplot -e "sticks='$tmp/sticks.dat'; heights='$tmp/heights.dat'; out='$img/character_walk.png'" \
  "$here/character_walk.gp"
"$tmp/character_render" "$img/character_mesh.png"
echo docs/img/character_walk.png
echo docs/img/character_mesh.png
