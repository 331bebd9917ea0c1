/* An independent glTF evaluator for the tests, written apart from the reader:
 * its own small recursive JSON parser, base64 and .glb decoding, accessor
 * reading (byteStride, normalized integers) and node animation in double
 * precision (step, linear with slerp, cubic Hermite), with each node's world
 * matrix computed by walking parents in the file. It trusts its input (test
 * files only) and aborts the test on anything unexpected. */
#ifndef SINEW_TEST_GLTF_EVAL_H
#define SINEW_TEST_GLTF_EVAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON values ---- */

typedef struct ge_val {
    char type; /* 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null */
    double num;
    char* str;
    size_t n;
    struct ge_val* items;
    char** keys;
} ge_val;

typedef struct ge_parser {
    const char* s;
    size_t i, n;
} ge_parser;

static void ge_die(const char* what) {
    fprintf(stderr, "gltf_eval: %s\n", what);
    abort();
}

static void ge_ws(ge_parser* p) {
    while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]))
        ++p->i;
}

static void ge_parse_value(ge_parser* p, ge_val* v);

static char* ge_parse_string(ge_parser* p) {
    if (p->s[p->i] != '"') ge_die("string expected");
    ++p->i;
    char* out = (char*)malloc(p->n - p->i + 1);
    size_t o = 0;
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if (c == '\\') {
            char e = p->s[p->i++];
            if (e == 'u') {
                unsigned cp = (unsigned)strtoul(
                    (char[5]){p->s[p->i], p->s[p->i + 1], p->s[p->i + 2], p->s[p->i + 3], 0}, NULL,
                    16);
                p->i += 4;
                if (cp < 0x80) {
                    out[o++] = (char)cp;
                } else if (cp < 0x800) {
                    out[o++] = (char)(0xC0 | (cp >> 6));
                    out[o++] = (char)(0x80 | (cp & 0x3F));
                } else {
                    out[o++] = (char)(0xE0 | (cp >> 12));
                    out[o++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                    out[o++] = (char)(0x80 | (cp & 0x3F));
                }
                continue;
            }
            c = e == 'n'   ? '\n'
                : e == 't' ? '\t'
                : e == 'r' ? '\r'
                : e == 'b' ? '\b'
                : e == 'f' ? '\f'
                           : e;
        }
        out[o++] = c;
    }
    ++p->i;
    out[o] = 0;
    return out;
}

static void ge_parse_value(ge_parser* p, ge_val* v) {
    memset(v, 0, sizeof *v);
    ge_ws(p);
    if (p->i >= p->n) ge_die("value expected");
    char c = p->s[p->i];
    if (c == '{' || c == '[') {
        v->type = c == '{' ? 'o' : 'a';
        ++p->i;
        size_t cap = 0;
        for (;;) {
            ge_ws(p);
            if (p->s[p->i] == (c == '{' ? '}' : ']')) {
                ++p->i;
                break;
            }
            if (v->n == cap) {
                cap = cap ? cap * 2 : 8;
                v->items = (ge_val*)realloc(v->items, cap * sizeof(ge_val));
                if (c == '{') v->keys = (char**)realloc(v->keys, cap * sizeof(char*));
            }
            if (c == '{') {
                v->keys[v->n] = ge_parse_string(p);
                ge_ws(p);
                if (p->s[p->i++] != ':') ge_die("colon expected");
            }
            ge_parse_value(p, &v->items[v->n++]);
            ge_ws(p);
            if (p->s[p->i] == ',') ++p->i;
        }
    } else if (c == '"') {
        v->type = 's';
        v->str = ge_parse_string(p);
    } else if (!strncmp(p->s + p->i, "true", 4) || !strncmp(p->s + p->i, "false", 5)) {
        v->type = 'b';
        v->num = p->s[p->i] == 't';
        p->i += p->s[p->i] == 't' ? 4 : 5;
    } else if (!strncmp(p->s + p->i, "null", 4)) {
        v->type = 'z';
        p->i += 4;
    } else {
        char* end;
        v->type = 'n';
        v->num = strtod(p->s + p->i, &end);
        if (end == p->s + p->i) ge_die("number expected");
        p->i = (size_t)(end - p->s);
    }
}

