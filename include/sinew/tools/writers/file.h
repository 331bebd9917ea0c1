/* sinew/tools/writers/file.h: reading whole files, writing output files safely, and text
 * in them. */
#ifndef SINEW_TOOLS_FILE_H
#define SINEW_TOOLS_FILE_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default largest input file of the readers that take a limit (2 GiB). */
#define SW_FILE_DEFAULT_MAX_SIZE ((size_t)1 << 31)

/* Reads the whole regular file at `path` into memory allocated with `alloc`
 * (NULL: libc), 16-byte aligned. The file is opened without blocking and
 * checked before anything is read: directories, FIFOs, devices and sockets
 * are refused, and so is a file longer than max_size bytes.
 * *data holds exactly *size bytes, or is NULL for an empty file; the caller
 * frees it with sw_free(alloc, *data, *size).
 * Fails: INVALID_ARGUMENT (NULL path, data or size); IO with err->check
 * "open file" (err->sys_errno: ENOENT, EACCES...), "regular file" (a
 * directory: sys_errno EISDIR; others: err->detail names what it is) or
 * "read file" (sys_errno, or detail when the file shrank while read);
 * LIMIT "file size" (more than max_size bytes; detail gives both sizes);
 * OUT_OF_MEMORY "file buffer". On failure *data is NULL and *size 0. */
SINEW_API sw_result sw_file_read(const char* path, size_t max_size, const sw_allocator* alloc,
                                 void** data, size_t* size, sw_error* err);

/* Reads the first bytes of the regular file at `path` (at most cap, into the
 * caller's buf) after the checks of sw_file_read, so that a format can be
 * told from its header before the rest is read. *got is the bytes read
 * (fewer than cap for a shorter file), *file_size the file's length.
 * Fails as sw_file_read (no OUT_OF_MEMORY); then *got and *file_size are 0. */
SINEW_API sw_result sw_file_read_head(const char* path, size_t max_size, void* buf, size_t cap,
                                      size_t* got, uint64_t* file_size, sw_error* err);

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
