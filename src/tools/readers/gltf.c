/* glTF 2.0 reader: .glb container, JSON through the internal reader (json.h),
 * buffers (BIN chunk, base64 data: URIs, caller resolver), bounds-checked
 * accessors (strides, normalized integers, sparse), node hierarchy checks,
 * skeleton selection (skin joints and ancestors), clips and skinned meshes.
 *
 * Every temporary array comes from one list of allocations freed at the end,
 * so each failure path simply returns. Offsets in errors are bytes of the
 * input (the JSON chunk's position is added for .glb). */
#include <math.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "names.h"
#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/raw_skeleton.h"
#include "sinew/tools/builders/raw_skin.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/file.h"

#define SW__GLTF_MAX_NODES (1u << 20)
#define SW__GLTF_MAX_ELEMENTS (1u << 24)      /* accessor count */
#define SW__GLTF_MAX_FLOATS (1u << 26)        /* accessor count * components */
#define SW__GLTF_MAX_ZERO_ELEMENTS (1u << 22) /* accessor without bufferView */
#define SW__GLTF_NAME (SW_SKELETON_MAX_NAME + 1)
#define SW__GLTF_TMP_HEADER 32u
#define SW__GLTF_ROTATION_TOLERANCE 1e-2

/* Allowed (componentType, normalized) pairs: bit componentType - 5120, plus 8
 * for a normalized integer. */
#define SW__CT_I8 (1u << 0)
#define SW__CT_U8 (1u << 1)
#define SW__CT_I16 (1u << 2)
#define SW__CT_U16 (1u << 3)
#define SW__CT_U32 (1u << 5)
#define SW__CT_F32 (1u << 6)
#define SW__CT_NI8 (1u << 8)
#define SW__CT_NU8 (1u << 9)
#define SW__CT_NI16 (1u << 10)
#define SW__CT_NU16 (1u << 11)
/* Mesh attributes (quantized as KHR_mesh_quantization allows, or not). */
#define SW__CT_ANY                                                                                 \
    (SW__CT_I8 | SW__CT_U8 | SW__CT_I16 | SW__CT_U16 | SW__CT_U32 | SW__CT_F32 | SW__CT_NI8 |      \
     SW__CT_NU8 | SW__CT_NI16 | SW__CT_NU16)
/* The spec's table for rotation and morph weight outputs. */
#define SW__CT_UNIT (SW__CT_F32 | SW__CT_NI8 | SW__CT_NU8 | SW__CT_NI16 | SW__CT_NU16)
/* Skin weights (WEIGHTS_n). */
#define SW__CT_WEIGHTS (SW__CT_F32 | SW__CT_NU8 | SW__CT_NU16)

enum { SW__PATH_T = 1, SW__PATH_R = 2, SW__PATH_S = 4, SW__PATH_W = 8 };

typedef struct sw__gltf_tmp {
    struct sw__gltf_tmp* next;
    size_t size;
} sw__gltf_tmp;

typedef struct sw__gltf_buffer {
    const uint8_t* data;
    size_t size;
    void* owned; /* from the resolver, freed with sw_free(alloc, owned, size) */
} sw__gltf_buffer;

typedef struct sw__gltf_node {
    int32_t tok;
    int32_t parent;
    int32_t mesh;
    int32_t skin;
    int32_t raw;   /* index among the skeleton's raw joints, -1 when not kept */
    int32_t joint; /* skeleton joint, -1 when not kept */
    uint32_t state;
    uint32_t anim_stamp; /* animation + 1 whose channels anim_paths lists */
    uint32_t anim_paths;
    sw_xform local;
} sw__gltf_node;

typedef struct sw__gltf_acc {
    uint32_t count;
    uint32_t comps;
    float* f;    /* count * comps floats (float reads) */
    uint32_t* u; /* count * comps integers (integer reads) */
} sw__gltf_acc;

typedef struct sw__gltf {
    const sw_allocator* alloc;
    sw_error* err;
    sw_scene* scene;
    sw__gltf_tmp* tmp;
    sw__json js;
    uint64_t json_base;
    const uint8_t* bin;
    size_t bin_size;
    bool glb, has_bin;
    float scale;
    sw_gltf_resolve_fn resolve;
    void* resolve_user;
    int32_t *accessors, *views, *buffers, *nodes_tok, *meshes, *skins, *animations;
    uint32_t accessors_count, views_count, buffers_count, nodes_count, meshes_count, skins_count,
        animations_count;
    sw__gltf_buffer* buf;
    sw__gltf_node* nodes;
    uint32_t* morph_counts; /* per mesh */
    uint32_t sheared;       /* matrix nodes whose shear was lost */
    const sw_skeleton* skeleton;
    uint32_t kept_count;
    char (*names)[SW__GLTF_NAME]; /* joint names, by raw index */
} sw__gltf;

/* ---- helpers ---- */

static sw_result sw__gltf_fail(sw__gltf* g, sw_result r, const char* check, int32_t tok,
                               int64_t index) {
    return sw__fail(g->err, r, check, g->json_base + sw__json_offset(&g->js, tok), index);
}

/* Zeroed temporary memory (16-byte aligned), freed by sw__gltf_release. */
static void* sw__gltf_alloc(sw__gltf* g, size_t size) {
    if (size > SIZE_MAX - SW__GLTF_TMP_HEADER - 16u) return NULL;
    const size_t total = size + SW__GLTF_TMP_HEADER;
    uint8_t* p = (uint8_t*)sw_alloc(g->alloc, total, 16);
    if (!p) return NULL;
    memset(p, 0, total);
    sw__gltf_tmp* h = (sw__gltf_tmp*)(void*)p;
    h->next = g->tmp;
    h->size = total;
    g->tmp = h;
    return p + SW__GLTF_TMP_HEADER;
}

/* n elements of `each` bytes, overflow-checked. */
static void* sw__gltf_array_alloc(sw__gltf* g, size_t n, size_t each) {
    if (each != 0 && n > (SIZE_MAX / 2) / each) return NULL;
    return sw__gltf_alloc(g, (n * each) != 0 ? n * each : 1u);
}

static void sw__gltf_release(sw__gltf* g) {
    for (uint32_t b = 0; g->buf && b < g->buffers_count; ++b) {
        if (g->buf[b].owned) sw_free(g->alloc, g->buf[b].owned, g->buf[b].size);
    }
    while (g->tmp) {
        sw__gltf_tmp* next = g->tmp->next;
        sw_free(g->alloc, g->tmp, g->tmp->size);
        g->tmp = next;
    }
    sw__json_free(&g->js, g->alloc);
}

static sw_result sw__gltf_oom(sw__gltf* g, const char* what) {
    return sw__fail(g->err, SW_RESULT_OUT_OF_MEMORY, what, 0, -1);
}

/* Optional integer property: *out = def when absent; BAD_DATA when present
 * but not an integer in [lo, hi]. */
static sw_result sw__gltf_int(sw__gltf* g, int32_t obj, const char* key, int64_t def, int64_t lo,
                              int64_t hi, const char* check, int64_t index, int64_t* out) {
    int32_t t = sw__json_find(&g->js, obj, key);
    if (t < 0) {
        *out = def;
        return SW_RESULT_OK;
    }
    if (!sw__json_int(&g->js, t, lo, hi, out)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, check, t, index);
    }
    return SW_RESULT_OK;
}

/* A required integer index in [0, count). */
static sw_result sw__gltf_index(sw__gltf* g, int32_t obj, const char* key, uint32_t count,
                                const char* check, int64_t index, int64_t* out) {
    int32_t t = sw__json_find(&g->js, obj, key);
    if (t < 0 || !sw__json_int(&g->js, t, 0, (int64_t)count - 1, out)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, check, t >= 0 ? t : obj, index);
    }
    return SW_RESULT_OK;
}

/* Name property of obj decoded into buf; false when absent, empty, invalid
 * or longer than SW_SKELETON_MAX_NAME bytes. */
static bool sw__gltf_name(const sw__gltf* g, int32_t obj, char* buf) {
    size_t len = 0;
    int32_t t = sw__json_find(&g->js, obj, "name");
    return t >= 0 && sw__json_string(&g->js, t, buf, SW__GLTF_NAME, &len) && len > 0;
}

/* Copies at most max bytes of s, not cutting a UTF-8 sequence. */
static void sw__gltf_copy_prefix(char* dst, const char* s, size_t max) {
    size_t n = strlen(s);
    if (n > max) {
        n = max;
        while (n > 0 && ((uint8_t)s[n] & 0xC0u) == 0x80u)
            --n;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* Reads a top-level array of objects. */
static sw_result sw__gltf_top(sw__gltf* g, const char* key, int32_t** items, uint32_t* count) {
    *items = NULL;
    *count = 0;
    int32_t arr = sw__json_find(&g->js, 0, key);
    if (arr < 0) return SW_RESULT_OK;
    if (sw__json_type_of(&g->js, arr) != SW__JSON_ARRAY) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "top-level property is an array", arr, -1);
    }
    const uint32_t n = sw__json_len(&g->js, arr);
    int32_t* out = (int32_t*)sw__gltf_array_alloc(g, n, sizeof(int32_t));
    if (!out) return sw__gltf_oom(g, "allocation");
    uint32_t i = 0;
    for (int32_t c = sw__json_first(&g->js, arr); c >= 0; c = sw__json_next(&g->js, arr, c)) {
        if (sw__json_type_of(&g->js, c) != SW__JSON_OBJECT) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "top-level array elements are objects", c,
                                 (int64_t)i);
        }
        out[i++] = c;
    }
    *items = out;
    *count = n;
    return SW_RESULT_OK;
}

/* ---- buffers ---- */

static int sw__gltf_b64(uint8_t c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Decodes base64 text (padding optional) into out (capacity from 3 * n / 4). */
static bool sw__gltf_base64(const char* s, size_t n, uint8_t* out, size_t* out_len) {
    while (n > 0 && s[n - 1] == '=')
        --n;
    if (n % 4u == 1u) return false;
    size_t o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; ++i) {
        int v = sw__gltf_b64((uint8_t)s[i]);
        if (v < 0) return false;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1u;
        }
    }
    *out_len = o;
    return true;
}

