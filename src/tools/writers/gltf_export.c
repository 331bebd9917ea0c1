/* glTF 2.0 binary export: JSON written with snprintf into growable buffers
 * (one per top-level array, joined at the end), binary data appended to one
 * buffer with every view 4-byte aligned, then the .glb container. */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/codecs/codec.h"
#include "sinew/core/mesh.h"
#include "sinew/core/sample.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/file.h"
#include "sinew/tools/writers/gltf_export.h"
#include "tools/readers/names.h"

#define SW__GL_FLOAT 5126u
#define SW__GL_USHORT 5123u
#define SW__GL_UINT 5125u
#define SW__GL_ARRAY_BUFFER 34962u
#define SW__GL_ELEMENT_ARRAY_BUFFER 34963u

/* ---- growable buffers ---------------------------------------------------- */

typedef struct sw__gbuf {
    char* p;
    size_t n;
    size_t cap;
} sw__gbuf;

typedef struct sw__gx {
    const sw_allocator* alloc;
    bool oom;
    sw__gbuf bin, nodes, meshes, skins, anims, accessors, views;
    uint32_t accessors_count, views_count, skins_count, meshes_count, anims_count;
} sw__gx;

static bool sw__gbuf_reserve(sw__gx* g, sw__gbuf* b, size_t extra) {
    if (g->oom) return false;
    if (extra <= b->cap - b->n) return true;
    size_t want = b->cap ? b->cap : 256u;
    while (want - b->n < extra) {
        if (want > SIZE_MAX / 2u) {
            g->oom = true;
            return false;
        }
        want *= 2u;
    }
    char* p = (char*)sw_alloc(g->alloc, want, 16);
    if (!p) {
        g->oom = true;
        return false;
    }
    if (b->n) memcpy(p, b->p, b->n);
    sw_free(g->alloc, b->p, b->cap);
    b->p = p;
    b->cap = want;
    return true;
}

static void sw__gbuf_put(sw__gx* g, sw__gbuf* b, const void* data, size_t size) {
    if (!size || !sw__gbuf_reserve(g, b, size)) return;
    memcpy(b->p + b->n, data, size);
    b->n += size;
}

#define SW__LIT(g, b, s) sw__gbuf_put((g), (b), (s), sizeof(s) - 1u)

static void sw__gbuf_free(sw__gx* g, sw__gbuf* b) {
    sw_free(g->alloc, b->p, b->cap);
    memset(b, 0, sizeof *b);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
sw__jf(sw__gx* g, sw__gbuf* b, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        g->oom = true;
        return;
    }
    if (!sw__gbuf_reserve(g, b, (size_t)n + 1u)) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1u, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

/* A JSON string literal for s (sw_json_quote: escaped, invalid UTF-8
 * replaced). */
static void sw__jstr(sw__gx* g, sw__gbuf* b, const char* s) {
    const size_t n = sw_json_quote(s, NULL, 0);
    if (!sw__gbuf_reserve(g, b, n + 1u)) return;
    b->n += sw_json_quote(s, b->p + b->n, n + 1u);
}

static void sw__jsep(sw__gx* g, sw__gbuf* b, uint32_t index) {
    if (index) SW__LIT(g, b, ",");
}

static void sw__jfloats(sw__gx* g, sw__gbuf* b, const float* v, uint32_t n) {
    SW__LIT(g, b, "[");
    for (uint32_t k = 0; k < n; ++k)
        sw__jf(g, b, k ? ",%.9g" : "%.9g", (double)v[k]);
    SW__LIT(g, b, "]");
}

/* ---- accessors ----------------------------------------------------------- */

typedef struct sw__acc_desc {
    uint32_t ctype;   /* SW__GL_FLOAT ... */
    const char* type; /* "SCALAR", "VEC3", ... */
    uint32_t comps;   /* components per element */
    uint32_t count;   /* elements */
    uint32_t target;  /* buffer view target or 0 */
    bool minmax;      /* floats: write min and max */
} sw__acc_desc;

static uint32_t sw__ctype_bytes(uint32_t ctype) {
    return ctype == SW__GL_USHORT ? 2u : 4u;
}

/* Appends data to the binary buffer (4-byte aligned) with its view and
 * accessor; returns the accessor index. */
static uint32_t sw__gx_accessor(sw__gx* g, const void* data, const sw__acc_desc* d) {
    size_t bytes = (size_t)d->count * d->comps * sw__ctype_bytes(d->ctype);
    static const char zeros[4] = {0, 0, 0, 0};
    sw__gbuf_put(g, &g->bin, zeros, (4u - (g->bin.n & 3u)) & 3u);
    size_t offset = g->bin.n;
    sw__gbuf_put(g, &g->bin, data, bytes);
    uint32_t view = g->views_count++;
    sw__jsep(g, &g->views, view);
    sw__jf(g, &g->views, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu", offset, bytes);
    if (d->target) sw__jf(g, &g->views, ",\"target\":%u", d->target);
    SW__LIT(g, &g->views, "}");
    uint32_t acc = g->accessors_count++;
    sw__jsep(g, &g->accessors, acc);
    sw__jf(g, &g->accessors, "{\"bufferView\":%u,\"componentType\":%u,\"count\":%u,\"type\":\"%s\"",
           view, d->ctype, d->count, d->type);
    if (d->minmax && d->ctype == SW__GL_FLOAT && d->count > 0 && d->comps <= 16u) {
        const float* f = (const float*)data;
        float lo[16], hi[16];
        for (uint32_t c = 0; c < d->comps; ++c)
            lo[c] = hi[c] = f[c];
        for (uint32_t e = 1; e < d->count; ++e) {
            for (uint32_t c = 0; c < d->comps; ++c) {
                float v = f[(size_t)e * d->comps + c];
                if (v < lo[c]) lo[c] = v;
                if (v > hi[c]) hi[c] = v;
            }
        }
        SW__LIT(g, &g->accessors, ",\"min\":");
        sw__jfloats(g, &g->accessors, lo, d->comps);
        SW__LIT(g, &g->accessors, ",\"max\":");
        sw__jfloats(g, &g->accessors, hi, d->comps);
    }
    SW__LIT(g, &g->accessors, "}");
    return acc;
}

static uint32_t sw__gx_floats(sw__gx* g, const float* data, uint32_t count, uint32_t comps,
                              const char* type, uint32_t target, bool minmax) {
    sw__acc_desc d = {SW__GL_FLOAT, type, comps, count, target, minmax};
    return sw__gx_accessor(g, data, &d);
}

/* ---- skeleton ------------------------------------------------------------ */

static void sw__gx_quat_normalize(float* q) {
    double n =
        sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] + (double)q[3] * q[3]);
    if (n > 0.0) {
        for (int k = 0; k < 4; ++k)
            q[k] = (float)((double)q[k] / n);
    }
}

