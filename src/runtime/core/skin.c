/* CPU vertex skinning (linear blend, dual quaternion), the dual quaternion
 * palette and morph targets: validation, then the kernels of the SoA table. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Resolves the vertex range of a job: [*first, *end). */
static sw_result sw__vertex_range(const sw_mesh* mesh, uint32_t first, uint32_t count,
                                  uint32_t out_count, uint32_t* end, sw_error* err) {
    const uint32_t v = mesh->vertices_count;
    if (first >= v)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "first_vertex < vertices", 0, first);
    const uint64_t e = count ? (uint64_t)first + count : v;
    if (e > v)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "range within the mesh", 0, (int64_t)e);
    if (out_count < e)
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "out_count >= range end", 0, out_count);
    *end = (uint32_t)e;
    return SW_RESULT_OK;
}

/* The mesh, the range, the inputs and outputs and their overlaps; fills *a
 * but its palette checks. */
static sw_result sw__skin_check(const sw_skin_job* j, size_t palette_bytes, sw__skin_args* a) {
    sw_error* err = j->err;
    const void* palette = j->palette ? (const void*)j->palette : (const void*)j->dq_palette;
    if (!j->mesh || !j->out_positions)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh and out_positions set", 0, -1);
    if (!j->palette == !j->dq_palette)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "one of palette and dq_palette set", 0,
                        -1);
    const sw_mesh* m = j->mesh;
    if ((uint32_t)j->normals_mode > SW_SKIN_NORMALS_COFACTOR)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "known normals_mode", 0, j->normals_mode);
    if (j->palette_count < m->palette_count)
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "palette_count >= mesh palette", 0,
                        j->palette_count);
    const float* normals = j->normals ? j->normals : sw_mesh_normals(m);
    if (j->out_normals && !normals)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "out_normals needs normals", 0, -1);
    uint32_t end;
    sw_result r = sw__vertex_range(m, j->first_vertex, j->vertices_count, j->out_count, &end, err);
    if (r != SW_RESULT_OK) return r;
    const size_t all = (size_t)m->vertices_count * 3u * sizeof(float);
    const size_t lo = (size_t)j->first_vertex * 3u * sizeof(float);
    const size_t span = (size_t)end * 3u * sizeof(float) - lo;
    const char* op = (const char*)j->out_positions + lo;
    const char* on = j->out_normals ? (const char*)j->out_normals + lo : NULL;
    const void* in[4] = {m, palette, j->positions, j->normals};
    const size_t in_bytes[4] = {m->size, palette_bytes, j->positions ? all : 0,
                                j->normals ? all : 0};
    for (int i = 0; i < 4; ++i)
        if (sw__overlaps(op, span, in[i], in_bytes[i]) ||
            sw__overlaps(on, span, in[i], in_bytes[i]))
            return sw__fail(err, SW_RESULT_OVERLAP, "outputs apart from inputs", 0, i);
    if (sw__overlaps(op, span, on, span))
        return sw__fail(err, SW_RESULT_OVERLAP, "out_positions apart from out_normals", 0, -1);
    a->positions = j->positions ? j->positions : sw_mesh_positions(m);
    a->normals = j->out_normals ? normals : NULL;
    a->joints = sw_mesh_joints(m);
    a->weights = sw_mesh_weights(m);
    a->palette = palette;
    a->palette_count = m->palette_count;
    a->first = j->first_vertex;
    a->end = end;
    a->cofactor = j->normals_mode == SW_SKIN_NORMALS_COFACTOR;
    a->scaled = false;
    a->out_positions = j->out_positions;
    a->out_normals = j->out_normals;
    return SW_RESULT_OK;
}

static bool sw__finite_all(const float* v, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        if (!isfinite(v[i])) return false;
    return true;
}

/* Finite, with a bottom row 0 0 0 1 within 1e-4. */
static bool sw__affine(const sw_mat4* m) {
    const float* x = m->m;
    return sw__finite_all(x, 16) && fabsf(x[3]) <= 1e-4f && fabsf(x[7]) <= 1e-4f &&
           fabsf(x[11]) <= 1e-4f && fabsf(x[15] - 1.0f) <= 1e-4f;
}

/* Palette entries of a linear blend job: finite and affine. */
static sw_result sw__lbs_palette_check(const sw_skin_job* job, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        if (!sw__affine(&job->palette[i]))
            return sw__fail(job->err, SW_RESULT_BAD_DATA, "palette matrix finite and affine", 0, i);
    return SW_RESULT_OK;
}

/* Palette entries of a dual quaternion job: finite, unit real parts, zero
 * padding; *scaled when some scale is not exactly identity. */
