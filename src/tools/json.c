/* JSON tokens over jsmn (strict mode, parent links), structural validation,
 * subtree ends, and checked readers for numbers, integers and strings. */
#include <math.h>
#include <string.h>

#include "decimal.h"
#include "json.h"
#include "runtime/internal.h"

/* jsmn is third-party code with its own warnings; silence them only here. */
#define JSMN_STATIC
#define JSMN_STRICT
#define JSMN_PARENT_LINKS
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <jsmn.h>
#pragma GCC diagnostic pop

static bool sw__json_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void sw__json_free(sw__json* j, const sw_allocator* alloc) {
    if (!j) return;
    sw_free(alloc, j->tokens, (size_t)j->count * sizeof(sw__json_token));
    memset(j, 0, sizeof *j);
}

sw_result sw__json_parse(sw__json* j, const char* text, size_t size, const sw_allocator* alloc,
                         sw_error* err) {
    memset(j, 0, sizeof *j);
    if (!text && size > 0) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "json text", 0, -1);
    if (size > SW__JSON_MAX_BYTES) return sw__fail(err, SW_RESULT_LIMIT, "json size", 0, -1);
    /* jsmn stops at a NUL byte; JSON text never contains one. */
    const char* nul = size ? (const char*)memchr(text, '\0', size) : NULL;
    if (nul) return sw__fail(err, SW_RESULT_PARSE, "json syntax", (uint64_t)(nul - text), -1);

    jsmn_parser p;
    jsmn_init(&p);
    int counted = jsmn_parse(&p, text, size, NULL, 0);
    if (counted <= 0) {
        return sw__fail(err, SW_RESULT_PARSE, "json syntax", (uint64_t)p.pos, -1);
    }
    if ((uint32_t)counted > SW__JSON_MAX_TOKENS) {
        return sw__fail(err, SW_RESULT_LIMIT, "json tokens", 0, -1);
    }
    const uint32_t n = (uint32_t)counted;
    jsmntok_t* raw = (jsmntok_t*)sw_alloc(alloc, (size_t)n * sizeof(jsmntok_t), 16);
    if (!raw) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "json tokens", 0, -1);
    jsmn_init(&p);
    int got = jsmn_parse(&p, text, size, raw, n);
    if (got <= 0) {
        sw_free(alloc, raw, (size_t)n * sizeof(jsmntok_t));
        return sw__fail(err, SW_RESULT_PARSE, "json syntax", (uint64_t)p.pos, -1);
    }
    const uint32_t m = (uint32_t)got;
    sw__json_token* t = (sw__json_token*)sw_alloc(alloc, (size_t)m * sizeof(sw__json_token), 16);
    if (!t) {
        sw_free(alloc, raw, (size_t)n * sizeof(jsmntok_t));
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "json tokens", 0, -1);
    }
    sw_result r = SW_RESULT_OK;
    uint64_t bad_at = 0;
    for (uint32_t i = 0; i < m && r == SW_RESULT_OK; ++i) {
        const jsmntok_t* s = &raw[i];
        if (s->start < 0 || s->end < s->start || (size_t)s->end > size || s->size < 0 ||
            s->type < JSMN_OBJECT || s->type > JSMN_PRIMITIVE) {
            r = SW_RESULT_PARSE;
            bad_at = s->start > 0 ? (uint64_t)s->start : 0u;
            break;
        }
        t[i].type = (uint32_t)s->type; /* jsmn and sw__json types share values 1..4 */
        t[i].start = (uint32_t)s->start;
        t[i].end = (uint32_t)s->end;
        t[i].size = (uint32_t)s->size;
        t[i].next = 0;
    }
    sw_free(alloc, raw, (size_t)n * sizeof(jsmntok_t));
    if (r != SW_RESULT_OK) {
        sw_free(alloc, t, (size_t)m * sizeof(sw__json_token));
        return sw__fail(err, r, "json syntax", bad_at, -1);
    }
    /* Structure: object children are keys (strings with exactly one value),
     * everything else has no key; subtree ends computed back to front. */
    for (uint32_t k = m; k-- > 0;) {
        sw__json_token* tk = &t[k];
        if (tk->type == SW__JSON_PRIMITIVE && tk->size != 0) r = SW_RESULT_PARSE;
        if (tk->type == SW__JSON_STRING && tk->size > 1) r = SW_RESULT_PARSE;
        uint32_t at = k + 1u;
        for (uint32_t c = 0; c < tk->size && r == SW_RESULT_OK; ++c) {
            if (at >= m) {
                r = SW_RESULT_PARSE;
                break;
            }
            const sw__json_token* ch = &t[at];
            if (tk->type == SW__JSON_OBJECT) {
                if (ch->type != SW__JSON_STRING || ch->size != 1) r = SW_RESULT_PARSE;
            } else {
                if (ch->type == SW__JSON_STRING && ch->size != 0) r = SW_RESULT_PARSE;
            }
            at = ch->next;
        }
        if (r != SW_RESULT_OK) {
            bad_at = tk->start;
            break;
        }
        tk->next = at;
    }
    if (r == SW_RESULT_OK && (t[0].type != SW__JSON_OBJECT || t[0].next != m)) {
        sw_free(alloc, t, (size_t)m * sizeof(sw__json_token));
        return sw__fail(err, SW_RESULT_PARSE, "json root is an object", 0, -1);
    }
    if (r == SW_RESULT_OK) {
        for (size_t b = t[0].end; b < size; ++b) {
            if (!sw__json_is_space(text[b])) {
                sw_free(alloc, t, (size_t)m * sizeof(sw__json_token));
                return sw__fail(err, SW_RESULT_PARSE, "json root is an object", (uint64_t)b, -1);
            }
        }
    }
    if (r != SW_RESULT_OK) {
        sw_free(alloc, t, (size_t)m * sizeof(sw__json_token));
        return sw__fail(err, SW_RESULT_PARSE, "json structure", bad_at, -1);
    }
    j->text = text;
    j->size = size;
    j->tokens = t;
    j->count = m;
    return SW_RESULT_OK;
}