static void ge_free_val(ge_val* v) {
    for (size_t k = 0; k < v->n; ++k) {
        ge_free_val(&v->items[k]);
        if (v->keys) free(v->keys[k]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
}

static const ge_val* ge_get(const ge_val* o, const char* key) {
    if (!o || o->type != 'o') return NULL;
    for (size_t k = 0; k < o->n; ++k)
        if (!strcmp(o->keys[k], key)) return &o->items[k];
    return NULL;
}

static const ge_val* ge_at(const ge_val* a, size_t i) {
    return a && a->type == 'a' && i < a->n ? &a->items[i] : NULL;
}

static double ge_num(const ge_val* v, double def) {
    return v && v->type == 'n' ? v->num : def;
}

/* ---- document ---- */

typedef struct ge_doc {
    ge_val root;
    uint8_t** buffers;
    size_t buffers_count;
    uint8_t* file;
} ge_doc;

static uint8_t* ge_base64(const char* s, size_t* out_n) {
    size_t n = strlen(s);
    uint8_t* out = (uint8_t*)malloc(n);
    uint32_t acc = 0;
    int bits = 0;
    size_t o = 0;
    for (size_t i = 0; i < n && s[i] != '='; ++i) {
        const char* tab = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char* f = strchr(tab, s[i]);
        if (!f) ge_die("base64");
        acc = (acc << 6) | (uint32_t)(f - tab);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    *out_n = o;
    return out;
}

static uint8_t* ge_read(const char* path, size_t* n) {
    FILE* f = fopen(path, "rb");
    if (!f) ge_die(path);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    uint8_t* p = (uint8_t*)malloc(*n + 1);
    if (fread(p, 1, *n, f) != *n) ge_die("read");
    fclose(f);
    return p;
}

/* Loads a .gltf or .glb file; external buffers relative to its folder. */
static void ge_load(ge_doc* d, const char* path) {
    memset(d, 0, sizeof *d);
    size_t n;
    d->file = ge_read(path, &n);
    const char* json = (const char*)d->file;
    size_t jn = n;
    uint8_t* bin = NULL;
    if (n >= 20 && !memcmp(d->file, "glTF", 4)) {
        uint32_t jlen;
        memcpy(&jlen, d->file + 12, 4);
        json = (const char*)d->file + 20;
        jn = jlen;
        if (20 + jlen + 8 <= n) bin = d->file + 20 + jlen + 8;
    }
    ge_parser p = {json, 0, jn};
    ge_parse_value(&p, &d->root);
    const ge_val* bufs = ge_get(&d->root, "buffers");
    d->buffers_count = bufs ? bufs->n : 0;
    d->buffers = (uint8_t**)calloc(d->buffers_count + 1, sizeof(uint8_t*));
    for (size_t b = 0; b < d->buffers_count; ++b) {
        const ge_val* uri = ge_get(&bufs->items[b], "uri");
        size_t len;
        if (!uri) {
            d->buffers[b] = NULL; /* the .glb chunk, not owned */
        } else if (!strncmp(uri->str, "data:", 5)) {
            d->buffers[b] = ge_base64(strchr(uri->str, ',') + 1, &len);
        } else {
            char full[4096];
            const char* slash = strrchr(path, '/');
            snprintf(full, sizeof full, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path,
                     uri->str);
            d->buffers[b] = ge_read(full, &len);
        }
    }
    if (d->buffers_count > 0 && !d->buffers[0]) d->buffers[d->buffers_count] = bin;
}

static const uint8_t* ge_buffer(const ge_doc* d, size_t b) {
    return d->buffers[b] ? d->buffers[b] : d->buffers[d->buffers_count];
}

static void ge_free(ge_doc* d) {
    for (size_t b = 0; b < d->buffers_count; ++b)
        free(d->buffers[b]);
    free(d->buffers);
    free(d->file);
    ge_free_val(&d->root);
}

/* Accessor values as doubles (count * comps, malloc'd). */
static double* ge_accessor(const ge_doc* d, size_t index, size_t* count, size_t* comps) {
    const ge_val* a = ge_at(ge_get(&d->root, "accessors"), index);
    const char* type = ge_get(a, "type")->str;
    size_t nc = !strcmp(type, "SCALAR") ? 1
                : !strcmp(type, "VEC2") ? 2
                : !strcmp(type, "VEC3") ? 3
                : !strcmp(type, "VEC4") ? 4
                                        : 16;
    int ct = (int)ge_num(ge_get(a, "componentType"), 0);
    bool norm = ge_get(a, "normalized") && ge_get(a, "normalized")->num != 0;
    size_t n = (size_t)ge_num(ge_get(a, "count"), 0);
    size_t cs = ct == 5126 || ct == 5125 ? 4 : ct == 5122 || ct == 5123 ? 2 : 1;
    double* out = (double*)calloc(n * nc, sizeof(double));
    const ge_val* bvi = ge_get(a, "bufferView");
    if (bvi) {
        const ge_val* bv = ge_at(ge_get(&d->root, "bufferViews"), (size_t)bvi->num);
        size_t stride = (size_t)ge_num(ge_get(bv, "byteStride"), (double)(cs * nc));
        const uint8_t* base = ge_buffer(d, (size_t)ge_num(ge_get(bv, "buffer"), 0)) +
                              (size_t)ge_num(ge_get(bv, "byteOffset"), 0) +
                              (size_t)ge_num(ge_get(a, "byteOffset"), 0);
        for (size_t e = 0; e < n; ++e) {
            for (size_t c = 0; c < nc; ++c) {
                const uint8_t* q = base + e * stride + c * cs;
                double v;
                if (ct == 5126) {
                    float f;
                    memcpy(&f, q, 4);
                    v = f;
                } else if (ct == 5125) {
                    uint32_t x;
                    memcpy(&x, q, 4);
                    v = x;
                } else if (ct == 5123) {
                    uint16_t x;
                    memcpy(&x, q, 2);
                    v = norm ? x / 65535.0 : x;
                } else if (ct == 5122) {
                    int16_t x;
                    memcpy(&x, q, 2);
                    v = norm ? fmax(x / 32767.0, -1.0) : x;
                } else if (ct == 5121) {
                    v = norm ? *q / 255.0 : *q;
                } else {
                    v = norm ? fmax((int8_t)*q / 127.0, -1.0) : (int8_t)*q;
                }
                out[e * nc + c] = v;
            }
        }
    }
    *count = n;
    *comps = nc;
    return out;
}

/* ---- evaluation ---- */

typedef struct ge_trs {
    double t[3], r[4], s[3];
    double m[16];
    bool matrix;
} ge_trs;

static void ge_node_rest(const ge_doc* d, size_t i, ge_trs* x) {
    const ge_val* nd = ge_at(ge_get(&d->root, "nodes"), i);
    memset(x, 0, sizeof *x);
    x->r[3] = 1;
    x->s[0] = x->s[1] = x->s[2] = 1;
    const ge_val* m = ge_get(nd, "matrix");
    if (m) {
        x->matrix = true;
        for (int k = 0; k < 16; ++k)
            x->m[k] = m->items[k].num;
    }
    const ge_val* v;
    if ((v = ge_get(nd, "translation")))
        for (int k = 0; k < 3; ++k)
            x->t[k] = v->items[k].num;
    if ((v = ge_get(nd, "rotation")))
        for (int k = 0; k < 4; ++k)
            x->r[k] = v->items[k].num;
    if ((v = ge_get(nd, "scale")))
        for (int k = 0; k < 3; ++k)
            x->s[k] = v->items[k].num;
}

static void ge_trs_matrix(const ge_trs* x, double m[16]) {
    if (x->matrix) {
        memcpy(m, x->m, sizeof x->m);
        return;
    }
    double l = sqrt(x->r[0] * x->r[0] + x->r[1] * x->r[1] + x->r[2] * x->r[2] + x->r[3] * x->r[3]);
    double qx = x->r[0] / l, qy = x->r[1] / l, qz = x->r[2] / l, qw = x->r[3] / l;
    double r[9] = {
        1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy + qz * qw),     2 * (qx * qz - qy * qw),
        2 * (qx * qy - qz * qw),     1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz + qx * qw),
        2 * (qx * qz + qy * qw),     2 * (qy * qz - qx * qw),     1 - 2 * (qx * qx + qy * qy)};
    for (int c = 0; c < 3; ++c) {
        for (int row = 0; row < 3; ++row)
            m[c * 4 + row] = r[c * 3 + row] * x->s[c];
        m[c * 4 + 3] = 0;
    }
    m[12] = x->t[0];
    m[13] = x->t[1];
    m[14] = x->t[2];
    m[15] = 1;
}

static void ge_mul(const double a[16], const double b[16], double o[16]) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double s = 0;
            for (int k = 0; k < 4; ++k)
                s += a[k * 4 + r] * b[c * 4 + k];
            o[c * 4 + r] = s;
        }
}

