/* Scalar SoA kernels: the reference path. Each kernel works one joint (one
 * lane of one packet) at a time with plain float math, in the order the
 * contracts in internal.h state them; the SIMD kernels (soa_simd.c) are
 * checked against these. */
#include <math.h>
#include <string.h>

#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"

/* One joint's transform as 10 floats: t, r (x, y, z, w), s. */
typedef struct sw__lane {
    float t[3], r[4], s[3];
} sw__lane;

static sw__lane sw__lane_get(const sw_xform4* p, uint32_t l) {
    sw__lane x = {{p->tx[l], p->ty[l], p->tz[l]},
                  {p->rx[l], p->ry[l], p->rz[l], p->rw[l]},
                  {p->sx[l], p->sy[l], p->sz[l]}};
    return x;
}

static void sw__lane_put(sw_xform4* p, uint32_t l, const sw__lane* x) {
    p->tx[l] = x->t[0];
    p->ty[l] = x->t[1];
    p->tz[l] = x->t[2];
    p->rx[l] = x->r[0];
    p->ry[l] = x->r[1];
    p->rz[l] = x->r[2];
    p->rw[l] = x->r[3];
    p->sx[l] = x->s[0];
    p->sy[l] = x->s[1];
    p->sz[l] = x->s[2];
}

static float sw__dot4(const float a[4], const float b[4]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}

/* Unit quaternion along q; identity when its length is 0 or not finite. */
static void sw__normalize(float q[4]) {
    float len2 = sw__dot4(q, q);
    if (len2 > 0.0f && len2 < INFINITY) {
        float inv = 1.0f / sqrtf(len2);
        for (int i = 0; i < 4; ++i)
            q[i] *= inv;
    } else {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
    }
}

/* Hamilton product a * b (x, y, z, w). */
static void sw__qmul(const float a[4], const float b[4], float out[4]) {
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/* Joint weight clamped to [0, 1], NaN as 0. */
static float sw__clamp01(float x) {
    return x >= 0.0f ? (x <= 1.0f ? x : 1.0f) : 0.0f;
}

static void sw__scalar_blend(const sw__blend_input* layers, uint32_t count, const sw_xform4* rest,
                             float threshold, sw_xform4* out, uint32_t n) {
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < 4u; ++l) {
            sw__lane acc = {{0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}};
            float wsum = 0.0f;
            for (uint32_t i = 0; i < count; ++i) {
                const sw__blend_input* in = &layers[i];
                float w = in->weight;
                if (in->joint_weights) w *= sw__clamp01(in->joint_weights[p * 4u + l]);
                sw__lane x = sw__lane_get(&in->pose[p], l);
                float wr = sw__dot4(acc.r, x.r) < 0.0f ? -w : w;
                for (int k = 0; k < 3; ++k)
                    acc.t[k] += w * x.t[k];
                for (int k = 0; k < 4; ++k)
                    acc.r[k] += wr * x.r[k];
                for (int k = 0; k < 3; ++k)
                    acc.s[k] += w * x.s[k];
                wsum += w;
            }
            sw__lane r = sw__lane_get(&rest[p], l);
            float fill = threshold - wsum > 0.0f ? threshold - wsum : 0.0f;
            float inv = 1.0f / (wsum > threshold ? wsum : threshold);
            for (int k = 0; k < 3; ++k)
                acc.t[k] = (acc.t[k] + fill * r.t[k]) * inv;
            for (int k = 0; k < 3; ++k)
                acc.s[k] = (acc.s[k] + fill * r.s[k]) * inv;
            float fr = sw__dot4(acc.r, r.r) < 0.0f ? -fill : fill;
            for (int k = 0; k < 4; ++k)
                acc.r[k] += fr * r.r[k];
            sw__normalize(acc.r);
            sw__lane_put(&out[p], l, &acc);
        }
    }
}

static void sw__scalar_additive_apply(const sw_xform4* base, const sw_xform4* delta, float weight,
                                      const float* joint_weights, bool clamp_joint_weights,
                                      sw_xform4* out, uint32_t n) {
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < 4u; ++l) {
            float w = weight;
            if (joint_weights) {
                float jw = joint_weights[p * 4u + l];
                w *= clamp_joint_weights ? sw__clamp01(jw) : jw;
            }
            sw__lane b = sw__lane_get(&base[p], l), d = sw__lane_get(&delta[p], l);
            for (int k = 0; k < 3; ++k)
                b.t[k] += w * d.t[k];
            /* w * dr + (1 - w) * identity, dr on the hemisphere w >= 0. */
            float wr = d.r[3] < 0.0f ? -w : w;
            float dq[4] = {wr * d.r[0], wr * d.r[1], wr * d.r[2], (1.0f - w) + wr * d.r[3]};
            float q[4];
            sw__qmul(b.r, dq, q);
            sw__normalize(q);
            for (int k = 0; k < 4; ++k)
                b.r[k] = q[k];
            for (int k = 0; k < 3; ++k)
                b.s[k] *= 1.0f + w * (d.s[k] - 1.0f);
            sw__lane_put(&out[p], l, &b);
        }
    }
}

