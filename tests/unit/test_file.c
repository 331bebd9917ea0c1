/* Reading whole files: bytes equal to what was written (a regular file and a
 * pipe fed by a child process, both past the first buffer), an empty file,
 * a missing file, the size limit, every allocation freed with its own size,
 * and sw_bvh_read_file against sw_bvh_read on the same text. */
#define _POSIX_C_SOURCE 200809L

#include <sys/stat.h>
#include <sys/wait.h>
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

/* A pipe has no length: the reader grows its buffer and ends with exactly
 * the bytes sent. */
static void test_pipe(void** state) {
    (void)state;
    char path[256];
    temp_path(path, sizeof path, "fifo");
    remove(path);
    assert_int_equal(mkfifo(path, 0600), 0);
    const size_t n = 200003u;
    fflush(NULL);
    const pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        FILE* f = fopen(path, "wb");
        if (!f) _exit(1);
        for (size_t i = 0; i < n; ++i)
            fputc(pattern(i), f);
        _exit(fclose(f) == 0 ? 0 : 1);
    }
    counting c = {0, 0};
    const sw_allocator alloc = {counting_alloc, counting_free, &c};
    void* data = NULL;
    size_t size = 0;
    const sw_result r = sw_file_read(path, SIZE_MAX, &alloc, &data, &size, NULL);
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    remove(path);
    assert_int_equal(r, SW_RESULT_OK);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(size, n);
    check_pattern(data, n);
    assert_int_equal(c.blocks, 1);
    sw_free(&alloc, data, size);
    assert_int_equal(c.bytes, 0);
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
        cmocka_unit_test(test_pipe),
        cmocka_unit_test(test_bvh_read_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
