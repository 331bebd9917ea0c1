/* PNG writer: stored deflate blocks, CRC-32 per chunk, Adler-32 (no zlib). */
#include "sinew/tools/writers/png.h"

#include <string.h>

#include "sinew/core/archive.h"
#include "sinew/tools/writers/file.h"

#define SW__PNG_BLOCK 65535u

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

static size_t sw__png_blocks(size_t raw) {
    return raw == 0 ? 1 : (raw + SW__PNG_BLOCK - 1) / SW__PNG_BLOCK;
}

size_t sw_png_size(const sw_png_image* img) {
    if (sw__png_check(img) != SW_RESULT_OK) return 0;
    const size_t raw = sw__png_raw(img);
    const size_t zlib = 2 + raw + 5 * sw__png_blocks(raw) + 4;
    size_t n = 8 + 25 + 12 + zlib + 12;
    if (img->format == SW_PNG_FORMAT_INDEXED) n += 12 + 3u * (size_t)img->palette_count;
    return n;
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

sw_result sw_png_encode(const sw_png_image* img, const sw_allocator* alloc, void** out_data,
                        size_t* out_size) {
    if (!out_data || !out_size) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__png_check(img);
    if (r != SW_RESULT_OK) return r;
    const size_t size = sw_png_size(img);
    uint8_t* buf = (uint8_t*)sw_alloc(alloc, size, 16);
    if (!buf) return SW_RESULT_OUT_OF_MEMORY;
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

    const size_t raw = sw__png_raw(img);
    const size_t zlib = 2 + raw + 5 * sw__png_blocks(raw) + 4;
    d = sw__chunk_begin(p, zlib, "IDAT");
    uint8_t* z = d;
    *z++ = 0x78; /* deflate, 32 KiB window */
    *z++ = 0x01; /* no dictionary, fastest; (0x78 * 256 + 0x01) % 31 == 0 */
    const size_t row = (size_t)img->width * sw__png_bpp(img->format);
    size_t left = raw; /* bytes of the filtered image still to store */
    size_t in_row = 0; /* position inside the current row (0: the filter byte) */
    const uint8_t* src = img->pixels;
    uint32_t adler = 1;
    while (left > 0) {
        const size_t n = left < SW__PNG_BLOCK ? left : SW__PNG_BLOCK;
        left -= n;
        *z++ = left == 0 ? 1 : 0; /* BFINAL, BTYPE 00 (stored) */
        z[0] = (uint8_t)(n & 0xFF);
        z[1] = (uint8_t)(n >> 8);
        z[2] = (uint8_t)(~n & 0xFF);
        z[3] = (uint8_t)((~n >> 8) & 0xFF);
        z += 4;
        uint8_t* block = z;
        size_t k = n;
        while (k > 0) {
            if (in_row == 0) {
                *z++ = 0; /* filter: none */
                --k;
                in_row = 1;
                continue;
            }
            size_t take = row - (in_row - 1);
            if (take > k) take = k;
            memcpy(z, src, take);
            z += take;
            src += take;
            k -= take;
            in_row += take;
            if (in_row == row + 1) in_row = 0;
        }
        adler = sw_adler32(adler, block, n);
    }
    z = sw__put32(z, adler);
    p = sw__chunk_end(d, zlib);

    d = sw__chunk_begin(p, 0, "IEND");
    p = sw__chunk_end(d, 0);
    SINEW_ASSERT((size_t)(p - buf) == size);
    (void)z;
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
