/* BVH reader: a bounds-checked tokenizer over (text, size), an iterative
 * HIERARCHY parser, a two-pass MOTION reader (count, then parse) and the
 * skeleton and clip builders. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "decimal.h"
#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/clip_recorder.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/writers/file.h"

#define SW__BVH_MAX_NODES (2u * SW_SKELETON_MAX_JOINTS) /* joints plus End Sites */
#define SW__BVH_MAX_CHANNELS 6u                         /* per joint */
#define SW__BVH_HASH_SLOTS 8192u                        /* > 2 * SW__BVH_MAX_NODES */

/* Channel codes: 0..2 X/Y/Z position, 3..5 X/Y/Z rotation. */
enum { SW__BVH_POS_X = 0, SW__BVH_ROT_X = 3 };

typedef struct sw__bvh_node {
    const char* name; /* into the text, or into the names buffer once built */
    uint32_t name_len;
    int32_t parent; /* node index, -1 for a root */
    bool end_site;
    uint8_t channels_count;
    uint8_t channels[SW__BVH_MAX_CHANNELS];
    uint32_t first_channel; /* column of the first channel in a frame line */
    double offset[3];
    uint32_t line;
    uint64_t offset_byte;
    int32_t joint; /* skeleton index, -1 when dropped */
} sw__bvh_node;

typedef struct sw__bvh_lexer {
    const char* text;
    size_t size;
    size_t pos;
    uint32_t line; /* 1-based */
    sw_error* err;
} sw__bvh_lexer;

typedef struct sw__bvh_token {
    const char* s;
    size_t len;
    size_t offset;
    uint32_t line;
} sw__bvh_token;

static sw_result sw__bvh_fail(sw__bvh_lexer* lx, sw_result r, const char* check, size_t offset,
                              uint32_t line) {
    return sw__fail(lx->err, r, check, (uint64_t)offset, (int64_t)line);
}

/* Length of the line break at pos (LF, CRLF or a lone CR), 0 when none. */
static size_t sw__bvh_newline_len(const sw__bvh_lexer* lx, size_t pos) {
    if (pos >= lx->size) return 0;
    char c = lx->text[pos];
    if (c == '\n') return 1;
    if (c == '\r') return (lx->size - pos > 1 && lx->text[pos + 1] == '\n') ? 2u : 1u;
    return 0;
}

static bool sw__bvh_is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* Skips blanks on the current line. */
static void sw__bvh_skip_blanks(sw__bvh_lexer* lx) {
    while (lx->pos < lx->size && sw__bvh_is_blank(lx->text[lx->pos]))
        ++lx->pos;
}

/* Skips blanks and line breaks, counting lines. */
static void sw__bvh_skip_space(sw__bvh_lexer* lx) {
    for (;;) {
        sw__bvh_skip_blanks(lx);
        size_t nl = sw__bvh_newline_len(lx, lx->pos);
        if (nl == 0) return;
        lx->pos += nl;
        ++lx->line;
    }
}

static bool sw__bvh_is_space(const sw__bvh_lexer* lx, size_t pos) {
    return sw__bvh_is_blank(lx->text[pos]) || sw__bvh_newline_len(lx, pos) != 0;
}

/* Reads the word at the current position (no skipping); empty at a line end. */
static sw__bvh_token sw__bvh_word(sw__bvh_lexer* lx) {
    sw__bvh_token t = {lx->text + lx->pos, 0, lx->pos, lx->line};
    while (lx->pos < lx->size && !sw__bvh_is_space(lx, lx->pos))
        ++lx->pos;
    t.len = lx->pos - t.offset;
    return t;
}

/* Next whitespace-separated token across lines; len 0 at the end of the text. */
static sw__bvh_token sw__bvh_next(sw__bvh_lexer* lx) {
    sw__bvh_skip_space(lx);
    return sw__bvh_word(lx);
}

static sw__bvh_token sw__bvh_peek(sw__bvh_lexer* lx) {
    sw__bvh_lexer saved = *lx;
    sw__bvh_token t = sw__bvh_next(lx);
    *lx = saved;
    return t;
}

static bool sw__bvh_is(sw__bvh_token t, const char* word) {
    size_t n = strlen(word);
    return t.len == n && memcmp(t.s, word, n) == 0;
}

/* Expects `word` as the next token; PARSE with `check` otherwise. */
static sw_result sw__bvh_expect(sw__bvh_lexer* lx, const char* word, const char* check) {
    sw__bvh_token t = sw__bvh_next(lx);
    if (!sw__bvh_is(t, word)) return sw__bvh_fail(lx, SW_RESULT_PARSE, check, t.offset, t.line);
    return SW_RESULT_OK;
}

