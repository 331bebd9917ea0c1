#!/bin/sh
# Bad input to the sinew CLI (issue #17, findings 3 and 4): each case must
# end quickly (a FIFO without a writer, /dev/zero, a sparse 3 GiB file) and
# print exactly one expected line on stderr with the expected exit code.
# The system error texts are glibc's strerror.
# Usage: bad_input.sh SINEW DATA [SANITIZED] (SANITIZED 1: an AddressSanitizer
# build, where a child process gets no address-space limit).
set -u
sinew=$1
data=$2
sanitized=${3:-0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect CODE LINE ARGS...: runs sinew ARGS (10 s at most); stderr must be LINE.
expect() {
    want_code=$1
    want_line=$2
    shift 2
    timeout 10 "$sinew" "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
    got=$(cat "$tmp/err")
    if [ "$code" != "$want_code" ] || [ "$got" != "$want_line" ]; then
        echo "FAIL: sinew $*"
        echo "  exit $code, expected $want_code"
        echo "  stderr:   $got"
        echo "  expected: $want_line"
        failures=$((failures + 1))
    else
        echo "ok: sinew $*"
    fi
}

# expect_like CODE PATTERN ARGS...: as expect, stderr matching a shell PATTERN
# (for measured figures whose last digits may differ between builds).
expect_like() {
    want_code=$1
    want_pattern=$2
    shift 2
    timeout 10 "$sinew" "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
    got=$(cat "$tmp/err")
    # shellcheck disable=SC2254
    case "$got" in
    $want_pattern) matched=1 ;;
    *) matched=0 ;;
    esac
    if [ "$code" != "$want_code" ] || [ "$matched" != 1 ] || [ "$(printf '%s\n' "$got" | wc -l)" != 1 ]; then
        echo "FAIL: sinew $*"
        echo "  exit $code, expected $want_code"
        echo "  stderr:   $got"
        echo "  expected: $want_pattern"
        failures=$((failures + 1))
    else
        echo "ok: sinew $*"
    fi
}

mkfifo "$tmp/fifo"
expect 1 "sinew: info: $tmp/fifo: input/output error: a FIFO, not a regular file (check \"regular file\")" \
    info "$tmp/fifo"
expect 1 'sinew: info: /dev/zero: input/output error: a character device, not a regular file (check "regular file")' \
    info /dev/zero
expect 1 "sinew: info: $tmp: input/output error: Is a directory (check \"regular file\")" \
    info "$tmp"
expect 1 "sinew: info: $tmp/missing.glb: input/output error: No such file or directory (check \"open file\")" \
    info "$tmp/missing.glb"
: >"$tmp/empty.bvh"
expect 1 "sinew: info: $tmp/empty.bvh: truncated data: the file is empty (check \"file not empty\")" \
    info "$tmp/empty.bvh"
expect 1 "sinew: play: $tmp: input/output error: Is a directory (check \"regular file\")" \
    play "$data/gltf/tiny.glb" --animator "$tmp" --seconds 1

# Sizes: refused before reading (a sparse file reads as zeros, slowly).
truncate -s 3G "$tmp/big.bin"
expect 1 "sinew: info: $tmp/big.bin: limit exceeded: 3221225472 bytes, more than the limit of 2147483648 (--max-size raises it) (check \"file size\")" \
    info "$tmp/big.bin"
expect 1 "sinew: info: $tmp/big.bin: parse error: not a .sinew archive, BVH or glTF file, and no reader takes its extension (check \"known file format\")" \
    info "$tmp/big.bin" --max-size 4G
expect 2 'sinew: info: --max-size needs a whole number of bytes > 0 (K, M or G: binary units), got "0"' \
    info "$tmp/big.bin" --max-size 0

# Clip names: the one asked for and those in the file, nearest first
# (edit distances to "linaer": linear 2, step 5, cubic 6, cubic_rotation 12).
clips='clips, nearest first: linear, step, cubic, cubic_rotation'
expect 1 "sinew: info: $data/gltf/tiny.glb: not found: clip \"linaer\" not in the file; $clips (check \"requested clip in file\")" \
    info "$data/gltf/tiny.glb" --clips step,linaer
