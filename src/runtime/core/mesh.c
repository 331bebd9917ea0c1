/* Skinned meshes: building the block from a desc, validating blocks (built
 * here or read from a file).
 *
 * Block layout (offsets from the header, whole block a multiple of 16):
 *     sw_mesh header (80 bytes)
 *     inverse binds    sw_mat4[P]          16-byte aligned
 *     positions        float[3 V]
 *     normals          float[3 V]          when SW_MESH_FLAG_NORMALS
 *     uvs              float[2 V]          when SW_MESH_FLAG_UVS
 *     weights          float[4 V]
 *     morph positions  float[3 V T]
 *     morph normals    float[3 V T]        when SW_MESH_FLAG_MORPH_NORMALS
 *     indices          uint32_t[I]
 *     morph names      uint32_t[T]         when the desc gave names
 *     joints           uint16_t[4 V]
 *     palette          uint16_t[P]
 *     name, morph target names (NUL-terminated)
 *
 * One routine (sw__mesh_check_content) checks the values, whether they come
 * from a desc or from a block; the block check adds the structural checks
 * (sizes, offsets, alignment, names) and is run by load and by init on what
 * it wrote. Element indices in errors: the vertex for per-vertex arrays, the
 * position in the index array, the palette entry, and target * V + vertex
 * for morph deltas. */
#include <string.h>

#include "internal.h"
#include "sinew/core/mesh.h"

#define SW__MESH_HEADER ((uint32_t)sizeof(sw_mesh))
#define SW__MESH_MAX_PALETTE 1024u
#define SW__MESH_FLAGS_ALL (SW_MESH_FLAG_NORMALS | SW_MESH_FLAG_UVS | SW_MESH_FLAG_MORPH_NORMALS)

/* Everything the content checks read, with the byte offsets the arrays have
 * in the block (for error reports). indices == NULL means 0..V-1. */
typedef struct sw__mesh_view {
    uint32_t v, i, p, j, t;
    const float* pos;
    const float* nrm;
    const float* uv;
    const uint16_t* jnt;
    const float* w;
    const uint32_t* idx;
    const uint16_t* pal;
    const sw_mat4* ibm;
    const float* mpos;
    const float* mnrm;
    sw_mesh lay; /* offsets */
} sw__mesh_view;

static size_t sw__mesh_bounded_len(const char* s, size_t cap) {
    const void* z = memchr(s, 0, cap);
    return z ? (size_t)((const char*)z - s) : cap;
}

static bool sw__finite_n(const float* p, size_t n, size_t* bad) {
    for (size_t k = 0; k < n; ++k) {
        if (!isfinite(p[k])) {
            *bad = k;
            return false;
        }
    }
    return true;
}

/* The upper 3x3 of m (the linear part) is invertible with a condition that
 * float skinning can use: |det| > 1e-6 times the product of its column
 * lengths (1 for a rotation; scale-invariant). */
static bool sw__ibm_invertible(const sw_mat4* m) {
    const float* a = m->m;
    double c[3][3];
    double norms = 1.0;
    for (int col = 0; col < 3; ++col) {
        double n2 = 0.0;
        for (int row = 0; row < 3; ++row) {
            c[col][row] = (double)a[col * 4 + row];
            n2 += c[col][row] * c[col][row];
        }
        norms *= sqrt(n2);
    }
    double det = c[0][0] * (c[1][1] * c[2][2] - c[2][1] * c[1][2]) -
                 c[1][0] * (c[0][1] * c[2][2] - c[2][1] * c[0][2]) +
                 c[2][0] * (c[0][1] * c[1][2] - c[1][1] * c[0][2]);
    return norms > 0.0 && fabs(det) > 1e-6 * norms;
}