/* The rest of the current line, trimmed (joint names may contain spaces). */
static sw__bvh_token sw__bvh_rest_of_line(sw__bvh_lexer* lx) {
    sw__bvh_skip_blanks(lx);
    sw__bvh_token t = {lx->text + lx->pos, 0, lx->pos, lx->line};
    while (lx->pos < lx->size && sw__bvh_newline_len(lx, lx->pos) == 0)
        ++lx->pos;
    size_t end = lx->pos;
    while (end > t.offset && sw__bvh_is_blank(lx->text[end - 1]))
        --end;
    t.len = end - t.offset;
    return t;
}

/* ---- numbers (locale-independent) ---- */

/* Next token as a finite number. */
static sw_result sw__bvh_number(sw__bvh_lexer* lx, sw__bvh_token t, const char* check,
                                double* out) {
    double v = 0.0;
    sw__decimal_result n = sw__parse_decimal(t.s, t.len, SW__DECIMAL_LENIENT, &v);
    if (t.len == 0 || n == SW__DECIMAL_SYNTAX) {
        return sw__bvh_fail(lx, SW_RESULT_PARSE, check, t.offset, t.line);
    }
    /* sinew stores floats: beyond float range is as bad as infinity. */
    if (n == SW__DECIMAL_NONFINITE || fabs(v) > (double)FLT_MAX) {
        return sw__bvh_fail(lx, SW_RESULT_BAD_DATA, "finite number (float range)", t.offset,
                            t.line);
    }
    *out = v;
    return SW_RESULT_OK;
}

/* Next token as an unsigned decimal integer <= max (LIMIT above it). */
static sw_result sw__bvh_uint(sw__bvh_lexer* lx, const char* check, const char* limit_check,
                              uint64_t max, uint32_t* out) {
    sw__bvh_token t = sw__bvh_next(lx);
    if (t.len == 0) return sw__bvh_fail(lx, SW_RESULT_PARSE, check, t.offset, t.line);
    uint64_t v = 0;
    for (size_t i = 0; i < t.len; ++i) {
        char c = t.s[i];
        if (c < '0' || c > '9') return sw__bvh_fail(lx, SW_RESULT_PARSE, check, t.offset, t.line);
        if (v <= max) v = v * 10u + (uint64_t)(c - '0');
    }
    if (v > max) return sw__bvh_fail(lx, SW_RESULT_LIMIT, limit_check, t.offset, t.line);
    *out = (uint32_t)v;
    return SW_RESULT_OK;
}

/* ---- HIERARCHY ---- */

typedef struct sw__bvh_parser {
    sw__bvh_lexer lx;
    const sw_bvh_options* opt;
    sw__bvh_node* nodes; /* SW__BVH_MAX_NODES */
    uint32_t nodes_count;
    uint32_t joints_count;    /* ROOT and JOINT nodes */
    uint32_t end_sites_count; /* End Site nodes */
    uint32_t channels_count;  /* numbers per frame line */
} sw__bvh_parser;