static void sw__gx_joint_nodes(sw__gx* g, const sw_skeleton* s) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), j);
        float t[3] = {x.t.x, x.t.y, x.t.z};
        float r[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
        float sc[3] = {x.s.x, x.s.y, x.s.z};
        sw__gx_quat_normalize(r);
        sw__jsep(g, &g->nodes, j);
        SW__LIT(g, &g->nodes, "{\"name\":");
        sw__jstr(g, &g->nodes, sw_skeleton_joint_name(s, j));
        SW__LIT(g, &g->nodes, ",\"translation\":");
        sw__jfloats(g, &g->nodes, t, 3);
        SW__LIT(g, &g->nodes, ",\"rotation\":");
        sw__jfloats(g, &g->nodes, r, 4);
        SW__LIT(g, &g->nodes, ",\"scale\":");
        sw__jfloats(g, &g->nodes, sc, 3);
        uint32_t children = 0;
        for (uint32_t c = j + 1u; c < s->joints_count; ++c) {
            if (parents[c] != (int16_t)j) continue;
            sw__jf(g, &g->nodes, children ? ",%u" : ",\"children\":[%u", c);
            ++children;
        }
        if (children) SW__LIT(g, &g->nodes, "]");
        SW__LIT(g, &g->nodes, "}");
    }
}

/* A skin over all joints with the inverses of their model-space rest
 * matrices (identity where a rest matrix is singular). */
static void sw__gx_full_skin(sw__gx* g, const sw_skeleton* s) {
    const uint32_t n = s->joints_count;
    sw_mat4* model = (sw_mat4*)sw_alloc(g->alloc, sizeof(sw_mat4) * 2u * n, 16);
    if (!model) {
        g->oom = true;
        return;
    }
    sw_mat4* inv = model + n;
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < n; ++j) {
        sw_mat4 local = sw_mat4_from_xform(sw_pose_get(sw_skeleton_rest_pose(s), j));
        model[j] = parents[j] < 0 ? local : sw_mat4_mul(&model[parents[j]], &local);
        if (!sw_mat4_inverse(&model[j], &inv[j])) inv[j] = sw_mat4_identity();
        /* The last row of an affine inverse is exactly 0 0 0 1. */
        inv[j].m[3] = inv[j].m[7] = inv[j].m[11] = 0.0f;
        inv[j].m[15] = 1.0f;
    }
    uint32_t acc = sw__gx_floats(g, inv[0].m, n, 16, "MAT4", 0, false);
    sw_free(g->alloc, model, sizeof(sw_mat4) * 2u * n);
    sw__jsep(g, &g->skins, g->skins_count++);
    sw__jf(g, &g->skins, "{\"name\":\"skeleton\",\"inverseBindMatrices\":%u,\"joints\":[", acc);
    for (uint32_t j = 0; j < n; ++j)
        sw__jf(g, &g->skins, j ? ",%u" : "%u", j);
    SW__LIT(g, &g->skins, "]}");
}

/* ---- meshes -------------------------------------------------------------- */