static sw_result sw__mesh_check_content(const sw__mesh_view* m, sw_error* err) {
    const sw_mesh* lay = &m->lay;
    size_t bad = 0;
    if (!sw__finite_n(m->pos, 3u * (size_t)m->v, &bad)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "positions finite",
                        (uint64_t)lay->positions_offset + 4u * (uint64_t)bad, (int64_t)(bad / 3u));
    }
    if (m->nrm && !sw__finite_n(m->nrm, 3u * (size_t)m->v, &bad)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "normals finite",
                        (uint64_t)lay->normals_offset + 4u * (uint64_t)bad, (int64_t)(bad / 3u));
    }
    if (m->uv && !sw__finite_n(m->uv, 2u * (size_t)m->v, &bad)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "uvs finite",
                        (uint64_t)lay->uvs_offset + 4u * (uint64_t)bad, (int64_t)(bad / 2u));
    }
    for (uint32_t v = 0; v < m->v; ++v) {
        const float* w = m->w + 4u * (size_t)v;
        const uint16_t* jn = m->jnt + 4u * (size_t)v;
        uint64_t woff = (uint64_t)lay->weights_offset + 16u * (uint64_t)v;
        double sum = 0.0;
        for (int k = 0; k < 4; ++k) {
            if (!isfinite(w[k])) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "weights finite", woff + 4u * (uint64_t)k,
                                (int64_t)v);
            }
            if (w[k] < 0.0f) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "weights >= 0", woff + 4u * (uint64_t)k,
                                (int64_t)v);
            }
            if (w[k] != 0.0f && jn[k] >= m->p) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "vertex joint < palette count",
                                (uint64_t)lay->joints_offset + 8u * (uint64_t)v + 2u * (uint64_t)k,
                                (int64_t)v);
            }
            sum += (double)w[k];
        }
        if (fabs(sum - 1.0) > 1e-3) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "weights sum to 1", woff, (int64_t)v);
        }
    }
    if (m->i % 3u != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "indices multiple of 3",
                        offsetof(sw_mesh, indices_count), -1);
    }
    if (m->idx) {
        for (uint32_t k = 0; k < m->i; ++k) {
            if (m->idx[k] >= m->v) {
                return sw__fail(err, SW_RESULT_BAD_DATA, "index < vertices count",
                                (uint64_t)lay->indices_offset + 4u * (uint64_t)k, (int64_t)k);
            }
        }
    }
    for (uint32_t k = 0; k < m->p; ++k) {
        if (m->pal[k] >= m->j) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "palette joint < skeleton joints",
                            (uint64_t)lay->palette_offset + 2u * (uint64_t)k, (int64_t)k);
        }
        uint64_t moff = (uint64_t)lay->inverse_binds_offset + 64u * (uint64_t)k;
        if (!sw__finite_n(m->ibm[k].m, 16u, &bad)) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "inverse binds finite", moff + 4u * bad,
                            (int64_t)k);
        }
        if (!sw__ibm_invertible(&m->ibm[k])) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "inverse bind invertible", moff, (int64_t)k);
        }
    }
    size_t deltas = 3u * (size_t)m->v * (size_t)m->t;
    if (m->t > 0 && !sw__finite_n(m->mpos, deltas, &bad)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "morph positions finite",
                        (uint64_t)lay->morph_positions_offset + 4u * (uint64_t)bad,
                        (int64_t)(bad / 3u));
    }
    if (m->mnrm && !sw__finite_n(m->mnrm, deltas, &bad)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "morph normals finite",
                        (uint64_t)lay->morph_normals_offset + 4u * (uint64_t)bad,
                        (int64_t)(bad / 3u));
    }
    return SW_RESULT_OK;
}

/* ---- desc ------------------------------------------------------------------ */

typedef struct sw__mesh_layout {
    sw_mesh h; /* header as it will be written (offsets, counts, flags) */
    uint32_t strings;
} sw__mesh_layout;

