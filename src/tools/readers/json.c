/* JSON tokens in one linear pass (an explicit stack of open containers, at
 * most SW__JSON_MAX_DEPTH deep), and checked readers for numbers, integers
 * and strings. */
#include <math.h>
#include <string.h>

#include "decimal.h"
#include "json.h"
#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/file.h"

#define SW__JSON_STR2(x) #x
#define SW__JSON_STR(x) SW__JSON_STR2(x)

/* What the scanner expects next. */
typedef enum sw__json_want {
    SW__JSON_WANT_VALUE, /* a value (or `]` right after `[`) */
    SW__JSON_WANT_KEY,   /* a key string (or `}` right after `{`) */
    SW__JSON_WANT_COLON, /* `:` after a key */
    SW__JSON_WANT_AFTER  /* `,` or the closing bracket after a value; the end at depth 0 */
} sw__json_want;

/* One pass over the text. With tokens NULL it only counts (and checks
 * everything); with tokens it fills them. */
typedef struct sw__json_scan {
    const char* s;
    size_t n;
    size_t pos;
    sw__json_token* t; /* NULL while counting */
    uint64_t count;
    uint32_t depth;
    sw__json_want want;
    bool just_opened;
    const char* check; /* failure: check name, result and offset */
    sw_result result;
    uint64_t at;
    uint32_t open[SW__JSON_MAX_DEPTH]; /* token index of each open container */
    bool object[SW__JSON_MAX_DEPTH];   /* ... and whether it is an object */
} sw__json_scan;

static bool sw__json_is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* True when c is one of the characters of `set` (never for NUL). */
static bool sw__json_in(const char* set, char c) {
    return c != '\0' && strchr(set, c) != NULL;
}

static bool sw__json_stop(sw__json_scan* sc, sw_result r, const char* check, size_t at) {
    sc->result = r;
    sc->check = check;
    sc->at = (uint64_t)at;
    return false;
}

static bool sw__json_syntax(sw__json_scan* sc, size_t at) {
    return sw__json_stop(sc, SW_RESULT_PARSE, "json syntax", at);
}

static int sw__json_hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Appends a token [start, end) of `type` (size and next filled later). */
static bool sw__json_token_add(sw__json_scan* sc, uint32_t type, size_t start, size_t end) {
    if (sc->count >= SW__JSON_MAX_TOKENS) {
        return sw__json_stop(sc, SW_RESULT_LIMIT, "json tokens", start);
    }
    if (sc->t) {
        sc->t[sc->count] = (sw__json_token){type, (uint32_t)start, (uint32_t)end, 0u, 0u};
    }
    ++sc->count;
    return true;
}

/* A string at sc->pos (the opening quote): escapes checked (not decoded),
 * raw control characters refused. */
static bool sw__json_scan_string(sw__json_scan* sc) {
    const char* s = sc->s;
    const size_t start = sc->pos + 1u;
    for (size_t i = start; i < sc->n;) {
        const unsigned char ch = (unsigned char)s[i];
        if (ch == '"') {
            sc->pos = i + 1u;
            return sw__json_token_add(sc, SW__JSON_STRING, start, i);
        }
        if (ch < 0x20u) return sw__json_syntax(sc, i);
        if (ch != '\\') {
            ++i;
            continue;
        }
        if (i + 1u >= sc->n) break;
        const char e = s[i + 1u];
        if (e == 'u') {
            if (sc->n - i < 6u) break;
            for (size_t k = 2; k < 6u; ++k) {
                if (sw__json_hex(s[i + k]) < 0) return sw__json_syntax(sc, i + k);
            }
            i += 6u;
        } else if (sw__json_in("\"\\/bfnrt", e)) {
            i += 2u;
        } else {
            return sw__json_syntax(sc, i + 1u);
        }
    }
    return sw__json_syntax(sc, sc->n);
}

/* A number, true, false or null at sc->pos: printable ASCII up to a
 * delimiter (the value itself is checked when read). */
