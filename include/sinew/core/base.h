/* sinew/core/base.h: results, errors, allocators and export macros.
 *
 * Every sinew header includes this one. It defines:
 * - sw_result, the result code of every fallible call, with sw_result_str();
 * - sw_error, the report filled by calls that read untrusted data: which
 *   result, which named check failed, at which byte offset and element, the
 *   system error and a detail naming what was asked for and what exists;
 * - sw_allocator, the explicit allocator taken by calls that allocate
 *   (zero-initialised means libc's aligned allocation);
 * - SINEW_API (symbol export) and SINEW_ASSERT (internal invariants; users may
 *   define their own before including sinew).
 */
#ifndef SINEW_BASE_H
#define SINEW_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SINEW_VERSION_MAJOR 0
#define SINEW_VERSION_MINOR 1
#define SINEW_VERSION_PATCH 0

#if defined(SINEW_SHARED)
#if defined(_WIN32)
#if defined(SINEW_BUILDING)
#define SINEW_API __declspec(dllexport)
#else
#define SINEW_API __declspec(dllimport)
#endif
#else
#define SINEW_API __attribute__((visibility("default")))
#endif
#else
#define SINEW_API
#endif

#ifndef SINEW_ASSERT
#include <assert.h>
#define SINEW_ASSERT(c) assert(c)
#endif

/* 16-byte alignment for SoA data, usable from C11 and C++11. */
#ifdef __cplusplus
#define SINEW_ALIGN16 alignas(16)
#else
#define SINEW_ALIGN16 _Alignas(16)
#endif

/* One list gives the enum and its strings, so they never drift. */
#define SW_RESULT_LIST(X)                                                                          \
    X(OK, "ok")                                                                                    \
    X(INVALID_ARGUMENT, "invalid argument")                                                        \
    X(BUFFER_TOO_SMALL, "buffer too small")                                                        \
    X(OVERLAP, "output overlaps an input")                                                         \
    X(MISALIGNED, "misaligned buffer")                                                             \
    X(OUT_OF_MEMORY, "out of memory")                                                              \
    X(LIMIT, "limit exceeded")                                                                     \
    X(NOT_FOUND, "not found")                                                                      \
    X(TRUNCATED, "truncated data")                                                                 \
    X(BAD_MAGIC, "not a sinew archive")                                                            \
    X(BAD_VERSION, "unsupported version")                                                          \
    X(BAD_CHECKSUM, "checksum mismatch")                                                           \
    X(BAD_DATA, "invalid data")                                                                    \
    X(PARSE, "parse error")                                                                        \
    X(IO, "input/output error")

typedef enum sw_result {
#define SW__RESULT_ENUM(name, str) SW_RESULT_##name,
    SW_RESULT_LIST(SW__RESULT_ENUM)
#undef SW__RESULT_ENUM
        SW_RESULT_COUNT
} sw_result;

/* A static, human-readable string for a result ("invalid data"); never NULL,
 * "unknown result" for values outside the enum. */
SINEW_API const char* sw_result_str(sw_result r);

/* Bytes of sw_error.detail, its NUL included. */
#define SW_ERROR_DETAIL_SIZE 256

/* What went wrong when untrusted data was rejected. `check` is a static
 * string naming the rule that failed ("parent < joint"), `offset` the byte
 * offset in the input where it was found (0 when none applies), `index` the
 * element (joint, track, key, chunk, or line for text formats) or -1 when
 * none applies. `sys_errno` is the errno of a failed system call (open,
 * read: strerror gives its text), 0 when none. `detail` says what was asked
 * for and what exists (`clip "Runing" not in the file; clips, nearest first:
 * Running, Idle`), or a reader's own message; "" when the check says it all.
 * Every failing call sets all fields. */
typedef struct sw_error {
    sw_result result;
    const char* check;
    uint64_t offset;
    int64_t index;
    int sys_errno;
    char detail[SW_ERROR_DETAIL_SIZE];
} sw_error;

/* An sw_error that reports nothing yet: `sw_error err = SW_ERROR_INIT;`. */
#define SW_ERROR_INIT                                                                              \
    {                                                                                              \
        SW_RESULT_OK, NULL, 0, -1, 0, {                                                            \
            0                                                                                      \
        }                                                                                          \
    }

/* Explicit allocator. alloc_fn returns memory aligned to `align` (a power of
 * two, at most 64) or NULL; free_fn receives the size that was allocated.
 * A zero-initialised allocator (or a NULL pointer where one is taken) means
 * libc's aligned_alloc/free. */
typedef struct sw_allocator {
    void* (*alloc_fn)(void* user, size_t size, size_t align);
    void (*free_fn)(void* user, void* ptr, size_t size);
    void* user;
} sw_allocator;

/* Allocates `size` bytes aligned to `align` through `a` (NULL or zero: libc).
 * Returns NULL on failure or when size is 0. */
SINEW_API void* sw_alloc(const sw_allocator* a, size_t size, size_t align);

/* Frees memory from sw_alloc with the same allocator and size; NULL is a no-op. */
SINEW_API void sw_free(const sw_allocator* a, void* ptr, size_t size);

#ifdef __cplusplus
}
#endif

#endif
