/* Skinned meshes of the built-in characters: one capsule (rings along an
 * axis, hemispherical ends, elliptic cross-section) per body part, each
 * bound to the joint that moves it, with weights blended towards the
 * neighbouring joint over a band around each end; and the bones of any
 * skeleton, for characters that come without a mesh. */
#include <string.h>

#include "shared/fail.h"
#include "showcase/characters/internal.h"

#define SW__SLICES 12u     /* vertices around a ring */
#define SW__CAP_ROWS 4u    /* rings per hemispherical end, pole excluded */
#define SW__ROW_STEP 0.05f /* at most this far between body rings (m) */

typedef struct sw__part {
    uint32_t joint;      /* joint that moves the part */
    int32_t start_blend; /* joint blended in around the start, or -1 */
    int32_t end_blend;   /* joint blended in around the end, or -1 */
    sw_vec3 a, b;        /* axis end points in bind space (centres of the end spheres) */
    float r0, r1;        /* radius at a and at b, across `u` */
    float flat;          /* radius across `v` as a fraction of the radius across `u` (0: 1) */
    float band;          /* blend band half-width along the axis (m) */
} sw__part;

/* Body rows of a part whose units are `unit` metres' worth (1: metres). */
static uint32_t sw__part_body_rows(const sw__part* p, float unit) {
    const float len = sw_vec3_length(sw_vec3_sub(p->b, p->a));
    uint32_t rows = (uint32_t)ceilf(len / (SW__ROW_STEP * unit));
    return rows < 1u ? 1u : rows;
}

/* Rings of a part: pole, cap rings, body rings between them, cap rings, pole. */
static uint32_t sw__part_rings(const sw__part* p, float unit) {
    return 2u + 2u * SW__CAP_ROWS + (sw__part_body_rows(p, unit) - 1u);
}

static float sw__smooth(float x) {
    if (x <= 0.0f) return 0.0f;
    if (x >= 1.0f) return 1.0f;
    return x * x * (3.0f - 2.0f * x);
}

/* The ring's cross-section axes: u roughly X for near-vertical parts
 * (widths of torsos), otherwise roughly Y; v completes the frame. */
static void sw__part_frame(const sw__part* p, sw_vec3* axis, sw_vec3* u, sw_vec3* v) {
    *axis = sw_vec3_normalize(sw_vec3_sub(p->b, p->a));
    const sw_vec3 ref = fabsf(axis->y) > 0.7f ? sw_vec3_make(1, 0, 0) : sw_vec3_make(0, 1, 0);
    *u = sw_vec3_normalize(sw_vec3_sub(ref, sw_vec3_scale(*axis, sw_vec3_dot(ref, *axis))));
    *v = sw_vec3_cross(*axis, *u);
}

typedef struct sw__mesh_buf {
    float* positions;
    float* normals;
    uint16_t* joints;
    float* weights;
    uint32_t* indices;
    uint32_t vertices, indices_count;
} sw__mesh_buf;