/* Writes mesh m (glTF mesh index m) and its skin; returns the skin index. */
static uint32_t sw__gx_mesh(sw__gx* g, const sw_mesh* m) {
    const uint32_t v = m->vertices_count;
    const uint32_t t = m->morph_targets_count;
    /* Scratch: the largest per-vertex array (4 floats) or the indices. */
    size_t scratch_bytes = 16u * (size_t)v;
    float* tmp = (float*)sw_alloc(g->alloc, scratch_bytes, 16);
    if (!tmp) {
        g->oom = true;
        return 0;
    }
    uint32_t ibm =
        sw__gx_floats(g, sw_mesh_inverse_binds(m)->m, m->palette_count, 16, "MAT4", 0, false);
    uint32_t skin = g->skins_count++;
    sw__jsep(g, &g->skins, skin);
    SW__LIT(g, &g->skins, "{\"name\":");
    sw__jstr(g, &g->skins, sw_mesh_name(m));
    sw__jf(g, &g->skins, ",\"inverseBindMatrices\":%u,\"joints\":[", ibm);
    for (uint32_t k = 0; k < m->palette_count; ++k) {
        sw__jf(g, &g->skins, k ? ",%u" : "%u", (unsigned)sw_mesh_palette(m)[k]);
    }
    SW__LIT(g, &g->skins, "]}");

    uint32_t pos = sw__gx_floats(g, sw_mesh_positions(m), v, 3, "VEC3", SW__GL_ARRAY_BUFFER, true);
    int64_t nrm = -1, uv = -1;
    if (sw_mesh_normals(m)) {
        const float* n = sw_mesh_normals(m);
        for (uint32_t i = 0; i < v; ++i) {
            double x = n[3 * i], y = n[3 * i + 1], z = n[3 * i + 2];
            double len = sqrt(x * x + y * y + z * z);
            if (len > 0.0) {
                tmp[3 * i] = (float)(x / len);
                tmp[3 * i + 1] = (float)(y / len);
                tmp[3 * i + 2] = (float)(z / len);
            } else {
                tmp[3 * i] = 0.0f;
                tmp[3 * i + 1] = 1.0f;
                tmp[3 * i + 2] = 0.0f;
            }
        }
        nrm = sw__gx_floats(g, tmp, v, 3, "VEC3", SW__GL_ARRAY_BUFFER, false);
    }
    if (sw_mesh_uvs(m))
        uv = sw__gx_floats(g, sw_mesh_uvs(m), v, 2, "VEC2", SW__GL_ARRAY_BUFFER, false);
    const float* w = sw_mesh_weights(m);
    const uint16_t* jn = sw_mesh_joints(m);
    uint16_t* jtmp = (uint16_t*)(void*)tmp;
    for (size_t i = 0; i < 4u * (size_t)v; ++i)
        jtmp[i] = w[i] != 0.0f ? jn[i] : 0u;
    sw__acc_desc jd = {SW__GL_USHORT, "VEC4", 4, v, SW__GL_ARRAY_BUFFER, false};
    uint32_t joints = sw__gx_accessor(g, jtmp, &jd);
    for (uint32_t i = 0; i < v; ++i) {
        double sum = 0.0;
        for (uint32_t k = 0; k < 4; ++k)
            sum += (double)w[4 * i + k];
        for (uint32_t k = 0; k < 4; ++k)
            tmp[4 * i + k] = (float)((double)w[4 * i + k] / sum);
    }
    uint32_t weights = sw__gx_floats(g, tmp, v, 4, "VEC4", SW__GL_ARRAY_BUFFER, false);
    uint32_t indices = 0;
    if (m->indices_count > 0) {
        sw__acc_desc id = {SW__GL_UINT, "SCALAR", 1, m->indices_count, SW__GL_ELEMENT_ARRAY_BUFFER,
                           false};
        indices = sw__gx_accessor(g, sw_mesh_indices(m), &id);
    }
    sw__gbuf* b = &g->meshes;
    sw__jsep(g, b, g->meshes_count++);
    SW__LIT(g, b, "{\"name\":");
    sw__jstr(g, b, sw_mesh_name(m));
    sw__jf(g, b, ",\"primitives\":[{\"mode\":%u,\"attributes\":{\"POSITION\":%u",
           m->indices_count > 0 ? 4u : 0u, pos);
    if (nrm >= 0) sw__jf(g, b, ",\"NORMAL\":%u", (uint32_t)nrm);
    if (uv >= 0) sw__jf(g, b, ",\"TEXCOORD_0\":%u", (uint32_t)uv);
    sw__jf(g, b, ",\"JOINTS_0\":%u,\"WEIGHTS_0\":%u}", joints, weights);
    if (m->indices_count > 0) sw__jf(g, b, ",\"indices\":%u", indices);
    if (t > 0) {
        SW__LIT(g, b, ",\"targets\":[");
        const float* mp = sw_mesh_morph_positions(m);
        const float* mn = sw_mesh_morph_normals(m);
        for (uint32_t k = 0; k < t; ++k) {
            uint32_t a =
                sw__gx_floats(g, mp + 3u * (size_t)v * k, v, 3, "VEC3", SW__GL_ARRAY_BUFFER, true);
            sw__jf(g, b, k ? ",{\"POSITION\":%u" : "{\"POSITION\":%u", a);
            if (mn) {
                a = sw__gx_floats(g, mn + 3u * (size_t)v * k, v, 3, "VEC3", SW__GL_ARRAY_BUFFER,
                                  false);
                sw__jf(g, b, ",\"NORMAL\":%u", a);
            }
            SW__LIT(g, b, "}");
        }
        SW__LIT(g, b, "]");
    }
    SW__LIT(g, b, "}]");
    if (t > 0) {
        SW__LIT(g, b, ",\"weights\":[");
        for (uint32_t k = 0; k < t; ++k)
            sw__jf(g, b, k ? ",0" : "0");
        SW__LIT(g, b, "]");
        if (m->morph_names_offset != 0) {
            SW__LIT(g, b, ",\"extras\":{\"targetNames\":[");
            for (uint32_t k = 0; k < t; ++k) {
                sw__jsep(g, b, k);
                sw__jstr(g, b, sw_mesh_morph_name(m, k));
            }
            SW__LIT(g, b, "]}");
        }
    }
    SW__LIT(g, b, "}");
    sw_free(g->alloc, tmp, scratch_bytes);
    return skin;
}

/* ---- animations ---------------------------------------------------------- */

typedef struct sw__times_entry {
    uint32_t accessor;
    size_t bin_offset;
    uint32_t count;
} sw__times_entry;

typedef struct sw__anim {
    sw__gx* g;
    const sw_clip* clip;
    sw__gbuf samplers, channels;
    uint32_t samplers_count;
    sw__times_entry* times; /* earlier input accessors of this clip */
    uint32_t times_count, times_cap;
    float last_key; /* largest key time written */
} sw__anim;

/* Input accessor for `n` times, shared with an identical earlier one. */
static uint32_t sw__anim_times(sw__anim* a, const float* times, uint32_t n) {
    sw__gx* g = a->g;
    for (uint32_t k = 0; k < a->times_count; ++k) {
        const sw__times_entry* e = &a->times[k];
        if (e->count == n && !g->oom &&
            memcmp(g->bin.p + e->bin_offset, times, 4u * (size_t)n) == 0) {
            return e->accessor;
        }
    }
    if (n > 0 && times[n - 1] > a->last_key) a->last_key = times[n - 1];
    size_t offset = (size_t)sw__align_up(g->bin.n, 4u);
    uint32_t acc = sw__gx_floats(g, times, n, 1, "SCALAR", 0, true);
    if (a->times_count < a->times_cap) {
        a->times[a->times_count++] = (sw__times_entry){acc, offset, n};
    }
    return acc;
}

static void sw__anim_channel(sw__anim* a, uint32_t input, uint32_t output, sw_interp interp,
                             uint32_t node, const char* path) {
    sw__gx* g = a->g;
    static const char* const kInterp[] = {"LINEAR", "STEP", "LINEAR", "CUBICSPLINE"};
    uint32_t s = a->samplers_count++;
    sw__jsep(g, &a->samplers, s);
    sw__jf(g, &a->samplers, "{\"input\":%u,\"output\":%u,\"interpolation\":\"%s\"}", input, output,
           kInterp[(unsigned)interp & 3u]);
    sw__jsep(g, &a->channels, s);
    sw__jf(g, &a->channels, "{\"sampler\":%u,\"target\":{\"node\":%u,\"path\":\"%s\"}}", s, node,
           path);
}