static bool sw__json_scan_primitive(sw__json_scan* sc) {
    const size_t start = sc->pos;
    if (!sw__json_in("-0123456789tfn", sc->s[start])) return sw__json_syntax(sc, start);
    size_t i = start;
    for (; i < sc->n; ++i) {
        const unsigned char ch = (unsigned char)sc->s[i];
        if (ch == ',' || ch == ']' || ch == '}' || ch == ':' || ch == '"' || ch == '[' ||
            ch == '{' || sw__json_is_space((char)ch)) {
            break;
        }
        if (ch < 0x20u || ch >= 0x7Fu) return sw__json_syntax(sc, i);
    }
    sc->pos = i;
    return sw__json_token_add(sc, SW__JSON_PRIMITIVE, start, i);
}

/* The value starting at token v is complete: its subtree (and its key's,
 * inside an object) ends at the next token. */
static void sw__json_value_done(sw__json_scan* sc, uint64_t v) {
    if (sc->t) {
        sc->t[v].next = (uint32_t)sc->count;
        if (sc->depth > 0 && sc->object[sc->depth - 1u]) sc->t[v - 1u].next = (uint32_t)sc->count;
    }
    sc->want = SW__JSON_WANT_AFTER;
    sc->just_opened = false;
}

/* A value at sc->pos: a container opens, a string or primitive is read. */
static bool sw__json_scan_value(sw__json_scan* sc, char c) {
    if (sc->t && sc->depth > 0 && !sc->object[sc->depth - 1u])
        ++sc->t[sc->open[sc->depth - 1u]].size;
    const uint64_t v = sc->count;
    if (c == '{' || c == '[') {
        if (sc->depth == SW__JSON_MAX_DEPTH) {
            return sw__json_stop(
                sc, SW_RESULT_LIMIT,
                "json nesting depth (at most " SW__JSON_STR(SW__JSON_MAX_DEPTH) ")", sc->pos);
        }
        if (!sw__json_token_add(sc, c == '{' ? SW__JSON_OBJECT : SW__JSON_ARRAY, sc->pos,
                                sc->pos)) {
            return false;
        }
        sc->open[sc->depth] = (uint32_t)v;
        sc->object[sc->depth++] = c == '{';
        sc->want = c == '{' ? SW__JSON_WANT_KEY : SW__JSON_WANT_VALUE;
        sc->just_opened = true;
        ++sc->pos;
        return true;
    }
    if (!(c == '"' ? sw__json_scan_string(sc) : sw__json_scan_primitive(sc))) return false;
    sw__json_value_done(sc, v);
    return true;
}

/* The closing bracket at sc->pos ends the innermost container. */
static void sw__json_close(sw__json_scan* sc) {
    const uint32_t v = sc->open[--sc->depth];
    if (sc->t) sc->t[v].end = (uint32_t)(sc->pos + 1u);
    ++sc->pos;
    sw__json_value_done(sc, v);
}

/* One character (not whitespace) at sc->pos in the current state. */
static bool sw__json_step(sw__json_scan* sc, char c) {
    const bool in_object = sc->depth > 0 && sc->object[sc->depth - 1u];
    switch (sc->want) {
    case SW__JSON_WANT_VALUE:
        if (c == ']' && sc->just_opened && sc->depth > 0 && !in_object) {
            sw__json_close(sc);
            return true;
        }
        if (sc->count == 0 && c != '{') {
            return sw__json_stop(sc, SW_RESULT_PARSE, "json root is an object", sc->pos);
        }
        return sw__json_scan_value(sc, c);
    case SW__JSON_WANT_KEY:
        if (c == '}' && sc->just_opened) {
            sw__json_close(sc);
            return true;
        }
        if (c != '"') return sw__json_syntax(sc, sc->pos);
        if (sc->t) ++sc->t[sc->open[sc->depth - 1u]].size;
        if (!sw__json_scan_string(sc)) return false;
        if (sc->t) sc->t[sc->count - 1u].size = 1u;
        sc->want = SW__JSON_WANT_COLON;
        return true;
    case SW__JSON_WANT_COLON:
        if (c != ':') return sw__json_syntax(sc, sc->pos);
        ++sc->pos;
        sc->want = SW__JSON_WANT_VALUE;
        return true;
    case SW__JSON_WANT_AFTER:
        if (sc->depth == 0) {
            return sw__json_stop(sc, SW_RESULT_PARSE, "json root is an object", sc->pos);
        }
        if (c == (in_object ? '}' : ']')) {
            sw__json_close(sc);
            return true;
        }
        if (c != ',') return sw__json_syntax(sc, sc->pos);
        ++sc->pos;
        sc->want = in_object ? SW__JSON_WANT_KEY : SW__JSON_WANT_VALUE;
        return true;
    }
    return sw__json_syntax(sc, sc->pos);
}