/* A desc's counts and arrays, and its names' bytes (*strings_bytes). */
static sw_result sw__mesh_check_desc_counts(const sw_mesh_desc* d, uint64_t* strings_bytes,
                                            sw_error* err) {
    if (!d) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "desc not NULL", 0, -1);
    if (d->vertices_count == 0 || d->vertices_count > SW_MESH_MAX_VERTICES) {
        return sw__fail(err, SW_RESULT_LIMIT, "vertices count", 0, -1);
    }
    if (!d->positions || !d->joints || !d->weights) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "vertex arrays not NULL", 0, -1);
    }
    if (d->indices_count > SW_MESH_MAX_INDICES) {
        return sw__fail(err, SW_RESULT_LIMIT, "indices count", 0, -1);
    }
    if (!d->indices && d->indices_count != 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "indices not NULL", 0, -1);
    }
    if (d->palette_count == 0 || d->palette_count > SW__MESH_MAX_PALETTE) {
        return sw__fail(err, SW_RESULT_LIMIT, "palette count", 0, -1);
    }
    if (!d->palette || !d->inverse_binds) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "palette arrays not NULL", 0, -1);
    }
    if (d->skeleton_joints_count == 0 || d->skeleton_joints_count > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "skeleton joints count", 0, -1);
    }
    if (d->morph_targets_count > SW_MESH_MAX_MORPH_TARGETS) {
        return sw__fail(err, SW_RESULT_LIMIT, "morph targets count", 0, -1);
    }
    if (d->morph_targets_count > 0 && !d->morph_positions) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "morph positions not NULL", 0, -1);
    }
    if (d->morph_targets_count == 0 && (d->morph_positions || d->morph_normals || d->morph_names)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "morph arrays need targets", 0, -1);
    }
    size_t name_len = d->name ? sw__mesh_bounded_len(d->name, SW_MESH_MAX_NAME + 1u) : 0u;
    if (name_len > SW_MESH_MAX_NAME) {
        return sw__fail(err, SW_RESULT_LIMIT, "mesh name length", 0, -1);
    }
    *strings_bytes = name_len + 1u;
    if (d->morph_names) {
        for (uint32_t k = 0; k < d->morph_targets_count; ++k) {
            if (!d->morph_names[k]) {
                return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "morph name not NULL", 0,
                                (int64_t)k);
            }
            size_t len = sw__mesh_bounded_len(d->morph_names[k], SW_MESH_MAX_NAME + 1u);
            if (len > SW_MESH_MAX_NAME) {
                return sw__fail(err, SW_RESULT_LIMIT, "morph name length", 0, (int64_t)k);
            }
            *strings_bytes += len + 1u;
        }
    }

    return SW_RESULT_OK;
}

static sw_result sw__mesh_check_desc(const sw_mesh_desc* d, sw__mesh_layout* out, sw_error* err) {
    uint64_t strings_bytes = 0;
    sw_result r = sw__mesh_check_desc_counts(d, &strings_bytes, err);
    if (r != SW_RESULT_OK) return r;
    const uint64_t v = d->vertices_count;
    const uint64_t t = d->morph_targets_count;
    const uint64_t icount = d->indices ? d->indices_count : v;
    sw_mesh* h = &out->h;
    memset(h, 0, sizeof *h);
    uint64_t at = SW__MESH_HEADER;
    uint32_t offs[16];
    uint64_t sizes[16] = {
        64u * (uint64_t)d->palette_count,    /* 0 inverse binds */
        12u * v,                             /* 1 positions */
        d->normals ? 12u * v : 0u,           /* 2 normals */
        d->uvs ? 8u * v : 0u,                /* 3 uvs */
        16u * v,                             /* 4 weights */
        12u * v * t,                         /* 5 morph positions */
        d->morph_normals ? 12u * v * t : 0u, /* 6 morph normals */
        4u * icount,                         /* 7 indices */
        d->morph_names ? 4u * t : 0u,        /* 8 morph name offsets */
        8u * v,                              /* 9 joints */
        2u * (uint64_t)d->palette_count,     /* 10 palette */
    };
    /* Every size is below 2^40: no overflow in 64 bits. */
    for (int k = 0; k < 11; ++k) {
        if (k == 9) at = sw__align_up(at, 2u);
        if (at > UINT32_MAX) return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
        offs[k] = (uint32_t)at;
        at += sizes[k];
    }
    if (at + strings_bytes + 15u > UINT32_MAX) {
        return sw__fail(err, SW_RESULT_LIMIT, "block size", 0, -1);
    }
    out->strings = (uint32_t)at;
    h->size = (uint32_t)sw__align16(at + strings_bytes);
    h->flags = (d->normals ? SW_MESH_FLAG_NORMALS : 0u) | (d->uvs ? SW_MESH_FLAG_UVS : 0u) |
               (d->morph_normals ? SW_MESH_FLAG_MORPH_NORMALS : 0u);
    h->vertices_count = d->vertices_count;
    h->indices_count = (uint32_t)icount;
    h->palette_count = d->palette_count;
    h->skeleton_joints_count = d->skeleton_joints_count;
    h->morph_targets_count = d->morph_targets_count;
    h->inverse_binds_offset = offs[0];
    h->positions_offset = offs[1];
    h->normals_offset = d->normals ? offs[2] : 0u;
    h->uvs_offset = d->uvs ? offs[3] : 0u;
    h->weights_offset = offs[4];
    h->morph_positions_offset = t ? offs[5] : 0u;
    h->morph_normals_offset = d->morph_normals ? offs[6] : 0u;
    h->indices_offset = offs[7];
    h->morph_names_offset = d->morph_names ? offs[8] : 0u;
    h->joints_offset = offs[9];
    h->palette_offset = offs[10];
    h->name_offset = out->strings;

    sw__mesh_view view = {
        .v = d->vertices_count,
        .i = (uint32_t)icount,
        .p = d->palette_count,
        .j = d->skeleton_joints_count,
        .t = d->morph_targets_count,
        .pos = d->positions,
        .nrm = d->normals,
        .uv = d->uvs,
        .jnt = d->joints,
        .w = d->weights,
        .idx = d->indices,
        .pal = d->palette,
        .ibm = d->inverse_binds,
        .mpos = d->morph_positions,
        .mnrm = d->morph_normals,
        .lay = *h,
    };
    return sw__mesh_check_content(&view, err);
}