static bool sw__json_valid(const sw__json* j, int32_t t) {
    return j && t >= 0 && (uint32_t)t < j->count;
}

sw__json_type sw__json_type_of(const sw__json* j, int32_t t) {
    return sw__json_valid(j, t) ? (sw__json_type)j->tokens[t].type : SW__JSON_NONE;
}

uint64_t sw__json_offset(const sw__json* j, int32_t t) {
    return sw__json_valid(j, t) ? j->tokens[t].start : 0u;
}

uint32_t sw__json_len(const sw__json* j, int32_t t) {
    sw__json_type ty = sw__json_type_of(j, t);
    return (ty == SW__JSON_OBJECT || ty == SW__JSON_ARRAY) ? j->tokens[t].size : 0u;
}

int32_t sw__json_first(const sw__json* j, int32_t t) {
    return sw__json_len(j, t) > 0 ? t + 1 : -1;
}

int32_t sw__json_next(const sw__json* j, int32_t parent, int32_t c) {
    if (!sw__json_valid(j, parent) || !sw__json_valid(j, c)) return -1;
    uint32_t n = j->tokens[c].next;
    return n < j->tokens[parent].next ? (int32_t)n : -1;
}

int32_t sw__json_at(const sw__json* j, int32_t arr, uint32_t i) {
    if (sw__json_type_of(j, arr) != SW__JSON_ARRAY || i >= j->tokens[arr].size) return -1;
    int32_t c = arr + 1;
    for (uint32_t k = 0; k < i; ++k)
        c = (int32_t)j->tokens[c].next;
    return c;
}

static bool sw__json_raw_is(const sw__json* j, int32_t t, const char* s) {
    const sw__json_token* tk = &j->tokens[t];
    size_t n = strlen(s);
    return tk->end - tk->start == n && memcmp(j->text + tk->start, s, n) == 0;
}

int32_t sw__json_find(const sw__json* j, int32_t obj, const char* key) {
    if (sw__json_type_of(j, obj) != SW__JSON_OBJECT) return -1;
    for (int32_t k = sw__json_first(j, obj); k >= 0; k = sw__json_next(j, obj, k)) {
        if (sw__json_raw_is(j, k, key)) return k + 1; /* a key's value follows it */
    }
    return -1;
}

bool sw__json_string_is(const sw__json* j, int32_t t, const char* s) {
    return sw__json_type_of(j, t) == SW__JSON_STRING && sw__json_raw_is(j, t, s);
}