static void sw__emit_part(const sw__part* p, float unit, sw__mesh_buf* m) {
    sw_vec3 axis, u, v;
    sw__part_frame(p, &axis, &u, &v);
    const float len = sw_vec3_length(sw_vec3_sub(p->b, p->a));
    const float flat = p->flat > 0.0f ? p->flat : 1.0f;
    const uint32_t body = sw__part_body_rows(p, unit);
    const uint32_t rings = sw__part_rings(p, unit);
    const uint32_t first = m->vertices;
    const float half_pi = 1.5707963267948966f;
    for (uint32_t ring = 0; ring < rings; ++ring) {
        /* s: distance along the axis from a; rad: ring radius; nz: axial
         * part of the normal (sphere caps), nr: radial part. */
        float s, rad, nz, nr;
        if (ring <= SW__CAP_ROWS) {
            const float phi = half_pi * (float)ring / (float)SW__CAP_ROWS; /* 0 at the pole */
            s = -p->r0 * cosf(phi);
            rad = p->r0 * sinf(phi);
            nz = -cosf(phi);
            nr = sinf(phi);
        } else if (ring >= rings - 1u - SW__CAP_ROWS) {
            const uint32_t k = rings - 1u - ring; /* 0 at the far pole */
            const float phi = half_pi * (float)k / (float)SW__CAP_ROWS;
            s = len + p->r1 * cosf(phi);
            rad = p->r1 * sinf(phi);
            nz = cosf(phi);
            nr = sinf(phi);
        } else {
            const float f = (float)(ring - SW__CAP_ROWS) / (float)body;
            s = len * f;
            rad = p->r0 + (p->r1 - p->r0) * f;
            nz = 0.0f;
            nr = 1.0f;
        }
        const sw_vec3 centre = sw_vec3_add(p->a, sw_vec3_scale(axis, s));
        /* weights: the part's joint, with a neighbour over the bands */
        float w_start = 0.0f, w_end = 0.0f;
        if (p->start_blend >= 0 && p->band > 0.0f) w_start = 0.5f - 0.5f * sw__smooth(s / p->band);
        if (p->end_blend >= 0 && p->band > 0.0f)
            w_end = 0.5f - 0.5f * sw__smooth((len - s) / p->band);
        for (uint32_t k = 0; k < SW__SLICES; ++k) {
            const float th = 6.283185307179586f * (float)k / (float)SW__SLICES;
            const float cu = cosf(th), sv = sinf(th);
            const sw_vec3 radial =
                sw_vec3_add(sw_vec3_scale(u, cu * rad), sw_vec3_scale(v, sv * rad * flat));
            const sw_vec3 pos = sw_vec3_add(centre, radial);
            /* ellipse normal: the radial direction with the flat axis stretched */
            sw_vec3 n = sw_vec3_add(sw_vec3_scale(u, cu * nr), sw_vec3_scale(v, sv * nr / flat));
            n = sw_vec3_normalize(sw_vec3_add(n, sw_vec3_scale(axis, nz)));
            const uint32_t vi = m->vertices++;
            memcpy(&m->positions[3u * vi], &pos, sizeof(float) * 3u);
            m->normals[3u * vi + 0u] = n.x;
            m->normals[3u * vi + 1u] = n.y;
            m->normals[3u * vi + 2u] = n.z;
            uint16_t* jj = &m->joints[4u * vi];
            float* ww = &m->weights[4u * vi];
            jj[0] = (uint16_t)p->joint;
            jj[1] = (uint16_t)(p->start_blend >= 0 ? p->start_blend : 0);
            jj[2] = (uint16_t)(p->end_blend >= 0 ? p->end_blend : 0);
            jj[3] = 0;
            ww[1] = w_start;
            ww[2] = w_end;
            ww[3] = 0.0f;
            ww[0] = 1.0f - w_start - w_end;
        }
    }
    /* quads between consecutive rings, counter-clockwise seen from outside */
    for (uint32_t ring = 0; ring + 1u < rings; ++ring) {
        for (uint32_t k = 0; k < SW__SLICES; ++k) {
            const uint32_t k1 = (k + 1u) % SW__SLICES;
            const uint32_t a0 = first + ring * SW__SLICES + k;
            const uint32_t a1 = first + ring * SW__SLICES + k1;
            const uint32_t b0 = a0 + SW__SLICES;
            const uint32_t b1 = a1 + SW__SLICES;
            uint32_t* ix = &m->indices[m->indices_count];
            ix[0] = a0, ix[1] = b1, ix[2] = b0;
            ix[3] = a0, ix[4] = a1, ix[5] = b1;
            m->indices_count += 6u;
        }
    }
}

/* Builds the mesh of `parts` bound to every joint of `skel` (palette entry i
 * is joint i, inverse binds the inverse rest model matrices); the parts'
 * units are `unit` metres' worth (the spacing of their rings). */