static sw_result sw__bvh_offset(sw__bvh_parser* p, sw__bvh_node* n) {
    sw_result r = sw__bvh_expect(&p->lx, "OFFSET", "OFFSET after '{'");
    if (r != SW_RESULT_OK) return r;
    for (int k = 0; k < 3; ++k) {
        r = sw__bvh_number(&p->lx, sw__bvh_next(&p->lx), "OFFSET x y z numbers", &n->offset[k]);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

static sw_result sw__bvh_channels(sw__bvh_parser* p, sw__bvh_node* n) {
    if (!sw__bvh_is(sw__bvh_peek(&p->lx), "CHANNELS")) return SW_RESULT_OK;
    (void)sw__bvh_next(&p->lx);
    uint32_t count = 0;
    sw_result r = sw__bvh_uint(&p->lx, "CHANNELS count", "at most 6 CHANNELS per joint",
                               SW__BVH_MAX_CHANNELS, &count);
    if (r != SW_RESULT_OK) return r;
    static const char* const names[6] = {"Xposition", "Yposition", "Zposition",
                                         "Xrotation", "Yrotation", "Zrotation"};
    uint32_t seen = 0;
    for (uint32_t c = 0; c < count; ++c) {
        sw__bvh_token t = sw__bvh_next(&p->lx);
        int code = -1;
        for (int k = 0; k < 6; ++k) {
            if (sw__bvh_is(t, names[k])) code = k;
        }
        if (code < 0) {
            return sw__bvh_fail(&p->lx, SW_RESULT_PARSE,
                                "channel name (X/Y/Z position or rotation)", t.offset, t.line);
        }
        if (seen & (1u << code)) {
            return sw__bvh_fail(&p->lx, SW_RESULT_BAD_DATA, "each channel once per joint", t.offset,
                                t.line);
        }
        seen |= 1u << code;
        n->channels[c] = (uint8_t)code;
    }
    n->channels_count = (uint8_t)count;
    n->first_channel = p->channels_count;
    p->channels_count += count;
    return SW_RESULT_OK;
}

/* Adds a node after ROOT / JOINT (name on the rest of the line) or End Site. */
static sw_result sw__bvh_add_node(sw__bvh_parser* p, int32_t parent, bool end_site,
                                  sw__bvh_token at) {
    if (end_site) {
        if (p->nodes_count >= SW__BVH_MAX_NODES) {
            return sw__bvh_fail(&p->lx, SW_RESULT_LIMIT, "joints and End Sites <= 2048", at.offset,
                                at.line);
        }
        if (p->opt->end_sites && p->joints_count + p->end_sites_count >= SW_SKELETON_MAX_JOINTS) {
            return sw__bvh_fail(&p->lx, SW_RESULT_LIMIT, "joints <= SW_SKELETON_MAX_JOINTS",
                                at.offset, at.line);
        }
    } else if (p->joints_count >= SW_SKELETON_MAX_JOINTS ||
               (p->opt->end_sites &&
                p->joints_count + p->end_sites_count >= SW_SKELETON_MAX_JOINTS)) {
        return sw__bvh_fail(&p->lx, SW_RESULT_LIMIT, "joints <= SW_SKELETON_MAX_JOINTS", at.offset,
                            at.line);
    }
    sw__bvh_node* n = &p->nodes[p->nodes_count];
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->end_site = end_site;
    n->line = at.line;
    n->offset_byte = at.offset;
    n->joint = -1;
    if (!end_site) {
        sw__bvh_token name = sw__bvh_rest_of_line(&p->lx);
        if (name.len == 0) {
            return sw__bvh_fail(&p->lx, SW_RESULT_PARSE, "joint name after ROOT or JOINT",
                                name.offset, name.line);
        }
        if (name.len > SW_SKELETON_MAX_NAME) {
            return sw__bvh_fail(&p->lx, SW_RESULT_LIMIT, "joint name length <= 255", name.offset,
                                name.line);
        }
        n->name = name.s;
        n->name_len = (uint32_t)name.len;
    }
    sw_result r =
        sw__bvh_expect(&p->lx, "{", end_site ? "'{' after End Site" : "'{' after joint name");
    if (r != SW_RESULT_OK) return r;
    r = sw__bvh_offset(p, n);
    if (r != SW_RESULT_OK) return r;
    if (end_site) {
        ++p->end_sites_count;
    } else {
        r = sw__bvh_channels(p, n);
        if (r != SW_RESULT_OK) return r;
        ++p->joints_count;
    }
    ++p->nodes_count;
    return SW_RESULT_OK;
}

/* HIERARCHY up to and including MOTION. */
static sw_result sw__bvh_hierarchy(sw__bvh_parser* p) {
    sw__bvh_lexer* lx = &p->lx;
    /* A UTF-8 byte order mark is allowed before HIERARCHY. */
    if (lx->size >= 3 && memcmp(lx->text, "\xEF\xBB\xBF", 3) == 0) lx->pos = 3;
    sw_result r = sw__bvh_expect(lx, "HIERARCHY", "HIERARCHY at the start");
    if (r != SW_RESULT_OK) return r;
    int32_t stack[SW__BVH_MAX_NODES];
    for (;;) {
        sw__bvh_token t = sw__bvh_next(lx);
        if (sw__bvh_is(t, "MOTION") && p->joints_count > 0) return SW_RESULT_OK;
        if (!sw__bvh_is(t, "ROOT")) {
            return sw__bvh_fail(lx, SW_RESULT_PARSE,
                                p->joints_count > 0 ? "ROOT or MOTION" : "ROOT after HIERARCHY",
                                t.offset, t.line);
        }
        r = sw__bvh_add_node(p, -1, false, t);
        if (r != SW_RESULT_OK) return r;
        uint32_t depth = 0;
        stack[depth++] = (int32_t)(p->nodes_count - 1u);
        while (depth > 0) {
            t = sw__bvh_next(lx);
            int32_t top = stack[depth - 1];
            if (sw__bvh_is(t, "JOINT")) {
                r = sw__bvh_add_node(p, top, false, t);
                if (r != SW_RESULT_OK) return r;
                stack[depth++] = (int32_t)(p->nodes_count - 1u);
            } else if (sw__bvh_is(t, "End")) {
                r = sw__bvh_expect(lx, "Site", "Site after End");
                if (r != SW_RESULT_OK) return r;
                r = sw__bvh_add_node(p, top, true, t);
                if (r != SW_RESULT_OK) return r;
                r = sw__bvh_expect(lx, "}", "'}' closing End Site");
                if (r != SW_RESULT_OK) return r;
            } else if (sw__bvh_is(t, "}")) {
                --depth;
            } else {
                return sw__bvh_fail(lx, SW_RESULT_PARSE, "JOINT, End Site or '}'", t.offset,
                                    t.line);
            }
        }
    }
}

/* ---- names ---- */

static uint32_t sw__bvh_hash(const char* s, size_t len) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; ++i)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

/* Open-addressing set of names; slots hold node index + 1, 0 when empty. */
typedef struct sw__bvh_names {
    uint32_t* slots; /* SW__BVH_HASH_SLOTS */
    const sw__bvh_node* nodes;
} sw__bvh_names;

/* Inserts node i's name; returns the node already holding it, or -1. */
static int32_t sw__bvh_names_insert(sw__bvh_names* set, uint32_t i) {
    const sw__bvh_node* n = &set->nodes[i];
    uint32_t h = sw__bvh_hash(n->name, n->name_len) & (SW__BVH_HASH_SLOTS - 1u);
    for (;;) {
        uint32_t s = set->slots[h];
        if (s == 0) {
            set->slots[h] = i + 1u;
            return -1;
        }
        const sw__bvh_node* o = &set->nodes[s - 1u];
        if (o->name_len == n->name_len && memcmp(o->name, n->name, n->name_len) == 0) {
            return (int32_t)(s - 1u);
        }
        h = (h + 1u) & (SW__BVH_HASH_SLOTS - 1u);
    }
}

/* ---- building ---- */

static sw_xform sw__bvh_rest(const sw__bvh_node* n, double scale) {
    sw_xform x;
    x.t = sw_vec3_make((float)(n->offset[0] * scale), (float)(n->offset[1] * scale),
                       (float)(n->offset[2] * scale));
    x.r = sw_quat_identity();
    x.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    return x;
}

/* Euler order whose first factors are the listed rotation axes (missing axes,
 * whose angles are 0, appended). */
static sw_euler_order sw__bvh_order(const uint8_t axes[3], uint32_t count) {
    uint8_t full[3];
    uint32_t k = 0, used = 0;
    for (uint32_t i = 0; i < count; ++i) {
        full[k++] = axes[i];
        used |= 1u << axes[i];
    }
    for (uint8_t a = 0; a < 3; ++a) {
        if (!(used & (1u << a))) full[k++] = a;
    }
    /* The first two axes fix the order (0 X, 1 Y, 2 Z). */
    switch (full[0] * 3u + full[1]) {
    case 0u * 3u + 1u:
        return SW_EULER_ORDER_XYZ;
    case 0u * 3u + 2u:
        return SW_EULER_ORDER_XZY;
    case 1u * 3u + 0u:
        return SW_EULER_ORDER_YXZ;
    case 1u * 3u + 2u:
        return SW_EULER_ORDER_YZX;
    case 2u * 3u + 0u:
        return SW_EULER_ORDER_ZXY;
    default:
        return SW_EULER_ORDER_ZYX;
    }
}

typedef struct sw__bvh_build {
    const sw_allocator* alloc;
    double* frames; /* frames_count * channels_count */
    size_t frames_doubles;
    char* names;
    size_t names_size;
    sw_skeleton_joint* joints;
    float* values;
    size_t values_floats;
    sw_clip_track_desc* tracks;
    uint32_t* slots;
} sw__bvh_build;

static void sw__bvh_build_free(sw__bvh_build* b, uint32_t joints_cap) {
    const sw_allocator* a = b->alloc;
    sw_free(a, b->frames, (size_t)b->frames_doubles * sizeof(double));
    sw_free(a, b->names, b->names_size);
    sw_free(a, b->joints, joints_cap * sizeof(sw_skeleton_joint));
    sw_free(a, b->values, b->values_floats * sizeof(float));
    sw_free(a, b->tracks, 2u * joints_cap * sizeof(sw_clip_track_desc));
    sw_free(a, b->slots, SW__BVH_HASH_SLOTS * sizeof(uint32_t));
}

/* Names every kept node (NUL-terminated copies; End Sites "<parent>_end",
 * made unique with a number) and rejects duplicate joint names. */
static sw_result sw__bvh_names_build(sw__bvh_parser* p, sw__bvh_build* b) {
    size_t total = 0;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        total += p->nodes[i].end_site ? (size_t)SW_SKELETON_MAX_NAME + 1u
                                      : (size_t)p->nodes[i].name_len + 1u;
    }
    b->names = (char*)sw_alloc(b->alloc, total, 1);
    if (!b->names) return sw__fail(p->lx.err, SW_RESULT_OUT_OF_MEMORY, "names", 0, -1);
    b->names_size = total;
    b->slots = (uint32_t*)sw_alloc(b->alloc, SW__BVH_HASH_SLOTS * sizeof(uint32_t), 4);
    if (!b->slots) return sw__fail(p->lx.err, SW_RESULT_OUT_OF_MEMORY, "name table", 0, -1);
    memset(b->slots, 0, SW__BVH_HASH_SLOTS * sizeof(uint32_t));
    sw__bvh_names set = {b->slots, p->nodes};
    char* w = b->names;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        sw__bvh_node* n = &p->nodes[i];
        if (n->end_site) continue;
        memcpy(w, n->name, n->name_len);
        w[n->name_len] = '\0';
        n->name = w;
        w += n->name_len + 1u;
        if (sw__bvh_names_insert(&set, i) >= 0) {
            return sw__bvh_fail(&p->lx, SW_RESULT_BAD_DATA, "unique joint names",
                                (size_t)n->offset_byte, n->line);
        }
    }
    if (!p->opt->end_sites) return SW_RESULT_OK;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        sw__bvh_node* n = &p->nodes[i];
        if (!n->end_site) continue;
        const sw__bvh_node* parent = &p->nodes[n->parent];
        for (uint32_t suffix = 1;; ++suffix) {
            char num[16] = "";
            if (suffix > 1) snprintf(num, sizeof num, "%u", suffix);
            size_t tail = 4u + strlen(num);
            size_t base = parent->name_len;
            if (base + tail > SW_SKELETON_MAX_NAME) base = SW_SKELETON_MAX_NAME - tail;
            memcpy(w, parent->name, base);
            memcpy(w + base, "_end", 4);
            memcpy(w + base + 4, num, strlen(num) + 1u);
            n->name = w;
            n->name_len = (uint32_t)(base + tail);
            if (sw__bvh_names_insert(&set, i) < 0) break;
        }
        w += n->name_len + 1u;
    }
    return SW_RESULT_OK;
}

