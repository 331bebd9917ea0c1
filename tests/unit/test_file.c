/* Reading whole files: bytes equal to what was written, an empty file, a
 * missing file (ENOENT), the size limit (checked before reading: a sparse
 * 3 GiB file), every allocation freed with its own size; FIFOs, devices and
 * directories refused without blocking; the first bytes alone
 * (sw_file_read_head); and sw_bvh_read_file against sw_bvh_read on the same
 * text. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/writers/file.h"

/* An allocator that counts the bytes outstanding (frees must give the size). */
typedef struct counting {
    long long bytes;
    int blocks;
} counting;

static void* counting_alloc(void* user, size_t size, size_t align) {
    counting* c = (counting*)user;
    void* p = aligned_alloc(align, (size + align - 1u) / align * align);
    if (p) {
        c->bytes += (long long)size;
        c->blocks++;
    }
    return p;
}

static void counting_free(void* user, void* ptr, size_t size) {
    counting* c = (counting*)user;
    c->bytes -= (long long)size;
    c->blocks--;
    free(ptr);
}

static unsigned char pattern(size_t i) {
    return (unsigned char)((i * 131u + (i >> 9)) & 0xFFu);
}

static void temp_path(char* buf, size_t cap, const char* name) {
    snprintf(buf, cap, "/tmp/sinew_test_file_%ld_%s", (long)getpid(), name);
}

static void write_pattern(const char* path, size_t n) {
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < n; ++i)
        assert_int_equal(fputc(pattern(i), f), pattern(i));
    assert_int_equal(fclose(f), 0);
}

static void check_pattern(const void* data, size_t n) {
    const unsigned char* p = (const unsigned char*)data;
    for (size_t i = 0; i < n; ++i) {
        if (p[i] != pattern(i)) fail_msg("byte %zu is %u, wrote %u", i, p[i], pattern(i));
    }
}

static void test_regular_and_empty(void** state) {
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "regular");
    const size_t n = 300001u;
    write_pattern(path, n);
    counting c = {0, 0};
    const sw_allocator alloc = {counting_alloc, counting_free, &c};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_file_read(path, SIZE_MAX, &alloc, &data, &size, NULL), SW_RESULT_OK);
    assert_int_equal(size, n);
    assert_int_equal((uintptr_t)data % 16u, 0);
    check_pattern(data, n);
    assert_int_equal(c.blocks, 1);
    sw_free(&alloc, data, size);
    assert_int_equal(c.bytes, 0);
    assert_int_equal(c.blocks, 0);
    /* the limit: one byte less than the file */
    sw_error err = {0};
    assert_int_equal(sw_file_read(path, n - 1u, &alloc, &data, &size, &err), SW_RESULT_LIMIT);
    assert_string_equal(err.check, "file size");
    assert_null(data);
    assert_int_equal(size, 0);
    assert_int_equal(c.blocks, 0);
    /* exactly the limit */
    assert_int_equal(sw_file_read(path, n, &alloc, &data, &size, NULL), SW_RESULT_OK);
    sw_free(&alloc, data, size);
    remove(path);
    /* empty: no memory */
    write_pattern(path, 0);
    data = &c;
    size = 5;
    assert_int_equal(sw_file_read(path, SIZE_MAX, &alloc, &data, &size, NULL), SW_RESULT_OK);
    assert_null(data);
    assert_int_equal(size, 0);
    assert_int_equal(c.blocks, 0);
    remove(path);
    /* missing */
    assert_int_equal(sw_file_read(path, SIZE_MAX, &alloc, &data, &size, &err), SW_RESULT_IO);
    assert_string_equal(err.check, "open file");
    assert_int_equal(sw_file_read(NULL, SIZE_MAX, &alloc, &data, &size, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_file_read(path, SIZE_MAX, &alloc, NULL, &size, &err),
                     SW_RESULT_INVALID_ARGUMENT);
}

/* Expects sw_file_read and sw_file_read_head to refuse path with IO,
 * `check`, the errno e (0: none) and a detail holding `detail` (NULL: ""),
 * without allocating. */
static void expect_refused(const char* path, const char* check, int e, const char* detail) {
    counting c = {0, 0};
    const sw_allocator alloc = {counting_alloc, counting_free, &c};
    void* data = &c;
    size_t size = 5;
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_file_read(path, SIZE_MAX, &alloc, &data, &size, &err), SW_RESULT_IO);
    assert_string_equal(err.check, check);
    assert_int_equal(err.sys_errno, e);
    if (detail) {
        assert_non_null(strstr(err.detail, detail));
    } else {
        assert_string_equal(err.detail, "");
    }
    assert_null(data);
    assert_int_equal(size, 0);
    assert_int_equal(c.blocks, 0);
    char head[16];
    size_t got = 7;
    uint64_t file_size = 7;
    err = (sw_error)SW_ERROR_INIT;
    assert_int_equal(sw_file_read_head(path, SIZE_MAX, head, sizeof head, &got, &file_size, &err),
                     SW_RESULT_IO);
    assert_string_equal(err.check, check);
    assert_int_equal(err.sys_errno, e);
    assert_int_equal(got, 0);
    assert_int_equal(file_size, 0);
}

