/* zlib streams for the PNG writer: greedy LZ77 over deflate's 32 KiB window,
 * coded with the fixed Huffman codes of RFC 1951 (3.2.6), and stored blocks
 * when that is no smaller. */
#include "deflate.h"

#include <string.h>

#include "sinew/tools/writers/png.h"

#define SW__WINDOW 32768u  /* deflate's largest distance */
#define SW__HASH_BITS 15u  /* heads of the 3-byte hash chains */
#define SW__CHAIN 48u      /* earlier positions tried per match */
#define SW__MIN_MATCH 3u   /* deflate's shortest and longest match */
#define SW__MAX_MATCH 258u /* */
#define SW__STORED 65535u  /* bytes of a stored block at most */

/* Length codes 257..285 and distance codes 0..29: base and extra bits. */
static const uint16_t sw__length_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                             15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                             67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t sw__length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                             2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t sw__distance_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t sw__distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                               6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

size_t sw__zlib_bound(size_t n) {
    const size_t blocks = n == 0 ? 1u : (n + SW__STORED - 1u) / SW__STORED;
    return 2u + n + 5u * blocks + 4u;
}

/* Bits packed least significant first, as deflate packs them; `full` once
 * a byte would go past `end` (nothing is written past it). */
typedef struct sw__bits {
    uint8_t* p;
    uint8_t* end;
    uint64_t acc;
    uint32_t count;
    bool full;
} sw__bits;

static void sw__put(sw__bits* b, uint32_t value, uint32_t n) {
    b->acc |= (uint64_t)value << b->count;
    b->count += n;
    while (b->count >= 8u) {
        if (b->p == b->end) {
            b->full = true;
            b->acc = 0;
            b->count = 0;
            return;
        }
        *b->p++ = (uint8_t)b->acc;
        b->acc >>= 8;
        b->count -= 8u;
    }
}

/* Huffman codes go out most significant bit first: `code` of `len` bits reversed. */
static uint32_t sw__reversed(uint32_t code, uint32_t len) {
    uint32_t r = 0;
    for (uint32_t i = 0; i < len; ++i, code >>= 1)
        r = (r << 1) | (code & 1u);
    return r;
}

/* Literal/length symbol s (0..287) in the fixed code. */
static void sw__put_symbol(sw__bits* b, uint32_t s) {
    uint32_t code, len;
    if (s < 144u) {
        code = 0x30u + s, len = 8u;
    } else if (s < 256u) {
        code = 0x190u + (s - 144u), len = 9u;
    } else if (s < 280u) {
        code = s - 256u, len = 7u;
    } else {
        code = 0xC0u + (s - 280u), len = 8u;
    }
    sw__put(b, sw__reversed(code, len), len);
}

/* A match: its length code and extra bits, its distance code (5 bits) and extra bits. */
static void sw__put_match(sw__bits* b, uint32_t length, uint32_t distance) {
    uint32_t i = 28u;
    while (sw__length_base[i] > length)
        --i;
    sw__put_symbol(b, 257u + i);
    sw__put(b, length - sw__length_base[i], sw__length_extra[i]);
    uint32_t d = 29u;
    while (sw__distance_base[d] > distance)
        --d;
    sw__put(b, sw__reversed(d, 5u), 5u);
    sw__put(b, distance - sw__distance_base[d], sw__distance_extra[d]);
}

/* Hash chains: head[hash] is the latest position + 1 with that hash (0:
 * none), prev[pos % window] the one before it. */
typedef struct sw__chains {
    uint32_t* head;
    uint32_t* prev;
} sw__chains;

static uint32_t sw__hash(const uint8_t* p) {
    const uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
    return (v * 2654435761u) >> (32u - SW__HASH_BITS);
}

/* Adds position `pos` (3 bytes left at least) to its chain. */
static void sw__insert(const sw__chains* c, const uint8_t* src, size_t pos) {
    const uint32_t h = sw__hash(src + pos);
    c->prev[pos & (SW__WINDOW - 1u)] = c->head[h];
    c->head[h] = (uint32_t)pos + 1u;
}

/* The longest earlier match of src[pos..] within the window (its distance
 * in *distance), over the first SW__CHAIN candidates; 0 when none. */