static sw_result sw__gltf_buffers(sw__gltf* g) {
    g->buf = (sw__gltf_buffer*)sw__gltf_array_alloc(g, g->buffers_count, sizeof(sw__gltf_buffer));
    if (!g->buf) return sw__gltf_oom(g, "allocation");
    for (uint32_t b = 0; b < g->buffers_count; ++b) {
        const int32_t obj = g->buffers[b];
        int64_t len = 0;
        int32_t lt = sw__json_find(&g->js, obj, "byteLength");
        if (lt < 0 || !sw__json_int(&g->js, lt, 1, INT64_MAX, &len)) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "buffer byteLength", lt >= 0 ? lt : obj,
                                 (int64_t)b);
        }
        if ((uint64_t)len > SW_GLTF_MAX_BUFFER_BYTES) {
            return sw__gltf_fail(g, SW_RESULT_LIMIT, "buffer byteLength", lt, (int64_t)b);
        }
        const size_t need = (size_t)len;
        int32_t ut = sw__json_find(&g->js, obj, "uri");
        if (ut < 0) {
            if (!g->glb || b != 0 || !g->has_bin) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA,
                                     "buffer without uri is the glb BIN chunk", obj, (int64_t)b);
            }
            if (need > g->bin_size) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "glb BIN chunk holds byteLength", lt,
                                     (int64_t)b);
            }
            g->buf[b].data = g->bin;
            g->buf[b].size = need;
            continue;
        }
        if (sw__json_type_of(&g->js, ut) != SW__JSON_STRING) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "buffer uri is a string", ut, (int64_t)b);
        }
        const size_t raw_len = g->js.tokens[ut].end - g->js.tokens[ut].start;
        char* uri = (char*)sw__gltf_alloc(g, raw_len + 1u);
        if (!uri) return sw__gltf_oom(g, "allocation");
        if (!sw__json_string(&g->js, ut, uri, raw_len + 1u, NULL)) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "buffer uri is a string", ut, (int64_t)b);
        }
        if (strncmp(uri, "data:", 5) == 0) {
            const char* comma = strchr(uri, ',');
            const size_t at = comma ? (size_t)(comma - uri) : 0u;
            if (!comma || at < 12u || memcmp(uri + at - 7u, ";base64", 7) != 0) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "data uri is base64", ut, (int64_t)b);
            }
            const char* text = comma + 1;
            const size_t tn = strlen(text);
            uint8_t* out = (uint8_t*)sw__gltf_alloc(g, tn / 4u * 3u + 3u);
            if (!out) return sw__gltf_oom(g, "allocation");
            size_t got = 0;
            if (!sw__gltf_base64(text, tn, out, &got)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "data uri is base64", ut, (int64_t)b);
            }
            if (got < need) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "data uri holds byteLength bytes", ut,
                                     (int64_t)b);
            }
            g->buf[b].data = out;
            g->buf[b].size = need;
            continue;
        }
        if (!g->resolve) {
            return sw__gltf_fail(g, SW_RESULT_IO, "external buffer needs a resolver", ut,
                                 (int64_t)b);
        }
        void* data = NULL;
        size_t size = 0;
        sw_error e = SW_ERROR_INIT;
        sw_result r = g->resolve(g->resolve_user, uri, g->alloc, &data, &size, &e);
        if (r != SW_RESULT_OK) {
            if (data) sw_free(g->alloc, data, size);
            if (g->err) {
                *g->err = e;
                g->err->result = r;
                if (!g->err->check) g->err->check = "external buffer resolved";
                g->err->index = (int64_t)b;
                /* name the file asked for (the system error says what went wrong) */
                snprintf(g->err->detail, sizeof g->err->detail, "buffer %u \"%.100s\"%s%.120s",
                         (unsigned)b, uri, e.detail[0] ? ": " : "", e.detail);
            }
            return r;
        }
        g->buf[b].owned = data;
        g->buf[b].size = size;
        if (!data || size < need) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "external buffer holds byteLength bytes",
                                 ut, (int64_t)b);
        }
        g->buf[b].data = (const uint8_t*)data;
    }
    return SW_RESULT_OK;
}

/* ---- accessors ---- */

static uint32_t sw__gltf_csize(int64_t ct) {
    switch (ct) {
    case 5120:
    case 5121:
        return 1;
    case 5122:
    case 5123:
        return 2;
    case 5125:
    case 5126:
        return 4;
    default:
        return 0;
    }
}

static uint32_t sw__gltf_type_comps(const sw__gltf* g, int32_t t) {
    if (sw__json_string_is(&g->js, t, "SCALAR")) return 1;
    if (sw__json_string_is(&g->js, t, "VEC2")) return 2;
    if (sw__json_string_is(&g->js, t, "VEC3")) return 3;
    if (sw__json_string_is(&g->js, t, "VEC4")) return 4;
    if (sw__json_string_is(&g->js, t, "MAT4")) return 16;
    return 0; /* MAT2 and MAT3 (column padding) are not used by this reader */
}

/* The bytes of bufferView `v` and its stride (0 when not given). */
static sw_result sw__gltf_view(sw__gltf* g, int64_t v, int32_t from, const uint8_t** data,
                               size_t* len, uint32_t* stride) {
    if (v < 0 || v >= (int64_t)g->views_count) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "bufferView index in range", from, v);
    }
    const int32_t obj = g->views[v];
    int64_t b, off, n, st;
    sw_result r;
    if ((r = sw__gltf_index(g, obj, "buffer", g->buffers_count, "bufferView buffer in range", v,
                            &b)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, obj, "byteOffset", 0, 0, INT64_MAX, "bufferView byteOffset", v,
                          &off)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, obj, "byteStride", 0, 4, 252, "bufferView byteStride", v, &st)) !=
            SW_RESULT_OK) {
        return r;
    }
    int32_t lt = sw__json_find(&g->js, obj, "byteLength");
    if (lt < 0 || !sw__json_int(&g->js, lt, 1, INT64_MAX, &n)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "bufferView byteLength", lt >= 0 ? lt : obj, v);
    }
    if (st % 4 != 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "bufferView byteStride", obj, v);
    }
    const sw__gltf_buffer* buf = &g->buf[b];
    if ((uint64_t)off > buf->size || (uint64_t)n > buf->size - (uint64_t)off) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "bufferView range in buffer", obj, v);
    }
    *data = buf->data + off;
    *len = (size_t)n;
    *stride = (uint32_t)st;
    return SW_RESULT_OK;
}

/* Converts count elements (comps components of type ct, elements `stride`
 * bytes apart) into floats (normalized integers mapped to [0, 1] / [-1, 1])
 * or integers. Returns the first element holding a non-finite float, or
 * count when all are fine. */
static uint32_t sw__gltf_convert(const uint8_t* p, size_t stride, uint32_t count, uint32_t comps,
                                 int64_t ct, bool norm, float* f, uint32_t* u) {
    for (uint32_t e = 0; e < count; ++e) {
        const uint8_t* q = p + (size_t)e * stride;
        for (uint32_t c = 0; c < comps; ++c) {
            double v = 0.0;
            uint32_t iv = 0;
            switch (ct) {
            case 5120: {
                int8_t x = (int8_t)q[c];
                v = norm ? fmax((double)x / 127.0, -1.0) : (double)x;
                iv = (uint32_t)(int32_t)x;
                break;
            }
            case 5121:
                v = norm ? (double)q[c] / 255.0 : (double)q[c];
                iv = q[c];
                break;
            case 5122: {
                int16_t x;
                memcpy(&x, q + 2u * c, 2);
                v = norm ? fmax((double)x / 32767.0, -1.0) : (double)x;
                iv = (uint32_t)(int32_t)x;
                break;
            }
            case 5123: {
                uint16_t x;
                memcpy(&x, q + 2u * c, 2);
                v = norm ? (double)x / 65535.0 : (double)x;
                iv = x;
                break;
            }
            case 5125: {
                uint32_t x;
                memcpy(&x, q + 4u * c, 4);
                v = (double)x;
                iv = x;
                break;
            }
            default: {
                float x;
                memcpy(&x, q + 4u * c, 4);
                if (!isfinite(x)) return e;
                v = (double)x;
                break;
            }
            }
            if (f) f[(size_t)e * comps + c] = (float)v;
            if (u) u[(size_t)e * comps + c] = iv;
        }
    }
    return count;
}

/* An accessor's description, as checked. */
typedef struct sw__gltf_layout {
    int32_t obj;         /* the accessor object */
    int32_t count_token; /* its "count" */
    int64_t ct;          /* componentType */
    bool norm;
    uint32_t count, comps, esize;
    int64_t offset, view; /* view -1: none */
} sw__gltf_layout;

/* Checks accessor `index` (must have `comps` components and a
 * componentType in `ctypes`) and describes it in *L. */
static sw_result sw__gltf_layout_of(sw__gltf* g, int64_t index, int32_t from, uint32_t comps,
                                    uint32_t ctypes, sw__gltf_layout* L) {
    memset(L, 0, sizeof *L);
    if (index < 0 || index >= (int64_t)g->accessors_count) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor index in range", from, index);
    }
    const int32_t obj = g->accessors[index];
    L->obj = obj;
    int64_t count;
    sw_result r;
    int32_t ctt = sw__json_find(&g->js, obj, "componentType");
    if (ctt < 0 || !sw__json_int(&g->js, ctt, 5120, 5126, &L->ct) || sw__gltf_csize(L->ct) == 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor componentType", ctt >= 0 ? ctt : obj,
                             index);
    }
    int32_t nt = sw__json_find(&g->js, obj, "normalized");
    if (nt >= 0 && !sw__json_bool(&g->js, nt, &L->norm)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor normalized", nt, index);
    }
    if (!(ctypes & (1u << (L->ct - 5120 + (L->norm ? 8 : 0))))) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor componentType allowed here", ctt,
                             index);
    }
    int32_t tt = sw__json_find(&g->js, obj, "type");
    if (sw__gltf_type_comps(g, tt) != comps) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor type", tt >= 0 ? tt : obj, index);
    }
    int32_t cnt = sw__json_find(&g->js, obj, "count");
    L->count_token = cnt;
    if (cnt < 0 || !sw__json_int(&g->js, cnt, 1, INT64_MAX, &count)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor count", cnt >= 0 ? cnt : obj, index);
    }
    if ((uint64_t)count > SW__GLTF_MAX_ELEMENTS || (uint64_t)count * comps > SW__GLTF_MAX_FLOATS) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "accessor count", cnt, index);
    }
    if ((r = sw__gltf_int(g, obj, "byteOffset", 0, 0, INT64_MAX, "accessor byteOffset", index,
                          &L->offset)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, obj, "bufferView", -1, 0, INT64_MAX, "accessor bufferView", index,
                          &L->view)) != SW_RESULT_OK) {
        return r;
    }
    L->count = (uint32_t)count;
    L->comps = comps;
    L->esize = sw__gltf_csize(L->ct) * comps;
    return SW_RESULT_OK;
}

/* The values of an accessor with a bufferView into f (floats) or u. */
static sw_result sw__gltf_dense(sw__gltf* g, int64_t index, const sw__gltf_layout* L, float* f,
                                uint32_t* u) {
    const uint8_t* data;
    size_t len;
    uint32_t stride;
    sw_result r = sw__gltf_view(g, L->view, L->obj, &data, &len, &stride);
    if (r != SW_RESULT_OK) return r;
    if (stride == 0) stride = L->esize;
    if (stride < L->esize) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "bufferView byteStride >= element size", L->obj,
                             index);
    }
    const uint64_t need = (uint64_t)(L->count - 1u) * stride + L->esize;
    if ((uint64_t)L->offset > len || need > len - (uint64_t)L->offset) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor range in bufferView", L->obj, index);
    }
    if (sw__gltf_convert(data + L->offset, stride, L->count, L->comps, L->ct, L->norm, f, u) !=
        L->count) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor values finite", L->obj, index);
    }
    return SW_RESULT_OK;
}

/* The sparse substitution sp of an accessor: its indices (increasing, in
 * range) and values written over f (floats) or u. */
