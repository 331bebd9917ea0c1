/* Private block layout arithmetic shared by the runtime and the tools (never
 * installed; names use the sw__ prefix): the round-ups and the running
 * offset with which relocatable blocks, objects in caller memory and job
 * scratch place their aligned parts. */
#ifndef SINEW_SHARED_LAYOUT_H
#define SINEW_SHARED_LAYOUT_H

#include <stdint.h>

/* n rounded up to a multiple of `align`, a power of two. 64-bit so that sums
 * of counts do not wrap; callers narrow after their limit checks. */
static inline uint64_t sw__align_up(uint64_t n, uint64_t align) {
    return (n + align - 1u) & ~(align - 1u);
}

/* n rounded up to 16 bytes, the alignment of poses and of sub-blocks. */
static inline uint64_t sw__align16(uint64_t n) {
    return sw__align_up(n, 16u);
}

/* Places a part of `bytes` at the running offset *at: returns that offset
 * and moves *at past the part, rounded up to `align`. */
static inline uint64_t sw__layout_take(uint64_t* at, uint64_t bytes, uint64_t align) {
    const uint64_t here = *at;
    *at = sw__align_up(here + bytes, align);
    return here;
}

#endif