/* ---- block ----------------------------------------------------------------- */

/* An array of count * elem bytes at off, after the header and aligned to
 * `align`, inside a block of `size` bytes (compared by subtraction). */
static sw_result sw__mesh_array(uint32_t off, uint64_t count, uint64_t elem, uint32_t align,
                                uint32_t size, size_t field, const char* aligned_check,
                                const char* bounds_check, sw_error* err) {
    if ((off & (align - 1u)) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, aligned_check, (uint64_t)field, -1);
    }
    if (off < SW__MESH_HEADER || off > size || count * elem > (uint64_t)(size - off)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, bounds_check, (uint64_t)field, -1);
    }
    return SW_RESULT_OK;
}

/* A NUL-terminated name of at most SW_MESH_MAX_NAME bytes at off. */
static sw_result sw__mesh_name_ok(const sw_mesh* m, uint32_t off, uint64_t at, int64_t index,
                                  const char* bounds_check, const char* length_check,
                                  sw_error* err) {
    if (off < SW__MESH_HEADER || off >= m->size) {
        return sw__fail(err, SW_RESULT_BAD_DATA, bounds_check, at, index);
    }
    size_t room = (size_t)(m->size - off);
    size_t cap = room < SW_MESH_MAX_NAME + 1u ? room : SW_MESH_MAX_NAME + 1u;
    size_t len = sw__mesh_bounded_len((const char*)m + off, cap);
    if (len == cap) {
        if (cap > SW_MESH_MAX_NAME) return sw__fail(err, SW_RESULT_LIMIT, length_check, off, index);
        return sw__fail(err, SW_RESULT_BAD_DATA, bounds_check, off, index);
    }
    return SW_RESULT_OK;
}

#define SW__TRY(x)                                                                                 \
    do {                                                                                           \
        sw_result r_ = (x);                                                                        \
        if (r_ != SW_RESULT_OK) return r_;                                                         \
    } while (0)

/* The header of a mesh block of `avail` readable bytes: sizes, flags,
 * counts, and which arrays are present. */
