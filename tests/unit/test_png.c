/* PNG writer: checksums against known values and naive versions, the file
 * taken apart by a reader written here (chunks, CRCs, stored deflate blocks,
 * Adler-32), and decoded independently by Python's zlib when available. */
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

/* Takes a PNG apart: signature, chunk CRCs, IHDR, optional PLTE, one or more
 * IDAT, IEND; unpacks the stored deflate stream, checks its Adler-32, removes
 * the filter bytes (all 0) and returns the pixels (malloc'd). */
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
    uint8_t* raw = (uint8_t*)malloc(z_size);
    size_t raw_size = 0, p = 2;
    for (;;) {
        assert_true(z_size - p >= 5);
        const uint8_t hdr = z[p];
        assert_int_equal(hdr & 6, 0); /* stored */
        const uint32_t n = z[p + 1] | (uint32_t)z[p + 2] << 8;
        const uint32_t nn = z[p + 3] | (uint32_t)z[p + 4] << 8;
        assert_int_equal(n ^ 0xFFFFu, nn);
        p += 5;
        assert_true(z_size - p >= n);
        memcpy(raw + raw_size, z + p, n);
        raw_size += n;
        p += n;
        if (hdr & 1) break;
    }
    assert_int_equal(z_size - p, 4);
    assert_int_equal(get32(z + p), naive_adler32(raw, raw_size));
    const uint32_t bpp = *color_type == 2 ? 3u : *color_type == 6 ? 4u : 1u;
    const size_t row = (size_t)*w * bpp;
    assert_int_equal(raw_size, (size_t)*h * (row + 1));
    uint8_t* px = (uint8_t*)malloc((size_t)*h * row);
    for (uint32_t y = 0; y < *h; ++y) {
        assert_int_equal(raw[y * (row + 1)], 0);
        memcpy(px + y * row, raw + y * (row + 1) + 1, row);
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
    assert_int_equal(size, sw_png_size(&img));
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
    char cmd[1024];
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
             "row = 1 + 3 * w\n"
             "px = b\"\".join(raw[y * row + 1:(y + 1) * row] for y in range(h))\n"
             "sys.exit(0 if (w, h, sum(px)) == (%d, %d, %llu) else 4)\n"
             "' %s",
             W, H, (unsigned long long)sum, path);
    assert_int_equal(system(cmd), 0);
    remove(path);
    free(px);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adler32),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_validity),
        cmocka_unit_test(test_python_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