bool sw__json_bool(const sw__json* j, int32_t t, bool* out) {
    if (sw__json_type_of(j, t) != SW__JSON_PRIMITIVE) return false;
    if (sw__json_raw_is(j, t, "true")) {
        *out = true;
        return true;
    }
    if (sw__json_raw_is(j, t, "false")) {
        *out = false;
        return true;
    }
    return false;
}

bool sw__json_number(const sw__json* j, int32_t t, double* out) {
    if (sw__json_type_of(j, t) != SW__JSON_PRIMITIVE) return false;
    const char* s = j->text + j->tokens[t].start;
    const size_t len = j->tokens[t].end - j->tokens[t].start;
    return sw__parse_decimal(s, len, SW__DECIMAL_JSON, out) == SW__DECIMAL_OK;
}

bool sw__json_int(const sw__json* j, int32_t t, int64_t lo, int64_t hi, int64_t* out) {
    double v;
    if (!sw__json_number(j, t, &v)) return false;
    if (v != floor(v) || v < (double)lo || v > (double)hi) return false;
    *out = (int64_t)v;
    return true;
}

bool sw__json_numbers(const sw__json* j, int32_t arr, double* out, uint32_t n) {
    if (sw__json_type_of(j, arr) != SW__JSON_ARRAY || j->tokens[arr].size != n) return false;
    int32_t c = sw__json_first(j, arr);
    for (uint32_t i = 0; i < n; ++i) {
        if (!sw__json_number(j, c, &out[i])) return false;
        c = sw__json_next(j, arr, c);
    }
    return true;
}

static int sw__json_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Four hex digits at s[0..4) (caller checked the length). */
static int32_t sw__json_hex4(const char* s) {
    int32_t v = 0;
    for (int k = 0; k < 4; ++k) {
        int h = sw__json_hex(s[k]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

bool sw__json_string(const sw__json* j, int32_t t, char* buf, size_t cap, size_t* len) {
    if (sw__json_type_of(j, t) != SW__JSON_STRING || !buf || cap == 0) return false;
    const char* s = j->text + j->tokens[t].start;
    const size_t n = j->tokens[t].end - j->tokens[t].start;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint8_t tmp[4];
        size_t w = 0;
        char c = s[i];
        if (c != '\\') {
            tmp[w++] = (uint8_t)c;
            ++i;
        } else {
            if (n - i < 2) return false;
            char e = s[i + 1];
            i += 2;
            switch (e) {
            case '"':
                tmp[w++] = '"';
                break;
            case '\\':
                tmp[w++] = '\\';
                break;
            case '/':
                tmp[w++] = '/';
                break;
            case 'b':
                tmp[w++] = '\b';
                break;
            case 'f':
                tmp[w++] = '\f';
                break;
            case 'n':
                tmp[w++] = '\n';
                break;
            case 'r':
                tmp[w++] = '\r';
                break;
            case 't':
                tmp[w++] = '\t';
                break;
            case 'u': {
                if (n - i < 4) return false;
                int32_t cp = sw__json_hex4(s + i);
                if (cp < 0) return false;
                i += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    if (n - i < 6 || s[i] != '\\' || s[i + 1] != 'u') return false;
                    int32_t lo = sw__json_hex4(s + i + 2);
                    if (lo < 0xDC00 || lo > 0xDFFF) return false;
                    i += 6;
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return false;
                }
                if (cp == 0) return false; /* would cut the name short */
                if (cp < 0x80) {
                    tmp[w++] = (uint8_t)cp;
                } else if (cp < 0x800) {
                    tmp[w++] = (uint8_t)(0xC0 | (cp >> 6));
                    tmp[w++] = (uint8_t)(0x80 | (cp & 0x3F));
                } else if (cp < 0x10000) {
                    tmp[w++] = (uint8_t)(0xE0 | (cp >> 12));
                    tmp[w++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
                    tmp[w++] = (uint8_t)(0x80 | (cp & 0x3F));
                } else {
                    tmp[w++] = (uint8_t)(0xF0 | (cp >> 18));
                    tmp[w++] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
                    tmp[w++] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
                    tmp[w++] = (uint8_t)(0x80 | (cp & 0x3F));
                }
                break;
            }
            default:
                return false;
            }
        }
        if (w > cap - 1 - o) return false;
        memcpy(buf + o, tmp, w);
        o += w;
    }
    buf[o] = '\0';
    if (len) *len = o;
    return true;
}