static uint32_t sw__longest(const sw__chains* c, const uint8_t* src, size_t n, size_t pos,
                            uint32_t* distance) {
    const size_t max = n - pos < SW__MAX_MATCH ? n - pos : SW__MAX_MATCH;
    size_t best = 0;
    uint32_t cand = c->head[sw__hash(src + pos)];
    for (uint32_t tries = 0; cand != 0 && tries < SW__CHAIN; ++tries) {
        const size_t at = cand - 1u;
        if (pos - at > SW__WINDOW) break;
        if (src[at + best] == src[pos + best]) {
            size_t len = 0;
            while (len < max && src[at + len] == src[pos + len])
                ++len;
            if (len > best) {
                best = len;
                *distance = (uint32_t)(pos - at);
                if (len == max) break;
            }
        }
        cand = c->prev[at & (SW__WINDOW - 1u)];
    }
    return (uint32_t)best;
}

/* One final block with the fixed codes into dst[0..cap); its size, or 0
 * when it does not fit. */
static size_t sw__fixed_block(const sw__chains* c, const uint8_t* src, size_t n, uint8_t* dst,
                              size_t cap) {
    sw__bits b = {.p = dst, .end = dst + cap};
    sw__put(&b, 1u, 1u); /* BFINAL */
    sw__put(&b, 1u, 2u); /* BTYPE 01: fixed Huffman codes */
    size_t pos = 0;
    while (pos < n && !b.full) {
        uint32_t len = 0, distance = 0;
        if (n - pos >= SW__MIN_MATCH) {
            len = sw__longest(c, src, n, pos, &distance);
            sw__insert(c, src, pos);
        }
        if (len < SW__MIN_MATCH) {
            sw__put_symbol(&b, src[pos++]);
            continue;
        }
        sw__put_match(&b, len, distance);
        for (size_t k = pos + 1u; k < pos + len && n - k >= SW__MIN_MATCH; ++k)
            sw__insert(c, src, k);
        pos += len;
    }
    sw__put_symbol(&b, 256u); /* end of block */
    if (b.count > 0) sw__put(&b, 0, 8u - b.count);
    return b.full ? 0 : (size_t)(b.p - dst);
}

/* Stored blocks of all n bytes into dst; their size. */
static size_t sw__stored_blocks(const uint8_t* src, size_t n, uint8_t* dst) {
    uint8_t* z = dst;
    size_t left = n;
    do {
        const size_t k = left < SW__STORED ? left : SW__STORED;
        left -= k;
        *z++ = left == 0 ? 1u : 0u; /* BFINAL, BTYPE 00 (stored) */
        z[0] = (uint8_t)(k & 0xFFu);
        z[1] = (uint8_t)(k >> 8);
        z[2] = (uint8_t)(~k & 0xFFu);
        z[3] = (uint8_t)((~k >> 8) & 0xFFu);
        z += 4;
        if (k > 0) memcpy(z, src, k);
        z += k;
        src += k;
    } while (left > 0);
    return (size_t)(z - dst);
}

size_t sw__zlib_encode(const uint8_t* src, size_t n, uint8_t* dst, const sw_allocator* alloc) {
    const size_t stored = sw__zlib_bound(n) - 6u;
    dst[0] = 0x78; /* deflate, 32 KiB window */
    dst[1] = 0x01; /* no dictionary; (0x78 * 256 + 0x01) % 31 == 0 */
    size_t body = 0;
    if (n >= SW__MIN_MATCH && n < UINT32_MAX) {
        const size_t heads = (size_t)1u << SW__HASH_BITS;
        const size_t bytes = (heads + SW__WINDOW) * sizeof(uint32_t);
        uint32_t* tables = (uint32_t*)sw_alloc(alloc, bytes, 16);
        if (!tables) return 0;
        memset(tables, 0, heads * sizeof(uint32_t));
        const sw__chains c = {.head = tables, .prev = tables + heads};
        body = sw__fixed_block(&c, src, n, dst + 2, stored);
        sw_free(alloc, tables, bytes);
    }
    if (body == 0) body = sw__stored_blocks(src, n, dst + 2);
    const uint32_t adler = sw_adler32(1u, src, n);
    uint8_t* t = dst + 2 + body;
    t[0] = (uint8_t)(adler >> 24);
    t[1] = (uint8_t)(adler >> 16);
    t[2] = (uint8_t)(adler >> 8);
    t[3] = (uint8_t)adler;
    return 2u + body + 4u;
}