/* Times of track t into a new array (allocated with g->alloc, 4 * keys bytes). */
static float* sw__track_times(sw__gx* g, const sw_clip* c, const sw_clip_track* t) {
    float* times = (float*)sw_alloc(g->alloc, 4u * (size_t)t->keys_count, 16);
    if (!times) {
        g->oom = true;
        return NULL;
    }
    for (uint32_t k = 0; k < t->keys_count; ++k)
        times[k] = sw_clip_track_key_time(c, t, k);
    return times;
}

static void sw__anim_joint_track(sw__anim* a, const sw_clip_track* t, uint32_t joint) {
    sw__gx* g = a->g;
    const sw_clip* c = a->clip;
    float* times = sw__track_times(g, c, t);
    if (!times) return;
    uint32_t input = sw__anim_times(a, times, t->keys_count);
    sw_free(g->alloc, times, 4u * (size_t)t->keys_count);
    const bool cubic = t->interp == SW_INTERP_CUBIC;
    const uint32_t comps = t->components;
    const uint32_t elems = t->keys_count * (cubic ? 3u : 1u);
    size_t bytes = 4u * (size_t)elems * comps;
    float* values = (float*)sw_alloc(g->alloc, bytes, 16);
    if (!values) {
        g->oom = true;
        return;
    }
    memcpy(values, sw_clip_track_values(c, t), bytes);
    const char* path = "translation";
    if (t->kind == SW_TRACK_KIND_ROTATION) {
        path = "rotation";
        /* Values (not tangents) unit to float precision. */
        for (uint32_t k = 0; k < t->keys_count; ++k) {
            sw__gx_quat_normalize(values + 4u * (cubic ? 3u * (size_t)k + 1u : (size_t)k));
        }
    } else if (t->kind == SW_TRACK_KIND_SCALE) {
        path = "scale";
    }
    uint32_t output =
        sw__gx_floats(g, values, elems, comps, comps == 4u ? "VEC4" : "VEC3", 0, false);
    sw_free(g->alloc, values, bytes);
    sw__anim_channel(a, input, output, (sw_interp)t->interp, joint, path);
}

/* "<prefix>.weights[<k>]": true with the prefix length and k. */
static bool sw__weights_name(const char* name, size_t* prefix_len, uint32_t* k) {
    const char* at = NULL;
    for (const char* p = strstr(name, ".weights["); p; p = strstr(p + 1, ".weights["))
        at = p;
    if (!at) return false;
    const char* d = at + 9;
    if (*d < '0' || *d > '9') return false;
    uint64_t v = 0;
    while (*d >= '0' && *d <= '9') {
        v = v * 10u + (uint64_t)(*d - '0');
        if (v > 0xFFFFu) return false;
        ++d;
    }
    if (d[0] != ']' || d[1] != '\0') return false;
    *prefix_len = (size_t)(at - name);
    *k = (uint32_t)v;
    return true;
}

/* The mesh named `mesh` matches a track prefix exactly, or as
 * "<prefix>_<digits>". */
static bool sw__prefix_is(const char* prefix, size_t len, const char* mesh) {
    return strlen(mesh) == len && memcmp(prefix, mesh, len) == 0;
}
static bool sw__prefix_primitive(const char* prefix, size_t len, const char* mesh) {
    if (strncmp(prefix, mesh, len) != 0 || mesh[len] != '_') return false;
    const char* d = mesh + len + 1;
    if (!*d) return false;
    for (; *d; ++d) {
        if (*d < '0' || *d > '9') return false;
    }
    return true;
}

typedef struct sw__sampling {
    const sw_skeleton* skeleton;
    sw_xform4* pose;
    float* floats;
} sw__sampling;

static int sw__float_cmp(const void* pa, const void* pb) {
    float a = *(const float*)pa, b = *(const float*)pb;
    return (a > b) - (a < b);
}

/* The weights channel of mesh node `node` with `targets` targets from the
 * float tracks tracks[k] (NULL where a target has no track). */
