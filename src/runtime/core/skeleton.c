/* Skeletons: building the block from a desc, validating blocks (built here or
 * read from a file), and lookups by name.
 *
 * Block layout (all offsets from the header, whole block a multiple of 16):
 *     sw_skeleton header (32 bytes)
 *     rest pose    sw_xform4[packets_count]     at 32 (16-byte aligned)
 *     parents      int16_t[joints_count]
 *     name offsets uint32_t[joints_count]       4-byte aligned
 *     names        NUL-terminated strings
 *
 * One routine (sw__skeleton_check_joints) checks the joints, whether they
 * come from a desc or from a block; the block check adds the structural
 * checks (sizes, offsets, alignment, padding lanes) and is run by load and by
 * init on what it wrote. */
#include <math.h>
#include <string.h>

#include "internal.h"

#define SW__SKEL_HEADER ((uint32_t)sizeof(sw_skeleton))
#define SW__PACKET_BYTES ((uint32_t)sizeof(sw_xform4))

/* ---- names ---------------------------------------------------------------- */

/* Length of the NUL-terminated string at s, looking at no more than `cap`
 * bytes; returns cap when no NUL was found within them. */
static size_t sw__bounded_len(const char* s, size_t cap) {
    const void* z = memchr(s, 0, cap);
    return z ? (size_t)((const char*)z - s) : cap;
}