static sw_result sw__dq_palette_check(const sw_skin_job* job, uint32_t n, bool* scaled) {
    if (!sw__aligned16(job->dq_palette))
        return sw__fail(job->err, SW_RESULT_MISALIGNED, "dq_palette 16-byte aligned", 0, -1);
    static const float id[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
    for (uint32_t i = 0; i < n; ++i) {
        const sw_dq_transform* x = &job->dq_palette[i];
        if (!sw__finite_all(x->real, 4) || !sw__finite_all(x->dual, 4) ||
            !sw__finite_all(x->scale, 12))
            return sw__fail(job->err, SW_RESULT_BAD_DATA, "palette entry finite", 0, i);
        const float len2 = x->real[0] * x->real[0] + x->real[1] * x->real[1] +
                           x->real[2] * x->real[2] + x->real[3] * x->real[3];
        if (!(fabsf(sqrtf(len2) - 1.0f) <= 1e-3f))
            return sw__fail(job->err, SW_RESULT_BAD_DATA, "palette real part of unit length", 0, i);
        if (x->scale[3] != 0.0f || x->scale[7] != 0.0f || x->scale[11] != 0.0f)
            return sw__fail(job->err, SW_RESULT_BAD_DATA, "palette scale padding 0", 0, i);
        *scaled = *scaled || memcmp(x->scale, id, sizeof id) != 0;
    }
    return SW_RESULT_OK;
}

static sw_result sw__skin_prepare(const sw_skin_job* job, sw__skin_args* a) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const size_t entry = job->palette ? sizeof(sw_mat4) : sizeof(sw_dq_transform);
    const sw_result r = sw__skin_check(job, (size_t)job->palette_count * entry, a);
    if (r != SW_RESULT_OK) return r;
    return job->palette ? sw__lbs_palette_check(job, a->palette_count)
                        : sw__dq_palette_check(job, a->palette_count, &a->scaled);
}

sw_result sw_skin_job_validate(const sw_skin_job* job) {
    sw__skin_args a;
    return sw__skin_prepare(job, &a);
}

sw_result sw__skin_job_run_with(const sw_skin_job* job, const sw__soa_ops* ops) {
    sw__skin_args a;
    const sw_result r = sw__skin_prepare(job, &a);
    if (r != SW_RESULT_OK) return r;
    (job->palette ? ops->skin_lbs : ops->skin_dq)(&a);
    return SW_RESULT_OK;
}

sw_result sw_skin_job_run(const sw_skin_job* job) {
    return sw__skin_job_run_with(job, sw__soa_best());
}

/* ---- dual quaternion palette ---------------------------------------------- */

/* 3x3 matrices in double, column-major: x[c][r]. */
typedef double sw__m3[3][3];

static void sw__cross_d(const double a[3], const double b[3], double c[3]) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double sw__dot_d(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* x becomes the rotation of its polar decomposition (det > 0, not
 * singular): Higham's scaled Newton iteration X <- (g X + X^-T / g) / 2,
 * g = sqrt(|X^-1| / |X|) (Frobenius norms), until X stops moving. */
static void sw__polar_rotation(sw__m3 x) {
    for (int it = 0; it < 64; ++it) {
        sw__m3 cof;
        sw__cross_d(x[1], x[2], cof[0]);
        sw__cross_d(x[2], x[0], cof[1]);
        sw__cross_d(x[0], x[1], cof[2]);
        const double det = sw__dot_d(x[0], cof[0]);
        double nx = 0.0, ni = 0.0;
        for (int c = 0; c < 3; ++c) {
            nx += sw__dot_d(x[c], x[c]);
            ni += sw__dot_d(cof[c], cof[c]);
        }
        ni /= det * det; /* |X^-T|^2 = |cof|^2 / det^2 */
        const double g = sqrt(sqrt(ni / nx));
        double moved = 0.0;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r) {
                const double y = 0.5 * (g * x[c][r] + cof[c][r] / (g * det));
                moved += (y - x[c][r]) * (y - x[c][r]);
                x[c][r] = y;
            }
        if (moved < 1e-26) break;
    }
}

/* Rotation matrix of the unit quaternion q, in double. */
static void sw__quat_rot3(sw_quat q, sw__m3 r) {
    const double x = q.x, y = q.y, z = q.z, w = q.w;
    r[0][0] = 1 - 2 * (y * y + z * z), r[0][1] = 2 * (x * y + w * z), r[0][2] = 2 * (x * z - w * y);
    r[1][0] = 2 * (x * y - w * z), r[1][1] = 1 - 2 * (x * x + z * z), r[1][2] = 2 * (y * z + w * x);
    r[2][0] = 2 * (x * z + w * y), r[2][1] = 2 * (y * z - w * x), r[2][2] = 1 - 2 * (x * x + y * y);
}