static sw_result sw__build_mesh(const sw_skeleton* skel, const char* name, const sw__part* parts,
                                uint32_t parts_count, float unit, const sw_allocator* alloc,
                                const sw_mesh** out, sw_error* err) {
    uint32_t vertices = 0, indices = 0;
    for (uint32_t i = 0; i < parts_count; ++i) {
        const uint32_t rings = sw__part_rings(&parts[i], unit);
        vertices += rings * SW__SLICES;
        indices += (rings - 1u) * SW__SLICES * 6u;
    }
    const uint32_t joints_count = skel->joints_count;
    const size_t bytes_f3 = sizeof(float) * 3u * vertices;
    const size_t bytes_j = sizeof(uint16_t) * 4u * vertices;
    const size_t bytes_w = sizeof(float) * 4u * vertices;
    const size_t bytes_i = sizeof(uint32_t) * indices;
    const size_t bytes_pal = sizeof(uint16_t) * joints_count;
    const size_t bytes_inv = sizeof(sw_mat4) * joints_count;
    const size_t bytes_models = sizeof(sw_mat4) * joints_count;
    sw__mesh_buf m = {0};
    m.positions = (float*)sw_alloc(alloc, bytes_f3, 16);
    m.normals = (float*)sw_alloc(alloc, bytes_f3, 16);
    m.joints = (uint16_t*)sw_alloc(alloc, bytes_j, 16);
    m.weights = (float*)sw_alloc(alloc, bytes_w, 16);
    m.indices = (uint32_t*)sw_alloc(alloc, bytes_i, 16);
    uint16_t* palette = (uint16_t*)sw_alloc(alloc, bytes_pal, 16);
    sw_mat4* inverse = (sw_mat4*)sw_alloc(alloc, bytes_inv, 16);
    sw_mat4* models = (sw_mat4*)sw_alloc(alloc, bytes_models, 16);
    sw_result r = SW_RESULT_OUT_OF_MEMORY;
    if (m.positions && m.normals && m.joints && m.weights && m.indices && palette && inverse &&
        models) {
        for (uint32_t i = 0; i < parts_count; ++i)
            sw__emit_part(&parts[i], unit, &m);
        sw__rest_models(skel, models);
        r = SW_RESULT_OK;
        for (uint32_t j = 0; j < joints_count && r == SW_RESULT_OK; ++j) {
            palette[j] = (uint16_t)j;
            if (!sw_mat4_inverse_affine(&models[j], &inverse[j])) r = SW_RESULT_BAD_DATA;
        }
        if (r == SW_RESULT_OK) {
            const sw_mesh_desc desc = {
                .name = name,
                .vertices_count = m.vertices,
                .positions = m.positions,
                .normals = m.normals,
                .joints = m.joints,
                .weights = m.weights,
                .indices = m.indices,
                .indices_count = m.indices_count,
                .palette = palette,
                .inverse_binds = inverse,
                .palette_count = joints_count,
                .skeleton_joints_count = joints_count,
            };
            r = sw_mesh_create(&desc, alloc, out, err);
        } else if (err) {
            err->result = r;
            err->check = "rest model matrix invertible";
        }
    }
    sw_free(alloc, m.positions, bytes_f3);
    sw_free(alloc, m.normals, bytes_f3);
    sw_free(alloc, m.joints, bytes_j);
    sw_free(alloc, m.weights, bytes_w);
    sw_free(alloc, m.indices, bytes_i);
    sw_free(alloc, palette, bytes_pal);
    sw_free(alloc, inverse, bytes_inv);
    sw_free(alloc, models, bytes_models);
    return r;
}

static sw_vec3 sw__v(float x, float y, float z) {
    return sw_vec3_make(x, y, z);
}