/* Samples sampler `si` of animation `anim` at t into out (comps * width values). */
static void ge_sample(const ge_doc* d, const ge_val* anim, size_t si, double t, double* out,
                      size_t width) {
    const ge_val* s = ge_at(ge_get(anim, "samplers"), si);
    const ge_val* interp = ge_get(s, "interpolation");
    const char* mode = interp ? interp->str : "LINEAR";
    size_t n, c1, vn, comps;
    double* times = ge_accessor(d, (size_t)ge_num(ge_get(s, "input"), 0), &n, &c1);
    double* vals = ge_accessor(d, (size_t)ge_num(ge_get(s, "output"), 0), &vn, &comps);
    const size_t w = comps * width; /* values per key element */
    const bool cubic = !strcmp(mode, "CUBICSPLINE");
    const size_t stride = cubic ? 3 * w : w;
    const size_t voff = cubic ? w : 0;
    size_t k = 0;
    double u = 0;
    if (t <= times[0]) {
        k = 0;
    } else if (t >= times[n - 1]) {
        k = n - 1;
    } else {
        while (!(t >= times[k] && t < times[k + 1]))
            ++k;
        u = (t - times[k]) / (times[k + 1] - times[k]);
    }
    const double* a = vals + k * stride + voff;
    if (u == 0 || !strcmp(mode, "STEP")) {
        memcpy(out, a, w * sizeof(double));
    } else if (!cubic) {
        const double* b = a + stride;
        if (comps == 4 && width == 1) {
            /* Keys stand for unit quaternions (files store them rounded). */
            double qa[4], qb[4];
            double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
            double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
            for (int e = 0; e < 4; ++e) {
                qa[e] = a[e] / la;
                qb[e] = b[e] / lb;
            }
            a = qa;
            b = qb;
            double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
            double sgn = dot < 0 ? -1 : 1;
            dot *= sgn;
            double wa = 1 - u, wb = u;
            if (dot < 0.9999999) {
                double th = acos(dot);
                wa = sin((1 - u) * th) / sin(th);
                wb = sin(u * th) / sin(th);
            }
            for (int e = 0; e < 4; ++e)
                out[e] = wa * a[e] + sgn * wb * b[e];
        } else {
            for (size_t e = 0; e < w; ++e)
                out[e] = a[e] + (a[e + stride] - a[e]) * u;
        }
    } else {
        double td = times[k + 1] - times[k];
        const double* b = a + stride;
        const double* ob = a + w; /* out-tangent of k */
        const double* ib = b - w; /* in-tangent of k + 1 */
        double s2 = u * u, s3 = s2 * u;
        for (size_t e = 0; e < w; ++e)
            out[e] = (2 * s3 - 3 * s2 + 1) * a[e] + (s3 - 2 * s2 + u) * td * ob[e] +
                     (-2 * s3 + 3 * s2) * b[e] + (s3 - s2) * td * ib[e];
    }
    if (comps == 4 && width == 1) {
        double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int e = 0; e < 4; ++e)
            out[e] /= l;
    }
    free(times);
    free(vals);
}