static void sw__anim_weights(sw__anim* a, const sw_clip_track* const* tracks, uint32_t targets,
                             uint32_t node, const sw__sampling* smp) {
    sw__gx* g = a->g;
    const sw_clip* c = a->clip;
    const sw_clip_track* first = NULL;
    bool same = true;
    for (uint32_t k = 0; k < targets; ++k) {
        const sw_clip_track* t = tracks[k];
        if (!t) continue;
        if (!first) {
            first = t;
            continue;
        }
        if (t->keys_count != first->keys_count || t->interp != first->interp) {
            same = false;
            break;
        }
        for (uint32_t i = 0; i < t->keys_count && same; ++i) {
            same = sw_clip_track_key_time(c, t, i) == sw_clip_track_key_time(c, first, i);
        }
        if (!same) break;
    }
    if (!first) return;
    uint32_t keys;
    float* times;
    sw_interp interp;
    if (same) {
        keys = first->keys_count;
        times = sw__track_times(g, c, first);
        interp = (sw_interp)first->interp;
    } else {
        /* Union of the key times, sorted, duplicates removed. */
        size_t total = 0;
        for (uint32_t k = 0; k < targets; ++k)
            total += tracks[k] ? tracks[k]->keys_count : 0u;
        times = (float*)sw_alloc(g->alloc, 4u * total, 16);
        if (!times) {
            g->oom = true;
            return;
        }
        size_t n = 0;
        for (uint32_t k = 0; k < targets; ++k) {
            if (!tracks[k]) continue;
            for (uint32_t i = 0; i < tracks[k]->keys_count; ++i) {
                times[n++] = sw_clip_track_key_time(c, tracks[k], i);
            }
        }
        qsort(times, n, sizeof(float), sw__float_cmp);
        size_t u = 0;
        for (size_t i = 0; i < n; ++i) {
            if (u == 0 || times[i] != times[u - 1]) times[u++] = times[i];
        }
        /* Keep the allocation size: free with `total`. */
        keys = (uint32_t)u;
        interp = SW_INTERP_LINEAR;
        (void)total;
        /* Values come from sampling below; remember the size to free. */
        first = NULL;
        size_t elems = (size_t)keys * targets;
        float* values = (float*)sw_alloc(g->alloc, 4u * elems, 16);
        if (!values) {
            sw_free(g->alloc, times, 4u * total);
            g->oom = true;
            return;
        }
        const uint32_t ftrack0 = c->tracks_count - c->float_tracks_count;
        const sw_clip_track* all = sw_clip_tracks(c);
        for (uint32_t i = 0; i < keys; ++i) {
            sw_sample_job job = {
                .clip = c,
                .skeleton = smp->skeleton,
                .time = times[i],
                .out = smp->pose,
                .out_count = smp->skeleton->packets_count,
                .floats = smp->floats,
                .floats_count = c->float_tracks_count,
            };
            if (sw_sample_job_run(&job) != SW_RESULT_OK) {
                memset(smp->floats, 0, sizeof(float) * c->float_tracks_count);
            }
            for (uint32_t k = 0; k < targets; ++k) {
                values[(size_t)i * targets + k] =
                    tracks[k] ? smp->floats[(uint32_t)(tracks[k] - all) - ftrack0] : 0.0f;
            }
        }
        uint32_t input = sw__anim_times(a, times, keys);
        uint32_t output = sw__gx_floats(g, values, (uint32_t)elems, 1, "SCALAR", 0, false);
        sw__anim_channel(a, input, output, interp, node, "weights");
        sw_free(g->alloc, values, 4u * elems);
        sw_free(g->alloc, times, 4u * total);
        return;
    }
    if (!times) return;
    const uint32_t per = interp == SW_INTERP_CUBIC ? 3u : 1u;
    size_t elems = (size_t)keys * per * targets;
    float* values = (float*)sw_alloc(g->alloc, 4u * elems, 16);
    if (!values) {
        sw_free(g->alloc, times, 4u * (size_t)keys);
        g->oom = true;
        return;
    }
    /* glTF: per key, per part (in-tangent, value, out-tangent), per target. */
    for (uint32_t i = 0; i < keys; ++i) {
        for (uint32_t part = 0; part < per; ++part) {
            for (uint32_t k = 0; k < targets; ++k) {
                float x = 0.0f;
                if (tracks[k]) x = sw_clip_track_values(c, tracks[k])[(size_t)i * per + part];
                values[((size_t)i * per + part) * targets + k] = x;
            }
        }
    }
    uint32_t input = sw__anim_times(a, times, keys);
    uint32_t output = sw__gx_floats(g, values, (uint32_t)elems, 1, "SCALAR", 0, false);
    sw__anim_channel(a, input, output, interp, node, "weights");
    sw_free(g->alloc, values, 4u * elems);
    sw_free(g->alloc, times, 4u * (size_t)keys);
}

/* Joint channels of a quantized or frames clip, which has no raw joint
 * tracks: the pose sampled by the sampling job at the codec's own samples
 * (sample or frame i at min(i / rate, duration)), linear translation,
 * rotation (each on the previous one's hemisphere, unit) and scale per
 * joint; a channel that holds the node's rest value at every sample is left
 * out. Memory: one block of samples * joints * 10 floats while it runs. */
