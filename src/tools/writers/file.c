/* Whole files read into memory; output files written through a temporary
 * file and a rename. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/file.h"

/* Capacity of the first buffer when the file's length is unknown (a pipe). */
#define SW__FILE_CHUNK ((size_t)1 << 16)

/* Moves the first `used` bytes of `buf` (cap bytes) into a new allocation of
 * new_cap bytes; NULL (buf kept) when it fails. */
static void* sw__file_move(const sw_allocator* alloc, void* buf, size_t cap, size_t used,
                           size_t new_cap) {
    void* p = sw_alloc(alloc, new_cap, 16);
    if (!p) return NULL;
    if (used > 0) memcpy(p, buf, used);
    sw_free(alloc, buf, cap);
    return p;
}

/* Reads f to its end into *buf (capacity *cap, the file's length when known). */
static sw_result sw__file_read_all(FILE* f, size_t max_size, const sw_allocator* alloc, void** buf,
                                   size_t* cap, size_t* used, sw_error* err) {
    for (;;) {
        if (*used == *cap) {
            /* full: one more byte tells whether the file goes on */
            const int c = fgetc(f);
            if (c == EOF) break;
            if (*used >= max_size) return sw__fail(err, SW_RESULT_LIMIT, "file size", *used, -1);
            size_t grown = *cap < SW__FILE_CHUNK ? SW__FILE_CHUNK : *cap;
            grown = grown > max_size - *cap ? max_size : *cap + grown;
            void* p = sw__file_move(alloc, *buf, *cap, *used, grown);
            if (!p) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "file buffer", *used, -1);
            *buf = p;
            *cap = grown;
            ((unsigned char*)*buf)[(*used)++] = (unsigned char)c;
        }
        const size_t want = *cap - *used;
        const size_t got = fread((unsigned char*)*buf + *used, 1, want, f);
        *used += got;
        if (got < want) break;
    }
    if (ferror(f)) return sw__fail(err, SW_RESULT_IO, "read file", *used, -1);
    return SW_RESULT_OK;
}

sw_result sw_file_read(const char* path, size_t max_size, const sw_allocator* alloc, void** data,
                       size_t* size, sw_error* err) {
    if (data) *data = NULL;
    if (size) *size = 0;
    if (!path || !data || !size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    FILE* f = fopen(path, "rb");
    if (!f) return sw__fail(err, SW_RESULT_IO, "open file", 0, -1);
    /* A file that can seek is read in one piece of its length; others grow. */
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return sw__fail(err, SW_RESULT_IO, "read file", 0, -1);
    }
    clearerr(f);
    if (n >= 0 && (unsigned long)n > max_size) {
        fclose(f);
        return sw__fail(err, SW_RESULT_LIMIT, "file size", (uint64_t)n, -1);
    }
    size_t cap = n > 0 ? (size_t)n : 0u, used = 0;
    void* buf = cap > 0 ? sw_alloc(alloc, cap, 16) : NULL;
    sw_result r = cap > 0 && !buf ? sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "file buffer", 0, -1)
                                  : sw__file_read_all(f, max_size, alloc, &buf, &cap, &used, err);
    fclose(f);
    if (r == SW_RESULT_OK && used < cap) {
        /* shorter than its buffer (a pipe, or a file that shrank): exactly `used` bytes */
        void* p = used > 0 ? sw__file_move(alloc, buf, cap, used, used) : NULL;
        if (used > 0 && !p) {
            r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "file buffer", used, -1);
        } else {
            if (used == 0) sw_free(alloc, buf, cap);
            buf = p;
            cap = used;
        }
    }
    if (r != SW_RESULT_OK) {
        sw_free(alloc, buf, cap);
        return r;
    }
    *data = buf;
    *size = used;
    return SW_RESULT_OK;
}

sw_result sw_file_write_atomic(const char* path, const void* data, size_t size, sw_error* err) {
    if (!path || (!data && size > 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path not NULL", 0, -1);
    }
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
    }
    FILE* f = fopen(tmp, "wb");
    if (!f) return sw__fail(err, SW_RESULT_IO, "open temporary file", 0, -1);
    const char* failed = NULL;
    if (size > 0 && fwrite(data, 1, size, f) != size) failed = "write temporary file";
    if (fflush(f) != 0 && !failed) failed = "flush temporary file";
    if (fclose(f) != 0 && !failed) failed = "close temporary file";
    if (!failed && rename(tmp, path) != 0) failed = "rename into place";
    if (failed) {
        remove(tmp);
        return sw__fail(err, SW_RESULT_IO, failed, 0, -1);
    }
    return SW_RESULT_OK;
}