/* One entry: P = [R | t] * S (see sinew/core/skin.h). */
static void sw__dq_entry(const sw_mat4* p, sw_dq_transform* out) {
    sw__m3 a, x;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            a[c][r] = p->m[c * 4 + r];
    sw__m3 cof;
    sw__cross_d(a[1], a[2], cof[0]);
    const double det = sw__dot_d(a[0], cof[0]);
    const double size = sqrt(sw__dot_d(a[0], a[0]) * sw__dot_d(a[1], a[1]) * sw__dot_d(a[2], a[2]));
    sw_quat q = {0.0f, 0.0f, 0.0f, 1.0f};
    if (fabs(det) > 1e-12 * size) {
        /* det < 0 (a mirror): the rotation of A with column 0 negated; the
         * mirror stays in S. */
        memcpy(x, a, sizeof x);
        if (det < 0.0)
            for (int r = 0; r < 3; ++r)
                x[0][r] = -x[0][r];
        sw__polar_rotation(x);
        sw_mat4 rm = sw_mat4_identity();
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                rm.m[c * 4 + r] = (float)x[c][r];
        q = sw_quat_from_mat4(&rm);
        if (q.w < 0.0f) q = sw_quat_make(-q.x, -q.y, -q.z, -q.w);
    } /* singular: R = identity, S = A (exact for one influence, LBS-like blends) */
    /* S = R(q)^T A with the stored quaternion's own rotation, so that a single
     * influence gives back P up to rounding; snapped to identity within 1e-6. */
    sw__m3 rq;
    sw__quat_rot3(q, rq);
    double s[3][3], off = 0.0;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            s[c][r] = sw__dot_d(rq[r], a[c]);
            off = fmax(off, fabs(s[c][r] - (r == c ? 1.0 : 0.0)));
        }
    memset(out, 0, sizeof *out);
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r)
            out->scale[c * 4 + r] = off <= 1e-6 ? (r == c ? 1.0f : 0.0f) : (float)s[c][r];
    out->real[0] = q.x, out->real[1] = q.y, out->real[2] = q.z, out->real[3] = q.w;
    const double tx = p->m[12], ty = p->m[13], tz = p->m[14];
    out->dual[0] = (float)(0.5 * (tx * q.w + ty * q.z - tz * q.y));
    out->dual[1] = (float)(0.5 * (-tx * q.z + ty * q.w + tz * q.x));
    out->dual[2] = (float)(0.5 * (tx * q.y - ty * q.x + tz * q.w));
    out->dual[3] = (float)(-0.5 * (tx * q.x + ty * q.y + tz * q.z));
}

sw_result sw_dq_palette_job_validate(const sw_dq_palette_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_skinning_job pj = {job->model,        job->model_count, job->joints,
                                job->inverse_bind, job->count,       (sw_mat4*)(void*)job->out,
                                job->count};
    sw_result r = sw_skinning_job_validate(&pj);
    if (r != SW_RESULT_OK)
        return sw__fail(job->err, r, "palette inputs (as sw_skinning_job)", 0, -1);
    if (job->out_count < job->count)
        return sw__fail(job->err, SW_RESULT_BUFFER_TOO_SMALL, "out_count >= count", 0,
                        job->out_count);
    if (!sw__aligned16(job->out))
        return sw__fail(job->err, SW_RESULT_MISALIGNED, "out 16-byte aligned", 0, -1);
    const size_t out_bytes = (size_t)job->count * sizeof(sw_dq_transform);
    if (sw__overlaps(job->out, out_bytes, job->model, (size_t)job->model_count * sizeof(sw_mat4)) ||
        sw__overlaps(job->out, out_bytes, job->inverse_bind,
                     (size_t)job->count * sizeof(sw_mat4)) ||
        sw__overlaps(job->out, out_bytes, job->joints,
                     job->joints ? (size_t)job->count * sizeof(uint16_t) : 0))
        return sw__fail(job->err, SW_RESULT_OVERLAP, "out apart from the inputs", 0, -1);
    return SW_RESULT_OK;
}

sw_result sw_dq_palette_job_run(const sw_dq_palette_job* job) {
    const sw_result r = sw_dq_palette_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t i = 0; i < job->count; ++i) {
        const sw_mat4 p =
            sw_mat4_mul(&job->model[job->joints ? job->joints[i] : i], &job->inverse_bind[i]);
        if (!sw__affine(&p))
            return sw__fail(job->err, SW_RESULT_BAD_DATA, "model * inverse bind finite and affine",
                            0, i);
        sw__dq_entry(&p, &job->out[i]);
    }
    return SW_RESULT_OK;
}

/* ---- morph targets -------------------------------------------------------- */

