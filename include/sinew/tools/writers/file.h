/* sinew/tools/writers/file.h: reading whole files, writing output files safely, and text
 * in them. */
#ifndef SINEW_TOOLS_FILE_H
#define SINEW_TOOLS_FILE_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the whole file at `path` (any file: read to its end, so pipes work
 * too) into memory allocated with `alloc` (NULL: libc), 16-byte aligned.
 * *data holds exactly *size bytes, or is NULL for an empty file; the caller
 * frees it with sw_free(alloc, *data, *size).
 * Fails: INVALID_ARGUMENT (NULL path, data or size); IO with err->check
 * "open file" or "read file"; LIMIT "file size" (more than max_size bytes);
 * OUT_OF_MEMORY "file buffer". On failure *data is NULL and *size 0. */
SINEW_API sw_result sw_file_read(const char* path, size_t max_size, const sw_allocator* alloc,
                                 void** data, size_t* size, sw_error* err);

/* Writes `size` bytes to `path` through a temporary file beside it
 * ("<path>.tmp.<pid>") renamed into place, so that a failure never leaves a
 * partial file and readers never see one. The caller keeps `data`.
 * Fails: INVALID_ARGUMENT (NULL path or data with a size, path too long);
 * IO with err->check naming the failed step ("open temporary file", "write
 * temporary file", "flush temporary file", "close temporary file", "rename
 * into place"); the temporary file is removed. */
SINEW_API sw_result sw_file_write_atomic(const char* path, const void* data, size_t size,
                                         sw_error* err);

/* Writes the NUL-terminated s as a JSON string literal: quotes, backslashes
 * and control characters escaped, bytes that are not valid UTF-8 (overlong,
 * surrogates, past U+10FFFF, cut sequences) replaced by '?', so the output
 * is always valid JSON (what the glTF exporter and the CLI's --json print).
 * Writes at most cap bytes to out (NUL-terminated when cap > 0; out may be
 * NULL when cap is 0) and returns the literal's length without the NUL, as
 * snprintf does: a result >= cap means out was too small. */
SINEW_API size_t sw_json_quote(const char* s, char* out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