static sw_result sw__mesh_check_header(const sw_mesh* m, size_t avail, sw_error* err) {
    if (avail < SW__MESH_HEADER) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "header in bounds", (uint64_t)avail, -1);
    }
    const uint32_t size = m->size;
    if (size < SW__MESH_HEADER) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "block size >= header", offsetof(sw_mesh, size),
                        -1);
    }
    if ((size_t)size > avail) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "block in bounds", (uint64_t)avail, -1);
    }
    if (m->reserved != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "reserved zero", offsetof(sw_mesh, reserved), -1);
    }
    if ((m->flags & ~SW__MESH_FLAGS_ALL) != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "known flags", offsetof(sw_mesh, flags), -1);
    }
    const uint32_t v = m->vertices_count, t = m->morph_targets_count;
    if (v == 0 || v > SW_MESH_MAX_VERTICES) {
        return sw__fail(err, SW_RESULT_LIMIT, "vertices count", offsetof(sw_mesh, vertices_count),
                        -1);
    }
    if (m->indices_count > SW_MESH_MAX_INDICES) {
        return sw__fail(err, SW_RESULT_LIMIT, "indices count", offsetof(sw_mesh, indices_count),
                        -1);
    }
    if (m->palette_count == 0 || m->palette_count > SW__MESH_MAX_PALETTE) {
        return sw__fail(err, SW_RESULT_LIMIT, "palette count", offsetof(sw_mesh, palette_count),
                        -1);
    }
    if (m->skeleton_joints_count == 0 || m->skeleton_joints_count > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "skeleton joints count",
                        offsetof(sw_mesh, skeleton_joints_count), -1);
    }
    if (t > SW_MESH_MAX_MORPH_TARGETS) {
        return sw__fail(err, SW_RESULT_LIMIT, "morph targets count",
                        offsetof(sw_mesh, morph_targets_count), -1);
    }
    const bool has_n = (m->flags & SW_MESH_FLAG_NORMALS) != 0;
    const bool has_uv = (m->flags & SW_MESH_FLAG_UVS) != 0;
    const bool has_mn = (m->flags & SW_MESH_FLAG_MORPH_NORMALS) != 0;
    if (has_n != (m->normals_offset != 0)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "normals flag matches offset",
                        offsetof(sw_mesh, normals_offset), -1);
    }
    if (has_uv != (m->uvs_offset != 0)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "uvs flag matches offset",
                        offsetof(sw_mesh, uvs_offset), -1);
    }
    if (has_mn != (m->morph_normals_offset != 0) || (has_mn && t == 0)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "morph normals flag matches offset",
                        offsetof(sw_mesh, morph_normals_offset), -1);
    }
    if ((t != 0) != (m->morph_positions_offset != 0)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "morph positions present with targets",
                        offsetof(sw_mesh, morph_positions_offset), -1);
    }
    if (t == 0 && m->morph_names_offset != 0) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "morph names present with targets",
                        offsetof(sw_mesh, morph_names_offset), -1);
    }
    return SW_RESULT_OK;
}

/* The arrays and names of a mesh whose header is checked: aligned and in
 * bounds. */