/* MOTION after the MOTION keyword: header, then frame lines (two passes). */
static sw_result sw__bvh_motion(sw__bvh_parser* p, sw__bvh_build* b, sw_bvh_result* res) {
    sw__bvh_lexer* lx = &p->lx;
    sw_result r = sw__bvh_expect(lx, "Frames:", "Frames: after MOTION");
    if (r != SW_RESULT_OK) return r;
    r = sw__bvh_uint(lx, "Frames: count", "Frames <= SW_BVH_MAX_FRAMES", SW_BVH_MAX_FRAMES,
                     &res->frames_declared);
    if (r != SW_RESULT_OK) return r;
    r = sw__bvh_expect(lx, "Frame", "Frame Time: after Frames:");
    if (r != SW_RESULT_OK) return r;
    r = sw__bvh_expect(lx, "Time:", "Frame Time: after Frames:");
    if (r != SW_RESULT_OK) return r;
    sw__bvh_token t = sw__bvh_next(lx);
    double ft = 0.0;
    r = sw__bvh_number(lx, t, "Frame Time: seconds", &ft);
    if (r != SW_RESULT_OK) return r;
    /* Positive, and both it and the key rate representable as floats. */
    if (!(ft > 0.0) || !((float)ft > 0.0f) || !isfinite((float)(1.0 / ft))) {
        return sw__bvh_fail(lx, SW_RESULT_BAD_DATA, "Frame Time > 0", t.offset, t.line);
    }
    res->frame_time = (float)ft;
    sw__bvh_skip_blanks(lx);
    if (lx->pos < lx->size && sw__bvh_newline_len(lx, lx->pos) == 0) {
        return sw__bvh_fail(lx, SW_RESULT_PARSE, "line break after Frame Time:", lx->pos, lx->line);
    }
    if (p->channels_count == 0) {
        return sw__bvh_fail(lx, SW_RESULT_BAD_DATA, "at least one channel", t.offset, t.line);
    }
    /* Pass 1: every non-blank line holds exactly channels_count tokens. */
    sw__bvh_lexer start = *lx;
    uint32_t frames = 0;
    for (;;) {
        sw__bvh_skip_space(lx);
        if (lx->pos >= lx->size) break;
        uint32_t line = lx->line;
        size_t line_start = lx->pos;
        uint32_t count = 0;
        while (lx->pos < lx->size && sw__bvh_newline_len(lx, lx->pos) == 0) {
            sw__bvh_token w = sw__bvh_word(lx);
            (void)w;
            ++count;
            sw__bvh_skip_blanks(lx);
        }
        if (count != p->channels_count) {
            return sw__bvh_fail(lx, SW_RESULT_PARSE, "one value per channel on each frame line",
                                line_start, line);
        }
        if (frames >= SW_BVH_MAX_FRAMES) {
            return sw__bvh_fail(lx, SW_RESULT_LIMIT, "Frames <= SW_BVH_MAX_FRAMES", line_start,
                                line);
        }
        ++frames;
    }
    if (frames == 0) {
        return sw__bvh_fail(lx, SW_RESULT_BAD_DATA, "at least one frame", lx->pos, lx->line);
    }
    /* frames * channels <= tokens <= size / 2: no overflow, bounded by the input. */
    size_t numbers = (size_t)frames * p->channels_count;
    b->frames = (double*)sw_alloc(b->alloc, numbers * sizeof(double), 8);
    if (!b->frames) return sw__fail(lx->err, SW_RESULT_OUT_OF_MEMORY, "frame values", 0, -1);
    b->frames_doubles = numbers;
    /* Pass 2: the numbers. */
    *lx = start;
    for (size_t i = 0; i < numbers; ++i) {
        r = sw__bvh_number(lx, sw__bvh_next(lx), "number on a frame line", &b->frames[i]);
        if (r != SW_RESULT_OK) return r;
    }
    res->frames_read = frames;
    if (frames != res->frames_declared) {
        res->warnings |= SW_BVH_WARNING_FRAME_COUNT;
        snprintf(res->warning, sizeof res->warning, "declared %u frames, found %u",
                 res->frames_declared, frames);
    }
    return SW_RESULT_OK;
}

