/* sinew/tools/writers/png.h: writing PNG images (no zlib).
 *
 * Each row is filtered with the PNG filter (none, sub, up, average, Paeth)
 * whose bytes come out smallest (indexed images: none), and the rows go into
 * one zlib stream: LZ77 matches in deflate's 32 KiB window with deflate's
 * fixed Huffman codes, or stored blocks when that is no smaller; each chunk
 * has its CRC-32 (sw_crc32 of sinew/core/archive.h). Rendered pictures with
 * flat areas shrink to a few percent of their pixels; noise stays about as
 * large as the pixels (the bound is sw_png_size).
 */
#ifndef SINEW_TOOLS_PNG_H
#define SINEW_TOOLS_PNG_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_PNG_MAX_SIDE 16384u

typedef enum sw_png_format {
    SW_PNG_FORMAT_DEFAULT = 0, /* RGB */
    SW_PNG_FORMAT_RGB,         /* 3 bytes per pixel */
    SW_PNG_FORMAT_RGBA,        /* 4 bytes per pixel, straight alpha */
    SW_PNG_FORMAT_GRAY,        /* 1 byte per pixel */
    SW_PNG_FORMAT_INDEXED      /* 1 byte per pixel: an index into `palette` */
} sw_png_format;

typedef struct sw_png_image {
    uint32_t width, height; /* 1..SW_PNG_MAX_SIDE */
    sw_png_format format;
    const uint8_t* pixels;  /* rows top to bottom, width * bytes per pixel each, no padding */
    const uint8_t* palette; /* INDEXED: palette_count RGB triples */
    uint32_t palette_count; /* INDEXED: 1..256; every pixel index must be below it */
} sw_png_image;

/* The most bytes of the PNG sw_png_encode writes for `img` (its pixels
 * stored uncompressed), or 0 when it is invalid. */
SINEW_API size_t sw_png_size(const sw_png_image* img);

/* Encodes `img` as a PNG into memory allocated with `alloc` (NULL: libc);
 * free with sw_free(alloc, *out_data, *out_size).
 * Fails: INVALID_ARGUMENT (NULL arguments, unknown format, a palette
 * missing or of 0 or more than 256 entries for INDEXED); LIMIT (a side of 0
 * or above SW_PNG_MAX_SIDE); BAD_DATA (an index at or above palette_count);
 * OUT_OF_MEMORY (the encoder also takes about 256 KiB and twice the pixels
 * from `alloc` while it runs). */
SINEW_API sw_result sw_png_encode(const sw_png_image* img, const sw_allocator* alloc,
                                  void** out_data, size_t* out_size);

/* sw_png_encode to the file at `path`, through sw_file_write_atomic (a
 * failure never leaves a partial file).
 * Fails: as sw_png_encode, plus IO. */
SINEW_API sw_result sw_png_write_file(const sw_png_image* img, const char* path);

/* Adler-32 (zlib's checksum) of `size` bytes continuing from `adler` (1 to start). */
SINEW_API uint32_t sw_adler32(uint32_t adler, const void* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
