/* PNG writer: checksums against known values and naive versions, the file
 * taken apart by a reader written here (chunks, CRCs, an inflater of stored
 * and fixed-code deflate blocks, the five row filters, Adler-32), and decoded
 * independently by Python's zlib when available. */
#define _POSIX_C_SOURCE 200809L
#include "sinew/tools/writers/png.h"

#include <unistd.h>

#include "test_util.h"

static uint32_t rng_state = 12345u;
static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state;
}

/* Bitwise CRC-32 (polynomial 0xEDB88320), independent of sw_crc32's table. */
static uint32_t naive_crc32(const uint8_t* p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; ++i) {
        c ^= p[i];
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t naive_adler32(const uint8_t* p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; ++i) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static uint32_t get32(const uint8_t* p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void test_adler32(void** state) {
    (void)state;
    assert_int_equal(sw_adler32(1, "Wikipedia", 9), 0x11E60398u);
    assert_int_equal(sw_adler32(1, NULL, 0), 1u);
    /* Long runs of 0xFF stress the deferred modulo. */
    const size_t n = 100000;
    uint8_t* buf = (uint8_t*)malloc(n);
    assert_non_null(buf);
    memset(buf, 0xFF, n);
    assert_int_equal(sw_adler32(1, buf, n), naive_adler32(buf, n));
    for (size_t i = 0; i < n; ++i)
        buf[i] = (uint8_t)(next_rand() >> 24);
    assert_int_equal(sw_adler32(1, buf, n), naive_adler32(buf, n));
    /* Continuing equals one pass. */
    assert_int_equal(sw_adler32(sw_adler32(1, buf, 777), buf + 777, n - 777),
                     naive_adler32(buf, n));
    free(buf);
}

/* An inflater written for this test (RFC 1951), for the two block kinds
 * sw_png_encode writes: stored and fixed Huffman codes. */
typedef struct in_bits {
    const uint8_t* p;
    size_t n, at;
    uint32_t bit;
} in_bits;

static uint32_t get_bit(in_bits* b) {
    assert_true(b->at < b->n);
    const uint32_t v = (b->p[b->at] >> b->bit) & 1u;
    if (++b->bit == 8u) b->bit = 0, ++b->at;
    return v;
}

static uint32_t get_bits(in_bits* b, uint32_t n) {
    uint32_t v = 0;
    for (uint32_t i = 0; i < n; ++i)
        v |= get_bit(b) << i;
    return v;
}

/* A literal/length symbol of the fixed code, its bits read most significant first. */
static uint32_t get_fixed_symbol(in_bits* b) {
    uint32_t code = 0;
    for (uint32_t len = 1; len <= 9u; ++len) {
        code = (code << 1) | get_bit(b);
        if (len == 7u && code <= 23u) return 256u + code;
        if (len == 8u && code >= 0x30u && code <= 0xBFu) return code - 0x30u;
        if (len == 8u && code >= 0xC0u && code <= 0xC7u) return 280u + code - 0xC0u;
        if (len == 9u && code >= 0x190u) return 144u + code - 0x190u;
    }
    fail_msg("no fixed-code symbol");
    return 0;
}

/* Base and extra bits of length code i (0..28) or distance code i (0..29),
 * built from RFC 1951's rule (each code's range follows the previous one). */
static uint32_t code_base(bool distance, uint32_t i, uint32_t* extra) {
    uint32_t base = distance ? 1u : 3u;
    for (uint32_t k = 0;; ++k) {
        const uint32_t e = distance ? (k < 4u ? 0u : (k - 2u) / 2u) : (k < 8u ? 0u : (k - 4u) / 4u);
        if (k == i && !distance && i == 28u) {
            *extra = 0; /* 258, the longest match, has a code of its own */
            return 258u;
        }
        if (k == i) {
            *extra = e;
            return base;
        }
        base += 1u << e;
    }
}

/* Inflates the deflate data at z into a malloc'd buffer (*out_n bytes);
 * *used gets the bytes of z it took. */
static uint8_t* inflate_all(const uint8_t* z, size_t n, size_t* out_n, size_t* used) {
    in_bits b = {.p = z, .n = n};
    size_t cap = 1024, len = 0;
    uint8_t* out = (uint8_t*)malloc(cap);
    for (bool final = false; !final;) {
        final = get_bits(&b, 1) != 0;
        const uint32_t type = get_bits(&b, 2);
        assert_true(type == 0 || type == 1); /* stored or fixed: what the writer emits */
        if (type == 0) {
            if (b.bit) b.bit = 0, ++b.at;
            assert_true(b.n - b.at >= 4);
            const uint32_t k = b.p[b.at] | (uint32_t)b.p[b.at + 1] << 8;
            assert_int_equal(k ^ 0xFFFFu, b.p[b.at + 2] | (uint32_t)b.p[b.at + 3] << 8);
            b.at += 4;
            assert_true(b.n - b.at >= k);
            while (len + k > cap)
                out = (uint8_t*)realloc(out, cap *= 2);
            memcpy(out + len, b.p + b.at, k);
            len += k, b.at += k;
            continue;
        }
        for (;;) {
            const uint32_t s = get_fixed_symbol(&b);
            if (s == 256u) break;
            uint32_t extra = 0, copy = 1, dist = 0;
            if (s > 256u) {
                assert_true(s <= 285u);
                copy = code_base(false, s - 257u, &extra);
                copy += get_bits(&b, extra);
                uint32_t d = 0;
                for (uint32_t i = 0; i < 5u; ++i)
                    d = (d << 1) | get_bit(&b);
                assert_true(d < 30u);
                dist = code_base(true, d, &extra);
                dist += get_bits(&b, extra);
                assert_true(dist <= len && dist <= 32768u);
            }
            while (len + copy > cap)
                out = (uint8_t*)realloc(out, cap *= 2);
            for (uint32_t i = 0; i < copy; ++i, ++len)
                out[len] = s < 256u ? (uint8_t)s : out[len - dist];
        }
    }
    if (b.bit) ++b.at;
    *out_n = len;
    *used = b.at;
    return out;
}

/* PNG's five filters undone on row `cur` (the row above `up`, NULL first). */
static void unfilter_row(uint8_t type, uint8_t* cur, const uint8_t* up, size_t row, uint32_t bpp) {
    assert_true(type <= 4);
    for (size_t i = 0; i < row; ++i) {
        const int a = i >= bpp ? cur[i - bpp] : 0, b = up ? up[i] : 0;
        const int c = up && i >= bpp ? up[i - bpp] : 0;
        const int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
        const int paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
        const int pred = type == 1   ? a
                         : type == 2 ? b
                         : type == 3 ? (a + b) / 2
                         : type == 4 ? paeth
                                     : 0;
        cur[i] = (uint8_t)(cur[i] + pred);
    }
}

/* Takes a PNG apart: signature, chunk CRCs, IHDR, optional PLTE, one or more
 * IDAT, IEND; inflates the zlib stream, checks its Adler-32, undoes the
 * row filters and returns the pixels (malloc'd). */
static uint8_t* decode(const uint8_t* png, size_t size, uint32_t* w, uint32_t* h,
                       uint8_t* color_type, uint8_t* palette, uint32_t* palette_count) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    assert_true(size > 8);
    assert_memory_equal(png, sig, 8);
    size_t at = 8;
    uint8_t* z = NULL;
    size_t z_size = 0;
    bool ended = false;
    *palette_count = 0;
    while (at < size) {
        assert_true(size - at >= 12);
        const uint32_t len = get32(png + at);
        assert_true(len <= size - at - 12);
        const uint8_t* type = png + at + 4;
        const uint8_t* data = png + at + 8;
        assert_int_equal(get32(data + len), naive_crc32(type, len + 4u));
        if (memcmp(type, "IHDR", 4) == 0) {
            assert_int_equal(len, 13);
            *w = get32(data);
            *h = get32(data + 4);
            assert_int_equal(data[8], 8);
            *color_type = data[9];
            assert_int_equal(data[10], 0);
            assert_int_equal(data[11], 0);
            assert_int_equal(data[12], 0);
        } else if (memcmp(type, "PLTE", 4) == 0) {
            assert_int_equal(len % 3, 0);
            memcpy(palette, data, len);
            *palette_count = len / 3;
        } else if (memcmp(type, "IDAT", 4) == 0) {
            z = (uint8_t*)realloc(z, z_size + len);
            memcpy(z + z_size, data, len);
            z_size += len;
        } else if (memcmp(type, "IEND", 4) == 0) {
            assert_int_equal(len, 0);
            ended = true;
        }
        at += 12u + len;
    }
    assert_true(ended);
    assert_int_equal(at, size);
    assert_non_null(z);
    assert_true(z_size >= 6);
    assert_int_equal((z[0] * 256u + z[1]) % 31u, 0);
    assert_int_equal(z[0] & 0x0F, 8); /* deflate */
    size_t raw_size = 0, used = 0;
    uint8_t* raw = inflate_all(z + 2, z_size - 2, &raw_size, &used);
    assert_int_equal(z_size - 2 - used, 4);
    assert_int_equal(get32(z + 2 + used), naive_adler32(raw, raw_size));
    const uint32_t bpp = *color_type == 2 ? 3u : *color_type == 6 ? 4u : 1u;
    const size_t row = (size_t)*w * bpp;
    assert_int_equal(raw_size, (size_t)*h * (row + 1));
    uint8_t* px = (uint8_t*)malloc((size_t)*h * row);
    for (uint32_t y = 0; y < *h; ++y) {
        memcpy(px + y * row, raw + y * (row + 1) + 1, row);
        unfilter_row(raw[y * (row + 1)], px + y * row, y ? px + (y - 1) * row : NULL, row, bpp);
    }
    free(raw);
    free(z);
    return px;
}

static void round_trip(uint32_t w, uint32_t h, sw_png_format format, uint8_t expect_type) {
    const uint32_t bpp = format == SW_PNG_FORMAT_RGBA                                        ? 4u
                         : (format == SW_PNG_FORMAT_GRAY || format == SW_PNG_FORMAT_INDEXED) ? 1u
                                                                                             : 3u;
    const size_t n = (size_t)w * h * bpp;
    uint8_t* px = (uint8_t*)malloc(n);
    uint8_t pal[256 * 3];
    for (uint32_t i = 0; i < 256 * 3; ++i)
        pal[i] = (uint8_t)(i * 7u);
    for (size_t i = 0; i < n; ++i)
        px[i] =
            (uint8_t)(format == SW_PNG_FORMAT_INDEXED ? (next_rand() % 200u) : (next_rand() >> 24));
    const sw_png_image img = {.width = w,
                              .height = h,
                              .format = format,
                              .pixels = px,
                              .palette = pal,
                              .palette_count = 200};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_png_encode(&img, NULL, &data, &size), SW_RESULT_OK);
    assert_true(size <= sw_png_size(&img));
    uint32_t dw = 0, dh = 0, pc = 0;
    uint8_t type = 0, dpal[256 * 3];
    uint8_t* back = decode((const uint8_t*)data, size, &dw, &dh, &type, dpal, &pc);
    assert_int_equal(dw, w);
    assert_int_equal(dh, h);
    assert_int_equal(type, expect_type);
    assert_memory_equal(back, px, n);
    if (format == SW_PNG_FORMAT_INDEXED) {
        assert_int_equal(pc, 200);
        assert_memory_equal(dpal, pal, 600);
    } else {
        assert_int_equal(pc, 0);
    }
    free(back);
    sw_free(NULL, data, size);
    free(px);
}

