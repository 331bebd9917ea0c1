/* Private helpers shared by the runtime and the tools (never installed;
 * names use the sw__ prefix): filling an sw_error, and the overlap and
 * alignment checks that jobs and builders make on caller buffers. */
#ifndef SINEW_SHARED_FAIL_H
#define SINEW_SHARED_FAIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sinew/core/base.h"

/* Fills err (when not NULL) and returns r. */
static inline sw_result sw__fail(sw_error* err, sw_result r, const char* check, uint64_t offset,
                                 int64_t index) {
    if (err) {
        err->result = r;
        err->check = check;
        err->offset = offset;
        err->index = index;
    }
    return r;
}

/* True when [a, a + an) and [b, b + bn) share a byte. */
static inline bool sw__overlaps(const void* a, size_t an, const void* b, size_t bn) {
    const char* pa = (const char*)a;
    const char* pb = (const char*)b;
    if (!a || !b || an == 0 || bn == 0) return false;
    return pa < pb + bn && pb < pa + an;
}

static inline bool sw__aligned16(const void* p) {
    return ((uintptr_t)p & 15u) == 0;
}

#endif