static sw_result sw__gltf_sparse(sw__gltf* g, int64_t index, int32_t sp, const sw__gltf_layout* L,
                                 float* f, uint32_t* u) {
    const uint32_t n = L->count, comps = L->comps, esize = L->esize;
    int64_t sc, ict, iview, ioff, vview, voff;
    sw_result r;
    int32_t it = sw__json_find(&g->js, sp, "indices");
    int32_t vt = sw__json_find(&g->js, sp, "values");
    if (sw__json_type_of(&g->js, sp) != SW__JSON_OBJECT ||
        sw__json_type_of(&g->js, it) != SW__JSON_OBJECT ||
        sw__json_type_of(&g->js, vt) != SW__JSON_OBJECT) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse indices and values", sp, index);
    }
    if ((r = sw__gltf_int(g, sp, "count", -1, 1, (int64_t)n, "sparse count", index, &sc)) !=
            SW_RESULT_OK ||
        (r = sw__gltf_int(g, it, "componentType", -1, 5121, 5125, "sparse indices componentType",
                          index, &ict)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, it, "bufferView", -1, 0, INT64_MAX, "sparse indices bufferView", index,
                          &iview)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, it, "byteOffset", 0, 0, INT64_MAX, "sparse indices byteOffset", index,
                          &ioff)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, vt, "bufferView", -1, 0, INT64_MAX, "sparse values bufferView", index,
                          &vview)) != SW_RESULT_OK ||
        (r = sw__gltf_int(g, vt, "byteOffset", 0, 0, INT64_MAX, "sparse values byteOffset", index,
                          &voff)) != SW_RESULT_OK) {
        return r;
    }
    if (sc < 1 || ict == 5122 || ict == 5124 || ict < 0 || iview < 0 || vview < 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse count, componentType and views", sp,
                             index);
    }
    const uint32_t m = (uint32_t)sc;
    const uint32_t isize = sw__gltf_csize(ict);
    const uint8_t *idata, *vdata;
    size_t ilen, vlen;
    uint32_t unused;
    if ((r = sw__gltf_view(g, iview, it, &idata, &ilen, &unused)) != SW_RESULT_OK ||
        (r = sw__gltf_view(g, vview, vt, &vdata, &vlen, &unused)) != SW_RESULT_OK) {
        return r;
    }
    if ((uint64_t)ioff > ilen || (uint64_t)m * isize > ilen - (uint64_t)ioff) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse indices range in bufferView", it,
                             index);
    }
    if ((uint64_t)voff > vlen || (uint64_t)m * esize > vlen - (uint64_t)voff) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse values range in bufferView", vt, index);
    }
    uint32_t* idx = (uint32_t*)sw__gltf_array_alloc(g, m, sizeof(uint32_t));
    float* sf = u ? NULL : (float*)sw__gltf_array_alloc(g, (size_t)m * comps, sizeof(float));
    uint32_t* su =
        u ? (uint32_t*)sw__gltf_array_alloc(g, (size_t)m * comps, sizeof(uint32_t)) : NULL;
    if (!idx || (!sf && !su)) return sw__gltf_oom(g, "allocation");
    sw__gltf_convert(idata + ioff, isize, m, 1, ict, false, NULL, idx);
    if (sw__gltf_convert(vdata + voff, esize, m, comps, L->ct, L->norm, sf, su) != m) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor values finite", vt, index);
    }
    for (uint32_t k = 0; k < m; ++k) {
        if (idx[k] >= n) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse indices in range", it, index);
        }
        if (k > 0 && idx[k] <= idx[k - 1]) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sparse indices increasing", it, index);
        }
        for (uint32_t c = 0; c < comps; ++c) {
            if (f) f[(size_t)idx[k] * comps + c] = sf[(size_t)k * comps + c];
            if (u) u[(size_t)idx[k] * comps + c] = su[(size_t)k * comps + c];
        }
    }
    return SW_RESULT_OK;
}

/* Reads accessor `index`, which must have `comps` components and a
 * componentType in `ctypes`, into floats (ints false) or integers. */
static sw_result sw__gltf_accessor(sw__gltf* g, int64_t index, int32_t from, uint32_t comps,
                                   uint32_t ctypes, bool ints, sw__gltf_acc* out) {
    memset(out, 0, sizeof *out);
    sw__gltf_layout L;
    sw_result r = sw__gltf_layout_of(g, index, from, comps, ctypes, &L);
    if (r != SW_RESULT_OK) return r;
    const uint32_t n = L.count;
    float* f = NULL;
    uint32_t* u = NULL;
    if (L.view < 0 && n > SW__GLTF_MAX_ZERO_ELEMENTS) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "accessor without bufferView count", L.count_token,
                             index);
    }
    if (ints) {
        u = (uint32_t*)sw__gltf_array_alloc(g, (size_t)n * comps, sizeof(uint32_t));
        if (!u) return sw__gltf_oom(g, "allocation");
    } else {
        f = (float*)sw__gltf_array_alloc(g, (size_t)n * comps, sizeof(float));
        if (!f) return sw__gltf_oom(g, "allocation");
    }
    if (L.view >= 0 && (r = sw__gltf_dense(g, index, &L, f, u)) != SW_RESULT_OK) return r;
    int32_t sp = sw__json_find(&g->js, L.obj, "sparse");
    if (sp >= 0) {
        if ((r = sw__gltf_sparse(g, index, sp, &L, f, u)) != SW_RESULT_OK) return r;
    } else if (L.view < 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor has bufferView or sparse", L.obj,
                             index);
    }
    if (f) {
        for (size_t k = 0; k < (size_t)n * comps; ++k) {
            if (!isfinite(f[k])) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor values finite", L.obj, index);
            }
        }
    }
    out->count = n;
    out->comps = comps;
    out->f = f;
    out->u = u;
    return SW_RESULT_OK;
}

/* ---- nodes and skeleton ---- */

static sw_result sw__gltf_read_nodes(sw__gltf* g) {
    const uint32_t n = g->nodes_count;
    if (n > SW__GLTF_MAX_NODES) return sw__gltf_fail(g, SW_RESULT_LIMIT, "nodes count", 0, -1);
    g->nodes = (sw__gltf_node*)sw__gltf_array_alloc(g, n, sizeof(sw__gltf_node));
    if (!g->nodes) return sw__gltf_oom(g, "allocation");
    for (uint32_t i = 0; i < n; ++i) {
        sw__gltf_node* nd = &g->nodes[i];
        nd->tok = g->nodes_tok[i];
        nd->parent = nd->mesh = nd->skin = nd->raw = nd->joint = -1;
    }
    for (uint32_t i = 0; i < n; ++i) {
        sw__gltf_node* nd = &g->nodes[i];
        const int32_t obj = nd->tok;
        sw_result r;
        int64_t mesh, skin;
        if ((r = sw__gltf_int(g, obj, "mesh", -1, 0, (int64_t)g->meshes_count - 1,
                              "node mesh in range", i, &mesh)) != SW_RESULT_OK ||
            (r = sw__gltf_int(g, obj, "skin", -1, 0, (int64_t)g->skins_count - 1,
                              "node skin in range", i, &skin)) != SW_RESULT_OK) {
            return r;
        }
        nd->mesh = (int32_t)mesh;
        nd->skin = (int32_t)skin;
        int32_t ch = sw__json_find(&g->js, obj, "children");
        if (ch >= 0 && sw__json_type_of(&g->js, ch) != SW__JSON_ARRAY) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node children", ch, i);
        }
        for (int32_t c = sw__json_first(&g->js, ch); c >= 0; c = sw__json_next(&g->js, ch, c)) {
            int64_t k;
            if (!sw__json_int(&g->js, c, 0, (int64_t)n - 1, &k)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node child in range", c, i);
            }
            if (k == (int64_t)i) return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node cycle", c, i);
            if (g->nodes[k].parent >= 0) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node has one parent", c, k);
            }
            g->nodes[k].parent = (int32_t)i;
        }
        double v[16];
        sw_xform x = sw_xform_identity();
        int32_t mt = sw__json_find(&g->js, obj, "matrix");
        if (mt >= 0) {
            if (!sw__json_numbers(&g->js, mt, v, 16)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node matrix", mt, i);
            }
            sw_mat4 m;
            for (int k = 0; k < 16; ++k)
                m.m[k] = (float)v[k];
            sw_mat4_decompose(&m, &x);
            /* Shear (non-uniform scale under rotation) cannot be kept. */
            sw_mat4 back = sw_mat4_from_xform(x);
            float big = 1.0f, diff = 0.0f;
            for (int k = 0; k < 16; ++k) {
                big = fmaxf(big, fabsf(m.m[k]));
                diff = fmaxf(diff, fabsf(back.m[k] - m.m[k]));
            }
            if (!(diff <= 1e-4f * big)) ++g->sheared;
        }
        int32_t tt = sw__json_find(&g->js, obj, "translation");
        if (tt >= 0) {
            if (!sw__json_numbers(&g->js, tt, v, 3)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node translation", tt, i);
            }
            x.t = sw_vec3_make((float)v[0], (float)v[1], (float)v[2]);
        }
        int32_t rt = sw__json_find(&g->js, obj, "rotation");
        if (rt >= 0) {
            if (!sw__json_numbers(&g->js, rt, v, 4)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node rotation", rt, i);
            }
            double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
            if (!(fabs(len - 1.0) <= SW__GLTF_ROTATION_TOLERANCE)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node rotation unit", rt, i);
            }
            x.r = sw_quat_make((float)(v[0] / len), (float)(v[1] / len), (float)(v[2] / len),
                               (float)(v[3] / len));
        }
        int32_t st = sw__json_find(&g->js, obj, "scale");
        if (st >= 0) {
            if (!sw__json_numbers(&g->js, st, v, 3)) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node scale", st, i);
            }
            x.s = sw_vec3_make((float)v[0], (float)v[1], (float)v[2]);
        }
        x.t = sw_vec3_scale(x.t, g->scale);
        const float vals[10] = {x.t.x, x.t.y, x.t.z, x.r.x, x.r.y,
                                x.r.z, x.r.w, x.s.x, x.s.y, x.s.z};
        for (int k = 0; k < 10; ++k) {
            if (!isfinite(vals[k])) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node values finite", obj, i);
            }
        }
        nd->local = x;
    }
    /* Cycles: with one parent per node, a walk up either reaches a root, a
     * node already known to reach one, or comes back to itself. */
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t stamp = i + 2u;
        uint32_t k = i;
        while (g->nodes[k].state != 1u) {
            if (g->nodes[k].state == stamp) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "node cycle", g->nodes[k].tok,
                                     (int64_t)k);
            }
            g->nodes[k].state = stamp;
            if (g->nodes[k].parent < 0) break;
            k = (uint32_t)g->nodes[k].parent;
        }
        for (k = i; g->nodes[k].state == stamp; k = (uint32_t)g->nodes[k].parent) {
            g->nodes[k].state = 1u;
            if (g->nodes[k].parent < 0) break;
        }
    }
    return SW_RESULT_OK;
}

static void sw__gltf_keep(sw__gltf* g, uint32_t node) {
    for (int32_t k = (int32_t)node; k >= 0 && g->nodes[k].raw < 0; k = g->nodes[k].parent)
        g->nodes[k].raw = 0; /* marked; numbered below */
}

/* Skin joints must be unique node indices. Returns the joints' array token. */
static sw_result sw__gltf_skin_joints(sw__gltf* g, uint32_t s, int32_t* arr, uint32_t* count) {
    const int32_t obj = g->skins[s];
    int32_t jt = sw__json_find(&g->js, obj, "joints");
    const uint32_t n = sw__json_len(&g->js, jt);
    if (sw__json_type_of(&g->js, jt) != SW__JSON_ARRAY || n == 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "skin joints", jt >= 0 ? jt : obj, s);
    }
    if (n > SW_SKELETON_MAX_JOINTS) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "skin joints count", jt, s);
    }
    for (int32_t c = sw__json_first(&g->js, jt); c >= 0; c = sw__json_next(&g->js, jt, c)) {
        int64_t k;
        if (!sw__json_int(&g->js, c, 0, (int64_t)g->nodes_count - 1, &k)) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "skin joint in range", c, s);
        }
        if (g->nodes[k].anim_stamp == s + 1u) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "skin joints unique", c, s);
        }
        g->nodes[k].anim_stamp = s + 1u;
    }
    for (int32_t c = sw__json_first(&g->js, jt); c >= 0; c = sw__json_next(&g->js, jt, c)) {
        int64_t k;
        sw__json_int(&g->js, c, 0, (int64_t)g->nodes_count - 1, &k);
        g->nodes[k].anim_stamp = 0;
    }
    *arr = jt;
    *count = n;
    return SW_RESULT_OK;
}

static bool sw__gltf_name_taken(const sw__gltf* g, uint32_t count, const char* name) {
    for (uint32_t k = 0; k < count; ++k) {
        if (strcmp(g->names[k], name) == 0) return true;
    }
    return false;
}