static void sw__scalar_additive_make(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out,
                                     uint32_t n) {
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < 4u; ++l) {
            sw__lane a = sw__lane_get(&pose[p], l), r = sw__lane_get(&ref[p], l), d;
            for (int k = 0; k < 3; ++k)
                d.t[k] = a.t[k] - r.t[k];
            const float conj[4] = {-r.r[0], -r.r[1], -r.r[2], r.r[3]};
            sw__qmul(conj, a.r, d.r);
            for (int k = 0; k < 3; ++k)
                d.s[k] = r.s[k] != 0.0f ? a.s[k] / r.s[k] : 1.0f;
            sw__lane_put(&out[p], l, &d);
        }
    }
}

static void sw__scalar_interp(const sw_xform4* a, const sw_xform4* b, float u, sw_xform4* out,
                              uint32_t n) {
    for (uint32_t p = 0; p < n; ++p) {
        for (uint32_t l = 0; l < 4u; ++l) {
            sw__lane x = sw__lane_get(&a[p], l), y = sw__lane_get(&b[p], l);
            for (int k = 0; k < 3; ++k)
                x.t[k] += u * (y.t[k] - x.t[k]);
            for (int k = 0; k < 3; ++k)
                x.s[k] += u * (y.s[k] - x.s[k]);
            float sign = sw__dot4(x.r, y.r) < 0.0f ? -1.0f : 1.0f;
            for (int k = 0; k < 4; ++k)
                x.r[k] += u * (sign * y.r[k] - x.r[k]);
            sw__normalize(x.r);
            sw__lane_put(&out[p], l, &x);
        }
    }
}

/* Column-major matrix of t + r * (s * p). */
static sw_mat4 sw__trs_matrix(const sw__lane* x) {
    const float qx = x->r[0], qy = x->r[1], qz = x->r[2], qw = x->r[3];
    const float xx = qx * qx, yy = qy * qy, zz = qz * qz;
    const float xy = qx * qy, xz = qx * qz, yz = qy * qz;
    const float wx = qw * qx, wy = qw * qy, wz = qw * qz;
    const float sx = x->s[0], sy = x->s[1], sz = x->s[2];
    sw_mat4 m = {{
        (1.0f - 2.0f * (yy + zz)) * sx,
        (2.0f * (xy + wz)) * sx,
        (2.0f * (xz - wy)) * sx,
        0.0f,
        (2.0f * (xy - wz)) * sy,
        (1.0f - 2.0f * (xx + zz)) * sy,
        (2.0f * (yz + wx)) * sy,
        0.0f,
        (2.0f * (xz + wy)) * sz,
        (2.0f * (yz - wx)) * sz,
        (1.0f - 2.0f * (xx + yy)) * sz,
        0.0f,
        x->t[0],
        x->t[1],
        x->t[2],
        1.0f,
    }};
    return m;
}

/* out = a * b (column-major 4x4); out does not alias a or b. */
static void sw__mat4_mul(const sw_mat4* a, const sw_mat4* b, sw_mat4* out) {
    /* Local copies: stores to out need not reload a and b. */
    const sw_mat4 x = *a, y = *b;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            out->m[c * 4 + r] = x.m[r] * y.m[c * 4] + x.m[4 + r] * y.m[c * 4 + 1] +
                                x.m[8 + r] * y.m[c * 4 + 2] + x.m[12 + r] * y.m[c * 4 + 3];
}

static void sw__scalar_local_to_model(const sw_xform4* local, const sw_xform4* rest,
                                      const int16_t* parents, uint32_t joints_count, uint32_t first,
                                      const uint32_t* subset, const sw_mat4* root, sw_mat4* out) {
    for (uint32_t j = first; j < joints_count; ++j) {
        const bool in = !subset || (subset[j >> 5] & (1u << (j & 31u)));
        if (!in && !rest) continue;
        const sw__lane x = sw__lane_get(in ? &local[j >> 2] : &rest[j >> 2], j & 3u);
        const sw_mat4 m = sw__trs_matrix(&x);
        const int32_t parent = parents[j];
        if (parent >= 0)
            sw__mat4_mul(&out[parent], &m, &out[j]);
        else if (root)
            sw__mat4_mul(root, &m, &out[j]);
        else
            out[j] = m;
    }
}

static void sw__scalar_skinning(const sw_mat4* model, const uint16_t* joints,
                                const sw_mat4* inverse_bind, sw_mat4* out, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i)
        sw__mat4_mul(&model[joints ? joints[i] : i], &inverse_bind[i], &out[i]);
}

/* c = a x b. */
static void sw__cross3(const float a[3], const float b[3], float c[3]) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* out = A3 n (cofactor: cof(A3) n) with A3's columns a[0..2], normalized
 * (0 when its length is 0 or not finite). */
