/* Internal JSON reader for the tools (glTF, animator definitions).
 *
 * The whole text is tokenized in one linear pass (an explicit stack of open
 * containers, at most SW__JSON_MAX_DEPTH deep) into an array in pre-order: a
 * container is followed by its children; an object's children are its keys,
 * each key followed by its value. The grammar is checked while scanning
 * (strings with valid escapes and no raw control characters, keys are strings
 * followed by `:` and one value, commas between members, one root object and
 * nothing after it); number and literal spelling is checked when a value is
 * read. Every token knows where its subtree ends, so skipping a value is O(1).
 * Lookups never read outside the text or the tokens. Token indices are
 * int32_t; -1 means "absent" and every function accepts it.
 * Not installed; names use the sw__ prefix.
 */
#ifndef SINEW_TOOLS_JSON_H
#define SINEW_TOOLS_JSON_H

#include "sinew/core/base.h"

#define SW__JSON_MAX_BYTES 0x7FFFFFF0u /* offsets are u32 */
#define SW__JSON_MAX_TOKENS (1u << 26)
/* Containers nested inside each other (the root object is depth 1); deeper
 * text is refused with LIMIT "json nesting depth (at most 256)". */
#define SW__JSON_MAX_DEPTH 256

typedef enum sw__json_type {
    SW__JSON_NONE = 0,
    SW__JSON_OBJECT,
    SW__JSON_ARRAY,
    SW__JSON_STRING,   /* start/end exclude the quotes; escapes not decoded */
    SW__JSON_PRIMITIVE /* number, true, false or null (not validated by the tokenizer) */
} sw__json_type;

typedef struct sw__json_token {
    uint32_t type;  /* sw__json_type */
    uint32_t start; /* byte offsets in the text, end exclusive */
    uint32_t end;
    uint32_t size; /* children: elements, keys (objects), 1 for a key */
    uint32_t next; /* index of the first token after this subtree */
} sw__json_token;

typedef struct sw__json {
    const char* text;
    size_t size;
    sw__json_token* tokens;
    uint32_t count;
} sw__json;

/* Tokenizes `size` bytes of `text` (the root must be an object, followed by
 * nothing but whitespace) in time linear in `size`. Memory: tokens (20 bytes
 * each, at most one per two bytes of text) allocated with `alloc`, freed by
 * sw__json_free; `text` must outlive the sw__json.
 * Fails: LIMIT ("json size", "json tokens", "json nesting depth (at most
 * 256)" at the bracket), PARSE ("json syntax" with err->offset at the
 * offending byte, "json root is an object"), OUT_OF_MEMORY. */
sw_result sw__json_parse(sw__json* j, const char* text, size_t size, const sw_allocator* alloc,
                         sw_error* err);
void sw__json_free(sw__json* j, const sw_allocator* alloc);

/* Type of token t (SW__JSON_NONE for -1). */
sw__json_type sw__json_type_of(const sw__json* j, int32_t t);
/* Byte offset of token t in the text (0 for -1). */
uint64_t sw__json_offset(const sw__json* j, int32_t t);
/* Value of `key` in object `obj` (first match, raw comparison), or -1. */
int32_t sw__json_find(const sw__json* j, int32_t obj, const char* key);
/* Number of elements of an array (keys of an object), 0 for other tokens. */
uint32_t sw__json_len(const sw__json* j, int32_t t);
/* First child of a container (an object's first key), or -1. */
int32_t sw__json_first(const sw__json* j, int32_t t);
/* Next sibling of child `c` inside container `parent`, or -1 after the last. */
int32_t sw__json_next(const sw__json* j, int32_t parent, int32_t c);
/* Element i of an array (O(i)), or -1. */
int32_t sw__json_at(const sw__json* j, int32_t arr, uint32_t i);

/* A JSON number (strict grammar, finite as a double) into *out. */
bool sw__json_number(const sw__json* j, int32_t t, double* out);
/* An integral number in [lo, hi] (1, 1.0 and 1e0 are all 1). */
bool sw__json_int(const sw__json* j, int32_t t, int64_t lo, int64_t hi, int64_t* out);
bool sw__json_bool(const sw__json* j, int32_t t, bool* out);
/* An array of exactly n numbers into out[0..n). */
bool sw__json_numbers(const sw__json* j, int32_t arr, double* out, uint32_t n);
/* True when t is a string whose raw bytes equal s. */
bool sw__json_string_is(const sw__json* j, int32_t t, const char* s);
/* A string with escapes decoded to UTF-8 into buf (NUL-terminated); false for
 * a non-string, a bad escape, an escaped NUL or a result that does not fit
 * in cap - 1 bytes. *len (optional) receives the byte length. */
bool sw__json_string(const sw__json* j, int32_t t, char* buf, size_t cap, size_t* len);

#endif