static uint32_t sw__name_hash(const char* s) {
    uint32_t h = 2166136261u;
    for (; *s; ++s)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

int64_t sw__first_duplicate_name(const char* (*name)(const void* ctx, uint32_t i), const void* ctx,
                                 uint32_t count) {
    enum { SLOTS = 2048 };
    uint16_t slots[SLOTS]; /* 0: empty, else index + 1 */
    SINEW_ASSERT(count <= 1024u);
    memset(slots, 0, sizeof slots);
    for (uint32_t i = 0; i < count; ++i) {
        const char* s = name(ctx, i);
        uint32_t h = sw__name_hash(s) & (SLOTS - 1u);
        while (slots[h] != 0) {
            if (strcmp(name(ctx, (uint32_t)slots[h] - 1u), s) == 0) return (int64_t)i;
            h = (h + 1u) & (SLOTS - 1u);
        }
        slots[h] = (uint16_t)(i + 1u);
    }
    return -1;
}

/* ---- joint checks shared by desc and block ---------------------------------- */

typedef struct sw__skel_layout {
    uint32_t rest;
    uint32_t parents;
    uint32_t names;
    uint32_t strings;
    uint32_t size;
} sw__skel_layout;

/* Where the joints come from: a desc, or a block already bounds-checked. */
typedef struct sw__skel_src {
    const sw_skeleton_desc* desc;
    const sw_skeleton* block;
} sw__skel_src;

static const char* sw__skel_src_name(const void* ctx, uint32_t i) {
    const sw__skel_src* src = (const sw__skel_src*)ctx;
    if (src->desc) return src->desc->joints[i].name;
    return sw_skeleton_joint_name(src->block, i);
}

static int32_t sw__skel_src_parent(const sw__skel_src* src, uint32_t i) {
    if (src->desc) return src->desc->joints[i].parent;
    return sw_skeleton_parents(src->block)[i];
}

static sw_xform sw__lane_get(const sw_xform4* p, uint32_t lane) {
    sw_xform x;
    x.t.x = p->tx[lane];
    x.t.y = p->ty[lane];
    x.t.z = p->tz[lane];
    x.r.x = p->rx[lane];
    x.r.y = p->ry[lane];
    x.r.z = p->rz[lane];
    x.r.w = p->rw[lane];
    x.s.x = p->sx[lane];
    x.s.y = p->sy[lane];
    x.s.z = p->sz[lane];
    return x;
}

static void sw__lane_set(sw_xform4* p, uint32_t lane, const sw_xform* x) {
    p->tx[lane] = x->t.x;
    p->ty[lane] = x->t.y;
    p->tz[lane] = x->t.z;
    p->rx[lane] = x->r.x;
    p->ry[lane] = x->r.y;
    p->rz[lane] = x->r.z;
    p->rw[lane] = x->r.w;
    p->sx[lane] = x->s.x;
    p->sy[lane] = x->s.y;
    p->sz[lane] = x->s.z;
}

static sw_xform sw__skel_src_rest(const sw__skel_src* src, uint32_t i) {
    if (src->desc) return src->desc->joints[i].rest;
    return sw__lane_get(&sw_skeleton_rest_pose(src->block)[i >> 2], i & 3u);
}

static bool sw__xform_finite(const sw_xform* x) {
    const float v[10] = {x->t.x, x->t.y, x->t.z, x->r.x, x->r.y,
                         x->r.z, x->r.w, x->s.x, x->s.y, x->s.z};
    for (int k = 0; k < 10; ++k) {
        if (!isfinite(v[k])) return false;
    }
    return true;
}

static bool sw__quat_unit(sw_quat q) {
    double n = sqrt((double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z + (double)q.w * q.w);
    return fabs(n - 1.0) <= 1e-3;
}

/* Bounds of joint i's model-space rest transform from its parent's (rotations
 * keep lengths): largest scale factor and translation length (1-norm).
 * Returns false when either passes SW__MODEL_BOUND (or overflows). */
static bool sw__rest_model_bounded(const sw_xform* x, float parent_scale, float parent_length,
                                   float* scale, float* length) {
    const float s = fmaxf(fabsf(x->s.x), fmaxf(fabsf(x->s.y), fabsf(x->s.z)));
    *scale = parent_scale * s;
    *length = parent_length + parent_scale * (fabsf(x->t.x) + fabsf(x->t.y) + fabsf(x->t.z));
    return *scale <= SW__MODEL_BOUND && *length <= SW__MODEL_BOUND;
}

/* Checks the joints of src (names already known to be NUL-terminated and at
 * most SW_SKELETON_MAX_NAME long): parents, non-empty unique names, finite
 * rest values, unit rotations and a model-space rest pose within
 * SW__MODEL_BOUND. Offsets in err are those of the block layout `lay`. */
static sw_result sw__skeleton_check_joints(const sw__skel_src* src, uint32_t count,
                                           const sw__skel_layout* lay, sw_error* err) {
    float scale[SW_SKELETON_MAX_JOINTS], length[SW_SKELETON_MAX_JOINTS];
    for (uint32_t i = 0; i < count; ++i) {
        int32_t p = sw__skel_src_parent(src, i);
        if (p < -1 || p >= (int32_t)i) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "parent < joint",
                            (uint64_t)lay->parents + 2u * (uint64_t)i, (int64_t)i);
        }
        const char* name = sw__skel_src_name(src, i);
        if (name[0] == '\0') {
            return sw__fail(err, SW_RESULT_BAD_DATA, "joint name not empty",
                            (uint64_t)lay->names + 4u * (uint64_t)i, (int64_t)i);
        }
        sw_xform x = sw__skel_src_rest(src, i);
        uint64_t rest_off = (uint64_t)lay->rest + (uint64_t)SW__PACKET_BYTES * (i >> 2);
        if (!sw__xform_finite(&x)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "rest values finite", rest_off, (int64_t)i);
        }
        if (!sw__quat_unit(x.r)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "rest rotation unit", rest_off, (int64_t)i);
        }
        if (!sw__rest_model_bounded(&x, p < 0 ? 1.0f : scale[p], p < 0 ? 0.0f : length[p],
                                    &scale[i], &length[i])) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "rest pose finite in model space", rest_off,
                            (int64_t)i);
        }
    }
    int64_t dup = sw__first_duplicate_name(sw__skel_src_name, src, count);
    if (dup >= 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "unique joint names",
                        (uint64_t)lay->names + 4u * (uint64_t)dup, dup);
    }
    return SW_RESULT_OK;
}