/* World matrices of every node at time t of animation `anim_index` (-1: rest),
 * into world[nodes * 16]. Returns the node count. */
static size_t ge_world(const ge_doc* d, int anim_index, double t, double* world) {
    const ge_val* nodes = ge_get(&d->root, "nodes");
    const size_t n = nodes ? nodes->n : 0;
    ge_trs* local = (ge_trs*)calloc(n, sizeof(ge_trs));
    int* parent = (int*)malloc(n * sizeof(int));
    for (size_t i = 0; i < n; ++i) {
        ge_node_rest(d, i, &local[i]);
        parent[i] = -1;
    }
    for (size_t i = 0; i < n; ++i) {
        const ge_val* ch = ge_get(&nodes->items[i], "children");
        for (size_t k = 0; ch && k < ch->n; ++k)
            parent[(size_t)ch->items[k].num] = (int)i;
    }
    const ge_val* anim =
        anim_index >= 0 ? ge_at(ge_get(&d->root, "animations"), (size_t)anim_index) : NULL;
    const ge_val* chs = ge_get(anim, "channels");
    for (size_t c = 0; chs && c < chs->n; ++c) {
        const ge_val* target = ge_get(&chs->items[c], "target");
        const char* path = ge_get(target, "path")->str;
        size_t node = (size_t)ge_num(ge_get(target, "node"), 0);
        size_t si = (size_t)ge_num(ge_get(&chs->items[c], "sampler"), 0);
        if (!strcmp(path, "translation")) ge_sample(d, anim, si, t, local[node].t, 1);
        if (!strcmp(path, "rotation")) ge_sample(d, anim, si, t, local[node].r, 1);
        if (!strcmp(path, "scale")) ge_sample(d, anim, si, t, local[node].s, 1);
    }
    for (size_t i = 0; i < n; ++i) {
        double m[16], acc[16], tmp[16];
        ge_trs_matrix(&local[i], acc);
        for (int p = parent[i]; p >= 0; p = parent[p]) {
            ge_trs_matrix(&local[p], m);
            ge_mul(m, acc, tmp);
            memcpy(acc, tmp, sizeof acc);
        }
        memcpy(world + 16 * i, acc, sizeof acc);
    }
    free(local);
    free(parent);
    return n;
}

/* Morph weight k of node `node` in animation `anim_index` at t; returns false
 * when the node has no weights channel. */
static bool ge_weight(const ge_doc* d, int anim_index, size_t node, size_t targets, size_t k,
                      double t, double* out) {
    const ge_val* anim = ge_at(ge_get(&d->root, "animations"), (size_t)anim_index);
    const ge_val* chs = ge_get(anim, "channels");
    for (size_t c = 0; chs && c < chs->n; ++c) {
        const ge_val* target = ge_get(&chs->items[c], "target");
        if (strcmp(ge_get(target, "path")->str, "weights") ||
            (size_t)ge_num(ge_get(target, "node"), -1) != node) {
            continue;
        }
        double* v = (double*)malloc(targets * sizeof(double));
        ge_sample(d, anim, (size_t)ge_num(ge_get(&chs->items[c], "sampler"), 0), t, v, targets);
        *out = v[k];
        free(v);
        return true;
    }
    return false;
}

#endif