static bool sw__bvh_all_equal(const float* v, uint32_t keys, uint32_t comps, const float* rest) {
    for (uint32_t k = 0; k < keys; ++k) {
        for (uint32_t c = 0; c < comps; ++c) {
            if (v[k * comps + c] != rest[c]) return false;
        }
    }
    return true;
}

/* The skeleton: every node (end sites when asked), rest poses scaled. */
static sw_result sw__bvh_build_skeleton(sw__bvh_parser* p, sw__bvh_build* b, double scale,
                                        const sw_skeleton** skel, uint32_t* joints, sw_error* err) {
    *joints = 0;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        sw__bvh_node* n = &p->nodes[i];
        if (n->end_site && !p->opt->end_sites) continue;
        sw_skeleton_joint* j = &b->joints[*joints];
        j->name = n->name;
        j->parent = n->parent >= 0 ? p->nodes[n->parent].joint : -1;
        j->rest = sw__bvh_rest(n, scale);
        n->joint = (int32_t)(*joints)++;
    }
    sw_skeleton_desc sdesc = {b->joints, *joints};
    sw_result r = sw_skeleton_create(&sdesc, b->alloc, skel, err);
    if (r != SW_RESULT_OK && err && !err->check) sw__fail(err, r, "skeleton build", 0, -1);
    return r;
}