/* ---- desc ------------------------------------------------------------------ */

static sw__skel_layout sw__skeleton_layout(uint32_t joints_count, uint64_t names_bytes) {
    sw__skel_layout lay;
    uint32_t packets = (joints_count + 3u) / 4u;
    lay.rest = SW__SKEL_HEADER;
    lay.parents = lay.rest + packets * SW__PACKET_BYTES;
    lay.names = (uint32_t)sw__align_up(lay.parents + 2u * joints_count, 4u);
    lay.strings = lay.names + 4u * joints_count;
    /* joints_count <= 1024 and names_bytes <= 1024 * 256: no overflow. */
    lay.size = (uint32_t)sw__align16((uint64_t)lay.strings + names_bytes);
    return lay;
}

/* Checks a desc and computes its layout. */
static sw_result sw__skeleton_check_desc(const sw_skeleton_desc* desc, sw__skel_layout* lay,
                                         sw_error* err) {
    if (!desc) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "desc not NULL", 0, -1);
    if (desc->joints_count == 0 || desc->joints_count > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "joints count", 0, -1);
    }
    if (!desc->joints) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joints not NULL", 0, -1);
    uint64_t names_bytes = 0;
    for (uint32_t i = 0; i < desc->joints_count; ++i) {
        const char* name = desc->joints[i].name;
        if (!name) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "joint name not NULL", 0, (int64_t)i);
        }
        size_t len = sw__bounded_len(name, SW_SKELETON_MAX_NAME + 1u);
        if (len > SW_SKELETON_MAX_NAME) {
            return sw__fail(err, SW_RESULT_LIMIT, "joint name length", 0, (int64_t)i);
        }
        names_bytes += len + 1u;
    }
    *lay = sw__skeleton_layout(desc->joints_count, names_bytes);
    sw__skel_src src = {desc, NULL};
    return sw__skeleton_check_joints(&src, desc->joints_count, lay, err);
}

/* ---- block ----------------------------------------------------------------- */

/* Bounds of an array of `count` elements of `elem` bytes at `off` in a block
 * of `size` bytes, after the header: compared by subtraction. */
static bool sw__array_in_block(uint32_t off, uint64_t count, uint64_t elem, uint32_t size) {
    if (off < SW__SKEL_HEADER || off > size) return false;
    return count * elem <= (uint64_t)(size - off);
}

static bool sw__lane_identity(const sw_xform4* p, uint32_t lane) {
    return p->tx[lane] == 0.0f && p->ty[lane] == 0.0f && p->tz[lane] == 0.0f &&
           p->rx[lane] == 0.0f && p->ry[lane] == 0.0f && p->rz[lane] == 0.0f &&
           p->rw[lane] == 1.0f && p->sx[lane] == 1.0f && p->sy[lane] == 1.0f && p->sz[lane] == 1.0f;
}