static sw_result sw__mesh_check_arrays(const sw_mesh* m, sw_error* err) {
    const uint32_t size = m->size;
    const uint32_t v = m->vertices_count, t = m->morph_targets_count;
    const bool has_n = (m->flags & SW_MESH_FLAG_NORMALS) != 0;
    const bool has_uv = (m->flags & SW_MESH_FLAG_UVS) != 0;
    const bool has_mn = (m->flags & SW_MESH_FLAG_MORPH_NORMALS) != 0;
    const uint64_t deltas = (uint64_t)v * t;
    SW__TRY(sw__mesh_array(m->positions_offset, v, 12u, 4u, size,
                           offsetof(sw_mesh, positions_offset), "positions aligned",
                           "positions in bounds", err));
    if (has_n) {
        SW__TRY(sw__mesh_array(m->normals_offset, v, 12u, 4u, size,
                               offsetof(sw_mesh, normals_offset), "normals aligned",
                               "normals in bounds", err));
    }
    if (has_uv) {
        SW__TRY(sw__mesh_array(m->uvs_offset, v, 8u, 4u, size, offsetof(sw_mesh, uvs_offset),
                               "uvs aligned", "uvs in bounds", err));
    }
    SW__TRY(sw__mesh_array(m->joints_offset, v, 8u, 2u, size, offsetof(sw_mesh, joints_offset),
                           "joints aligned", "joints in bounds", err));
    SW__TRY(sw__mesh_array(m->weights_offset, v, 16u, 4u, size, offsetof(sw_mesh, weights_offset),
                           "weights aligned", "weights in bounds", err));
    SW__TRY(sw__mesh_array(m->indices_offset, m->indices_count, 4u, 4u, size,
                           offsetof(sw_mesh, indices_offset), "indices aligned",
                           "indices in bounds", err));
    SW__TRY(sw__mesh_array(m->palette_offset, m->palette_count, 2u, 2u, size,
                           offsetof(sw_mesh, palette_offset), "palette aligned",
                           "palette in bounds", err));
    SW__TRY(sw__mesh_array(m->inverse_binds_offset, m->palette_count, 64u, 16u, size,
                           offsetof(sw_mesh, inverse_binds_offset), "inverse binds aligned",
                           "inverse binds in bounds", err));
    if (t > 0) {
        SW__TRY(sw__mesh_array(m->morph_positions_offset, deltas, 12u, 4u, size,
                               offsetof(sw_mesh, morph_positions_offset), "morph positions aligned",
                               "morph positions in bounds", err));
    }
    if (has_mn) {
        SW__TRY(sw__mesh_array(m->morph_normals_offset, deltas, 12u, 4u, size,
                               offsetof(sw_mesh, morph_normals_offset), "morph normals aligned",
                               "morph normals in bounds", err));
    }
    SW__TRY(sw__mesh_name_ok(m, m->name_offset, offsetof(sw_mesh, name_offset), -1,
                             "name in bounds", "mesh name length", err));
    if (m->morph_names_offset != 0) {
        SW__TRY(sw__mesh_array(m->morph_names_offset, t, 4u, 4u, size,
                               offsetof(sw_mesh, morph_names_offset), "morph names aligned",
                               "morph names in bounds", err));
        const uint32_t* offs =
            (const uint32_t*)(const void*)((const char*)m + m->morph_names_offset);
        for (uint32_t k = 0; k < t; ++k) {
            SW__TRY(sw__mesh_name_ok(m, offs[k], (uint64_t)m->morph_names_offset + 4u * (uint64_t)k,
                                     (int64_t)k, "morph name in bounds", "morph name length", err));
        }
    }
    return SW_RESULT_OK;
}

static sw_result sw__mesh_check_block(const sw_mesh* m, size_t avail, sw_error* err) {
    SW__TRY(sw__mesh_check_header(m, avail, err));
    SW__TRY(sw__mesh_check_arrays(m, err));
    const uint32_t v = m->vertices_count, t = m->morph_targets_count;
    sw__mesh_view view = {
        .v = v,
        .i = m->indices_count,
        .p = m->palette_count,
        .j = m->skeleton_joints_count,
        .t = t,
        .pos = sw_mesh_positions(m),
        .nrm = sw_mesh_normals(m),
        .uv = sw_mesh_uvs(m),
        .jnt = sw_mesh_joints(m),
        .w = sw_mesh_weights(m),
        .idx = sw_mesh_indices(m),
        .pal = sw_mesh_palette(m),
        .ibm = sw_mesh_inverse_binds(m),
        .mpos = t ? sw_mesh_morph_positions(m) : NULL,
        .mnrm = sw_mesh_morph_normals(m),
        .lay = *m,
    };
    return sw__mesh_check_content(&view, err);
}

/* ---- public ---------------------------------------------------------------- */

size_t sw_mesh_measure(const sw_mesh_desc* desc) {
    sw__mesh_layout lay;
    if (sw__mesh_check_desc(desc, &lay, NULL) != SW_RESULT_OK) return 0;
    return lay.h.size;
}

static char* sw__mesh_put_string(char* base, uint32_t* at, const char* s) {
    size_t len = s ? strlen(s) : 0u;
    char* dst = base + *at;
    if (len) memcpy(dst, s, len);
    dst[len] = '\0';
    *at += (uint32_t)len + 1u;
    return dst;
}