static void test_round_trips(void** state) {
    (void)state;
    round_trip(1, 1, SW_PNG_FORMAT_DEFAULT, 2);
    round_trip(3, 2, SW_PNG_FORMAT_RGB, 2);
    round_trip(5, 4, SW_PNG_FORMAT_RGBA, 6);
    round_trip(7, 3, SW_PNG_FORMAT_GRAY, 0);
    round_trip(9, 9, SW_PNG_FORMAT_INDEXED, 3);
    /* Several deflate blocks: 200 * 150 * 3 + 150 = 90150 bytes; a row
     * straddles the block boundary. */
    round_trip(200, 150, SW_PNG_FORMAT_RGB, 2);
    /* Exactly two full blocks: 10 * (1 + 13106) = 2 * 65535. */
    round_trip(13106, 10, SW_PNG_FORMAT_GRAY, 0);
    round_trip(300, 500, SW_PNG_FORMAT_INDEXED, 3);
}

static void test_validity(void** state) {
    (void)state;
    uint8_t px[4 * 4 * 4] = {0};
    const uint8_t pal[6] = {0, 0, 0, 255, 255, 255};
    const sw_png_image good = {.width = 4,
                               .height = 4,
                               .format = SW_PNG_FORMAT_INDEXED,
                               .pixels = px,
                               .palette = pal,
                               .palette_count = 2};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_png_encode(&good, NULL, &data, &size), SW_RESULT_OK);
    sw_free(NULL, data, size);
    const sw_png_image zero = {0};
    assert_int_equal(sw_png_encode(&zero, NULL, &data, &size), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_png_size(&zero), 0);
    assert_int_equal(sw_png_encode(NULL, NULL, &data, &size), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_png_encode(&good, NULL, NULL, &size), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_png_encode(&good, NULL, &data, NULL), SW_RESULT_INVALID_ARGUMENT);
    struct {
        sw_png_image img;
        sw_result expect;
    } cases[8];
    for (int i = 0; i < 8; ++i)
        cases[i].img = good;
    cases[0].img.pixels = NULL, cases[0].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[1].img.format = (sw_png_format)99, cases[1].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[2].img.palette = NULL, cases[2].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[3].img.palette_count = 0, cases[3].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[4].img.palette_count = 257, cases[4].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[5].img.width = 0, cases[5].expect = SW_RESULT_LIMIT;
    cases[6].img.height = SW_PNG_MAX_SIDE + 1, cases[6].expect = SW_RESULT_LIMIT;
    cases[7].img.palette_count = 1, cases[7].expect = SW_RESULT_BAD_DATA; /* index 1 in px */
    px[5] = 1;
    for (int i = 0; i < 8; ++i) {
        data = (void*)&size;
        assert_int_equal(sw_png_encode(&cases[i].img, NULL, &data, &size), cases[i].expect);
        assert_ptr_equal(data, (void*)&size); /* untouched */
        assert_int_equal(sw_png_size(&cases[i].img), 0);
        assert_int_equal(sw_png_write_file(&cases[i].img, "/nonexistent-dir/x.png"),
                         cases[i].expect);
    }
    /* RGB ignores the palette fields. */
    sw_png_image rgb = {.width = 2, .height = 2, .pixels = px};
    assert_int_equal(sw_png_encode(&rgb, NULL, &data, &size), SW_RESULT_OK);
    sw_free(NULL, data, size);
    assert_int_equal(sw_png_write_file(&rgb, "/nonexistent-dir/x.png"), SW_RESULT_IO);
    assert_int_equal(sw_png_write_file(&rgb, NULL), SW_RESULT_INVALID_ARGUMENT);
}

