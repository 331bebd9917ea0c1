#!/bin/sh
# scripts/check-style on generated fixtures: a clean file passes; a function
# over 200 lines, ten over 120 and a badly formatted file are each reported
# with one line per offender; braces in comments, literals, initializers and
# directives are not taken for function bodies.
# Usage: test_check_style.sh <path to scripts/check-style>
set -eu
check=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A function named $1 spanning exactly $2 lines (signature to closing brace):
# the signature, $2 - 3 statements, the return and the brace.
function_lines() {
    printf 'int %s(int x) {\n' "$1"
    i=3
    while [ "$i" -lt "$2" ]; do
        printf '    x += %d;\n' "$i"
        i=$((i + 1))
    done
    printf '    return x;\n}\n'
}

# Runs the checker on the given files; sets out (its output) and status.
run() {
    status=0
    out=$("$check" "$@") || status=$?
}
expect() { # expect <status> <expected output> <what>
    [ "$status" = "$1" ] || fail "$3: exit $status, expected $1"
    [ "$out" = "$2" ] || fail "$3: output
$out
expected
$2"
}

# A clean file: short functions, one of exactly 200 lines, and braces in a
# comment, a string, a character, an initializer, a struct and a directive.
{
    printf '#include <stdio.h>\n'
    printf '#define OPEN {\n#define CLOSE }\n'
    printf 'struct pair {\n    int a, b;\n};\n'
    printf 'static const int table[] = {1, 2, 3};\n'
    printf '/* } { } */\n'
    printf 'static int braces(void) {\n'
    printf '    const char* s = "}}}{";\n'
    printf '    return s[0] == %s ? table[0] : table[1]; // }\n' "'}'"
    printf '}\n'
    function_lines exactly_200 200
} >ok.c
status=0
out=$("$check" --no-format ok.c) || status=$?
expect 0 "" "clean file (lengths)"

# One function of 201 lines.
function_lines too_long 201 >long.c
run --no-format long.c
expect 1 "long.c:1: too_long is 201 lines (at most 200)" "201-line function"

# Nine functions of 121 lines pass; a tenth fails with ten lines.
: >nine.c
for n in 1 2 3 4 5 6 7 8 9; do function_lines "f$n" 121 >>nine.c; done
run --no-format nine.c
expect 0 "" "nine functions over 120"
cp nine.c ten.c
function_lines f10 121 >>ten.c
run --no-format ten.c
lines=$(printf '%s\n' "$out" | grep -c 'is 121 lines: 10 functions over 120 (fewer than 10 allowed)$' || true)
[ "$status" = 1 ] || fail "ten functions over 120: exit $status, expected 1"
[ "$lines" = 10 ] || fail "ten functions over 120: $lines offender lines, expected 10:
$out"
printf '%s\n' "$out" | grep -q '^ten.c:1090: f10 is 121 lines' || fail "ten functions: f10 not at ten.c:1090"

# Formatting: checked when clang-format exists, skipped with a message otherwise.
printf 'int  f( void ){return 0;}\n' >bad.c
if command -v clang-format >/dev/null 2>&1; then
    run ok.c
    expect 0 "" "clean file (format)"
    run bad.c
    [ "$status" = 1 ] || fail "badly formatted file: exit $status, expected 1"
    case "$out" in
    "bad.c: "*" clang-format changes (clang-format -i bad.c)") ;;
    *) fail "badly formatted file: output $out" ;;
    esac
else
    run bad.c
    expect 0 "check-style: clang-format not found: formatting not checked (skipped)" "no clang-format"
fi

[ "$failures" = 0 ] || exit 1
echo "check-style fixtures: all cases pass"