static sw_result sw__gltf_build_skeleton(sw__gltf* g) {
    for (uint32_t s = 0; s < g->skins_count; ++s) {
        int32_t jt;
        uint32_t n;
        sw_result r = sw__gltf_skin_joints(g, s, &jt, &n);
        if (r != SW_RESULT_OK) return r;
        for (int32_t c = sw__json_first(&g->js, jt); c >= 0; c = sw__json_next(&g->js, jt, c)) {
            int64_t k;
            sw__json_int(&g->js, c, 0, (int64_t)g->nodes_count - 1, &k);
            sw__gltf_keep(g, (uint32_t)k);
        }
    }
    if (g->skins_count == 0) {
        /* No skin: the animated nodes and their ancestors. */
        for (uint32_t a = 0; a < g->animations_count; ++a) {
            int32_t chs = sw__json_find(&g->js, g->animations[a], "channels");
            for (int32_t c = sw__json_first(&g->js, chs); c >= 0;
                 c = sw__json_next(&g->js, chs, c)) {
                int32_t target = sw__json_find(&g->js, c, "target");
                int64_t k;
                if (sw__json_int(&g->js, sw__json_find(&g->js, target, "node"), 0,
                                 (int64_t)g->nodes_count - 1, &k)) {
                    sw__gltf_keep(g, (uint32_t)k);
                }
            }
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < g->nodes_count; ++i) {
        if (g->nodes[i].raw >= 0) {
            if (kept == SW_SKELETON_MAX_JOINTS) {
                return sw__gltf_fail(g, SW_RESULT_LIMIT, "skeleton joints count", 0, -1);
            }
            g->nodes[i].raw = (int32_t)kept++;
        }
    }
    if (kept == 0) {
        return sw__gltf_fail(g, SW_RESULT_NOT_FOUND, "skin or animated node", 0, -1);
    }
    g->kept_count = kept;
    g->names = (char(*)[SW__GLTF_NAME])sw__gltf_array_alloc(g, kept, SW__GLTF_NAME);
    sw_raw_joint* raw = (sw_raw_joint*)sw__gltf_array_alloc(g, kept, sizeof(sw_raw_joint));
    int32_t* remap = (int32_t*)sw__gltf_array_alloc(g, kept, sizeof(int32_t));
    if (!g->names || !raw || !remap) return sw__gltf_oom(g, "allocation");
    for (uint32_t i = 0; i < g->nodes_count; ++i) {
        const sw__gltf_node* nd = &g->nodes[i];
        if (nd->raw < 0) continue;
        const uint32_t k = (uint32_t)nd->raw;
        char base[SW__GLTF_NAME], cand[SW__GLTF_NAME + 32];
        if (!sw__gltf_name(g, nd->tok, base)) snprintf(base, sizeof base, "node_%u", i);
        snprintf(cand, sizeof cand, "%s", base);
        if (sw__gltf_name_taken(g, k, cand)) {
            char prefix[SW__GLTF_NAME];
            sw__gltf_copy_prefix(prefix, base, SW_SKELETON_MAX_NAME - 12u);
            snprintf(cand, sizeof cand, "%s_%u", prefix, i);
        }
        if (sw__gltf_name_taken(g, k, cand)) snprintf(cand, sizeof cand, "node_%u", i);
        for (uint32_t extra = 1; sw__gltf_name_taken(g, k, cand); ++extra)
            snprintf(cand, sizeof cand, "node_%u_%u", i, extra);
        memcpy(g->names[k], cand, strlen(cand) + 1u);
        raw[k].name = g->names[k];
        raw[k].parent = nd->parent >= 0 ? g->nodes[nd->parent].raw : -1;
        raw[k].rest = nd->local;
    }
    sw_result r = sw_raw_skeleton_build(raw, kept, g->alloc, &g->skeleton, remap, g->err);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = 0; i < g->nodes_count; ++i) {
        if (g->nodes[i].raw >= 0) g->nodes[i].joint = remap[g->nodes[i].raw];
    }
    return SW_RESULT_OK;
}

/* Base name of the mesh a node instantiates: the mesh's name, else the
 * node's, else "mesh_<m>"; at most `max` bytes. */
static void sw__gltf_mesh_name(const sw__gltf* g, uint32_t node, char* out, size_t max) {
    char buf[SW__GLTF_NAME];
    const int32_t m = g->nodes[node].mesh;
    if (!sw__gltf_name(g, g->meshes[m], buf) && !sw__gltf_name(g, g->nodes[node].tok, buf)) {
        snprintf(buf, sizeof buf, "mesh_%d", m);
    }
    sw__gltf_copy_prefix(out, buf, max);
}

/* Morph targets of a mesh: the largest primitive targets count, else the
 * length of its default weights. */
static uint32_t sw__gltf_morph_count_of(const sw__gltf* g, int32_t mesh) {
    const int32_t obj = g->meshes[mesh];
    const int32_t prims = sw__json_find(&g->js, obj, "primitives");
    uint32_t n = 0;
    for (int32_t p = sw__json_first(&g->js, prims); p >= 0; p = sw__json_next(&g->js, prims, p)) {
        uint32_t k = sw__json_len(&g->js, sw__json_find(&g->js, p, "targets"));
        if (k > n) n = k;
    }
    if (n == 0) n = sw__json_len(&g->js, sw__json_find(&g->js, obj, "weights"));
    return n;
}

static uint32_t sw__gltf_morph_count(const sw__gltf* g, int32_t mesh) {
    return g->morph_counts[mesh];
}

/* ---- meshes ---- */

typedef struct sw__gltf_skin {
    uint32_t joints_count;
    uint16_t* palette;
    sw_mat4* inverse_binds;
} sw__gltf_skin;

static sw_result sw__gltf_read_skin(sw__gltf* g, uint32_t s, sw__gltf_skin* out) {
    int32_t jt;
    uint32_t n;
    sw_result r = sw__gltf_skin_joints(g, s, &jt, &n);
    if (r != SW_RESULT_OK) return r;
    out->joints_count = n;
    out->palette = (uint16_t*)sw__gltf_array_alloc(g, n, sizeof(uint16_t));
    out->inverse_binds = (sw_mat4*)sw__gltf_array_alloc(g, n, sizeof(sw_mat4));
    if (!out->palette || !out->inverse_binds) return sw__gltf_oom(g, "allocation");
    uint32_t i = 0;
    for (int32_t c = sw__json_first(&g->js, jt); c >= 0; c = sw__json_next(&g->js, jt, c)) {
        int64_t k;
        sw__json_int(&g->js, c, 0, (int64_t)g->nodes_count - 1, &k);
        out->palette[i] = (uint16_t)g->nodes[k].joint;
        out->inverse_binds[i] = sw_mat4_identity();
        ++i;
    }
    int32_t it = sw__json_find(&g->js, g->skins[s], "inverseBindMatrices");
    if (it >= 0) {
        int64_t acc;
        if (!sw__json_int(&g->js, it, 0, INT32_MAX, &acc)) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "skin inverseBindMatrices", it, s);
        }
        sw__gltf_acc a;
        if ((r = sw__gltf_accessor(g, acc, it, 16, SW__CT_F32, false, &a)) != SW_RESULT_OK) {
            return r;
        }
        if (a.count < n) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "skin inverseBindMatrices count", it, s);
        }
        for (uint32_t k = 0; k < n; ++k) {
            memcpy(out->inverse_binds[k].m, a.f + 16u * k, sizeof(sw_mat4));
            for (int e = 12; e < 15; ++e)
                out->inverse_binds[k].m[e] *= g->scale;
        }
    }
    return SW_RESULT_OK;
}

/* Reads an optional attribute: *present false when absent. */
static sw_result sw__gltf_attribute(sw__gltf* g, int32_t attrs, const char* key, uint32_t comps,
                                    uint32_t ctypes, bool ints, uint32_t vertices,
                                    sw__gltf_acc* out, bool* present) {
    memset(out, 0, sizeof *out);
    *present = false;
    int32_t t = sw__json_find(&g->js, attrs, key);
    if (t < 0) return SW_RESULT_OK;
    int64_t acc;
    if (!sw__json_int(&g->js, t, 0, INT32_MAX, &acc)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor index in range", t, -1);
    }
    sw_result r = sw__gltf_accessor(g, acc, t, comps, ctypes, ints, out);
    if (r != SW_RESULT_OK) return r;
    if (vertices && out->count != vertices) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "attribute count matches POSITION", t, acc);
    }
    *present = true;
    return SW_RESULT_OK;
}

/* Adds every vertex's influence slots (JOINTS_0 / WEIGHTS_0, then the
 * second set when there is one) to `raw`, checking weights >= 0, joints
 * inside the skin and a non-zero weight per vertex. */
static sw_result sw__gltf_influences(sw__gltf* g, int32_t attrs, const sw__gltf_skin* skin,
                                     uint32_t V, uint32_t sets, const sw__gltf_acc* jnt,
                                     const sw__gltf_acc* wgt, const sw__gltf_acc* jnt1,
                                     const sw__gltf_acc* wgt1, sw_raw_skin* raw) {
    for (uint32_t v = 0; v < V; ++v) {
        bool weighted = false;
        for (uint32_t c = 0; c < 4u * sets; ++c) {
            const float w = c < 4 ? wgt->f[4u * v + c] : wgt1->f[4u * v + c - 4u];
            const uint32_t j = c < 4 ? jnt->u[4u * v + c] : jnt1->u[4u * v + c - 4u];
            if (w < 0.0f) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "vertex weights >= 0", attrs, v);
            }
            if (w > 0.0f && j >= skin->joints_count) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "vertex joint < skin joints", attrs, v);
            }
            weighted = weighted || w > 0.0f;
            const sw_result r = sw_raw_skin_add(raw, v, (uint16_t)j, w, g->err);
            if (r != SW_RESULT_OK) return r;
        }
        if (!weighted) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "vertex weights sum > 0", attrs, v);
        }
    }
    return SW_RESULT_OK;
}

/* The joints and weights of a primitive's V vertices: all on palette entry
 * 0 when `rigid`, else JOINTS_0 / WEIGHTS_0 (and a second set JOINTS_1 /
 * WEIGHTS_1 joining the first) through a raw skin: the four largest kept,
 * normalised. *weights: 4 per vertex. */
static sw_result sw__gltf_skin_weights(sw__gltf* g, int32_t attrs, const sw__gltf_skin* skin,
                                       bool rigid, uint32_t V, uint16_t** joints, float** weights) {
    sw__gltf_acc jnt, wgt;
    memset(&jnt, 0, sizeof jnt);
    memset(&wgt, 0, sizeof wgt);
    bool has;
    sw_result r;
    *joints = (uint16_t*)sw__gltf_array_alloc(g, 4u * (size_t)V, sizeof(uint16_t));
    if (!*joints) return sw__gltf_oom(g, "allocation");
    if (rigid) {
        /* All of each vertex on the one palette entry. */
        *weights = (float*)sw__gltf_array_alloc(g, 4u * (size_t)V, sizeof(float));
        if (!*weights) return sw__gltf_oom(g, "allocation");
        for (uint32_t v = 0; v < V; ++v)
            (*weights)[4u * v] = 1.0f;
        return SW_RESULT_OK;
    }
    if ((r = sw__gltf_attribute(g, attrs, "JOINTS_0", 4, SW__CT_U8 | SW__CT_U16, true, V, &jnt,
                                &has)) != SW_RESULT_OK ||
        (r = sw__gltf_attribute(g, attrs, "WEIGHTS_0", 4, SW__CT_WEIGHTS, false, V, &wgt, &has)) !=
            SW_RESULT_OK) {
        return r;
    }
    /* A second influence set (JOINTS_1 / WEIGHTS_1) joins the first; the four
     * largest weights are kept. */
    sw__gltf_acc jnt1, wgt1;
    bool has_j1 = false, has_w1 = false;
    if ((r = sw__gltf_attribute(g, attrs, "JOINTS_1", 4, SW__CT_U8 | SW__CT_U16, true, V, &jnt1,
                                &has_j1)) != SW_RESULT_OK ||
        (r = sw__gltf_attribute(g, attrs, "WEIGHTS_1", 4, SW__CT_WEIGHTS, false, V, &wgt1,
                                &has_w1)) != SW_RESULT_OK) {
        return r;
    }
    const uint32_t sets = has_j1 && has_w1 ? 2u : 1u;
    sw_raw_skin* raw = NULL;
    if ((r = sw_raw_skin_create(V, g->alloc, &raw, g->err)) != SW_RESULT_OK) return r;
    r = sw__gltf_influences(g, attrs, skin, V, sets, &jnt, &wgt, &jnt1, &wgt1, raw);
    if (r == SW_RESULT_OK) r = sw_raw_skin_build(raw, *joints, wgt.f, NULL, g->err);
    sw_raw_skin_destroy(raw);
    *weights = wgt.f;
    return r;
}