/* A picture like the renders (flat background, filled rectangles, a
 * gradient band) shrinks to under 2% of its pixels and decodes back. */
static void test_compresses(void** state) {
    (void)state;
    enum { W = 640, H = 480 };
    uint8_t* px = (uint8_t*)malloc((size_t)W * H * 3);
    for (uint32_t y = 0; y < H; ++y) {
        for (uint32_t x = 0; x < W; ++x) {
            uint8_t* q = px + ((size_t)y * W + x) * 3;
            const bool box = x >= 100 && x < 300 && y >= 50 && y < 200;
            const bool band = y >= 300 && y < 340;
            q[0] = box ? 200 : band ? (uint8_t)(x / 3) : 40;
            q[1] = box ? 80 : band ? (uint8_t)y : 44;
            q[2] = box ? 60 : band ? 128 : 52;
        }
    }
    const sw_png_image img = {.width = W, .height = H, .pixels = px};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_png_encode(&img, NULL, &data, &size), SW_RESULT_OK);
    print_message("640x480 picture: %zu bytes (pixels %u)\n", size, W * H * 3);
    assert_true(size < (size_t)W * H * 3 / 50);
    uint32_t dw = 0, dh = 0, pc = 0;
    uint8_t type = 0, pal[256 * 3];
    uint8_t* back = decode((const uint8_t*)data, size, &dw, &dh, &type, pal, &pc);
    assert_int_equal(dw, W);
    assert_int_equal(dh, H);
    assert_memory_equal(back, px, (size_t)W * H * 3);
    free(back);
    sw_free(NULL, data, size);
    free(px);
}

