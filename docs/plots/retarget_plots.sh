#!/bin/sh
# Regenerates docs/img/retarget_cmu.png (sinew's software rasterizer): CMU
# 01_01 beside its retarget onto the built-in humanoid. (retarget_render
# also draws RobotExpressive with a third argument; left out of the picture:
# at 3 m tall it does not fit the frame.)
#   docs/plots/retarget_plots.sh [BUILD_DIR]   (default: build)
# Needs python3, a C compiler, Debian's assimp-testmodels, a build folder with
# libsinew_showcase.a, libsinew_tools.a and libsinew.a.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
build=${1:-$root/build}
img=$here/../img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
libs="$build/libsinew_showcase.a $build/libsinew_tools.a $build/libsinew.a"
extra="$(pkg-config --libs assimp 2>/dev/null || echo -lassimp) -lm"
cc -std=c11 -O2 -I"$root/include" "$here/retarget_render.c" $libs $extra -o "$tmp/render"
"$tmp/render" "$img/retarget_cmu.png" /usr/share/assimp/models/BVH/01_01.bvh
echo docs/img/retarget_cmu.png
