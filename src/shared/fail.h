/* Private helpers shared by the runtime and the tools (never installed;
 * names use the sw__ prefix): filling an sw_error (check, system error,
 * detail), and the overlap and alignment checks that jobs and builders make
 * on caller buffers. */
#ifndef SINEW_SHARED_FAIL_H
#define SINEW_SHARED_FAIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sinew/core/base.h"

/* Fills err (when not NULL; no system error, no detail) and returns r. */
static inline sw_result sw__fail(sw_error* err, sw_result r, const char* check, uint64_t offset,
                                 int64_t index) {
    if (err) {
        err->result = r;
        err->check = check;
        err->offset = offset;
        err->index = index;
        err->sys_errno = 0;
        err->detail[0] = '\0';
    }
    return r;
}

/* sw__fail for a failed system call: err->sys_errno = e (an errno value). */
static inline sw_result sw__fail_errno(sw_error* err, sw_result r, const char* check, int e) {
    sw__fail(err, r, check, 0, -1);
    if (err) err->sys_errno = e;
    return r;
}

/* sw__fail with err->detail formatted from fmt (cut to fit). */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static inline sw_result
sw__fail_detail(sw_error* err, sw_result r, const char* check, int64_t index, const char* fmt,
                ...) {
    sw__fail(err, r, check, 0, index);
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, ap);
        va_end(ap);
    }
    return r;
}

/* As sw__fail, but an error already recorded in err (result not OK) is
 * kept: the first failure wins. Returns r. */
static inline sw_result sw__fail_first(sw_error* err, sw_result r, const char* check,
                                       uint64_t offset, int64_t index) {
    if (err && err->result != SW_RESULT_OK) return r;
    return sw__fail(err, r, check, offset, index);
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
