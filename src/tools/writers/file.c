/* Whole files (or their first bytes) read into memory, regular files only,
 * their size checked before anything is read; output files written through
 * a temporary file and a rename. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/file.h"

/* What a file that is not a regular file is, for the message. */
static const char* sw__file_kind(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

/* Opens `path` for reading without blocking (a FIFO without a writer would
 * block a plain open) and checks the opened descriptor: a regular file of
 * at most max_size bytes. Returns the descriptor in *fd and the length in
 * *size; on failure nothing is left open. */
static sw_result sw__file_open(const char* path, size_t max_size, int* fd, uint64_t* size,
                               sw_error* err) {
    const int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (f < 0) return sw__fail_errno(err, SW_RESULT_IO, "open file", errno);
    struct stat st;
    sw_result r = SW_RESULT_OK;
    if (fstat(f, &st) != 0) {
        r = sw__fail_errno(err, SW_RESULT_IO, "open file", errno);
    } else if (S_ISDIR(st.st_mode)) {
        r = sw__fail_errno(err, SW_RESULT_IO, "regular file", EISDIR);
    } else if (!S_ISREG(st.st_mode)) {
        r = sw__fail_detail(err, SW_RESULT_IO, "regular file", -1, "%s, not a regular file",
                            sw__file_kind(st.st_mode));
    } else if ((uint64_t)st.st_size > (uint64_t)max_size) {
        r = sw__fail_detail(err, SW_RESULT_LIMIT, "file size", -1,
                            "%llu bytes, more than the limit of %llu",
                            (unsigned long long)st.st_size, (unsigned long long)max_size);
    }
    if (r != SW_RESULT_OK) {
        close(f);
        return r;
    }
    *fd = f;
    *size = (uint64_t)st.st_size;
    return SW_RESULT_OK;
}

/* Reads up to n bytes at buf; *got the bytes read (fewer at the file's end). */
static sw_result sw__file_read_fd(int fd, void* buf, size_t n, size_t* got, sw_error* err) {
    size_t used = 0;
    while (used < n) {
        const ssize_t k = read(fd, (unsigned char*)buf + used, n - used);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return sw__fail_errno(err, SW_RESULT_IO, "read file", errno);
        if (k == 0) break;
        used += (size_t)k;
    }
    *got = used;
    return SW_RESULT_OK;
}

sw_result sw_file_read(const char* path, size_t max_size, const sw_allocator* alloc, void** data,
                       size_t* size, sw_error* err) {
    if (data) *data = NULL;
    if (size) *size = 0;
    if (!path || !data || !size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    int fd = -1;
    uint64_t length = 0;
    sw_result r = sw__file_open(path, max_size, &fd, &length, err);
    if (r != SW_RESULT_OK) return r;
    /* length <= max_size, a size_t */
    const size_t n = (size_t)length;
    void* buf = n > 0 ? sw_alloc(alloc, n, 16) : NULL;
    size_t got = 0;
    if (n > 0 && !buf) {
        r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "file buffer", 0, -1);
    } else {
        r = sw__file_read_fd(fd, buf, n, &got, err);
    }
    if (r == SW_RESULT_OK && got != n) {
        r = sw__fail_detail(err, SW_RESULT_IO, "read file", -1,
                            "the file shrank from %zu to %zu bytes while read", n, got);
    }
    close(fd);
    if (r != SW_RESULT_OK) {
        sw_free(alloc, buf, n);
        return r;
    }
    *data = buf;
    *size = n;
    return SW_RESULT_OK;
}

sw_result sw_file_read_head(const char* path, size_t max_size, void* buf, size_t cap, size_t* got,
                            uint64_t* file_size, sw_error* err) {
    if (got) *got = 0;
    if (file_size) *file_size = 0;
    if (!path || (!buf && cap > 0) || !got || !file_size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    int fd = -1;
    sw_result r = sw__file_open(path, max_size, &fd, file_size, err);
    if (r != SW_RESULT_OK) return r;
    r = sw__file_read_fd(fd, buf, cap, got, err);
    close(fd);
    if (r != SW_RESULT_OK) *got = 0;
    return r;
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