static void sw__anim_codec_joints(sw__anim* a, const sw__sampling* smp) {
    sw__gx* g = a->g;
    const sw_clip* c = a->clip;
    const sw_skeleton* s = smp->skeleton;
    float rate;
    uint32_t n;
    if (c->codec == SW_CLIP_CODEC_QUANTIZED) {
        rate = sw_clip_codec_header(c)->rate;
        n = sw_clip_codec_header(c)->samples_count;
    } else {
        rate = sw_clip_frames_header(c)->rate;
        n = sw_clip_frames_header(c)->frames_count;
    }
    const uint32_t J = s->joints_count;
    const size_t times_bytes = 4u * (size_t)n, values_bytes = 40u * (size_t)n * J;
    float* times = (float*)sw_alloc(g->alloc, times_bytes, 16);
    float* v = (float*)sw_alloc(g->alloc, values_bytes, 16);
    if (!times || !v) {
        sw_free(g->alloc, times, times_bytes);
        sw_free(g->alloc, v, values_bytes);
        g->oom = true;
        return;
    }
    /* v: per joint, translations (3n), rotations (4n), scales (3n) */
    uint32_t keys = 0;
    for (uint32_t i = 0; i < n; ++i) {
        float t = (float)i / rate;
        if (t > c->duration) t = c->duration;
        if (keys > 0 && !(t > times[keys - 1u])) continue; /* strictly increasing */
        sw_sample_job job = {
            .clip = c, .skeleton = s, .time = t, .out = smp->pose, .out_count = s->packets_count};
        if (sw_sample_job_run(&job) != SW_RESULT_OK) continue; /* not reached: loaded clips */
        for (uint32_t j = 0; j < J; ++j) {
            const sw_xform x = sw_pose_get(smp->pose, j);
            float* tv = v + (size_t)j * 10u * n;
            float* rv = tv + 3u * (size_t)n;
            float* sv = rv + 4u * (size_t)n;
            const float q[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
            const float* pq = keys > 0 ? rv + 4u * (size_t)(keys - 1u) : q;
            const float sign =
                q[0] * pq[0] + q[1] * pq[1] + q[2] * pq[2] + q[3] * pq[3] < 0.0f ? -1.0f : 1.0f;
            for (uint32_t k = 0; k < 4u; ++k)
                rv[4u * (size_t)keys + k] = sign * q[k];
            sw__gx_quat_normalize(rv + 4u * (size_t)keys);
            memcpy(tv + 3u * (size_t)keys, &x.t, 3u * sizeof(float));
            memcpy(sv + 3u * (size_t)keys, &x.s, 3u * sizeof(float));
        }
        times[keys++] = t;
    }
    uint32_t input = UINT32_MAX;
    for (uint32_t j = 0; j < J && keys > 0; ++j) {
        const sw_xform rest = sw_pose_get(sw_skeleton_rest_pose(s), j);
        const float* rest_v[3] = {&rest.t.x, &rest.r.x, &rest.s.x};
        static const char* const kPath[3] = {"translation", "rotation", "scale"};
        const float* ch = v + (size_t)j * 10u * n;
        for (uint32_t k = 0; k < 3u; ++k) {
            const uint32_t comps = k == 1u ? 4u : 3u;
            bool rest_only = true;
            for (uint32_t i = 0; i < keys && rest_only; ++i) {
                for (uint32_t e = 0; e < comps; ++e)
                    rest_only = rest_only && ch[(size_t)i * comps + e] == rest_v[k][e];
            }
            if (!rest_only) {
                if (input == UINT32_MAX) input = sw__anim_times(a, times, keys);
                const uint32_t output =
                    sw__gx_floats(g, ch, keys, comps, comps == 4u ? "VEC4" : "VEC3", 0, false);
                sw__anim_channel(a, input, output, SW_INTERP_LINEAR, j, kPath[k]);
            }
            ch += (size_t)comps * n;
        }
    }
    sw_free(g->alloc, times, times_bytes);
    sw_free(g->alloc, v, values_bytes);
}

/* Morph weights: per mesh with targets, its float tracks by target (named
 * "<mesh>.weights[k]", else "<mesh>_<primitive>.weights[k]"). */
static void sw__anim_morph_weights(sw__anim* a, const sw_scene* scene, const sw__sampling* smp) {
    const sw_clip* c = a->clip;
    const sw_clip_track* tracks = sw_clip_tracks(c);
    const uint32_t ftrack0 = c->tracks_count - c->float_tracks_count;
    for (uint32_t m = 0; m < scene->meshes_count && c->float_tracks_count > 0; ++m) {
        const sw_mesh* mesh = scene->meshes[m];
        const uint32_t targets = mesh->morph_targets_count;
        if (targets == 0) continue;
        const sw_clip_track* by_target[SW_MESH_MAX_MORPH_TARGETS];
        for (int pass = 0; pass < 2; ++pass) {
            bool any = false;
            memset(by_target, 0, sizeof by_target);
            for (uint32_t f = 0; f < c->float_tracks_count; ++f) {
                const char* name = sw_clip_float_track_name(c, f);
                size_t len = 0;
                uint32_t k = 0;
                if (!sw__weights_name(name, &len, &k) || k >= targets) continue;
                bool match = pass == 0 ? sw__prefix_is(name, len, sw_mesh_name(mesh))
                                       : sw__prefix_primitive(name, len, sw_mesh_name(mesh));
                if (!match || by_target[k]) continue;
                by_target[k] = &tracks[ftrack0 + f];
                any = true;
            }
            if (any) {
                sw__anim_weights(a, by_target, targets, scene->skeleton->joints_count + m, smp);
                break;
            }
        }
    }
}

/* Keeps the clip's duration when no key reaches it: a STEP channel holding
 * the rest value of the first untracked path (scale, translation,
 * rotation) of the first joint that has one. */
static void sw__anim_keep_duration(sw__anim* a, const sw_skeleton* s) {
    const sw_clip* c = a->clip;
    const float d = c->duration;
    if (a->samplers_count > 0 && d <= a->last_key + 1e-6f * (d > 1.0f ? d : 1.0f)) return;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        static const uint32_t kOrder[3] = {2, 0, 1}; /* scale, translation, rotation */
        for (int o = 0; o < 3; ++o) {
            uint32_t k = kOrder[o];
            if (sw_clip_joint_tracks(c, j)[k] != SW_CLIP_NO_TRACK) continue;
            sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), j);
            float v[8];
            const char* path;
            uint32_t comps;
            if (k == 0) {
                v[0] = v[3] = x.t.x;
                v[1] = v[4] = x.t.y;
                v[2] = v[5] = x.t.z;
                path = "translation";
                comps = 3;
            } else if (k == 2) {
                v[0] = v[3] = x.s.x;
                v[1] = v[4] = x.s.y;
                v[2] = v[5] = x.s.z;
                path = "scale";
                comps = 3;
            } else {
                float q[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
                sw__gx_quat_normalize(q);
                memcpy(v, q, sizeof q);
                memcpy(v + 4, q, sizeof q);
                path = "rotation";
                comps = 4;
            }
            const float times[2] = {0.0f, d};
            uint32_t keys = d > 0.0f ? 2u : 1u;
            uint32_t input = sw__anim_times(a, times, keys);
            uint32_t output =
                sw__gx_floats(a->g, v, keys, comps, comps == 4 ? "VEC4" : "VEC3", 0, false);
            sw__anim_channel(a, input, output, SW_INTERP_STEP, j, path);
            return;
        }
    }
}

/* The animation's JSON object (name, samplers, channels, events as
 * extras) appended to the document's animations. */
static void sw__anim_json(sw__anim* a) {
    sw__gx* g = a->g;
    const sw_clip* c = a->clip;
    sw__gbuf* b = &g->anims;
    sw__jsep(g, b, g->anims_count++);
    SW__LIT(g, b, "{");
    if (sw_clip_name(c)[0]) {
        SW__LIT(g, b, "\"name\":");
        sw__jstr(g, b, sw_clip_name(c));
        SW__LIT(g, b, ",");
    }
    SW__LIT(g, b, "\"samplers\":[");
    if (!g->oom) sw__gbuf_put(g, b, a->samplers.p, a->samplers.n);
    SW__LIT(g, b, "],\"channels\":[");
    if (!g->oom) sw__gbuf_put(g, b, a->channels.p, a->channels.n);
    SW__LIT(g, b, "]");
    if (c->events_count > 0) {
        SW__LIT(g, b, ",\"extras\":{\"events\":[");
        for (uint32_t e = 0; e < c->events_count; ++e) {
            sw__jsep(g, b, e);
            sw__jf(g, b, "{\"time\":%.9g,\"name\":", (double)sw_clip_events(c)[e].time);
            sw__jstr(g, b, sw_clip_event_name(c, e));
            SW__LIT(g, b, "}");
        }
        SW__LIT(g, b, "]}");
    }
    SW__LIT(g, b, "}");
}

