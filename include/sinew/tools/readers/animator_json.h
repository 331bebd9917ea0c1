/* sinew/tools/readers/animator_json.h: animator definitions from JSON files.
 *
 * The file describes exactly an sw_animator_desc (sinew/animator/animator.h); the
 * schema is documented in docs/animator.md with examples/robot.json. Keys
 * not in the schema are rejected (a typo fails loudly), as are values of the
 * wrong JSON type. An optional "idle" object gives randomized idle channels
 * for sw_animator_idle_init.
 */
#ifndef SINEW_TOOLS_ANIMATOR_JSON_H
#define SINEW_TOOLS_ANIMATOR_JSON_H

#include "sinew/animator/animator.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest JSON file read by sw_animator_json_read_file. */
#define SW_ANIMATOR_JSON_MAX_BYTES (16u * 1024u * 1024u)

typedef struct sw_animator_json {
    const sw_animator* animator;                                  /* owned: sw_animator_json_free */
    sw_animator_idle_channel idle[SW_ANIMATOR_IDLE_MAX_CHANNELS]; /* "idle" channels */
    uint32_t idle_count;
    uint64_t idle_seed;
} sw_animator_json;

/* Parses `size` bytes of JSON text and builds the definition with `alloc`
 * (NULL: libc). Memory: out->animator is allocated; free it with
 * sw_animator_json_free and the same allocator.
 * Fails: INVALID_ARGUMENT (NULL); LIMIT (text size, counts, names);
 * PARSE for malformed JSON or a value that does not fit the schema
 * (err->check names the key, err->offset the byte in the text);
 * OUT_OF_MEMORY; any result of sw_animator_init (err->check names its check,
 * err->index its element). On failure *out holds nothing to free. */
SINEW_API sw_result sw_animator_json_read(const char* text, size_t size, const sw_allocator* alloc,
                                          sw_animator_json* out, sw_error* err);

/* Reads the file at `path` (at most SW_ANIMATOR_JSON_MAX_BYTES) through
 * sw_file_read (sinew/tools/writers/file.h) and parses it.
 * Fails: IO as sw_file_read (err->check "open file", "regular file", "read
 * file", err->sys_errno the system's error), LIMIT "json size" for a longer
 * file, and as above. */
SINEW_API sw_result sw_animator_json_read_file(const char* path, const sw_allocator* alloc,
                                               sw_animator_json* out, sw_error* err);

/* Frees what a read allocated and zeroes *j; a zeroed value is a no-op. */
SINEW_API void sw_animator_json_free(sw_animator_json* j, const sw_allocator* alloc);

#ifdef __cplusplus
}
#endif

#endif
