/* PNG writer: filtered rows, a zlib stream (deflate.c), CRC-32 per chunk (no zlib). */
#include "sinew/tools/writers/png.h"

#include <stdlib.h>
#include <string.h>

#include "deflate.h"
#include "sinew/core/archive.h"
#include "sinew/tools/writers/file.h"

uint32_t sw_adler32(uint32_t adler, const void* data, size_t size) {
    const uint8_t* p = (const uint8_t*)data;
    uint32_t a = adler & 0xFFFFu, b = adler >> 16;
    while (size > 0) {
        /* 5552 bytes keep b below 2^32 before the modulo (zlib's NMAX). */
        size_t n = size < 5552u ? size : 5552u;
        size -= n;
        while (n-- > 0) {
            a += *p++;
            b += a;
        }
        a %= 65521u;
        b %= 65521u;
    }
    return (b << 16) | a;
}

static uint32_t sw__png_bpp(sw_png_format f) {
    switch (f) {
    case SW_PNG_FORMAT_DEFAULT:
    case SW_PNG_FORMAT_RGB:
        return 3;
    case SW_PNG_FORMAT_RGBA:
        return 4;
    case SW_PNG_FORMAT_GRAY:
    case SW_PNG_FORMAT_INDEXED:
        return 1;
    }
    return 0;
}

static sw_result sw__png_check(const sw_png_image* img) {
    if (!img || !img->pixels) return SW_RESULT_INVALID_ARGUMENT;
    if (sw__png_bpp(img->format) == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (img->format == SW_PNG_FORMAT_INDEXED &&
        (!img->palette || img->palette_count == 0 || img->palette_count > 256))
        return SW_RESULT_INVALID_ARGUMENT;
    if (img->width == 0 || img->height == 0 || img->width > SW_PNG_MAX_SIDE ||
        img->height > SW_PNG_MAX_SIDE)
        return SW_RESULT_LIMIT;
    if (img->format == SW_PNG_FORMAT_INDEXED) {
        const size_t n = (size_t)img->width * img->height;
        for (size_t i = 0; i < n; ++i)
            if (img->pixels[i] >= img->palette_count) return SW_RESULT_BAD_DATA;
    }
    return SW_RESULT_OK;
}

static size_t sw__png_raw(const sw_png_image* img) {
    return (size_t)img->height * (1u + (size_t)img->width * sw__png_bpp(img->format));
}

/* Bytes of the PNG around a zlib stream of `zlib` bytes. */
static size_t sw__png_file(const sw_png_image* img, size_t zlib) {
    size_t n = 8 + 25 + 12 + zlib + 12;
    if (img->format == SW_PNG_FORMAT_INDEXED) n += 12 + 3u * (size_t)img->palette_count;
    return n;
}

size_t sw_png_size(const sw_png_image* img) {
    if (sw__png_check(img) != SW_RESULT_OK) return 0;
    return sw__png_file(img, sw__zlib_bound(sw__png_raw(img)));
}

static uint8_t* sw__put32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
    return p + 4;
}

/* Writes the chunk's length and type; returns where its data starts. */
static uint8_t* sw__chunk_begin(uint8_t* p, size_t length, const char* type) {
    p = sw__put32(p, (uint32_t)length);
    memcpy(p, type, 4);
    return p + 4;
}

/* Appends the CRC of type and data (the 4 bytes before `data` and `length` bytes). */
static uint8_t* sw__chunk_end(uint8_t* data, size_t length) {
    const uint32_t crc = sw_crc32(0, data - 4, length + 4);
    return sw__put32(data + length, crc);
}