sw_result sw__humanoid_mesh(const sw_skeleton* skel, const sw_allocator* alloc, const sw_mesh** out,
                            sw_error* err) {
    /* Bind positions follow skeletons.c's rest pose: hips 0.95, spine 1.05,
     * spine1 1.22, neck 1.42, head 1.52; shoulders (±0.04, 1.38), arms at
     * ±0.18, elbows ±0.46, wrists ±0.72; hip joints (±0.09, 0.89), knees
     * 0.47, ankles 0.07, toe bases (±0.09, 0.02, 0.13). */
    sw__part parts[5u + 2u * 8u];
    uint32_t n = 0;
    parts[n++] =
        (sw__part){SW__HIPS, -1,    SW__SPINE, sw__v(0, 0.90f, 0), sw__v(0, 1.05f, 0), 0.14f,
                   0.135f,   0.68f, 0.05f};
    parts[n++] = (sw__part){
        SW__SPINE, SW__HIPS, SW__SPINE1, sw__v(0, 1.05f, 0.0f), sw__v(0, 1.22f, 0.0f), 0.13f,
        0.15f,     0.65f,    0.06f};
    parts[n++] = (sw__part){
        SW__SPINE1, SW__SPINE, SW__NECK, sw__v(0, 1.22f, 0.0f), sw__v(0, 1.33f, 0.0f), 0.16f,
        0.15f,      0.68f,     0.06f};
    parts[n++] =
        (sw__part){SW__NECK, SW__SPINE1, SW__HEAD, sw__v(0, 1.40f, 0), sw__v(0, 1.52f, 0), 0.05f,
                   0.045f,   0.0f,       0.04f};
    parts[n++] =
        (sw__part){SW__HEAD, -1,   -1,  sw__v(0, 1.60f, 0.01f), sw__v(0, 1.65f, 0.01f), 0.095f,
                   0.09f,    0.0f, 0.0f};
    for (int side = 0; side < 2; ++side) {
        const float sx = side == 0 ? 1.0f : -1.0f;
        const uint32_t sh = side == 0 ? SW__L_SHOULDER : SW__R_SHOULDER;
        const uint32_t up = side == 0 ? SW__L_UPLEG : SW__R_UPLEG;
        parts[n++] = (sw__part){sh,
                                SW__SPINE1,
                                (int32_t)(sh + 1u),
                                sw__v(sx * 0.06f, 1.38f, 0),
                                sw__v(sx * 0.18f, 1.38f, 0),
                                0.055f,
                                0.05f,
                                0.0f,
                                0.04f};
        parts[n++] = (sw__part){sh + 1u,
                                (int32_t)sh,
                                (int32_t)(sh + 2u),
                                sw__v(sx * 0.18f, 1.38f, 0),
                                sw__v(sx * 0.46f, 1.38f, 0),
                                0.048f,
                                0.04f,
                                0.0f,
                                0.05f};
        parts[n++] = (sw__part){sh + 2u,
                                (int32_t)(sh + 1u),
                                (int32_t)(sh + 3u),
                                sw__v(sx * 0.46f, 1.38f, 0),
                                sw__v(sx * 0.72f, 1.38f, 0),
                                0.038f,
                                0.03f,
                                0.0f,
                                0.05f};
        parts[n++] = (sw__part){sh + 3u,
                                (int32_t)(sh + 2u),
                                -1,
                                sw__v(sx * 0.76f, 1.38f, 0),
                                sw__v(sx * 0.84f, 1.38f, 0),
                                0.04f,
                                0.035f,
                                0.45f,
                                0.04f};
        parts[n++] = (sw__part){up,
                                SW__HIPS,
                                (int32_t)(up + 1u),
                                sw__v(sx * 0.09f, 0.89f, 0),
                                sw__v(sx * 0.09f, 0.47f, 0),
                                0.08f,
                                0.055f,
                                0.0f,
                                0.06f};
        parts[n++] = (sw__part){up + 1u,
                                (int32_t)up,
                                (int32_t)(up + 2u),
                                sw__v(sx * 0.09f, 0.47f, 0),
                                sw__v(sx * 0.09f, 0.08f, 0),
                                0.055f,
                                0.04f,
                                0.0f,
                                0.06f};
        /* the foot: heel to the ball, bottom at the ground; the toes beyond */
        parts[n++] = (sw__part){up + 2u,
                                -1,
                                (int32_t)(up + 3u),
                                sw__v(sx * 0.09f, 0.045f, -0.04f),
                                sw__v(sx * 0.09f, 0.035f, 0.13f),
                                0.045f,
                                0.035f,
                                0.0f,
                                0.03f};
        parts[n++] = (sw__part){up + 3u,
                                (int32_t)(up + 2u),
                                -1,
                                sw__v(sx * 0.09f, 0.033f, 0.15f),
                                sw__v(sx * 0.09f, 0.03f, 0.20f),
                                0.033f,
                                0.03f,
                                0.0f,
                                0.03f};
    }
    return sw__build_mesh(skel, "sinew_humanoid", parts, n, 1.0f, alloc, out, err);
}