static void sw__gx_animation(sw__gx* g, const sw_scene* scene, const sw_clip* c,
                             const sw__sampling* smp) {
    const sw_skeleton* s = scene->skeleton;
    sw__anim a;
    memset(&a, 0, sizeof a);
    a.g = g;
    a.clip = c;
    a.times_cap = c->tracks_count + 2u;
    a.times = (sw__times_entry*)sw_alloc(g->alloc, sizeof(sw__times_entry) * a.times_cap, 16);
    if (!a.times) {
        g->oom = true;
        return;
    }
    const sw_clip_track* tracks = sw_clip_tracks(c);
    if (c->codec == SW_CLIP_CODEC_QUANTIZED || c->codec == SW_CLIP_CODEC_FRAMES) {
        sw__anim_codec_joints(&a, smp);
    } else {
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            for (uint32_t k = 0; k < 3; ++k) {
                uint32_t ti = sw_clip_joint_tracks(c, j)[k];
                if (ti != SW_CLIP_NO_TRACK) sw__anim_joint_track(&a, &tracks[ti], j);
            }
        }
    }
    sw__anim_morph_weights(&a, scene, smp);
    sw__anim_keep_duration(&a, s);
    if (a.samplers_count > 0) sw__anim_json(&a);
    sw__gbuf_free(g, &a.samplers);
    sw__gbuf_free(g, &a.channels);
    sw_free(g->alloc, a.times, sizeof(sw__times_entry) * a.times_cap);
}

/* ---- public -------------------------------------------------------------- */

static const char* sw__export_clip_name_at(void* user, uint32_t i) {
    return sw_clip_name(((const sw_clip* const*)user)[i]);
}

static sw_result sw__gx_check(const sw_scene* scene, const sw_gltf_export_options* opt,
                              sw_error* err) {
    if (!scene || !scene->skeleton) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "scene has a skeleton", 0, -1);
    }
    const uint32_t joints = scene->skeleton->joints_count;
    if (scene->clips_count && !scene->clips) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, -1);
    }
    for (uint32_t i = 0; i < scene->clips_count; ++i) {
        if (!scene->clips[i]) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, (int64_t)i);
        }
        if (scene->clips[i]->joints_count != joints) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip joints match the skeleton", 0,
                            (int64_t)i);
        }
    }
    if (scene->meshes_count && !scene->meshes) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "meshes not NULL", 0, -1);
    }
    for (uint32_t i = 0; i < scene->meshes_count; ++i) {
        if (!scene->meshes[i]) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "meshes not NULL", 0, (int64_t)i);
        }
        if (scene->meshes[i]->skeleton_joints_count != joints) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh joints match the skeleton", 0,
                            (int64_t)i);
        }
    }
    if (opt && opt->clips_count && !opt->clips) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip names not NULL", 0, -1);
    }
    for (uint32_t k = 0; opt && k < opt->clips_count; ++k) {
        bool found = false;
        for (uint32_t i = 0; i < scene->clips_count && !found && opt->clips[k]; ++i) {
            found = strcmp(sw_clip_name(scene->clips[i]), opt->clips[k]) == 0;
        }
        if (!found) {
            return sw__fail_name(err, "requested clip exists", (int64_t)k, "clip", opt->clips[k],
                                 sw__export_clip_name_at, (void*)scene->clips, scene->clips_count);
        }
    }
    return SW_RESULT_OK;
}

static void sw__wr32le(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void sw__gx_free(sw__gx* g) {
    sw__gbuf* all[] = {&g->bin,   &g->nodes,     &g->meshes, &g->skins,
                       &g->anims, &g->accessors, &g->views};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        sw__gbuf_free(g, all[k]);
}

/* Meshes, their skins and nodes; a skin over every joint when the meshes'
 * palettes (with their ancestors) leave some out, so that a re-import
 * keeps them. False when out of memory. */
static bool sw__gx_meshes(sw__gx* g, const sw_scene* scene) {
    const sw_skeleton* s = scene->skeleton;
    const uint32_t joints = s->joints_count;
    bool* covered = (bool*)sw_alloc(g->alloc, joints, 16);
    if (!covered) return false;
    memset(covered, 0, joints);
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t m = 0; m < scene->meshes_count; ++m) {
        const sw_mesh* mesh = scene->meshes[m];
        uint32_t skin = sw__gx_mesh(g, mesh);
        sw__jf(g, &g->nodes, ",{\"name\":");
        sw__jstr(g, &g->nodes, sw_mesh_name(mesh));
        sw__jf(g, &g->nodes, ",\"mesh\":%u,\"skin\":%u}", m, skin);
        for (uint32_t k = 0; k < mesh->palette_count; ++k) {
            for (int32_t j = sw_mesh_palette(mesh)[k]; j >= 0 && !covered[j]; j = parents[j]) {
                covered[j] = true;
            }
        }
    }
    bool all_covered = true;
    for (uint32_t j = 0; j < joints; ++j)
        all_covered = all_covered && covered[j];
    sw_free(g->alloc, covered, joints);
    if (!all_covered) sw__gx_full_skin(g, s);
    return true;
}

/* The animations: the clips named in the options (all when none), additive
 * clips left out. */
static void sw__gx_animations(sw__gx* g, const sw_scene* scene,
                              const sw_gltf_export_options* options) {
    const sw_skeleton* s = scene->skeleton;
    uint32_t clips_n = options && options->clips_count ? options->clips_count : scene->clips_count;
    if (clips_n == 0) return;
    size_t pose_bytes = sizeof(sw_xform4) * s->packets_count;
    uint32_t floats_max = 1;
    for (uint32_t i = 0; i < scene->clips_count; ++i) {
        if (scene->clips[i]->float_tracks_count > floats_max) {
            floats_max = scene->clips[i]->float_tracks_count;
        }
    }
    sw__sampling smp = {s, (sw_xform4*)sw_alloc(g->alloc, pose_bytes, 16),
                        (float*)sw_alloc(g->alloc, 4u * (size_t)floats_max, 16)};
    if (!smp.pose || !smp.floats) g->oom = true;
    for (uint32_t k = 0; k < clips_n && !g->oom; ++k) {
        const sw_clip* c = NULL;
        if (options && options->clips_count) {
            for (uint32_t i = 0; i < scene->clips_count && !c; ++i) {
                if (strcmp(sw_clip_name(scene->clips[i]), options->clips[k]) == 0) {
                    c = scene->clips[i];
                }
            }
        } else {
            c = scene->clips[k];
        }
        if (!c || (c->flags & SW_CLIP_FLAG_ADDITIVE)) continue;
        sw__gx_animation(g, scene, c, &smp);
    }
    sw_free(g->alloc, smp.pose, pose_bytes);
    sw_free(g->alloc, smp.floats, 4u * (size_t)floats_max);
}