static sw_result sw__morph_prepare(const sw_morph_job* job, uint32_t* end) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    sw_error* err = job->err;
    const sw_mesh* m = job->mesh;
    if (!m || !job->out_positions)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh and out_positions set", 0, -1);
    if (job->out_normals && !sw_mesh_normals(m))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "out_normals needs mesh normals", 0, -1);
    const uint32_t targets = m->morph_targets_count;
    if (targets && !job->weights)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "weights set for a mesh with targets", 0,
                        -1);
    if (job->weights_count < targets)
        return sw__fail(err, SW_RESULT_BUFFER_TOO_SMALL, "weights_count >= morph targets", 0,
                        job->weights_count);
    for (uint32_t k = 0; k < targets; ++k)
        if (!isfinite(job->weights[k]))
            return sw__fail(err, SW_RESULT_BAD_DATA, "morph weight finite", 0, k);
    sw_result r =
        sw__vertex_range(m, job->first_vertex, job->vertices_count, job->out_count, end, err);
    if (r != SW_RESULT_OK) return r;
    const size_t lo = (size_t)job->first_vertex * 3u * sizeof(float);
    const size_t span = (size_t)*end * 3u * sizeof(float) - lo;
    const char* op = (const char*)job->out_positions + lo;
    const char* on = job->out_normals ? (const char*)job->out_normals + lo : NULL;
    const size_t wb = job->weights ? (size_t)targets * sizeof(float) : 0;
    if (sw__overlaps(op, span, m, m->size) || sw__overlaps(on, span, m, m->size) ||
        sw__overlaps(op, span, job->weights, wb) || sw__overlaps(on, span, job->weights, wb) ||
        sw__overlaps(op, span, on, span))
        return sw__fail(err, SW_RESULT_OVERLAP, "outputs apart from inputs and each other", 0, -1);
    return SW_RESULT_OK;
}

sw_result sw_morph_job_validate(const sw_morph_job* job) {
    uint32_t end;
    return sw__morph_prepare(job, &end);
}

sw_result sw__morph_job_run_with(const sw_morph_job* job, const sw__soa_ops* ops) {
    uint32_t end;
    const sw_result r = sw__morph_prepare(job, &end);
    if (r != SW_RESULT_OK) return r;
    const sw_mesh* m = job->mesh;
    float w[SW_MESH_MAX_MORPH_TARGETS];
    uint32_t targets[SW_MESH_MAX_MORPH_TARGETS], count = 0;
    for (uint32_t k = 0; k < m->morph_targets_count; ++k)
        if (job->weights[k] != 0.0f) {
            w[count] = job->weights[k];
            targets[count++] = k;
        }
    const size_t first = (size_t)job->first_vertex * 3u, n = (size_t)end * 3u - first;
    const size_t stride = (size_t)m->vertices_count * 3u;
    const float* dp = sw_mesh_morph_positions(m);
    ops->morph(sw_mesh_positions(m) + first, dp ? dp + first : NULL, stride, w, targets,
               dp ? count : 0, job->out_positions + first, n);
    if (job->out_normals) {
        const float* dn = sw_mesh_morph_normals(m);
        ops->morph(sw_mesh_normals(m) + first, dn ? dn + first : NULL, stride, w, targets,
                   dn ? count : 0, job->out_normals + first, n);
    }
    return SW_RESULT_OK;
}

sw_result sw_morph_job_run(const sw_morph_job* job) {
    return sw__morph_job_run_with(job, sw__soa_best());
}

bool sw__morph_track_name(const sw_mesh* mesh, uint32_t k, bool prefix, char* buf, size_t cap) {
    const char* name = sw_mesh_name(mesh);
    const size_t len = strlen(name);
    size_t base = len;
    if (prefix) {
        while (base > 0 && name[base - 1] >= '0' && name[base - 1] <= '9')
            --base;
        if (!(base > 1 && base < len && name[base - 1] == '_')) return false;
        --base;
    }
    snprintf(buf, cap, "%.*s.weights[%u]", (int)base, name, k);
    return true;
}

uint32_t sw_morph_tracks(const sw_mesh* mesh, const sw_clip* clip, int32_t* tracks,
                         uint32_t count) {
    if (!mesh || !clip || !tracks) return 0;
    uint32_t found = 0;
    char buf[SW__MORPH_NAME_CAP];
    for (uint32_t k = 0; k < count; ++k) {
        tracks[k] = -1;
        if (k >= mesh->morph_targets_count) continue;
        for (int prefix = 0; prefix < 2 && tracks[k] < 0; ++prefix)
            if (sw__morph_track_name(mesh, k, prefix != 0, buf, sizeof buf))
                tracks[k] = sw_clip_find_float_track(clip, buf);
        found += tracks[k] >= 0;
    }
    return found;
}