/* Only regular files are read, and nothing blocks: a FIFO without a writer
 * (a plain open would wait for one forever), /dev/zero (endless), a
 * directory (the system's EISDIR), a missing file (ENOENT). An alarm ends
 * the test if a read blocks or never ends. */
static void test_not_regular(void** state) {
    (void)state;
    alarm(20);
    char path[256];
    temp_path(path, sizeof path, "fifo");
    remove(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    expect_refused(path, "regular file", 0, "a FIFO, not a regular file");
    remove(path);
    expect_refused("/dev/zero", "regular file", 0, "a character device, not a regular file");
    expect_refused(SINEW_TEST_DATA, "regular file", EISDIR, NULL);
    temp_path(path, sizeof path, "missing");
    remove(path);
    expect_refused(path, "open file", ENOENT, NULL);
    alarm(0);
}

/* The first bytes, the file's length; the size limit checked before any
 * byte is read or allocated: a sparse 3 GiB file is refused at once. */
static void test_head_and_limit(void** state) {
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "head");
    const size_t n = 1000u;
    write_pattern(path, n);
    unsigned char head[64];
    size_t got = 0;
    uint64_t file_size = 0;
    assert_int_equal(sw_file_read_head(path, n, head, sizeof head, &got, &file_size, NULL),
                     SW_RESULT_OK);
    assert_int_equal(got, sizeof head);
    assert_int_equal(file_size, n);
    check_pattern(head, got);
    /* a buffer larger than the file: the whole file */
    unsigned char all[2048];
    assert_int_equal(sw_file_read_head(path, n, all, sizeof all, &got, &file_size, NULL),
                     SW_RESULT_OK);
    assert_int_equal(got, n);
    check_pattern(all, n);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_file_read_head(path, n - 1u, head, sizeof head, &got, &file_size, &err),
                     SW_RESULT_LIMIT);
    assert_string_equal(err.check, "file size");
    assert_string_equal(err.detail, "1000 bytes, more than the limit of 999");
    remove(path);

    temp_path(path, sizeof path, "sparse");
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(ftruncate(fileno(f), (off_t)3 << 30), 0);
    assert_int_equal(fclose(f), 0);
    counting c = {0, 0};
    const sw_allocator alloc = {counting_alloc, counting_free, &c};
    void* data = NULL;
    size_t size = 0;
    const size_t limit = (size_t)2 << 30;
    assert_int_equal(sw_file_read(path, limit, &alloc, &data, &size, &err), SW_RESULT_LIMIT);
    assert_string_equal(err.check, "file size");
    assert_string_equal(err.detail, "3221225472 bytes, more than the limit of 2147483648");
    assert_int_equal(c.blocks, 0);
    remove(path);
}

static void test_bvh_read_file(void** state) {
    (void)state;
    const char* path = SINEW_TEST_DATA "/mixed_orders.bvh";
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    char text[65536];
    const size_t n = fread(text, 1, sizeof text, f);
    assert_true(n > 0 && n < sizeof text);
    fclose(f);
    sw_bvh_result a, b;
    assert_int_equal(sw_bvh_read(text, n, NULL, NULL, &a, NULL), SW_RESULT_OK);
    assert_int_equal(sw_bvh_read_file(path, NULL, NULL, &b, NULL), SW_RESULT_OK);
    assert_int_equal(a.skeleton->size, b.skeleton->size);
    assert_memory_equal(a.skeleton, b.skeleton, a.skeleton->size);
    assert_int_equal(a.clip->size, b.clip->size);
    assert_memory_equal(a.clip, b.clip, a.clip->size);
    sw_bvh_result_free(&a, NULL);
    sw_bvh_result_free(&b, NULL);
    sw_error err = {0};
    assert_int_equal(sw_bvh_read_file(SINEW_TEST_DATA "/no such file.bvh", NULL, NULL, &b, &err),
                     SW_RESULT_IO);
    assert_string_equal(err.check, "open file");
    assert_null(b.skeleton);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_and_empty),
        cmocka_unit_test(test_not_regular),
        cmocka_unit_test(test_head_and_limit),
        cmocka_unit_test(test_bvh_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
