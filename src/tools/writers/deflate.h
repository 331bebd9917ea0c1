/* src/tools/writers/deflate.h: zlib streams for the PNG writer (private to
 * the tools; RFC 1950 around RFC 1951). */
#ifndef SINEW_TOOLS_DEFLATE_H
#define SINEW_TOOLS_DEFLATE_H

#include "sinew/core/base.h"

/* Most bytes sw__zlib_encode writes for `n` input bytes: the zlib header,
 * the data in stored blocks of at most 65535 bytes, the Adler-32. */
size_t sw__zlib_bound(size_t n);

/* Writes the `n` bytes at `src` as one zlib stream into `dst` (room for
 * sw__zlib_bound(n) bytes): LZ77 matches in a 32 KiB window coded with
 * deflate's fixed Huffman codes, or stored blocks when those come out no
 * smaller. The match finder's tables (about 200 KiB) come from `alloc`
 * (NULL: libc) and are freed before it returns. Returns the bytes written,
 * 0 when the tables could not be allocated. */
size_t sw__zlib_encode(const uint8_t* src, size_t n, uint8_t* dst, const sw_allocator* alloc);

#endif