"$sinew" import "$data/gltf/tiny.glb" -o "$tmp/tiny.sinew" >/dev/null 2>&1
expect 1 "sinew: info: $tmp/tiny.sinew: not found: clip \"linaer\" not in the file; $clips (check \"requested clip exists\")" \
    info "$tmp/tiny.sinew" --clips step,linaer
expect 1 "sinew: play: $tmp/tiny.sinew: not found: clip \"Idle\" not in the file; clips, nearest first: step, cubic, linear, cubic_rotation (check \"clip the animator plays in the file\")" \
    play "$tmp/tiny.sinew" --animator "$data/../../examples/robot.json" --seconds 1
expect 1 "sinew: sample: $tmp/tiny.sinew: not found: clip \"linaer\" not in the file; $clips (check \"clip in the file\")" \
    sample "$tmp/tiny.sinew" --time 0 --clip linaer

# Memory (issue #18): a 4 MB glTF whose JSON is two million numbers needs
# tens of MB of tokens; under a 16 MiB budget the reader stops, in this
# process and in a child (--isolate).
{ printf '{"asset":{"version":"2.0"},"extras":['; yes '0,' | head -n 2000000 | tr -d '\n'
  printf '0]}'; } >"$tmp/numbers.gltf"
budget="limit exceeded: reading needs more than 16 MiB of memory for 4000040 bytes of input (the limit given) (--max-memory raises it) (check \"memory budget\")"
expect 1 "sinew: info: $tmp/numbers.gltf: $budget" info "$tmp/numbers.gltf" --max-memory 16M
expect 1 "sinew: info: $tmp/numbers.gltf: $budget" info "$tmp/numbers.gltf" --max-memory 16M --isolate
expect 2 'sinew: info: --max-memory needs a whole number of bytes > 0 (K, M or G: binary units), got "1X"' \
    info "$tmp/numbers.gltf" --max-memory 1X
# assimp's child process gets the budget as address space (not under ASan).
x=/usr/share/assimp/models/X/BCN_Epileptic.X
if [ "$sanitized" = 1 ]; then
    echo "skip: assimp's memory limit (AddressSanitizer build: no address-space limit)"
elif [ ! -f "$x" ]; then
    echo "skip: assimp's memory limit ($x absent: Debian's assimp-testmodels)"
else
    expect 1 "sinew: info: $x: out of memory: assimp ran out of memory (std::bad_alloc); the reader ran with a memory limit of 4 MiB (--max-memory raises it) (check \"assimp's memory\")" \
        info "$x" --max-memory 4M
fi

# Values finite one by one that overflow together when sampled (issue #18):
# twelve joints each moved 3e37 along x (the chain sampled to inf before).
expect 1 "sinew: sample: $data/overflow_chain.bvh: invalid data: clip \"motion\" can carry joint \"j0\" to 3e+37 (scale 1) in model space, past 2.13e+37 (check \"clip finite in model space\")" \
    sample "$data/overflow_chain.bvh" --time 0.5

# A glTF whose external buffer is missing names the file it looked for.
cp "$data/gltf/external.gltf" "$tmp/external.gltf"
expect 1 "sinew: info: $tmp/external.gltf: input/output error: No such file or directory: buffer 0 \"tiny%20data.bin\" (check \"open file\")" \
    info "$tmp/external.gltf"

# Frames that cannot hold --precision: the clip, the error, where, and what to do.
expect_like 1 "sinew: convert: $data/mixed_orders.bvh: limit exceeded: clip 0 \"motion\": frames at 800 Hz (doubled up to 1000 Hz) leave error 0.000* at joint \"Hand\" (0.0* s), over --precision 1e-09; ask for a larger one, or keep the raw codec (check \"error within precision\")" \
    convert "$data/mixed_orders.bvh" -o "$tmp/frames.sinew" --codec frames --precision 1e-9
[ -e "$tmp/frames.sinew" ] && { echo "FAIL: convert left $tmp/frames.sinew"; failures=$((failures + 1)); }

# Options name themselves.
expect 2 'sinew: retarget: --to-scale needs a finite number > 0, got "nan"' \
    retarget "$data/gltf/tiny.glb" --to "$data/gltf/tiny.glb" --to-scale nan -o "$tmp/r.sinew"
expect 2 'sinew: info: --scale needs a finite number > 0, got "nan"' \
    info "$data/gltf/tiny.glb" --scale nan

echo "$failures failed"
[ "$failures" = 0 ]