/* Room for the values of every animated joint (rotation 4, translation 3
 * per key) in b->values; false when out of memory. */
static bool sw__bvh_values_alloc(const sw__bvh_parser* p, sw__bvh_build* b, uint32_t frames) {
    size_t per_frame = 0;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        const sw__bvh_node* n = &p->nodes[i];
        bool rot = false, pos = false;
        for (uint32_t c = 0; c < n->channels_count; ++c) {
            if (n->channels[c] >= SW__BVH_ROT_X)
                rot = true;
            else
                pos = true;
        }
        per_frame += (rot ? 4u : 0u) + (pos ? 3u : 0u);
    }
    b->values_floats = per_frame * frames;
    if (b->values_floats == 0) return true;
    b->values = (float*)sw_alloc(b->alloc, b->values_floats * sizeof(float), 16);
    return b->values != NULL;
}

/* Node n's rotation per frame into v (4 floats a frame), from its Euler
 * channels in degrees (axes: their order), kept on one hemisphere. */
static void sw__bvh_rotation_keys(const sw__bvh_parser* p, const sw__bvh_build* b,
                                  const sw__bvh_node* n, uint32_t frames, const uint8_t* axes,
                                  uint32_t rot_count, float* v) {
    const double deg = 3.14159265358979323846 / 180.0;
    const sw_euler_order order = sw__bvh_order(axes, rot_count);
    for (uint32_t f = 0; f < frames; ++f) {
        const double* line = b->frames + (size_t)f * p->channels_count + n->first_channel;
        double ang[3] = {0.0, 0.0, 0.0};
        for (uint32_t c = 0; c < n->channels_count; ++c) {
            if (n->channels[c] >= SW__BVH_ROT_X)
                ang[n->channels[c] - 3] = fmod(line[c], 360.0) * deg;
        }
        const sw_quat q =
            sw_quat_from_euler(sw_vec3_make((float)ang[0], (float)ang[1], (float)ang[2]), order);
        v[4 * f + 0] = q.x;
        v[4 * f + 1] = q.y;
        v[4 * f + 2] = q.z;
        v[4 * f + 3] = q.w;
    }
    sw_rotation_keys_continuous(v, frames);
}