/* PNG's Paeth predictor of a byte from its left (a), upper (b) and upper-left (c) neighbours. */
static uint32_t sw__paeth(uint32_t a, uint32_t b, uint32_t c) {
    const int32_t p = (int32_t)a + (int32_t)b - (int32_t)c;
    const int32_t pa = abs(p - (int32_t)a), pb = abs(p - (int32_t)b), pc = abs(p - (int32_t)c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* A row (`row` bytes at cur; the row above at up, NULL for the first) with
 * filter type f (0 none, 1 sub, 2 up, 3 average, 4 Paeth) into out; returns
 * the sum of the filtered bytes' magnitudes as signed bytes. */
static size_t sw__filter_row(uint32_t f, const uint8_t* cur, const uint8_t* up, size_t row,
                             uint32_t bpp, uint8_t* out) {
    size_t cost = 0;
    for (size_t i = 0; i < row; ++i) {
        const uint32_t a = i >= bpp ? cur[i - bpp] : 0u, b = up ? up[i] : 0u;
        const uint32_t c = up && i >= bpp ? up[i - bpp] : 0u;
        const uint32_t pred = f == 1u   ? a
                              : f == 2u ? b
                              : f == 3u ? (a + b) / 2u
                              : f == 4u ? sw__paeth(a, b, c)
                                        : 0u;
        out[i] = (uint8_t)(cur[i] - pred);
        cost += (size_t)abs((int32_t)(int8_t)out[i]);
    }
    return cost;
}

/* The filtered image (per row a filter byte, then the row) into out (raw
 * bytes), each row with the filter whose bytes are smallest as signed
 * values (indexed images: none, as PNG advises); trial holds one row. */
static void sw__png_filter(const sw_png_image* img, uint8_t* out, uint8_t* trial) {
    const uint32_t bpp = sw__png_bpp(img->format);
    const size_t row = (size_t)img->width * bpp;
    const uint32_t filters = img->format == SW_PNG_FORMAT_INDEXED ? 1u : 5u;
    for (uint32_t y = 0; y < img->height; ++y) {
        const uint8_t* cur = img->pixels + (size_t)y * row;
        const uint8_t* up = y > 0 ? cur - row : NULL;
        uint8_t* o = out + (size_t)y * (row + 1u);
        size_t best = SIZE_MAX;
        for (uint32_t f = 0; f < filters; ++f) {
            const size_t cost = sw__filter_row(f, cur, up, row, bpp, trial);
            if (cost >= best) continue;
            best = cost;
            o[0] = (uint8_t)f;
            memcpy(o + 1, trial, row);
        }
    }
}

/* The PNG of `img` around the zlib stream z (`zlib` bytes) into buf (`size` bytes). */
static void sw__png_assemble(const sw_png_image* img, const uint8_t* z, size_t zlib, uint8_t* buf,
                             size_t size) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    static const uint8_t color_type[] = {2, 2, 6, 0, 3};
    uint8_t* p = buf;
    memcpy(p, signature, 8);
    p += 8;

    uint8_t* d = sw__chunk_begin(p, 13, "IHDR");
    sw__put32(d, img->width);
    sw__put32(d + 4, img->height);
    d[8] = 8; /* bit depth */
    d[9] = color_type[img->format];
    d[10] = 0; /* deflate */
    d[11] = 0; /* adaptive filtering */
    d[12] = 0; /* no interlace */
    p = sw__chunk_end(d, 13);

    if (img->format == SW_PNG_FORMAT_INDEXED) {
        const size_t n = 3u * (size_t)img->palette_count;
        d = sw__chunk_begin(p, n, "PLTE");
        memcpy(d, img->palette, n);
        p = sw__chunk_end(d, n);
    }

    d = sw__chunk_begin(p, zlib, "IDAT");
    memcpy(d, z, zlib);
    p = sw__chunk_end(d, zlib);

    d = sw__chunk_begin(p, 0, "IEND");
    p = sw__chunk_end(d, 0);
    SINEW_ASSERT((size_t)(p - buf) == size);
    (void)size;
}

sw_result sw_png_encode(const sw_png_image* img, const sw_allocator* alloc, void** out_data,
                        size_t* out_size) {
    if (!out_data || !out_size) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__png_check(img);
    if (r != SW_RESULT_OK) return r;
    const size_t raw = sw__png_raw(img), row = raw / img->height - 1u;
    const size_t filtered_bytes = raw + row, bound = sw__zlib_bound(raw);
    uint8_t* filtered = (uint8_t*)sw_alloc(alloc, filtered_bytes, 16);
    uint8_t* z = (uint8_t*)sw_alloc(alloc, bound, 16);
    size_t zlib = 0;
    if (filtered && z) {
        sw__png_filter(img, filtered, filtered + raw);
        zlib = sw__zlib_encode(filtered, raw, z, alloc);
    }
    sw_free(alloc, filtered, filtered_bytes);
    const size_t size = sw__png_file(img, zlib);
    uint8_t* buf = zlib ? (uint8_t*)sw_alloc(alloc, size, 16) : NULL;
    if (buf) sw__png_assemble(img, z, zlib, buf, size);
    sw_free(alloc, z, bound);
    if (!buf) return SW_RESULT_OUT_OF_MEMORY;
    *out_data = buf;
    *out_size = size;
    return SW_RESULT_OK;
}

sw_result sw_png_write_file(const sw_png_image* img, const char* path) {
    if (!path) return SW_RESULT_INVALID_ARGUMENT;
    void* data = NULL;
    size_t size = 0;
    sw_result r = sw_png_encode(img, NULL, &data, &size);
    if (r != SW_RESULT_OK) return r;
    r = sw_file_write_atomic(path, data, size, NULL);
    sw_free(NULL, data, size);
    return r;
}