/* Validates a skeleton block of `avail` readable bytes at s (16-byte aligned). */
static sw_result sw__skeleton_check_block(const sw_skeleton* s, size_t avail, sw_error* err) {
    if (avail < SW__SKEL_HEADER) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "header in bounds", (uint64_t)avail, -1);
    }
    uint32_t size = s->size;
    if (size < SW__SKEL_HEADER) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "block size >= header",
                        offsetof(sw_skeleton, size), -1);
    }
    if ((size_t)size > avail) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "block in bounds", (uint64_t)avail, -1);
    }
    if (s->reserved[0] != 0 || s->reserved[1] != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "reserved zero", offsetof(sw_skeleton, reserved),
                        -1);
    }
    uint32_t n = s->joints_count;
    if (n == 0 || n > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "joints count", offsetof(sw_skeleton, joints_count),
                        -1);
    }
    if (s->packets_count != (n + 3u) / 4u) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "packets count",
                        offsetof(sw_skeleton, packets_count), -1);
    }
    if ((s->rest_offset & 15u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "rest pose aligned",
                        offsetof(sw_skeleton, rest_offset), -1);
    }
    if (!sw__array_in_block(s->rest_offset, s->packets_count, SW__PACKET_BYTES, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "rest pose in bounds",
                        offsetof(sw_skeleton, rest_offset), -1);
    }
    if ((s->parents_offset & 1u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "parents aligned",
                        offsetof(sw_skeleton, parents_offset), -1);
    }
    if (!sw__array_in_block(s->parents_offset, n, 2u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "parents in bounds",
                        offsetof(sw_skeleton, parents_offset), -1);
    }
    if ((s->names_offset & 3u) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "name offsets aligned",
                        offsetof(sw_skeleton, names_offset), -1);
    }
    if (!sw__array_in_block(s->names_offset, n, 4u, size)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "name offsets in bounds",
                        offsetof(sw_skeleton, names_offset), -1);
    }
    const uint32_t* name_offs = (const uint32_t*)(const void*)((const char*)s + s->names_offset);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t o = name_offs[i];
        uint64_t at = (uint64_t)s->names_offset + 4u * (uint64_t)i;
        if (o < SW__SKEL_HEADER || o >= size) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "names in bounds", at, (int64_t)i);
        }
        size_t room = (size_t)(size - o);
        size_t cap = room < SW_SKELETON_MAX_NAME + 1u ? room : SW_SKELETON_MAX_NAME + 1u;
        size_t len = sw__bounded_len((const char*)s + o, cap);
        if (len == cap) {
            if (cap > SW_SKELETON_MAX_NAME) {
                return sw__fail(err, SW_RESULT_LIMIT, "joint name length", (uint64_t)o, (int64_t)i);
            }
            return sw__fail(err, SW_RESULT_BAD_DATA, "names in bounds", (uint64_t)o, (int64_t)i);
        }
    }
    const sw_xform4* rest = sw_skeleton_rest_pose(s);
    for (uint32_t j = n; j < s->packets_count * 4u; ++j) {
        if (!sw__lane_identity(&rest[j >> 2], j & 3u)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "padding lanes identity",
                            (uint64_t)s->rest_offset + SW__PACKET_BYTES * (uint64_t)(j >> 2),
                            (int64_t)j);
        }
    }
    sw__skel_layout lay = {s->rest_offset, s->parents_offset, s->names_offset, 0, size};
    sw__skel_src src = {NULL, s};
    return sw__skeleton_check_joints(&src, n, &lay, err);
}

/* ---- public ---------------------------------------------------------------- */

size_t sw_skeleton_measure(const sw_skeleton_desc* desc) {
    sw__skel_layout lay;
    if (sw__skeleton_check_desc(desc, &lay, NULL) != SW_RESULT_OK) return 0;
    return lay.size;
}