/* The JSON document: the scene's roots (root joints, then the mesh nodes),
 * nodes and the non-empty arrays; buffer_uri (NULL: none, the .glb's BIN
 * chunk) names the buffer's file. */
static void sw__gx_document(sw__gx* g, const sw_scene* scene, const char* buffer_uri,
                            sw__gbuf* json) {
    const uint32_t joints = scene->skeleton->joints_count;
    const int16_t* parents = sw_skeleton_parents(scene->skeleton);
    sw__jf(g, json,
           "{\"asset\":{\"version\":\"2.0\",\"generator\":\"sinew\"},\"scene\":0,"
           "\"scenes\":[{\"nodes\":[");
    uint32_t roots = 0;
    for (uint32_t j = 0; j < joints; ++j) {
        if (parents[j] < 0) sw__jf(g, json, roots++ ? ",%u" : "%u", j);
    }
    for (uint32_t m = 0; m < scene->meshes_count; ++m)
        sw__jf(g, json, ",%u", joints + m);
    sw__jf(g, json, "]}],\"nodes\":[");
    if (!g->oom) sw__gbuf_put(g, json, g->nodes.p, g->nodes.n);
    SW__LIT(g, json, "]");
    struct {
        const char* key;
        const sw__gbuf* b;
    } arrays[] = {{"meshes", &g->meshes},
                  {"skins", &g->skins},
                  {"animations", &g->anims},
                  {"accessors", &g->accessors},
                  {"bufferViews", &g->views}};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; ++k) {
        if (arrays[k].b->n == 0 || g->oom) continue;
        sw__jf(g, json, ",\"%s\":[", arrays[k].key);
        sw__gbuf_put(g, json, arrays[k].b->p, arrays[k].b->n);
        SW__LIT(g, json, "]");
    }
    if (g->bin.n) {
        SW__LIT(g, json, ",\"buffers\":[{");
        if (buffer_uri) {
            SW__LIT(g, json, "\"uri\":");
            sw__jstr(g, json, buffer_uri);
            SW__LIT(g, json, ",");
        }
        sw__jf(g, json, "\"byteLength\":%zu}]", g->bin.n);
    }
    SW__LIT(g, json, "}");
}

/* The GLB container: header, the JSON chunk padded with spaces, the binary
 * chunk padded with zeros; *out allocated with g->alloc. */
static sw_result sw__gx_glb(const sw__gx* g, const sw__gbuf* json, uint8_t** out,
                            uint64_t* out_size, sw_error* err) {
    const uint64_t json_pad = sw__align_up(json->n, 4u);
    const uint64_t bin_pad = sw__align_up(g->bin.n, 4u);
    const uint64_t total = 12u + 8u + json_pad + (g->bin.n ? 8u + bin_pad : 0u);
    if (total > UINT32_MAX) return sw__fail(err, SW_RESULT_LIMIT, "glb size < 4 GiB", 0, -1);
    uint8_t* o = (uint8_t*)sw_alloc(g->alloc, (size_t)total, 16);
    if (!o) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memcpy(o, "glTF", 4);
    sw__wr32le(o + 4, 2u);
    sw__wr32le(o + 8, (uint32_t)total);
    sw__wr32le(o + 12, (uint32_t)json_pad);
    memcpy(o + 16, "JSON", 4);
    memcpy(o + 20, json->p, json->n);
    memset(o + 20 + json->n, ' ', (size_t)(json_pad - json->n));
    if (g->bin.n) {
        uint8_t* b = o + 20 + json_pad;
        sw__wr32le(b, (uint32_t)bin_pad);
        memcpy(b + 4, "BIN\0", 4);
        memcpy(b + 8, g->bin.p, g->bin.n);
        memset(b + 8 + g->bin.n, 0, (size_t)(bin_pad - g->bin.n));
    }
    *out = o;
    *out_size = total;
    return SW_RESULT_OK;
}

sw_result sw_gltf_export(const sw_scene* scene, const sw_gltf_export_options* options,
                         const sw_allocator* alloc, void** out_data, size_t* out_size,
                         sw_error* err) {
    if (!out_data || !out_size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "outputs not NULL", 0, -1);
    }
    sw_result r = sw__gx_check(scene, options, err);
    if (r != SW_RESULT_OK) return r;
    sw__gx g;
    memset(&g, 0, sizeof g);
    g.alloc = alloc;
    sw__gx_joint_nodes(&g, scene->skeleton);
    if (!sw__gx_meshes(&g, scene)) {
        sw__gx_free(&g);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    }
    sw__gx_animations(&g, scene, options);
    sw__gbuf json = {0};
    sw__gx_document(&g, scene, options ? options->buffer_uri : NULL, &json);
    uint8_t* out = NULL;
    uint64_t total = 0;
    if (g.oom) {
        r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    } else {
        r = sw__gx_glb(&g, &json, &out, &total, err);
    }
    sw__gbuf_free(&g, &json);
    sw__gx_free(&g);
    if (r != SW_RESULT_OK) return r;
    *out_data = out;
    *out_size = (size_t)total;
    return SW_RESULT_OK;
}

sw_result sw_gltf_export_file(const sw_scene* scene, const sw_gltf_export_options* options,
                              const char* path, sw_error* err) {
    if (!path) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path not NULL", 0, -1);
    void* data = NULL;
    size_t size = 0;
    sw_result r = sw_gltf_export(scene, options, NULL, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    r = sw_file_write_atomic(path, data, size, err);
    sw_free(NULL, data, size);
    return r;
}