/* A primitive's triangle indices (each < V), or none (then V must be a
 * multiple of 3). */
static sw_result sw__gltf_indices(sw__gltf* g, int32_t prim, uint32_t p, uint32_t V,
                                  uint32_t** indices, uint32_t* count) {
    *indices = NULL;
    *count = 0;
    int32_t it = sw__json_find(&g->js, prim, "indices");
    if (it < 0) {
        if (V % 3u != 0) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive vertices multiple of 3", prim,
                                 p);
        }
        return SW_RESULT_OK;
    }
    int64_t acc;
    if (!sw__json_int(&g->js, it, 0, INT32_MAX, &acc)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "accessor index in range", it, p);
    }
    sw__gltf_acc idx;
    sw_result r = sw__gltf_accessor(g, acc, it, 1, SW__CT_U8 | SW__CT_U16 | SW__CT_U32, true, &idx);
    if (r != SW_RESULT_OK) return r;
    if (idx.count % 3u != 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive indices multiple of 3", it, p);
    }
    for (uint32_t k = 0; k < idx.count; ++k) {
        if (idx.u[k] >= V) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive index < vertices count", it, k);
        }
    }
    *indices = idx.u;
    *count = idx.count;
    return SW_RESULT_OK;
}

/* A primitive's morph targets: position deltas (scaled), normal deltas
 * when a target has them, names from mesh.extras.targetNames. */
typedef struct sw__gltf_morphs {
    uint32_t count;
    float* positions;
    float* normals;
    const char** names;
} sw__gltf_morphs;

/* Target names: the common mesh.extras.targetNames convention (the node's
 * extras when the mesh has none); NULL unless there is one per target. */
static sw_result sw__gltf_target_names(sw__gltf* g, uint32_t node, uint32_t T,
                                       const char*** names) {
    const sw__json* js = &g->js;
    const int32_t mesh_obj = g->meshes[g->nodes[node].mesh];
    int32_t tn = sw__json_find(js, sw__json_find(js, mesh_obj, "extras"), "targetNames");
    if (tn < 0)
        tn = sw__json_find(js, sw__json_find(js, g->nodes[node].tok, "extras"), "targetNames");
    if (sw__json_len(js, tn) != T || sw__json_type_of(js, tn) != SW__JSON_ARRAY)
        return SW_RESULT_OK;
    *names = (const char**)sw__gltf_array_alloc(g, T, sizeof(char*));
    char* store = (char*)sw__gltf_array_alloc(g, T, SW__GLTF_NAME);
    if (!*names || !store) return sw__gltf_oom(g, "allocation");
    uint32_t k = 0;
    for (int32_t s = sw__json_first(js, tn); s >= 0; s = sw__json_next(js, tn, s), ++k) {
        char* dst = store + (size_t)k * SW__GLTF_NAME;
        if (!sw__json_string(js, s, dst, SW__GLTF_NAME, NULL)) snprintf(dst, 32, "target_%u", k);
        (*names)[k] = dst;
    }
    return SW_RESULT_OK;
}

static sw_result sw__gltf_morph_targets(sw__gltf* g, uint32_t node, int32_t prim, uint32_t p,
                                        uint32_t V, sw__gltf_morphs* m) {
    const sw__json* js = &g->js;
    memset(m, 0, sizeof *m);
    const int32_t targets = sw__json_find(js, prim, "targets");
    const uint32_t T = sw__json_len(js, targets);
    if (targets >= 0 && sw__json_type_of(js, targets) != SW__JSON_ARRAY) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive targets", targets, p);
    }
    if (T > SW_MESH_MAX_MORPH_TARGETS) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "morph targets count", targets, p);
    }
    m->count = T;
    if (T == 0) return SW_RESULT_OK;
    m->positions = (float*)sw__gltf_array_alloc(g, (size_t)T * 3u * V, sizeof(float));
    if (!m->positions) return sw__gltf_oom(g, "allocation");
    uint32_t k = 0;
    for (int32_t t = sw__json_first(js, targets); t >= 0; t = sw__json_next(js, targets, t)) {
        sw__gltf_acc a;
        bool has;
        sw_result r;
        if (sw__json_type_of(js, t) != SW__JSON_OBJECT) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive targets", t, k);
        }
        if ((r = sw__gltf_attribute(g, t, "POSITION", 3, SW__CT_ANY, false, V, &a, &has)) !=
            SW_RESULT_OK) {
            return r;
        }
        for (size_t e = 0; has && e < 3u * (size_t)V; ++e)
            m->positions[(size_t)k * 3u * V + e] = a.f[e] * g->scale;
        if ((r = sw__gltf_attribute(g, t, "NORMAL", 3, SW__CT_ANY, false, V, &a, &has)) !=
            SW_RESULT_OK) {
            return r;
        }
        if (has) {
            if (!m->normals)
                m->normals = (float*)sw__gltf_array_alloc(g, (size_t)T * 3u * V, sizeof(float));
            if (!m->normals) return sw__gltf_oom(g, "allocation");
            memcpy(m->normals + (size_t)k * 3u * V, a.f, 3u * (size_t)V * sizeof(float));
        }
        ++k;
    }
    return sw__gltf_target_names(g, node, T, &m->names);
}

/* Builds primitive p (object prim) of node's mesh on `skin` (rigid: every
 * vertex on its one entry); *skipped when a skinned mesh's primitive has
 * no influences. */
static sw_result sw__gltf_primitive(sw__gltf* g, uint32_t node, int32_t prim, uint32_t p,
                                    uint32_t prims_count, const sw__gltf_skin* skin, bool rigid,
                                    const sw_mesh** out, bool* skipped) {
    const sw__json* js = &g->js;
    *skipped = false;
    int64_t mode;
    sw_result r;
    if ((r = sw__gltf_int(g, prim, "mode", 4, 0, 6, "primitive mode", p, &mode)) != SW_RESULT_OK) {
        return r;
    }
    if (mode != 4) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive mode is triangles (4)",
                             sw__json_find(js, prim, "mode"), p);
    }
    const int32_t attrs = sw__json_find(js, prim, "attributes");
    if (sw__json_type_of(js, attrs) != SW__JSON_OBJECT) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive attributes", prim, p);
    }
    if (!rigid &&
        (sw__json_find(js, attrs, "JOINTS_0") < 0 || sw__json_find(js, attrs, "WEIGHTS_0") < 0)) {
        *skipped = true;
        return SW_RESULT_OK;
    }
    sw__gltf_acc pos, nrm, uv;
    bool has_pos, has_nrm, has_uv;
    if ((r = sw__gltf_attribute(g, attrs, "POSITION", 3, SW__CT_ANY, false, 0, &pos, &has_pos)) !=
        SW_RESULT_OK) {
        return r;
    }
    if (!has_pos) return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "primitive POSITION", attrs, p);
    const uint32_t V = pos.count;
    if (V > SW_MESH_MAX_VERTICES) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "vertices count", attrs, p);
    }
    for (size_t k = 0; k < 3u * (size_t)V; ++k)
        pos.f[k] *= g->scale;
    if ((r = sw__gltf_attribute(g, attrs, "NORMAL", 3, SW__CT_ANY, false, V, &nrm, &has_nrm)) !=
            SW_RESULT_OK ||
        (r = sw__gltf_attribute(g, attrs, "TEXCOORD_0", 2, SW__CT_ANY, false, V, &uv, &has_uv)) !=
            SW_RESULT_OK) {
        return r;
    }
    uint16_t* joints = NULL;
    float* weights = NULL;
    uint32_t* indices = NULL;
    uint32_t indices_count = 0;
    sw__gltf_morphs morphs;
    if ((r = sw__gltf_skin_weights(g, attrs, skin, rigid, V, &joints, &weights)) != SW_RESULT_OK ||
        (r = sw__gltf_indices(g, prim, p, V, &indices, &indices_count)) != SW_RESULT_OK ||
        (r = sw__gltf_morph_targets(g, node, prim, p, V, &morphs)) != SW_RESULT_OK) {
        return r;
    }
    char name[SW__GLTF_NAME + 16];
    if (prims_count > 1) {
        char base[SW__GLTF_NAME];
        sw__gltf_mesh_name(g, node, base, SW_MESH_MAX_NAME - 12u);
        snprintf(name, sizeof name, "%s_%u", base, p);
    } else {
        sw__gltf_mesh_name(g, node, name, SW_MESH_MAX_NAME);
    }
    const sw_mesh_desc desc = {
        .name = name,
        .vertices_count = V,
        .positions = pos.f,
        .normals = has_nrm ? nrm.f : NULL,
        .uvs = has_uv ? uv.f : NULL,
        .joints = joints,
        .weights = weights,
        .indices = indices,
        .indices_count = indices_count,
        .palette = skin->palette,
        .inverse_binds = skin->inverse_binds,
        .palette_count = skin->joints_count,
        .skeleton_joints_count = g->skeleton->joints_count,
        .morph_targets_count = morphs.count,
        .morph_positions = morphs.positions,
        .morph_normals = morphs.normals,
        .morph_names = morphs.names,
    };
    return sw_mesh_create(&desc, g->alloc, out, g->err);
}

/* The skeleton joint a mesh node without a skin rides on: the node itself or
 * its nearest ancestor in the skeleton, -1 when none. */
static int32_t sw__gltf_anchor(const sw__gltf* g, uint32_t node) {
    int32_t k = (int32_t)node;
    while (k >= 0 && g->nodes[k].joint < 0)
        k = g->nodes[k].parent;
    return k;
}

/* A one-entry palette for a rigid mesh node: its anchor joint, and as
 * inverse bind the node's rest transform relative to the anchor (so that
 * model[anchor] * inverse_bind is the node's model matrix). False when that
 * transform is singular. */
static bool sw__gltf_rigid_skin(sw__gltf* g, uint32_t node, int32_t anchor, uint16_t* palette,
                                sw_mat4* bind, sw__gltf_skin* out) {
    sw_mat4 acc = sw_mat4_identity();
    for (int32_t k = (int32_t)node; k != anchor; k = g->nodes[k].parent) {
        sw_mat4 local = sw_mat4_from_xform(g->nodes[k].local);
        acc = sw_mat4_mul(&local, &acc);
    }
    sw_mat4 inv;
    if (!sw_mat4_inverse(&acc, &inv)) return false;
    *palette = (uint16_t)g->nodes[anchor].joint;
    *bind = acc;
    out->joints_count = 1;
    out->palette = palette;
    out->inverse_binds = bind;
    return true;
}