sw_result sw_skeleton_init(void* mem, size_t size, const sw_skeleton_desc* desc,
                           const sw_skeleton** out, sw_error* err) {
    if (!mem || !desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(mem)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "memory 16-byte aligned", 0, -1);
    }
    sw__skel_layout lay;
    sw_result r = sw__skeleton_check_desc(desc, &lay, err);
    if (r != SW_RESULT_OK) return r;
    if (size < lay.size) {
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "memory >= measured size", 0, -1);
    }
    char* base = (char*)mem;
    memset(base, 0, lay.size);
    sw_skeleton* s = (sw_skeleton*)mem;
    const uint32_t n = desc->joints_count;
    s->size = lay.size;
    s->joints_count = n;
    s->packets_count = (n + 3u) / 4u;
    s->rest_offset = lay.rest;
    s->parents_offset = lay.parents;
    s->names_offset = lay.names;
    sw_xform4* rest = (sw_xform4*)(void*)(base + lay.rest);
    int16_t* parents = (int16_t*)(void*)(base + lay.parents);
    uint32_t* name_offs = (uint32_t*)(void*)(base + lay.names);
    const sw_xform identity = {{0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}, {1.0f, 1.0f, 1.0f}};
    uint32_t str = lay.strings;
    for (uint32_t j = 0; j < s->packets_count * 4u; ++j) {
        const sw_xform* x = j < n ? &desc->joints[j].rest : &identity;
        const sw_xform flushed = {
            {sw__flush_tiny(x->t.x), sw__flush_tiny(x->t.y), sw__flush_tiny(x->t.z)},
            {sw__flush_tiny(x->r.x), sw__flush_tiny(x->r.y), sw__flush_tiny(x->r.z),
             sw__flush_tiny(x->r.w)},
            {sw__flush_tiny(x->s.x), sw__flush_tiny(x->s.y), sw__flush_tiny(x->s.z)}};
        sw__lane_set(&rest[j >> 2], j & 3u, &flushed);
    }
    for (uint32_t i = 0; i < n; ++i) {
        parents[i] = (int16_t)desc->joints[i].parent;
        size_t len = strlen(desc->joints[i].name);
        memcpy(base + str, desc->joints[i].name, len + 1u);
        name_offs[i] = str;
        str += (uint32_t)len + 1u;
    }
    /* The block must pass the loader's checks; it does unless the desc
     * changed under us (another thread writing it). */
    r = sw__skeleton_check_block(s, lay.size, err);
    if (r != SW_RESULT_OK) return r;
    *out = s;
    return SW_RESULT_OK;
}

sw_result sw_skeleton_create(const sw_skeleton_desc* desc, const sw_allocator* alloc,
                             const sw_skeleton** out, sw_error* err) {
    if (!desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    sw__skel_layout lay;
    sw_result r = sw__skeleton_check_desc(desc, &lay, err);
    if (r != SW_RESULT_OK) return r;
    void* mem = sw_alloc(alloc, lay.size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    r = sw_skeleton_init(mem, lay.size, desc, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, lay.size);
    return r;
}

void sw_skeleton_destroy(const sw_skeleton* s, const sw_allocator* alloc) {
    if (!s) return;
    sw_free(alloc, (void*)(uintptr_t)s, s->size);
}

sw_result sw_skeleton_load(const void* data, size_t size, const sw_skeleton** out, sw_error* err) {
    if (!data || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(data)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "data 16-byte aligned", 0, -1);
    }
    const sw_skeleton* s = (const sw_skeleton*)data;
    sw_result r = sw__skeleton_check_block(s, size, err);
    if (r != SW_RESULT_OK) return r;
    *out = s;
    return SW_RESULT_OK;
}

int32_t sw_skeleton_find_joint(const sw_skeleton* s, const char* name) {
    if (!s || !name) return -1;
    for (uint32_t i = 0; i < s->joints_count; ++i) {
        if (strcmp(sw_skeleton_joint_name(s, i), name) == 0) return (int32_t)i;
    }
    return -1;
}

sw_result sw_skeleton_find_chain(const sw_skeleton* s, const char* root_name, const char* tip_name,
                                 uint16_t* out, uint32_t out_capacity, uint32_t* out_count) {
    if (!s || !root_name || !tip_name || !out_count || (!out && out_capacity > 0)) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    int32_t root = sw_skeleton_find_joint(s, root_name);
    int32_t tip = sw_skeleton_find_joint(s, tip_name);
    if (root < 0 || tip < 0) return SW_RESULT_NOT_FOUND;
    const int16_t* parents = sw_skeleton_parents(s);
    /* Parents are earlier joints, so the walk up from tip ends. */
    uint32_t len = 1;
    int32_t j = tip;
    while (j != root) {
        j = parents[j];
        if (j < root) return SW_RESULT_NOT_FOUND; /* passed above root: not an ancestor */
        ++len;
    }
    if (len > out_capacity) return SW_RESULT_BUFFER_TOO_SMALL;
    j = tip;
    for (uint32_t k = len; k-- > 0;) {
        out[k] = (uint16_t)j;
        j = parents[j];
    }
    *out_count = len;
    return SW_RESULT_OK;
}
