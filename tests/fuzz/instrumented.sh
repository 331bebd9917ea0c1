#!/bin/sh
# The fuzz build fuzzes the library, not only the harness (issue #18,
# finding 1: the libraries were built without the fuzz flags, so libFuzzer
# saw 257 / 45 / 120 edges in archive / BVH / glTF after 25 s): every object
# of each static library given references libFuzzer's coverage counters and
# ASan's checks, and its UBSan handlers are the aborting ones
# (-fno-sanitize-recover=undefined; __ubsan_handle_builtin_unreachable and
# __ubsan_handle_missing_return always abort and have no other form).
# Usage: instrumented.sh NM LIBRARY...
set -eu
nm=$1
shift
status=0
for lib in "$@"; do
    "$nm" -A "$lib" 2>/dev/null | awk -v lib="$lib" '
        { split($0, f, ":"); o = f[2]; objects[o] = 1; s = $NF }
        $(NF - 1) == "U" && s == "__sanitizer_cov_8bit_counters_init" { cov[o] = 1 }
        $(NF - 1) == "U" && s ~ /^__asan_report_/ { asan[o] = 1 }
        $(NF - 1) == "U" && s ~ /^__ubsan_handle_/ && s !~ /_abort$/ &&
            s != "__ubsan_handle_builtin_unreachable" && s != "__ubsan_handle_missing_return" {
            printf "%s: %s: recoverable UBSan handler %s\n", lib, o, s; bad = 1
        }
        END {
            for (o in objects) {
                n++
                if (!cov[o]) { printf "%s: %s: no coverage counters (built without the fuzz flags)\n", lib, o; bad = 1 }
                if (!asan[o]) { printf "%s: %s: no ASan checks (built without the fuzz flags)\n", lib, o; bad = 1 }
            }
            if (!n) { printf "%s: no objects\n", lib; bad = 1 }
            printf "%s: %d objects checked\n", lib, n
            exit bad
        }' || status=1
done
exit "$status"