/* Node n's translation per frame into v (3 floats a frame, scaled): its
 * position channels, the offset for the others. */
static void sw__bvh_translation_keys(const sw__bvh_parser* p, const sw__bvh_build* b,
                                     const sw__bvh_node* n, uint32_t frames, double scale,
                                     float* v) {
    for (uint32_t f = 0; f < frames; ++f) {
        const double* line = b->frames + (size_t)f * p->channels_count + n->first_channel;
        double t3[3] = {n->offset[0], n->offset[1], n->offset[2]};
        for (uint32_t c = 0; c < n->channels_count; ++c) {
            if (n->channels[c] < SW__BVH_ROT_X) t3[n->channels[c]] = line[c];
        }
        for (int k = 0; k < 3; ++k)
            v[3 * f + (uint32_t)k] = (float)(t3[k] * scale);
    }
}

/* Adds a track of `kind` on node n's joint with values v (the next free
 * values) unless every key equals `still` (then v is reused). */
static void sw__bvh_add_track(sw__bvh_build* b, const sw__bvh_node* n, sw_track_kind kind,
                              uint32_t frames, uint32_t width, const float* still, float** w,
                              uint32_t* tracks) {
    float* v = *w;
    if (sw__bvh_all_equal(v, frames, width, still)) return;
    sw_clip_track_desc* t = &b->tracks[(*tracks)++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->joint = (uint32_t)n->joint;
    t->values = v;
    *w += (size_t)width * frames;
}

/* The rotation and translation tracks of node n (those that move). */
static void sw__bvh_node_tracks(const sw__bvh_parser* p, sw__bvh_build* b, const sw__bvh_node* n,
                                uint32_t frames, double scale, float** w, uint32_t* tracks) {
    uint8_t axes[3];
    uint32_t rot_count = 0;
    bool has_pos = false;
    for (uint32_t c = 0; c < n->channels_count; ++c) {
        if (n->channels[c] >= SW__BVH_ROT_X)
            axes[rot_count++] = (uint8_t)(n->channels[c] - 3);
        else
            has_pos = true;
    }
    if (rot_count > 0) {
        static const float ident[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        sw__bvh_rotation_keys(p, b, n, frames, axes, rot_count, *w);
        sw__bvh_add_track(b, n, SW_TRACK_KIND_ROTATION, frames, 4, ident, w, tracks);
    }
    if (has_pos) {
        const sw_xform rest = sw__bvh_rest(n, scale);
        const float restv[3] = {rest.t.x, rest.t.y, rest.t.z};
        sw__bvh_translation_keys(p, b, n, frames, scale, *w);
        sw__bvh_add_track(b, n, SW_TRACK_KIND_TRANSLATION, frames, 3, restv, w, tracks);
    }
}

static sw_result sw__bvh_build_all(sw__bvh_parser* p, sw__bvh_build* b, sw_bvh_result* res,
                                   sw_error* err) {
    const double scale = p->opt->scale != 0.0f ? (double)p->opt->scale : 1.0;
    const uint32_t frames = res->frames_read;
    const sw_skeleton* skel = NULL;
    uint32_t joints = 0;
    sw_result r = sw__bvh_build_skeleton(p, b, scale, &skel, &joints, err);
    if (r != SW_RESULT_OK) return r;
    if (!sw__bvh_values_alloc(p, b, frames)) {
        sw_skeleton_destroy(skel, b->alloc);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "track values", 0, -1);
    }
    uint32_t tracks = 0;
    float* w = b->values;
    for (uint32_t i = 0; i < p->nodes_count; ++i) {
        if (p->nodes[i].channels_count == 0) continue;
        sw__bvh_node_tracks(p, b, &p->nodes[i], frames, scale, &w, &tracks);
    }
    const float rate = (float)(1.0 / (double)res->frame_time);
    const float duration = frames > 1 ? (float)(frames - 1u) / rate : 0.0f;
    for (uint32_t k = 0; k < tracks; ++k) {
        b->tracks[k].interp = SW_INTERP_LINEAR;
        b->tracks[k].keys_count = frames;
        b->tracks[k].start = 0.0f;
        b->tracks[k].rate = rate;
    }
    sw_clip_desc cdesc;
    memset(&cdesc, 0, sizeof cdesc);
    cdesc.name = p->opt->clip_name ? p->opt->clip_name : "motion";
    cdesc.duration = duration;
    cdesc.joints_count = joints;
    cdesc.tracks = b->tracks;
    cdesc.tracks_count = tracks;
    const sw_clip* clip = NULL;
    r = sw_clip_create(&cdesc, b->alloc, &clip, err);
    if (r != SW_RESULT_OK) {
        if (err && !err->check) sw__fail(err, r, "clip build", 0, -1);
        sw_skeleton_destroy(skel, b->alloc);
        return r;
    }
    res->skeleton = skel;
    res->clip = clip;
    return SW_RESULT_OK;
}

sw_result sw_bvh_read(const char* text, size_t size, const sw_bvh_options* options,
                      const sw_allocator* alloc, sw_bvh_result* out, sw_error* err) {
    if (err) {
        err->result = SW_RESULT_OK;
        err->check = NULL;
        err->offset = 0;
        err->index = -1;
    }
    if (!out || (!text && size > 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "text and out", 0, -1);
    }
    memset(out, 0, sizeof *out);
    const sw_bvh_options defaults = {0.0f, false, NULL};
    const sw_bvh_options* opt = options ? options : &defaults;
    if (!isfinite(opt->scale) || opt->scale < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "scale finite and >= 0", 0, -1);
    }
    sw__bvh_parser p;
    memset(&p, 0, sizeof p);
    p.lx.text = text ? text : "";
    p.lx.size = size;
    p.lx.line = 1;
    p.lx.err = err;
    p.opt = opt;
    const size_t nodes_bytes = SW__BVH_MAX_NODES * sizeof(sw__bvh_node);
    p.nodes = (sw__bvh_node*)sw_alloc(alloc, nodes_bytes, 16);
    if (!p.nodes) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "joint table", 0, -1);
    sw__bvh_build b;
    memset(&b, 0, sizeof b);
    b.alloc = alloc;
    sw_bvh_result res;
    memset(&res, 0, sizeof res);
    const uint32_t joints_cap = SW_SKELETON_MAX_JOINTS;
    sw_result r = sw__bvh_hierarchy(&p);
    if (r == SW_RESULT_OK) r = sw__bvh_names_build(&p, &b);
    if (r == SW_RESULT_OK) r = sw__bvh_motion(&p, &b, &res);
    if (r == SW_RESULT_OK) {
        b.joints = (sw_skeleton_joint*)sw_alloc(alloc, joints_cap * sizeof(sw_skeleton_joint), 16);
        b.tracks =
            (sw_clip_track_desc*)sw_alloc(alloc, 2u * joints_cap * sizeof(sw_clip_track_desc), 16);
        if (!b.joints || !b.tracks) {
            r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "joint and track tables", 0, -1);
        }
    }
    if (r == SW_RESULT_OK) r = sw__bvh_build_all(&p, &b, &res, err);
    sw__bvh_build_free(&b, joints_cap);
    sw_free(alloc, p.nodes, nodes_bytes);
    if (r != SW_RESULT_OK) return r;
    *out = res;
    return SW_RESULT_OK;
}

sw_result sw_bvh_read_file(const char* path, const sw_bvh_options* options,
                           const sw_allocator* alloc, sw_bvh_result* out, sw_error* err) {
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    void* text = NULL;
    size_t size = 0;
    sw_result r = sw_file_read(path, SIZE_MAX, alloc, &text, &size, err);
    if (r != SW_RESULT_OK) return r;
    r = sw_bvh_read((const char*)text, size, options, alloc, out, err);
    sw_free(alloc, text, size);
    return r;
}

void sw_bvh_result_free(sw_bvh_result* r, const sw_allocator* alloc) {
    if (!r) return;
    if (r->clip) sw_clip_destroy(r->clip, alloc);
    if (r->skeleton) sw_skeleton_destroy(r->skeleton, alloc);
    memset(r, 0, sizeof *r);
}