/* Python's zlib, an independent inflater, decodes what we wrote. */
static void test_python_decodes(void** state) {
    (void)state;
    if (system("python3 -c 'import zlib' >/dev/null 2>&1") != 0) {
        print_message("skipped: python3 with zlib not found\n");
        return;
    }
    enum { W = 37, H = 2000 };
    uint8_t* px = (uint8_t*)malloc(W * H * 3);
    uint64_t sum = 0;
    for (size_t i = 0; i < W * H * 3; ++i) {
        px[i] = (uint8_t)(i * 13u + (i >> 7));
        sum += px[i];
    }
    char path[256];
    snprintf(path, sizeof path, "/tmp/sinew_test_png_%d.png", (int)getpid());
    const sw_png_image img = {.width = W, .height = H, .pixels = px};
    assert_int_equal(sw_png_write_file(&img, path), SW_RESULT_OK);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "python3 -c '\n"
             "import struct, sys, zlib\n"
             "b = open(sys.argv[1], \"rb\").read()\n"
             "at, idat, w, h = 8, b\"\", 0, 0\n"
             "while at < len(b):\n"
             "    n, t = struct.unpack(\">I4s\", b[at:at + 8])\n"
             "    d = b[at + 8:at + 8 + n]\n"
             "    if zlib.crc32(t + d) != struct.unpack(\">I\", b[at + 8 + n:at + 12 + n])[0]: "
             "sys.exit(3)\n"
             "    if t == b\"IHDR\": w, h = struct.unpack(\">II\", d[:8])\n"
             "    if t == b\"IDAT\": idat += d\n"
             "    at += 12 + n\n"
             "raw = zlib.decompress(idat)\n"
             "row, prev, total = 3 * w, bytearray(3 * w), 0\n"
             "for y in range(h):\n"
             "    f = raw[y * (row + 1)]\n"
             "    cur = bytearray(raw[y * (row + 1) + 1:(y + 1) * (row + 1)])\n"
             "    for i in range(row):\n"
             "        a, b = (cur[i - 3] if i >= 3 else 0), prev[i]\n"
             "        c = prev[i - 3] if i >= 3 else 0\n"
             "        q = a + b - c\n"
             "        pa, pb, pc = abs(q - a), abs(q - b), abs(q - c)\n"
             "        paeth = a if pa <= pb and pa <= pc else (b if pb <= pc else c)\n"
             "        cur[i] = (cur[i] + [0, a, b, (a + b) // 2, paeth][f]) & 255\n"
             "    total, prev = total + sum(cur), cur\n"
             "sys.exit(0 if (w, h, total) == (%d, %d, %llu) else 4)\n"
             "' %s",
             W, H, (unsigned long long)sum, path);
    assert_int_equal(system(cmd), 0);
    remove(path);
    free(px);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adler32),        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_validity),       cmocka_unit_test(test_compresses),
        cmocka_unit_test(test_python_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