sw_result sw__spider_mesh(const sw_skeleton* skel, const sw_allocator* alloc, const sw_mesh** out,
                          sw_error* err) {
    sw__part parts[1u + 3u * SW__SPIDER_LEGS];
    uint32_t n = 0;
    const float by = SW__SPIDER_BODY_Y;
    parts[n++] = (sw__part){
        0,     -1,   -1,  sw__v(0, by + 0.01f, 0.04f), sw__v(0, by + 0.02f, -0.09f), 0.05f,
        0.06f, 0.8f, 0.0f};
    sw_mat4 models[SW__SPIDER_JOINTS];
    sw__rest_models(skel, models);
    for (uint32_t leg = 0; leg < SW__SPIDER_LEGS; ++leg) {
        const uint32_t base = 1u + 4u * leg;
        const float radii[4] = {0.016f, 0.014f, 0.011f, 0.004f};
        for (uint32_t s = 0; s < 3u; ++s) {
            const uint32_t j = base + s;
            const sw_vec3 a = sw__v(models[j].m[12], models[j].m[13], models[j].m[14]);
            const sw_vec3 b =
                sw__v(models[j + 1u].m[12], models[j + 1u].m[13], models[j + 1u].m[14]);
            parts[n++] = (sw__part){j,
                                    s == 0u ? 0 : (int32_t)(j - 1u),
                                    s == 2u ? -1 : (int32_t)(j + 1u),
                                    a,
                                    b,
                                    radii[s],
                                    radii[s + 1u],
                                    0.0f,
                                    0.02f};
        }
    }
    return sw__build_mesh(skel, "sinew_spider", parts, n, 1.0f, alloc, out, err);
}

/* The extent of a rest pose: the largest side of its joints' bounds. */
static float sw__rest_extent(const sw_mat4* models, uint32_t joints_count) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t j = 0; j < joints_count; ++j) {
        for (uint32_t c = 0; c < 3u; ++c) {
            lo[c] = fminf(lo[c], models[j].m[12u + c]);
            hi[c] = fmaxf(hi[c], models[j].m[12u + c]);
        }
    }
    return fmaxf(hi[0] - lo[0], fmaxf(hi[1] - lo[1], hi[2] - lo[2]));
}

sw_result sw_showcase_bones_mesh(const sw_skeleton* skel, const sw_allocator* alloc,
                                 const sw_mesh** out, uint32_t* bones_count, sw_error* err) {
    if (out) *out = NULL;
    if (bones_count) *bones_count = 0;
    if (!skel || !out)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    const uint32_t joints_count = skel->joints_count;
    if (joints_count > 1024u)
        return sw__fail(err, SW_RESULT_LIMIT, "joints <= 1024 (a mesh palette)", 0, -1);
    const size_t bytes_models = sizeof(sw_mat4) * joints_count;
    const size_t bytes_parts = sizeof(sw__part) * joints_count;
    sw_mat4* models = (sw_mat4*)sw_alloc(alloc, bytes_models, 16);
    sw__part* parts = (sw__part*)sw_alloc(alloc, bytes_parts, 16);
    sw_result r = SW_RESULT_OK;
    if (!models || !parts) r = sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "bones mesh", 0, -1);
    uint32_t n = 0;
    float extent = 0.0f;
    if (r == SW_RESULT_OK) {
        sw__rest_models(skel, models);
        extent = sw__rest_extent(models, joints_count);
        const int16_t* parents = sw_skeleton_parents(skel);
        for (uint32_t j = 0; j < joints_count; ++j) {
            if (parents[j] < 0) continue;
            const uint32_t p = (uint32_t)parents[j];
            const sw_vec3 a = sw__v(models[p].m[12], models[p].m[13], models[p].m[14]);
            const sw_vec3 b = sw__v(models[j].m[12], models[j].m[13], models[j].m[14]);
            const float len = sw_vec3_length(sw_vec3_sub(b, a));
            if (!(len > 1e-3f * extent)) continue;
            const float radius = fminf(fmaxf(0.15f * len, 0.006f * extent), 0.02f * extent);
            parts[n++] = (sw__part){p, -1, -1, a, b, radius, radius, 0.0f, 0.0f};
        }
        if (n == 0)
            r = sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "a bone (two joints apart)", 0, -1);
    }
    /* Rings about every 5 cm of a figure of 1.75 m as tall as the extent. */
    if (r == SW_RESULT_OK)
        r = sw__build_mesh(skel, "bones", parts, n, extent / 1.75f, alloc, out, err);
    if (r == SW_RESULT_OK && bones_count) *bones_count = n;
    sw_free(alloc, models, bytes_models);
    sw_free(alloc, parts, bytes_parts);
    return r;
}