sw_result sw_mesh_init(void* mem, size_t size, const sw_mesh_desc* desc, const sw_mesh** out,
                       sw_error* err) {
    if (!mem || !desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(mem)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "memory 16-byte aligned", 0, -1);
    }
    sw__mesh_layout lay;
    sw_result r = sw__mesh_check_desc(desc, &lay, err);
    if (r != SW_RESULT_OK) return r;
    if (size < lay.h.size) {
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "memory >= measured size", 0, -1);
    }
    char* base = (char*)mem;
    memset(base, 0, lay.h.size);
    memcpy(base, &lay.h, sizeof lay.h);
    const sw_mesh* h = &lay.h;
    const size_t v = desc->vertices_count;
    const size_t t = desc->morph_targets_count;
    memcpy(base + h->inverse_binds_offset, desc->inverse_binds,
           sizeof(sw_mat4) * desc->palette_count);
    memcpy(base + h->positions_offset, desc->positions, 12u * v);
    if (desc->normals) memcpy(base + h->normals_offset, desc->normals, 12u * v);
    if (desc->uvs) memcpy(base + h->uvs_offset, desc->uvs, 8u * v);
    memcpy(base + h->weights_offset, desc->weights, 16u * v);
    if (t) memcpy(base + h->morph_positions_offset, desc->morph_positions, 12u * v * t);
    if (desc->morph_normals) {
        memcpy(base + h->morph_normals_offset, desc->morph_normals, 12u * v * t);
    }
    uint32_t* idx = (uint32_t*)(void*)(base + h->indices_offset);
    if (desc->indices) {
        memcpy(idx, desc->indices, 4u * (size_t)h->indices_count);
    } else {
        for (uint32_t k = 0; k < h->indices_count; ++k)
            idx[k] = k;
    }
    memcpy(base + h->joints_offset, desc->joints, 8u * v);
    memcpy(base + h->palette_offset, desc->palette, 2u * (size_t)desc->palette_count);
    uint32_t at = lay.strings;
    sw__mesh_put_string(base, &at, desc->name);
    if (desc->morph_names) {
        uint32_t* offs = (uint32_t*)(void*)(base + h->morph_names_offset);
        for (size_t k = 0; k < t; ++k) {
            offs[k] = at;
            sw__mesh_put_string(base, &at, desc->morph_names[k]);
        }
    }
    /* The block must pass the loader's checks; it does unless the desc
     * changed under us (another thread writing it). */
    r = sw__mesh_check_block((const sw_mesh*)mem, lay.h.size, err);
    if (r != SW_RESULT_OK) return r;
    *out = (const sw_mesh*)mem;
    return SW_RESULT_OK;
}

sw_result sw_mesh_create(const sw_mesh_desc* desc, const sw_allocator* alloc, const sw_mesh** out,
                         sw_error* err) {
    if (!desc || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    sw__mesh_layout lay;
    sw_result r = sw__mesh_check_desc(desc, &lay, err);
    if (r != SW_RESULT_OK) return r;
    void* mem = sw_alloc(alloc, lay.h.size, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    r = sw_mesh_init(mem, lay.h.size, desc, out, err);
    if (r != SW_RESULT_OK) sw_free(alloc, mem, lay.h.size);
    return r;
}

void sw_mesh_destroy(const sw_mesh* m, const sw_allocator* alloc) {
    if (!m) return;
    sw_free(alloc, (void*)(uintptr_t)m, m->size);
}

sw_result sw_mesh_load(const void* data, size_t size, const sw_mesh** out, sw_error* err) {
    if (!data || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(data)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "data 16-byte aligned", 0, -1);
    }
    const sw_mesh* m = (const sw_mesh*)data;
    sw_result r = sw__mesh_check_block(m, size, err);
    if (r != SW_RESULT_OK) return r;
    *out = m;
    return SW_RESULT_OK;
}

const char* sw_mesh_morph_name(const sw_mesh* m, uint32_t k) {
    if (!m || k >= m->morph_targets_count || m->morph_names_offset == 0) return "";
    const uint32_t* offs = (const uint32_t*)(const void*)((const char*)m + m->morph_names_offset);
    return (const char*)m + offs[k];
}