static sw_result sw__gltf_build_meshes(sw__gltf* g) {
    uint32_t total = 0, unskinned = 0;
    for (uint32_t i = 0; i < g->nodes_count; ++i) {
        const sw__gltf_node* nd = &g->nodes[i];
        if (nd->mesh < 0) continue;
        if (nd->skin < 0 && sw__gltf_anchor(g, i) < 0) {
            ++unskinned;
            continue;
        }
        int32_t prims = sw__json_find(&g->js, g->meshes[nd->mesh], "primitives");
        if (sw__json_type_of(&g->js, prims) != SW__JSON_ARRAY || sw__json_len(&g->js, prims) == 0) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "mesh primitives",
                                 prims >= 0 ? prims : g->meshes[nd->mesh], nd->mesh);
        }
        const uint32_t n = sw__json_len(&g->js, prims);
        if (n > UINT32_MAX - total) return sw__gltf_fail(g, SW_RESULT_LIMIT, "meshes count", 0, -1);
        total += n;
    }
    if (unskinned > 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "%u mesh nodes outside the skeleton skipped", unskinned);
        sw_scene_warn(g->scene, msg);
    }
    if (total == 0) return SW_RESULT_OK;
    g->scene->meshes = (const sw_mesh**)sw_alloc(g->alloc, (size_t)total * sizeof(sw_mesh*),
                                                 alignof(const sw_mesh*));
    if (!g->scene->meshes) return sw__gltf_oom(g, "allocation");
    memset((void*)g->scene->meshes, 0, (size_t)total * sizeof(sw_mesh*));
    g->scene->meshes_count = total;
    uint32_t made = 0, skipped_count = 0, singular = 0;
    for (uint32_t i = 0; i < g->nodes_count; ++i) {
        const sw__gltf_node* nd = &g->nodes[i];
        const int32_t anchor = nd->mesh >= 0 && nd->skin < 0 ? sw__gltf_anchor(g, i) : -1;
        if (nd->mesh < 0 || (nd->skin < 0 && anchor < 0)) continue;
        sw__gltf_skin skin;
        uint16_t rigid_palette;
        sw_mat4 rigid_bind;
        sw_result r = SW_RESULT_OK;
        if (nd->skin >= 0) {
            r = sw__gltf_read_skin(g, (uint32_t)nd->skin, &skin);
        } else if (!sw__gltf_rigid_skin(g, i, anchor, &rigid_palette, &rigid_bind, &skin)) {
            ++singular;
            continue;
        }
        if (r != SW_RESULT_OK) return r;
        int32_t prims = sw__json_find(&g->js, g->meshes[nd->mesh], "primitives");
        const uint32_t n = sw__json_len(&g->js, prims);
        uint32_t p = 0;
        for (int32_t pt = sw__json_first(&g->js, prims); pt >= 0;
             pt = sw__json_next(&g->js, prims, pt), ++p) {
            if (sw__json_type_of(&g->js, pt) != SW__JSON_OBJECT) {
                return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "mesh primitives", pt, p);
            }
            bool skipped;
            const sw_mesh* m = NULL;
            r = sw__gltf_primitive(g, i, pt, p, n, &skin, nd->skin < 0, &m, &skipped);
            if (r != SW_RESULT_OK) return r;
            if (skipped) {
                ++skipped_count;
                continue;
            }
            g->scene->meshes[made++] = m;
        }
    }
    if (singular > 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "%u mesh nodes with a singular transform skipped", singular);
        sw_scene_warn(g->scene, msg);
    }
    if (skipped_count > 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "%u skinned primitives without JOINTS_0/WEIGHTS_0 skipped",
                 skipped_count);
        sw_scene_warn(g->scene, msg);
    }
    if (made < total) {
        /* Shrink the array to what was built (scene_free needs the exact size). */
        const sw_mesh** smaller = NULL;
        if (made > 0) {
            smaller = (const sw_mesh**)sw_alloc(g->alloc, (size_t)made * sizeof(sw_mesh*),
                                                alignof(const sw_mesh*));
            if (!smaller) return sw__gltf_oom(g, "allocation");
            memcpy((void*)smaller, (const void*)g->scene->meshes, (size_t)made * sizeof(sw_mesh*));
        }
        sw_free(g->alloc, (void*)g->scene->meshes, (size_t)total * sizeof(sw_mesh*));
        g->scene->meshes = smaller;
        g->scene->meshes_count = made;
    }
    return SW_RESULT_OK;
}

/* ---- animations ---- */

typedef struct sw__gltf_clip_names {
    char (*names)[SW__GLTF_NAME];
} sw__gltf_clip_names;

static sw_result sw__gltf_clip_names_make(sw__gltf* g, char (**out)[SW__GLTF_NAME]) {
    const uint32_t n = g->animations_count;
    char(*names)[SW__GLTF_NAME] = (char(*)[SW__GLTF_NAME])sw__gltf_array_alloc(g, n, SW__GLTF_NAME);
    if (!names) return sw__gltf_oom(g, "allocation");
    for (uint32_t a = 0; a < n; ++a) {
        char base[SW__GLTF_NAME], cand[SW__GLTF_NAME + 32];
        if (!sw__gltf_name(g, g->animations[a], base))
            snprintf(base, sizeof base, "animation_%u", a);
        snprintf(cand, sizeof cand, "%s", base);
        bool taken = true;
        for (uint32_t extra = 0; taken; ++extra) {
            taken = false;
            for (uint32_t k = 0; k < a && !taken; ++k)
                taken = strcmp(names[k], cand) == 0;
            if (taken) {
                char prefix[SW__GLTF_NAME];
                sw__gltf_copy_prefix(prefix, base, SW_CLIP_MAX_NAME - 24u);
                if (extra == 0) {
                    snprintf(cand, sizeof cand, "%s_%u", prefix, a);
                } else {
                    snprintf(cand, sizeof cand, "%s_%u_%u", prefix, a, extra);
                }
            }
        }
        memcpy(names[a], cand, strlen(cand) + 1u);
    }
    *out = names;
    return SW_RESULT_OK;
}

typedef struct sw__gltf_anim_stats {
    uint32_t outside, duplicate, unsupported;
} sw__gltf_anim_stats;

/* One animation channel as read: target node and path, sampler, keys. */
typedef struct sw__gltf_channel {
    int64_t node;
    int32_t target; /* the target object */
    uint32_t path;  /* SW__PATH_*; 0: skipped (counted) */
    uint32_t comps;
    sw_track_kind kind;
    int64_t sampler;
    sw_interp interp;
    uint32_t per_key; /* values per key: 3 for cubic splines (tangents), else 1 */
    sw__gltf_acc times;
    int64_t out_acc;
    int32_t out_token;
} sw__gltf_channel;

/* Upper bound on an animation's tracks: one per channel, morph channels
 * one per target. */
static size_t sw__gltf_tracks_cap(sw__gltf* g, int32_t chs) {
    const sw__json* js = &g->js;
    size_t cap = 0;
    for (int32_t c = sw__json_first(js, chs); c >= 0; c = sw__json_next(js, chs, c)) {
        int64_t node;
        int32_t target = sw__json_find(js, c, "target");
        if (sw__json_int(js, sw__json_find(js, target, "node"), 0, (int64_t)g->nodes_count - 1,
                         &node) &&
            g->nodes[node].mesh >= 0 &&
            sw__json_string_is(js, sw__json_find(js, target, "path"), "weights")) {
            const uint32_t t = sw__gltf_morph_count(g, g->nodes[node].mesh);
            cap += t < SW_MESH_MAX_MORPH_TARGETS ? t : SW_MESH_MAX_MORPH_TARGETS;
        } else {
            cap += 1;
        }
    }
    return cap;
}

/* Channel c (index ci): its sampler index, target node and path; ch->path
 * stays 0 for targets defined by extensions and unknown paths (counted). */
static sw_result sw__gltf_channel_target(sw__gltf* g, int32_t c, uint32_t ci,
                                         uint32_t samplers_count, sw__gltf_anim_stats* stats,
                                         sw__gltf_channel* ch) {
    const sw__json* js = &g->js;
    sw_result r;
    if (sw__json_type_of(js, c) != SW__JSON_OBJECT) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "animation channel", c, ci);
    }
    if ((r = sw__gltf_index(g, c, "sampler", samplers_count, "channel sampler in range", ci,
                            &ch->sampler)) != SW_RESULT_OK) {
        return r;
    }
    const int32_t target = sw__json_find(js, c, "target");
    ch->target = target;
    if (sw__json_type_of(js, target) != SW__JSON_OBJECT) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "channel target", c, ci);
    }
    if (sw__json_find(js, target, "node") < 0) {
        ++stats->unsupported; /* targets defined by extensions */
        return SW_RESULT_OK;
    }
    if ((r = sw__gltf_index(g, target, "node", g->nodes_count, "channel target node in range", ci,
                            &ch->node)) != SW_RESULT_OK) {
        return r;
    }
    const int32_t pt = sw__json_find(js, target, "path");
    if (sw__json_string_is(js, pt, "translation")) {
        ch->path = SW__PATH_T, ch->comps = 3, ch->kind = SW_TRACK_KIND_TRANSLATION;
    } else if (sw__json_string_is(js, pt, "rotation")) {
        ch->path = SW__PATH_R, ch->comps = 4, ch->kind = SW_TRACK_KIND_ROTATION;
    } else if (sw__json_string_is(js, pt, "scale")) {
        ch->path = SW__PATH_S, ch->comps = 3, ch->kind = SW_TRACK_KIND_SCALE;
    } else if (sw__json_string_is(js, pt, "weights")) {
        ch->path = SW__PATH_W, ch->comps = 1, ch->kind = SW_TRACK_KIND_FLOAT;
    } else if (sw__json_type_of(js, pt) == SW__JSON_STRING) {
        ++stats->unsupported;
    } else {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "channel target path", pt >= 0 ? pt : target,
                             ci);
    }
    return SW_RESULT_OK;
}

/* The channel's sampler sm: interpolation, output accessor and the key
 * times (not negative, increasing). */
static sw_result sw__gltf_channel_sampler(sw__gltf* g, int32_t sm, sw__gltf_channel* ch) {
    const sw__json* js = &g->js;
    const int64_t si = ch->sampler;
    if (sw__json_type_of(js, sm) != SW__JSON_OBJECT) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "animation sampler", sm, si);
    }
    const int32_t interp_t = sw__json_find(js, sm, "interpolation");
    ch->interp = SW_INTERP_LINEAR;
    if (interp_t >= 0) {
        if (sw__json_string_is(js, interp_t, "LINEAR")) {
            ch->interp = SW_INTERP_LINEAR;
        } else if (sw__json_string_is(js, interp_t, "STEP")) {
            ch->interp = SW_INTERP_STEP;
        } else if (sw__json_string_is(js, interp_t, "CUBICSPLINE")) {
            ch->interp = SW_INTERP_CUBIC;
        } else {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sampler interpolation", interp_t, si);
        }
    }
    ch->per_key = ch->interp == SW_INTERP_CUBIC ? 3u : 1u;
    int64_t in_acc;
    int32_t it = sw__json_find(js, sm, "input");
    ch->out_token = sw__json_find(js, sm, "output");
    if (!sw__json_int(js, it, 0, INT32_MAX, &in_acc) ||
        !sw__json_int(js, ch->out_token, 0, INT32_MAX, &ch->out_acc)) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sampler input and output", sm, si);
    }
    sw_result r = sw__gltf_accessor(g, in_acc, it, 1, SW__CT_F32, false, &ch->times);
    if (r != SW_RESULT_OK) return r;
    const float* t = ch->times.f;
    if (t[0] < 0.0f) return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "key times >= 0", it, in_acc);
    for (uint32_t k = 1; k < ch->times.count; ++k) {
        if (!(t[k] > t[k - 1])) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "key times increasing", it, in_acc);
        }
    }
    return SW_RESULT_OK;
}

/* Rotation keys (every per_key-th value quaternion, tangents skipped)
 * normalised; linear and step keys kept on one hemisphere. */
