/* Output files written through a temporary file and a rename. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <unistd.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/file.h"

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