/* The whole text, once: true when it is one object and nothing but whitespace. */
static bool sw__json_scan_all(sw__json_scan* sc) {
    sc->pos = 0;
    sc->count = 0;
    sc->depth = 0;
    sc->want = SW__JSON_WANT_VALUE;
    sc->just_opened = false;
    for (;;) {
        while (sc->pos < sc->n && sw__json_is_space(sc->s[sc->pos]))
            ++sc->pos;
        if (sc->pos == sc->n) break;
        if (!sw__json_step(sc, sc->s[sc->pos])) return false;
    }
    if (sc->count == 0 || sc->depth > 0 || sc->want != SW__JSON_WANT_AFTER) {
        return sw__json_syntax(sc, sc->n);
    }
    return true;
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
    sw__json_scan sc = {.s = text, .n = size};
    if (!sw__json_scan_all(&sc)) return sw__fail(err, sc.result, sc.check, sc.at, -1);
    /* The counting pass made every check; the second fills the tokens. */
    const uint32_t m = (uint32_t)sc.count;
    sc.t = (sw__json_token*)sw_alloc(alloc, (size_t)m * sizeof(sw__json_token), 16);
    if (!sc.t) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "json tokens", 0, -1);
    (void)sw__json_scan_all(&sc);
    j->text = text;
    j->size = size;
    j->tokens = sc.t;
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

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when invalid. */
static size_t sw__utf8_len(const unsigned char* s) {
    unsigned c = s[0];
    if (c < 0x80u) return 1;
    size_t len;
    unsigned min;
    if ((c & 0xE0u) == 0xC0u) {
        len = 2;
        min = 0x80u;
        c &= 0x1Fu;
    } else if ((c & 0xF0u) == 0xE0u) {
        len = 3;
        min = 0x800u;
        c &= 0x0Fu;
    } else if ((c & 0xF8u) == 0xF0u) {
        len = 4;
        min = 0x10000u;
        c &= 0x07u;
    } else {
        return 0;
    }
    for (size_t k = 1; k < len; ++k) {
        if ((s[k] & 0xC0u) != 0x80u) return 0;
        c = (c << 6) | (s[k] & 0x3Fu);
    }
    if (c < min || c > 0x10FFFFu || (c >= 0xD800u && c <= 0xDFFFu)) return 0;
    return len;
}

size_t sw_json_quote(const char* s, char* out, size_t cap) {
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    const unsigned char* p = (const unsigned char*)(s ? s : "");
    for (int edge = 0; edge < 2; ++edge) {
        if (n < cap) out[n] = '"';
        ++n;
        while (edge == 0 && *p) {
            char tmp[6];
            size_t w = 0, len = 1;
            const unsigned char* from = (const unsigned char*)tmp;
            if (*p == '"' || *p == '\\') {
                tmp[w++] = '\\';
                tmp[w++] = (char)*p;
            } else if (*p < 0x20u) {
                memcpy(tmp, "\\u00", 4);
                tmp[4] = hex[*p >> 4];
                tmp[5] = hex[*p & 15u];
                w = 6;
            } else if ((len = sw__utf8_len(p)) == 0) {
                tmp[w++] = '?';
                len = 1;
            } else {
                from = p;
                w = len;
            }
            for (size_t k = 0; k < w; ++k, ++n)
                if (n < cap) out[n] = (char)from[k];
            p += len;
        }
    }
    if (cap > 0) out[n < cap ? n : cap - 1u] = '\0';
    return n;
}