static sw_result sw__gltf_rotation_keys(sw__gltf* g, const sw__gltf_channel* ch, float* v) {
    const uint32_t per_key = ch->per_key;
    for (uint32_t k = 0; k < ch->times.count; ++k) {
        float* q = v + ((size_t)k * per_key + (per_key == 3u ? 1u : 0u)) * 4u;
        double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                          (double)q[3] * q[3]);
        if (!(fabs(len - 1.0) <= SW__GLTF_ROTATION_TOLERANCE)) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "rotation keys unit", ch->out_token, k);
        }
        for (int e = 0; e < 4; ++e)
            q[e] = (float)(q[e] / len);
        if (per_key == 1u && k > 0) {
            const float* pq = q - 4;
            if (pq[0] * q[0] + pq[1] * q[1] + pq[2] * q[2] + pq[3] * q[3] < 0.0f) {
                for (int e = 0; e < 4; ++e)
                    q[e] = -q[e];
            }
        }
    }
    return SW_RESULT_OK;
}

/* One float track "<mesh>.weights[k]" per morph target from a weights
 * channel's values v (targets interleaved per key); names already taken
 * by a float track are counted as duplicates. */
static sw_result sw__gltf_weight_tracks(sw__gltf* g, const sw__gltf_channel* ch, const float* v,
                                        uint32_t targets, sw_clip_track_desc* tracks, uint32_t* tn,
                                        uint32_t* floats, sw__gltf_anim_stats* stats) {
    const uint32_t keys = ch->times.count, per_key = ch->per_key;
    char base[SW__GLTF_NAME];
    sw__gltf_mesh_name(g, (uint32_t)ch->node, base, SW_CLIP_MAX_NAME - 16u);
    for (uint32_t k = 0; k < targets; ++k) {
        char* tname = (char*)sw__gltf_alloc(g, SW__GLTF_NAME + 16u);
        float* fv = (float*)sw__gltf_array_alloc(g, (size_t)keys * per_key, sizeof(float));
        if (!tname || !fv) return sw__gltf_oom(g, "allocation");
        snprintf(tname, SW__GLTF_NAME + 16u, "%.239s.weights[%u]", base, k);
        for (uint32_t key = 0; key < keys; ++key) {
            for (uint32_t e = 0; e < per_key; ++e)
                fv[(size_t)key * per_key + e] = v[((size_t)key * per_key + e) * targets + k];
        }
        bool dup = false;
        for (uint32_t o = 0; o < *tn && !dup; ++o)
            dup = tracks[o].kind == SW_TRACK_KIND_FLOAT && strcmp(tracks[o].name, tname) == 0;
        if (dup) {
            ++stats->duplicate;
            continue;
        }
        sw_clip_track_desc* td = &tracks[(*tn)++];
        ++*floats;
        td->kind = SW_TRACK_KIND_FLOAT;
        td->name = tname;
        td->interp = ch->interp;
        td->keys_count = keys;
        td->times = ch->times.f;
        td->values = fv;
    }
    return SW_RESULT_OK;
}

/* The morph targets a weights channel drives (checked against the limits
 * with `floats` float tracks so far); 1 for other paths. */
static sw_result sw__gltf_channel_targets(sw__gltf* g, const sw__gltf_channel* ch, uint32_t ci,
                                          uint32_t floats, uint32_t* targets) {
    *targets = 1;
    if (ch->path != SW__PATH_W) return SW_RESULT_OK;
    const int32_t mesh = g->nodes[ch->node].mesh;
    *targets = mesh >= 0 ? sw__gltf_morph_count(g, mesh) : 0u;
    if (*targets > SW_MESH_MAX_MORPH_TARGETS) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "morph targets count", ch->target, ci);
    }
    if (*targets > SW_CLIP_MAX_FLOAT_TRACKS - floats) {
        return sw__gltf_fail(g, SW_RESULT_LIMIT, "float tracks count", ch->target, ci);
    }
    if (*targets == 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "weights channel on a node with morph targets",
                             ch->target, ci);
    }
    return SW_RESULT_OK;
}

static sw_result sw__gltf_build_clip(sw__gltf* g, uint32_t a, const char* name,
                                     sw__gltf_anim_stats* stats, const sw_clip** out) {
    const sw__json* js = &g->js;
    const int32_t obj = g->animations[a];
    const int32_t chs = sw__json_find(js, obj, "channels");
    const int32_t sms = sw__json_find(js, obj, "samplers");
    if (sw__json_type_of(js, chs) != SW__JSON_ARRAY ||
        sw__json_type_of(js, sms) != SW__JSON_ARRAY) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "animation channels and samplers", obj, a);
    }
    const uint32_t samplers_count = sw__json_len(js, sms);
    const size_t cap = sw__gltf_tracks_cap(g, chs);
    sw_clip_track_desc* tracks =
        (sw_clip_track_desc*)sw__gltf_array_alloc(g, cap, sizeof(sw_clip_track_desc));
    int32_t* samplers = (int32_t*)sw__gltf_array_alloc(g, samplers_count, sizeof(int32_t));
    if (!tracks || !samplers) return sw__gltf_oom(g, "allocation");
    uint32_t sk = 0;
    for (int32_t t = sw__json_first(js, sms); t >= 0; t = sw__json_next(js, sms, t))
        samplers[sk++] = t;
    uint32_t tn = 0, floats = 0;
    float duration = 0.0f;
    uint32_t ci = 0;
    for (int32_t c = sw__json_first(js, chs); c >= 0; c = sw__json_next(js, chs, c), ++ci) {
        sw__gltf_channel ch;
        memset(&ch, 0, sizeof ch);
        sw_result r = sw__gltf_channel_target(g, c, ci, samplers_count, stats, &ch);
        if (r != SW_RESULT_OK) return r;
        if (ch.path == 0) continue;
        if ((r = sw__gltf_channel_sampler(g, samplers[ch.sampler], &ch)) != SW_RESULT_OK) return r;
        const uint32_t keys = ch.times.count;
        if (ch.times.f[keys - 1] > duration) duration = ch.times.f[keys - 1];
        uint32_t targets = 1;
        if ((r = sw__gltf_channel_targets(g, &ch, ci, floats, &targets)) != SW_RESULT_OK) return r;
        sw__gltf_acc values;
        if ((r = sw__gltf_accessor(g, ch.out_acc, ch.out_token, ch.comps,
                                   ch.path == SW__PATH_R || ch.path == SW__PATH_W ? SW__CT_UNIT
                                                                                  : SW__CT_F32,
                                   false, &values)) != SW_RESULT_OK) {
            return r;
        }
        if ((uint64_t)values.count != (uint64_t)keys * ch.per_key * targets) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "sampler output count", ch.out_token,
                                 ch.out_acc);
        }
        sw__gltf_node* nd = &g->nodes[ch.node];
        if (ch.path != SW__PATH_W && nd->joint < 0) {
            ++stats->outside;
            continue;
        }
        if (nd->anim_stamp != a + 1u) {
            nd->anim_stamp = a + 1u;
            nd->anim_paths = 0;
        }
        if (nd->anim_paths & ch.path) {
            ++stats->duplicate;
            continue;
        }
        nd->anim_paths |= ch.path;
        float* v = values.f;
        if (ch.path == SW__PATH_T) {
            for (size_t k = 0; k < (size_t)values.count * 3u; ++k)
                v[k] *= g->scale;
        } else if (ch.path == SW__PATH_R) {
            if ((r = sw__gltf_rotation_keys(g, &ch, v)) != SW_RESULT_OK) return r;
        }
        if (ch.path == SW__PATH_W) {
            r = sw__gltf_weight_tracks(g, &ch, v, targets, tracks, &tn, &floats, stats);
            if (r != SW_RESULT_OK) return r;
            continue;
        }
        sw_clip_track_desc* td = &tracks[tn++];
        td->kind = ch.kind;
        td->joint = (uint32_t)nd->joint;
        td->interp = ch.interp;
        td->keys_count = keys;
        td->times = ch.times.f;
        td->values = v;
    }
    const sw_clip_desc desc = {
        .name = name,
        .duration = duration,
        .joints_count = g->skeleton->joints_count,
        .tracks = tracks,
        .tracks_count = tn,
    };
    return sw_clip_create(&desc, g->alloc, out, g->err);
}

static const char* sw__gltf_name_at(void* user, uint32_t i) {
    return ((const char(*)[SW__GLTF_NAME])user)[i];
}

static sw_result sw__gltf_build_clips(sw__gltf* g, const sw_gltf_options* opt) {
    char(*names)[SW__GLTF_NAME] = NULL;
    sw_result r = sw__gltf_clip_names_make(g, &names);
    if (r != SW_RESULT_OK) return r;
    const uint32_t n = g->animations_count;
    bool* chosen = (bool*)sw__gltf_array_alloc(g, n, sizeof(bool));
    if (!chosen) return sw__gltf_oom(g, "allocation");
    uint32_t count = 0;
    if (opt && opt->clips_count > 0) {
        for (uint32_t f = 0; f < opt->clips_count; ++f) {
            const char* want = opt->clips[f];
            uint32_t a = 0;
            while (a < n && !(want && strcmp(names[a], want) == 0))
                ++a;
            if (a == n) {
                return sw__fail_name(g->err, "requested clip in file", (int64_t)f, "clip", want,
                                     sw__gltf_name_at, names, n);
            }
            if (!chosen[a]) ++count;
            chosen[a] = true;
        }
    } else {
        for (uint32_t a = 0; a < n; ++a)
            chosen[a] = true;
        count = n;
    }
    if (count == 0) return SW_RESULT_OK;
    g->scene->clips = (const sw_clip**)sw_alloc(g->alloc, (size_t)count * sizeof(sw_clip*),
                                                alignof(const sw_clip*));
    if (!g->scene->clips) return sw__gltf_oom(g, "allocation");
    memset((void*)g->scene->clips, 0, (size_t)count * sizeof(sw_clip*));
    g->scene->clips_count = count;
    sw__gltf_anim_stats stats = {0, 0, 0};
    uint32_t made = 0;
    for (uint32_t a = 0; a < n; ++a) {
        if (!chosen[a]) continue;
        const sw_clip* c = NULL;
        r = sw__gltf_build_clip(g, a, names[a], &stats, &c);
        if (r != SW_RESULT_OK) {
            if (g->err && g->err->index < 0) g->err->index = (int64_t)a;
            return r;
        }
        g->scene->clips[made++] = c;
    }
    char msg[128];
    if (stats.outside) {
        snprintf(msg, sizeof msg, "%u channels on nodes outside the skeleton dropped",
                 stats.outside);
        sw_scene_warn(g->scene, msg);
    }
    if (stats.duplicate) {
        snprintf(msg, sizeof msg, "%u duplicate channels dropped", stats.duplicate);
        sw_scene_warn(g->scene, msg);
    }
    if (stats.unsupported) {
        snprintf(msg, sizeof msg, "%u channels with unsupported targets dropped",
                 stats.unsupported);
        sw_scene_warn(g->scene, msg);
    }
    return SW_RESULT_OK;
}

/* ---- entry points ---- */

static uint32_t sw__gltf_u32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Extensions that change what the reader reads and that it does not
 * implement, named in the error when a file requires them. */
static const char* const sw__gltf_refused[][2] = {
    {"KHR_draco_mesh_compression", "extension required: KHR_draco_mesh_compression (unsupported)"},
    {"EXT_meshopt_compression", "extension required: EXT_meshopt_compression (unsupported)"},
    {"KHR_animation_pointer", "extension required: KHR_animation_pointer (unsupported)"},
    {"EXT_mesh_gpu_instancing", "extension required: EXT_mesh_gpu_instancing (unsupported)"},
};

