/* sinew/tools/writers/file.h: writing output files safely. */
#ifndef SINEW_TOOLS_FILE_H
#define SINEW_TOOLS_FILE_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `size` bytes to `path` through a temporary file beside it
 * ("<path>.tmp.<pid>") renamed into place, so that a failure never leaves a
 * partial file and readers never see one. The caller keeps `data`.
 * Fails: INVALID_ARGUMENT (NULL path or data with a size, path too long);
 * IO with err->check naming the failed step ("open temporary file", "write
 * temporary file", "flush temporary file", "close temporary file", "rename
 * into place"); the temporary file is removed. */
SINEW_API sw_result sw_file_write_atomic(const char* path, const void* data, size_t size,
                                         sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