static void sw__skin_normal(const float a[3][3], const float n[3], bool cofactor, float out[3]) {
    float v[3];
    if (cofactor) {
        float c[3][3];
        sw__cross3(a[1], a[2], c[0]);
        sw__cross3(a[2], a[0], c[1]);
        sw__cross3(a[0], a[1], c[2]);
        for (int r = 0; r < 3; ++r)
            v[r] = c[0][r] * n[0] + c[1][r] * n[1] + c[2][r] * n[2];
    } else {
        for (int r = 0; r < 3; ++r)
            v[r] = a[0][r] * n[0] + a[1][r] * n[1] + a[2][r] * n[2];
    }
    const float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const float inv = len2 > 0.0f && len2 < INFINITY ? 1.0f / sqrtf(len2) : 0.0f;
    for (int r = 0; r < 3; ++r)
        out[r] = v[r] * inv;
}

static void sw__scalar_skin_lbs(const sw__skin_args* a) {
    const sw_mat4* pal = (const sw_mat4*)a->palette;
    for (uint32_t v = a->first; v < a->end; ++v) {
        float m[4][3] = {{0}}; /* columns 0..2 and the translation, rows 0..2 */
        for (uint32_t k = 0; k < 4u; ++k) {
            const float w = a->weights[4u * v + k];
            if (w == 0.0f) continue;
            const float* pm = pal[a->joints[4u * v + k]].m;
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 3; ++r)
                    m[c][r] += w * pm[c * 4 + r];
        }
        const float* p = &a->positions[3u * v];
        float* o = &a->out_positions[3u * v];
        for (int r = 0; r < 3; ++r)
            o[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
        if (a->normals)
            sw__skin_normal((const float(*)[3])m, &a->normals[3u * v], a->cofactor,
                            &a->out_normals[3u * v]);
    }
}

/* v rotated by the unit quaternion q: v + 2 w (q x v) + 2 q x (q x v). */
static void sw__rotate3(const float q[4], const float v[3], float out[3]) {
    float c[3], cc[3];
    sw__cross3(q, v, c);
    sw__cross3(q, c, cc);
    for (int r = 0; r < 3; ++r)
        out[r] = v[r] + 2.0f * (q[3] * c[r] + cc[r]);
}

/* The pivot slot of a vertex: the first with the largest weight. */
static uint32_t sw__dq_pivot(const float* w) {
    uint32_t p = 0;
    for (uint32_t k = 1; k < 4u; ++k)
        if (w[k] > w[p]) p = k;
    return p;
}

static void sw__scalar_skin_dq(const sw__skin_args* a) {
    const sw_dq_transform* pal = (const sw_dq_transform*)a->palette;
    for (uint32_t v = a->first; v < a->end; ++v) {
        const float* w = &a->weights[4u * v];
        const uint16_t* j = &a->joints[4u * v];
        const float* pivot = pal[j[sw__dq_pivot(w)]].real;
        float br[4] = {0, 0, 0, 0}, bd[4] = {0, 0, 0, 0};
        float s[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        if (a->scaled) memset(s, 0, sizeof s);
        for (uint32_t k = 0; k < 4u; ++k) {
            if (w[k] == 0.0f) continue;
            const sw_dq_transform* x = &pal[j[k]];
            const float ws = sw__dot4(x->real, pivot) < 0.0f ? -w[k] : w[k];
            for (int i = 0; i < 4; ++i) {
                br[i] += ws * x->real[i];
                bd[i] += ws * x->dual[i];
            }
            if (a->scaled)
                for (int c = 0; c < 3; ++c)
                    for (int r = 0; r < 3; ++r)
                        s[c][r] += w[k] * x->scale[c * 4 + r];
        }
        const float inv = 1.0f / sqrtf(sw__dot4(br, br));
        for (int i = 0; i < 4; ++i) {
            br[i] *= inv;
            bd[i] *= inv;
        }
        const float* p = &a->positions[3u * v];
        float ps[3], rp[3], t[3];
        for (int r = 0; r < 3; ++r)
            ps[r] = s[0][r] * p[0] + s[1][r] * p[1] + s[2][r] * p[2];
        sw__rotate3(br, ps, rp);
        sw__cross3(br, bd, t);
        float* o = &a->out_positions[3u * v];
        for (int r = 0; r < 3; ++r)
            o[r] = rp[r] + 2.0f * (br[3] * bd[r] - bd[3] * br[r] + t[r]);
        if (a->normals) {
            float ns[3];
            sw__skin_normal((const float(*)[3])s, &a->normals[3u * v], a->cofactor, ns);
            sw__rotate3(br, ns, &a->out_normals[3u * v]);
        }
    }
}

static void sw__scalar_morph(const float* base, const float* deltas, size_t stride, const float* w,
                             const uint32_t* targets, uint32_t count, float* out, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        float x = base[i];
        for (uint32_t t = 0; t < count; ++t)
            x += w[t] * deltas[targets[t] * stride + i];
        out[i] = x;
    }
}

const sw__soa_ops sw__soa_scalar = {
    "scalar",
    sw__scalar_blend,
    sw__scalar_additive_apply,
    sw__scalar_additive_make,
    sw__scalar_interp,
    sw__scalar_local_to_model,
    sw__scalar_skinning,
    sw__scalar_skin_lbs,
    sw__scalar_skin_dq,
    sw__scalar_morph,
    sw__codec_quantized_sample_kept, /* the baseline build, as on the sse2 path */
    sw__codec_quantized_sample_subset,
};