/* True for a required extension the reader honours: KHR_mesh_quantization
 * (quantized mesh attributes are read), and those about what it never reads
 * (materials, textures, lights). */
static bool sw__gltf_extension_ok(const sw__gltf* g, int32_t t) {
    static const char* const prefixes[] = {"KHR_mesh_quantization", "KHR_materials_",
                                           "KHR_texture_", "EXT_texture_", "KHR_lights_punctual"};
    const sw__json_token* tk = &g->js.tokens[t];
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; ++i) {
        const size_t n = strlen(prefixes[i]);
        if (tk->end - tk->start >= n && memcmp(g->js.text + tk->start, prefixes[i], n) == 0) {
            return true;
        }
    }
    return false;
}

/* Every name in extensionsRequired is an extension the reader honours. */
static sw_result sw__gltf_extensions(sw__gltf* g) {
    const int32_t arr = sw__json_find(&g->js, 0, "extensionsRequired");
    if (arr < 0) return SW_RESULT_OK;
    if (sw__json_type_of(&g->js, arr) != SW__JSON_ARRAY) {
        return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "extensionsRequired is an array", arr, -1);
    }
    int64_t i = 0;
    for (int32_t c = sw__json_first(&g->js, arr); c >= 0; c = sw__json_next(&g->js, arr, c), ++i) {
        if (sw__json_type_of(&g->js, c) != SW__JSON_STRING) {
            return sw__gltf_fail(g, SW_RESULT_BAD_DATA, "extensionsRequired is an array", c, i);
        }
        if (sw__gltf_extension_ok(g, c)) continue;
        const char* check = NULL;
        for (size_t k = 0; k < sizeof sw__gltf_refused / sizeof *sw__gltf_refused; ++k) {
            if (sw__json_string_is(&g->js, c, sw__gltf_refused[k][0]))
                check = sw__gltf_refused[k][1];
        }
        if (check) return sw__gltf_fail(g, SW_RESULT_BAD_DATA, check, c, i);
        /* any other: its name as the detail (cut to fit) */
        sw__gltf_fail(g, SW_RESULT_BAD_DATA, "extension required (unsupported)", c, i);
        if (g->err && !sw__json_string(&g->js, c, g->err->detail, sizeof g->err->detail, NULL))
            g->err->detail[0] = '\0';
        return SW_RESULT_BAD_DATA;
    }
    return SW_RESULT_OK;
}

static sw_result sw__gltf_read(sw__gltf* g, const uint8_t* data, size_t size,
                               const sw_gltf_options* opt) {
    const char* text = (const char*)data;
    size_t text_size = size;
    if (size >= 4 && memcmp(data, "glTF", 4) == 0) {
        g->glb = true;
        if (size < 12) return sw__fail(g->err, SW_RESULT_TRUNCATED, "glb header", size, -1);
        if (sw__gltf_u32(data + 4) != 2) {
            return sw__fail(g->err, SW_RESULT_BAD_VERSION, "glb version 2", 4, -1);
        }
        const uint32_t length = sw__gltf_u32(data + 8);
        if (length > size) {
            return sw__fail(g->err, SW_RESULT_TRUNCATED, "glb length within data", 8, -1);
        }
        if (length < 20) return sw__fail(g->err, SW_RESULT_BAD_DATA, "glb length", 8, -1);
        size = length;
        const uint32_t jlen = sw__gltf_u32(data + 12);
        if (sw__gltf_u32(data + 16) != 0x4E4F534Au) {
            return sw__fail(g->err, SW_RESULT_BAD_DATA, "glb first chunk is JSON", 16, -1);
        }
        if (jlen > size - 20u) {
            return sw__fail(g->err, SW_RESULT_TRUNCATED, "glb chunk within data", 12, 0);
        }
        text = (const char*)data + 20;
        text_size = jlen;
        /* Padding should be spaces; some writers pad with NUL bytes. */
        while (text_size > 0 && text[text_size - 1] == '\0')
            --text_size;
        g->json_base = 20;
        size_t at = 20u + (size_t)jlen;
        for (int64_t chunk = 1; at < size; ++chunk) {
            if (size - at < 8u) {
                return sw__fail(g->err, SW_RESULT_TRUNCATED, "glb chunk header", at, chunk);
            }
            const uint32_t clen = sw__gltf_u32(data + at);
            const uint32_t ctype = sw__gltf_u32(data + at + 4);
            if (clen > size - at - 8u) {
                return sw__fail(g->err, SW_RESULT_TRUNCATED, "glb chunk within data", at, chunk);
            }
            if (ctype == 0x004E4942u && !g->has_bin) {
                g->has_bin = true;
                g->bin = data + at + 8;
                g->bin_size = clen;
            }
            at += 8u + (size_t)clen;
        }
    } else if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
        text += 3; /* a UTF-8 byte order mark */
        text_size -= 3;
        g->json_base = 3;
    }
    sw_error je = SW_ERROR_INIT;
    sw_result r = sw__json_parse(&g->js, text, text_size, g->alloc, &je);
    if (r != SW_RESULT_OK) {
        je.offset += g->json_base;
        if (g->err) *g->err = je;
        return r;
    }
    const int32_t asset = sw__json_find(&g->js, 0, "asset");
    const int32_t version = sw__json_find(&g->js, asset, "version");
    if (sw__json_type_of(&g->js, version) != SW__JSON_STRING ||
        g->js.tokens[version].end - g->js.tokens[version].start < 2 ||
        memcmp(g->js.text + g->js.tokens[version].start, "2.", 2) != 0) {
        return sw__gltf_fail(g, SW_RESULT_BAD_VERSION, "asset version 2.x",
                             version >= 0 ? version : 0, -1);
    }
    if ((r = sw__gltf_extensions(g)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "accessors", &g->accessors, &g->accessors_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "bufferViews", &g->views, &g->views_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "buffers", &g->buffers, &g->buffers_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "nodes", &g->nodes_tok, &g->nodes_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "meshes", &g->meshes, &g->meshes_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "skins", &g->skins, &g->skins_count)) != SW_RESULT_OK ||
        (r = sw__gltf_top(g, "animations", &g->animations, &g->animations_count)) != SW_RESULT_OK) {
        return r;
    }
    g->morph_counts = (uint32_t*)sw__gltf_array_alloc(g, g->meshes_count, sizeof(uint32_t));
    if (!g->morph_counts) return sw__gltf_oom(g, "allocation");
    for (uint32_t m = 0; m < g->meshes_count; ++m)
        g->morph_counts[m] = sw__gltf_morph_count_of(g, (int32_t)m);
    if ((r = sw__gltf_buffers(g)) != SW_RESULT_OK) return r;
    if ((r = sw__gltf_read_nodes(g)) != SW_RESULT_OK) return r;
    if ((r = sw__gltf_build_skeleton(g)) != SW_RESULT_OK) return r;
    if (g->sheared > 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "%u matrix nodes with shear (lost in decomposition)", g->sheared);
        sw_scene_warn(g->scene, msg);
    }
    g->scene->skeleton = g->skeleton;
    if ((r = sw__gltf_build_meshes(g)) != SW_RESULT_OK) return r;
    return sw__gltf_build_clips(g, opt);
}

sw_result sw_gltf_read(const void* data, size_t size, const sw_gltf_options* options,
                       const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (err) {
        err->result = SW_RESULT_OK;
        err->check = NULL;
        err->offset = 0;
        err->index = -1;
    }
    if (out) memset(out, 0, sizeof *out);
    if (!out || (!data && size > 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    float scale = options && options->scale != 0.0f ? options->scale : 1.0f;
    if (!isfinite(scale) || !(scale > 0.0f)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "scale finite and > 0", 0, -1);
    }
    if (options && options->clips_count > 0 && !options->clips) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, -1);
    }
    sw__gltf g;
    memset(&g, 0, sizeof g);
    g.alloc = alloc;
    g.err = err;
    g.scene = out;
    g.scale = scale;
    g.resolve = options ? options->resolve : NULL;
    g.resolve_user = options ? options->resolve_user : NULL;
    sw_result r = sw__gltf_read(&g, (const uint8_t*)data, size, options);
    if (r != SW_RESULT_OK && !out->skeleton && g.skeleton) {
        sw_skeleton_destroy(g.skeleton, alloc);
    }
    sw__gltf_release(&g);
    if (r != SW_RESULT_OK) {
        sw_scene_free(out, alloc);
        if (err && err->result == SW_RESULT_OK) err->result = r;
        if (err && !err->check) err->check = "glTF";
    }
    return r;
}

static int sw__gltf_hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

sw_result sw_gltf_resolve_file(void* folder, const char* uri, const sw_allocator* alloc,
                               void** data, size_t* size, sw_error* err) {
    if (!uri || !data || !size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    *data = NULL;
    *size = 0;
    const char* dir = folder ? (const char*)folder : "";
    char rel[1024];
    size_t o = 0;
    for (size_t i = 0; uri[i]; ++i) {
        char c = uri[i];
        if (c == '%') {
            int hi = uri[i + 1] ? sw__gltf_hexval(uri[i + 1]) : -1;
            int lo = hi >= 0 && uri[i + 2] ? sw__gltf_hexval(uri[i + 2]) : -1;
            if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
                return sw__fail(err, SW_RESULT_IO, "uri percent-encoding", i, -1);
            }
            c = (char)(hi * 16 + lo);
            i += 2;
        }
        if (o + 1u >= sizeof rel) return sw__fail(err, SW_RESULT_LIMIT, "uri length", i, -1);
        rel[o++] = c;
    }
    rel[o] = '\0';
    bool bad = o == 0 || rel[0] == '/' || strchr(rel, ':') || strchr(rel, '\\');
    for (const char* seg = rel; !bad && seg;) {
        const char* slash = strchr(seg, '/');
        size_t len = slash ? (size_t)(slash - seg) : strlen(seg);
        if (len == 2 && seg[0] == '.' && seg[1] == '.') bad = true;
        seg = slash ? slash + 1 : NULL;
    }
    if (bad) return sw__fail(err, SW_RESULT_IO, "relative uri inside the folder", 0, -1);
    char path[2048];
    int w = snprintf(path, sizeof path, "%s%s%s", dir,
                     dir[0] && dir[strlen(dir) - 1] != '/' ? "/" : "", rel);
    if (w < 0 || (size_t)w >= sizeof path) {
        return sw__fail(err, SW_RESULT_LIMIT, "path length", 0, -1);
    }
    return sw_file_read(path, SW_GLTF_MAX_BUFFER_BYTES, alloc, data, size, err);
}

sw_result sw_gltf_file_folder(const char* path, char* folder, size_t cap, sw_error* err) {
    if (!path || !folder || cap == 0)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    const char* slash = strrchr(path, '/');
    const size_t n = slash ? (size_t)(slash - path) + 1u : 0u;
    if (n >= cap) return sw__fail(err, SW_RESULT_LIMIT, "path length", 0, -1);
    memcpy(folder, path, n);
    folder[n] = '\0';
    return SW_RESULT_OK;
}

sw_result sw_gltf_read_file(const char* path, const sw_gltf_options* options,
                            const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (out) memset(out, 0, sizeof *out);
    if (!path || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    char folder[2048];
    sw_result r = sw_gltf_file_folder(path, folder, sizeof folder, err);
    if (r != SW_RESULT_OK) return r;
    void* data = NULL;
    size_t size = 0;
    r = sw_file_read(path, SW_GLTF_MAX_BUFFER_BYTES, alloc, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    sw_gltf_options opt;
    memset(&opt, 0, sizeof opt);
    if (options) opt = *options;
    if (!opt.resolve) {
        opt.resolve = sw_gltf_resolve_file;
        opt.resolve_user = folder;
    }
    r = sw_gltf_read(data, size, &opt, alloc, out, err);
    sw_free(alloc, data, size);
    return r;
}
