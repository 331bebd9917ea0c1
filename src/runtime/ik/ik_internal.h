/* Internal helpers shared by the IK solvers (ik*.c) and their tests. */
#ifndef SINEW_RUNTIME_IK_INTERNAL_H
#define SINEW_RUNTIME_IK_INTERNAL_H

#include "runtime/core/internal.h"
#include "runtime/simd/simd4.h"
#include "sinew/ik/ik.h"

/* a * b with each component's four products summed in two pairs, (w, x)
 * and (y, z) of a (two dependent additions instead of three; the IK's
 * products on the solve's critical path use it, with SIMD and without). */
static inline sw_quat sw__ik_quat_mul(sw_quat a, sw_quat b) {
    return sw_quat_make((a.w * b.x + a.x * b.w) + (a.y * b.z - a.z * b.y),
                        (a.w * b.y - a.x * b.z) + (a.y * b.w + a.z * b.x),
                        (a.w * b.z + a.x * b.y) + (a.z * b.w - a.y * b.x),
                        (a.w * b.w - a.x * b.x) + (-(a.y * b.y) - a.z * b.z));
}

/* Vectors and quaternions in registers (the two-bone solve and the
 * write-back): with SIMD one sw__v4 each (x, y, z, w lanes; a vector's lane
 * 3 is unused), else sw_vec3 and sw_quat. Every operation makes the
 * products and sums of its sw_vec3_* or sw_quat_* counterpart in the same
 * order (lanes summed in lane order, a - b as a + -b), so both forms give
 * the same bits. */
#if SW__SIMD4_AVAILABLE
typedef sw__v4 sw__ik_v3;
typedef sw__v4 sw__ik_q4;
static inline sw__ik_v3 sw__ik_v3_of(sw_vec3 v) {
    return sw__v4_set(v.x, v.y, v.z, 0.0f);
}
static inline sw_vec3 sw__ik_v3_get(sw__ik_v3 v) {
    return sw_vec3_make(sw__v4_lane0(v), sw__v4_lane0(sw__v4_splat1(v)),
                        sw__v4_lane0(sw__v4_splat2(v)));
}
/* Translation column of a model matrix. */
static inline sw__ik_v3 sw__ik_v3_pos(const sw_mat4* m) {
    return sw__v4_loadu(m->m + 12);
}
static inline sw__ik_v3 sw__ik_v3_zero(void) {
    return sw__v4_zero();
}
static inline sw__ik_v3 sw__ik_v3_add(sw__ik_v3 a, sw__ik_v3 b) {
    return sw__v4_add(a, b);
}
static inline sw__ik_v3 sw__ik_v3_sub(sw__ik_v3 a, sw__ik_v3 b) {
    return sw__v4_sub(a, b);
}
static inline sw__ik_v3 sw__ik_v3_scale(sw__ik_v3 a, float s) {
    return sw__v4_mul(a, sw__v4_set1(s));
}
static inline sw__ik_v3 sw__ik_v3_cross(sw__ik_v3 a, sw__ik_v3 b) {
    return sw__v4_yzx(sw__v4_sub(sw__v4_mul(a, sw__v4_yzx(b)), sw__v4_mul(sw__v4_yzx(a), b)));
}
static inline float sw__ik_v3_dot(sw__ik_v3 a, sw__ik_v3 b) {
    const sw__v4 m = sw__v4_mul(a, b);
    return sw__v4_lane0(m) + sw__v4_lane0(sw__v4_splat1(m)) + sw__v4_lane0(sw__v4_splat2(m));
}
/* (v, w) */
static inline sw__ik_q4 sw__ik_q4_make(sw__ik_v3 v, float w) {
    return sw__v4_xyz_w(v, sw__v4_set1(w));
}
static inline sw__ik_q4 sw__ik_q4_of(sw_quat q) {
    return sw__v4_set(q.x, q.y, q.z, q.w);
}
static inline sw_quat sw__ik_q4_get(sw__ik_q4 q) {
    return sw_quat_make(sw__v4_lane0(q), sw__v4_lane0(sw__v4_splat1(q)),
                        sw__v4_lane0(sw__v4_splat2(q)), sw__v4_lane0(sw__v4_splat3(q)));
}
static inline sw__ik_v3 sw__ik_q4_xyz(sw__ik_q4 q) {
    return q;
}
static inline float sw__ik_q4_w(sw__ik_q4 q) {
    return sw__v4_lane0(sw__v4_splat3(q));
}
static inline float sw__ik_q4_dot(sw__ik_q4 a, sw__ik_q4 b) {
    const sw__v4 m = sw__v4_mul(a, b);
    return sw__v4_lane0(m) + sw__v4_lane0(sw__v4_splat1(m)) + sw__v4_lane0(sw__v4_splat2(m)) +
           sw__v4_lane0(sw__v4_splat3(m));
}
static inline sw__ik_q4 sw__ik_q4_scale(sw__ik_q4 q, float s) {
    return sw__v4_mul(q, sw__v4_set1(s));
}
static inline sw__ik_q4 sw__ik_q4_add(sw__ik_q4 a, sw__ik_q4 b) {
    return sw__v4_add(a, b);
}
static inline sw__ik_q4 sw__ik_q4_sub(sw__ik_q4 a, sw__ik_q4 b) {
    return sw__v4_sub(a, b);
}
/* a * b as sw__ik_quat_mul sums it: the four products in two pairs. */
static inline sw__ik_q4 sw__ik_q4_mul(sw__ik_q4 a, sw__ik_q4 b) {
    const sw__v4 r0 = sw__v4_mul(sw__v4_splat3(a), b);
    const sw__v4 r1 =
        sw__v4_mul(sw__v4_splat0(a), sw__v4_xor_sign(sw__v4_wzyx(b), sw__v4_set(1, -1, 1, -1)));
    const sw__v4 r2 =
        sw__v4_mul(sw__v4_splat1(a), sw__v4_xor_sign(sw__v4_zwxy(b), sw__v4_set(1, 1, -1, -1)));
    const sw__v4 r3 =
        sw__v4_mul(sw__v4_splat2(a), sw__v4_xor_sign(sw__v4_yxwz(b), sw__v4_set(-1, 1, 1, -1)));
    return sw__v4_add(sw__v4_add(r0, r1), sw__v4_add(r2, r3));
}
#else
typedef sw_vec3 sw__ik_v3;
typedef sw_quat sw__ik_q4;
static inline sw__ik_v3 sw__ik_v3_of(sw_vec3 v) {
    return v;
}
static inline sw_vec3 sw__ik_v3_get(sw__ik_v3 v) {
    return v;
}
static inline sw__ik_v3 sw__ik_v3_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}
static inline sw__ik_v3 sw__ik_v3_zero(void) {
    return sw_vec3_make(0.0f, 0.0f, 0.0f);
}
static inline sw__ik_v3 sw__ik_v3_add(sw__ik_v3 a, sw__ik_v3 b) {
    return sw_vec3_add(a, b);
}
static inline sw__ik_v3 sw__ik_v3_sub(sw__ik_v3 a, sw__ik_v3 b) {
    return sw_vec3_sub(a, b);
}
static inline sw__ik_v3 sw__ik_v3_scale(sw__ik_v3 a, float s) {
    return sw_vec3_scale(a, s);
}
static inline sw__ik_v3 sw__ik_v3_cross(sw__ik_v3 a, sw__ik_v3 b) {
    return sw_vec3_cross(a, b);
}
static inline float sw__ik_v3_dot(sw__ik_v3 a, sw__ik_v3 b) {
    return sw_vec3_dot(a, b);
}
static inline sw__ik_q4 sw__ik_q4_make(sw__ik_v3 v, float w) {
    return sw_quat_make(v.x, v.y, v.z, w);
}
static inline sw__ik_q4 sw__ik_q4_of(sw_quat q) {
    return q;
}
static inline sw_quat sw__ik_q4_get(sw__ik_q4 q) {
    return q;
}
static inline sw__ik_v3 sw__ik_q4_xyz(sw__ik_q4 q) {
    return sw_vec3_make(q.x, q.y, q.z);
}
static inline float sw__ik_q4_w(sw__ik_q4 q) {
    return q.w;
}
static inline float sw__ik_q4_dot(sw__ik_q4 a, sw__ik_q4 b) {
    return sw_quat_dot(a, b);
}
static inline sw__ik_q4 sw__ik_q4_scale(sw__ik_q4 q, float s) {
    return sw_quat_make(q.x * s, q.y * s, q.z * s, q.w * s);
}
static inline sw__ik_q4 sw__ik_q4_add(sw__ik_q4 a, sw__ik_q4 b) {
    return sw_quat_make(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
static inline sw__ik_q4 sw__ik_q4_sub(sw__ik_q4 a, sw__ik_q4 b) {
    return sw_quat_make(a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w);
}
static inline sw__ik_q4 sw__ik_q4_mul(sw__ik_q4 a, sw__ik_q4 b) {
    return sw__ik_quat_mul(a, b);
}
#endif

/* Shortest length treated as a bone (model units). */
#define SW__IK_MIN_BONE 1e-6f

static inline bool sw__ik_finite(float x) {
    return x - x == 0.0f; /* false for NaN and infinities */
}
static inline bool sw__ik_finite3(sw_vec3 v) {
    return sw__ik_finite(v.x) && sw__ik_finite(v.y) && sw__ik_finite(v.z);
}
static inline bool sw__ik_finite4(sw_quat q) {
    return sw__ik_finite(q.x) && sw__ik_finite(q.y) && sw__ik_finite(q.z) && sw__ik_finite(q.w);
}
/* A weight: finite and within [0, 1]. */
static inline bool sw__ik_unit_weight(float w) {
    return w >= 0.0f && w <= 1.0f;
}
/* Translation column of a model matrix. */
static inline sw_vec3 sw__ik_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* Checks shared by every IK job: skeleton, model matrices and the in/out
 * pose (sizes, alignment, overlaps). */
static inline sw_result sw__ik_check_pose(const sw_skeleton* skel, const sw_mat4* model,
                                          uint32_t model_count, const sw_mat4* root_transform,
                                          const sw_xform4* pose, uint32_t pose_count) {
    if (!skel || !model || !pose) return SW_RESULT_INVALID_ARGUMENT;
    if (skel->joints_count == 0 || skel->joints_count > SW_SKELETON_MAX_JOINTS)
        return SW_RESULT_INVALID_ARGUMENT;
    if (model_count < skel->joints_count || pose_count < skel->packets_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(pose)) return SW_RESULT_MISALIGNED;
    const size_t pose_bytes = (size_t)skel->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(pose, pose_bytes, model, (size_t)skel->joints_count * sizeof(sw_mat4)) ||
        sw__overlaps(pose, pose_bytes, skel, skel->size) ||
        sw__overlaps(pose, pose_bytes, root_transform, root_transform ? sizeof(sw_mat4) : 0))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}
/* OVERLAP when [p, p + n) overlaps the pose, the model matrices, the
 * skeleton or root_transform. */
static inline bool sw__ik_overlaps_inputs(const void* p, size_t n, const sw_skeleton* skel,
                                          const sw_mat4* model, const sw_mat4* root_transform,
                                          const sw_xform4* pose) {
    return sw__overlaps(p, n, pose, (size_t)skel->packets_count * sizeof(sw_xform4)) ||
           sw__overlaps(p, n, model, (size_t)skel->joints_count * sizeof(sw_mat4)) ||
           sw__overlaps(p, n, skel, skel->size) ||
           sw__overlaps(p, n, root_transform, root_transform ? sizeof(sw_mat4) : 0);
}
/* True when a is a proper ancestor of b. */
bool sw__ik_is_ancestor(const sw_skeleton* skel, uint32_t a, uint32_t b);
/* Checks a chain of joint indices: in range and each a proper ancestor of
 * the next (INVALID_ARGUMENT); with `lengths`, consecutive joints at least
 * SW__IK_MIN_BONE apart with finite positions (BAD_DATA). */
sw_result sw__ik_check_chain(const sw_skeleton* skel, const sw_mat4* model, const uint32_t* joints,
                             uint32_t count, bool lengths);
/* BAD_DATA unless the positions of joints[0..count) are finite and
 * consecutive ones at least SW__IK_MIN_BONE apart (count >= 1). */
sw_result sw__ik_check_lengths(const sw_mat4* model, const uint32_t* joints, uint32_t count);
/* The checks of the FABRIK and CCD jobs but the pole. */
sw_result sw__ik_chain_job_validate(const sw_skeleton* skel, const sw_mat4* model,
                                    uint32_t model_count, const sw_mat4* root_transform,
                                    const uint32_t* joints, uint32_t joints_count,
                                    const sw_ik_limit* limits, sw_vec3 target, float weight,
                                    float tolerance, sw_xform4* pose, uint32_t pose_count,
                                    const float* distance);
/* Checks limits[0..count) (INVALID_ARGUMENT). */
sw_result sw__ik_check_limits(const sw_ik_limit* limits, uint32_t count);

/* Model-space rotation of joint j (matrix columns normalized). */
sw_quat sw__ik_rot(const sw_mat4* model, uint32_t j);
/* Model-space rotation of the parent of joint j (root_transform or identity
 * for a root). */
sw_quat sw__ik_parent_rot(const sw_skeleton* skel, const sw_mat4* model,
                          const sw_mat4* root_transform, uint32_t j);
/* Model matrix of the parent of joint j: root_transform (may be NULL,
 * identity) for a root. */
static inline const sw_mat4* sw__ik_parent_matrix(const sw_skeleton* skel, const sw_mat4* model,
                                                  const sw_mat4* root_transform, uint32_t j) {
    const int32_t parent = sw_skeleton_parents(skel)[j];
    return parent >= 0 ? &model[parent] : root_transform;
}
/* Cache hints (no effect on any result; nothing where the compiler has no
 * prefetch): the three columns of model matrix m (may be NULL), and joint
 * j's local rotation in the pose. */
static inline void sw__ik_prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}
static inline void sw__ik_prefetch_m(const sw_mat4* m) {
    if (!m) return;
    sw__ik_prefetch(m->m);
    sw__ik_prefetch(m->m + 11);
}
static inline void sw__ik_prefetch_rot(const sw_xform4* pose, uint32_t j) {
    sw__ik_prefetch(&pose[j >> 2].rx[j & 3u]);
    sw__ik_prefetch(&pose[j >> 2].rw[j & 3u]);
}
/* Writes joint j's local rotation turned by model-space T at weight w, with
 * P the parent's model rotation; w <= 0 writes nothing. */
void sw__ik_write(sw_xform4* pose, uint32_t j, sw_quat parent, sw_quat t, float w);
/* T at weight w: T itself (any positive length) for w >= 1, else the unit
 * rotation slerped from identity; zero (or a non-finite length) is identity. */
sw_quat sw__ik_weighted(sw_quat t, float w);
/* normalize(T' * local) for T' = (v, t.w) with t2 = |T'|^2: the rotation
 * part of conj(P) * T * P * local once v = R(P)^T t.xyz. Any positive scale
 * of T or local goes with the normalization: the product times 1 / (|T'|
 * |local|) (a square root and a division that run beside the product
 * rather than after it, since t2 can be known before T' is; |T' * local| =
 * |T'| |local|, so the product cannot overflow where that factor is
 * finite). A zero local rotation counts as identity. */
static inline sw_quat sw__ik_turn_local(sw_vec3 v, float tw, float t2, sw_quat local) {
    const float len2 = t2 * sw_quat_dot(local, local);
    if (!(len2 > 0.0f) || !(len2 < INFINITY))
        return sw_quat_normalize(sw_quat_make(v.x, v.y, v.z, tw));
    const float inv = 1.0f / sqrtf(len2);
    const sw_quat q = sw__ik_quat_mul(sw_quat_make(v.x, v.y, v.z, tw), local);
    return sw_quat_make(q.x * inv, q.y * inv, q.z * inv, q.w * inv);
}

static inline sw_quat sw__ik_pose_rot(const sw_xform4* pose, uint32_t j) {
    const sw_xform4* p = &pose[j >> 2];
    const uint32_t lane = j & 3u;
    return sw_quat_make(p->rx[lane], p->ry[lane], p->rz[lane], p->rw[lane]);
}

static inline void sw__ik_pose_set_rot(sw_xform4* pose, uint32_t j, sw_quat r) {
    sw_xform4* p = &pose[j >> 2];
    const uint32_t lane = j & 3u;
    p->rx[lane] = r.x;
    p->ry[lane] = r.y;
    p->rz[lane] = r.z;
    p->rw[lane] = r.w;
}

/* The write-back's test for a parent matrix whose columns are orthogonal:
 * each pair's cosine squared at most this, g^2 <= SW__IK_ORTHO2 l2_i l2_k
 * (g the pair's dot product, l2 the squared column lengths, each summed x,
 * y, z; the pairs 0.1, 1.2, 2.0 in a lane each with SIMD). Within 2^-20
 * the columns normalized keep lengths to about 1e-6, so |T'| = |T| within
 * rounding: a model matrix of rotations and scales along its own axes (what
 * local-to-model makes without shear) passes; RobotExpressive's arm
 * parents are within 5e-7. */
#define SW__IK_ORTHO2 0x1p-40f
#if SW__SIMD4_AVAILABLE
/* The turn T' = (R(P)^T t.xyz, t.w) for the parent's matrix m (NULL:
 * identity) applied to joint j's local rotation, t2 = |T|^2 (> 0 and
 * finite): sw__ik_turn_local. With `early` (t2 known before T is, as the
 * two-bone start turn's) |T'|^2 = t2 where the parent's columns are
 * orthogonal, so that the normalization need not wait for T'; else, or for
 * other parents, |T'|^2 is measured (exact to rounding). The three
 * columns go as lanes of one transposed 4x4, and T', the local rotation
 * and their product as the lanes of one register each (the same products
 * and sums in the same order, a - b as a + -b, and sqrt and division
 * correctly rounded: the same bits as the scalar form, kept where there is
 * no SIMD). */
static inline void sw__ik_turn_m(sw_xform4* pose, uint32_t j, const sw_mat4* parent, sw__ik_q4 tq,
                                 float t2, bool early) {
    sw__v4 vt = tq;
    float vt2 = t2;
    if (parent) {
        const float* m = parent->m;
        sw__v4 c0 = sw__v4_loadu(m), c1 = sw__v4_loadu(m + 4), c2 = sw__v4_loadu(m + 8);
        sw__v4 c3 = sw__v4_zero();
        SW__V4_TRANSPOSE(c0, c1, c2, c3); /* lane i: column i's x, y, z */
        const sw__v4 l2 =
            sw__v4_add(sw__v4_add(sw__v4_mul(c0, c0), sw__v4_mul(c1, c1)), sw__v4_mul(c2, c2));
        const sw__v4 g =
            sw__v4_add(sw__v4_add(sw__v4_mul(c0, sw__v4_yzx(c0)), sw__v4_mul(c1, sw__v4_yzx(c1))),
                       sw__v4_mul(c2, sw__v4_yzx(c2)));
        /* Lane 3: 0 <= 0. A NaN fails. */
        const bool ortho =
            early && sw__m4_bits(sw__v4_cmple(sw__v4_mul(g, g),
                                              sw__v4_mul(sw__v4_set1(SW__IK_ORTHO2),
                                                         sw__v4_mul(l2, sw__v4_yzx(l2))))) == 15;
        /* The columns' inverse lengths do not wait for T. */
        const sw__v4 inv = sw__v4_div(sw__v4_set1(1.0f), sw__v4_sqrt(l2));
        const sw__v4 dot = sw__v4_add(
            sw__v4_add(sw__v4_mul(c0, sw__v4_splat0(tq)), sw__v4_mul(c1, sw__v4_splat1(tq))),
            sw__v4_mul(c2, sw__v4_splat2(tq)));
        /* Lane 3 (0 * (1 / 0)) takes t.w. */
        vt = sw__v4_xyz_w(sw__v4_mul(dot, inv), tq);
        if (!ortho) vt2 = sw__ik_q4_dot(vt, vt);
    }
    const sw__v4 local = sw__ik_q4_of(sw__ik_pose_rot(pose, j));
    const float len2 = vt2 * sw__ik_q4_dot(local, local);
    const sw_quat r =
        !(len2 > 0.0f) || !(len2 < INFINITY)
            ? sw_quat_normalize(sw__ik_q4_get(vt))
            : sw__ik_q4_get(sw__v4_mul(sw__ik_q4_mul(vt, local), sw__v4_set1(1.0f / sqrtf(len2))));
    sw__ik_pose_set_rot(pose, j, r);
}
#else
static inline void sw__ik_turn_m(sw_xform4* pose, uint32_t j, const sw_mat4* parent, sw_quat t,
                                 float t2, bool early) {
    sw_vec3 v = sw_vec3_make(t.x, t.y, t.z);
    float v2 = t2;
    if (parent) {
        const float* m = parent->m;
        const float l0 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
        const float l1 = m[4] * m[4] + m[5] * m[5] + m[6] * m[6];
        const float l2 = m[8] * m[8] + m[9] * m[9] + m[10] * m[10];
        const float g0 = m[0] * m[4] + m[1] * m[5] + m[2] * m[6];
        const float g1 = m[4] * m[8] + m[5] * m[9] + m[6] * m[10];
        const float g2 = m[8] * m[0] + m[9] * m[1] + m[10] * m[2];
        const bool ortho = early && g0 * g0 <= SW__IK_ORTHO2 * (l0 * l1) &&
                           g1 * g1 <= SW__IK_ORTHO2 * (l1 * l2) &&
                           g2 * g2 <= SW__IK_ORTHO2 * (l2 * l0);
        v = sw_vec3_make((m[0] * t.x + m[1] * t.y + m[2] * t.z) * (1.0f / sqrtf(l0)),
                         (m[4] * t.x + m[5] * t.y + m[6] * t.z) * (1.0f / sqrtf(l1)),
                         (m[8] * t.x + m[9] * t.y + m[10] * t.z) * (1.0f / sqrtf(l2)));
        if (!ortho) v2 = sw_vec3_dot(v, v) + t.w * t.w;
    }
    sw__ik_pose_set_rot(pose, j, sw__ik_turn_local(v, t.w, v2, sw__ik_pose_rot(pose, j)));
}
#endif

/* sw__ik_write with P the rotation of the parent's model matrix (its
 * columns normalized; NULL = identity), without building a quaternion for
 * it: exact when the columns are orthogonal (uniform scale). t2 = |t|^2 as
 * the caller has it (the product of the lengths it built t from, or a dot
 * product: within a few roundings), with `early` when that is before t
 * (sw__ik_turn_m). */
static inline void sw__ik_write_m(sw_xform4* pose, uint32_t j, const sw_mat4* parent, sw__ik_q4 t,
                                  float t2, bool early, float w) {
    if (!(w > 0.0f)) return;
    /* The common case, weight 1 and a finite non-zero T, needs no change. */
    if (w < 1.0f || !(t2 > 0.0f) || !(t2 < INFINITY)) {
        t = sw__ik_q4_of(sw__ik_weighted(sw__ik_q4_get(t), w));
        t2 = sw__ik_q4_dot(t, t);
    }
    sw__ik_turn_m(pose, j, parent, t, t2, early);
}

/* Unit vector perpendicular to v (any v, zero gives +X). */
sw_vec3 sw__ik_perpendicular(sw_vec3 v);
/* Signed angle turning `from` into `to` about unit `axis` (both projected on
 * the plane perpendicular to it). */
float sw__ik_signed_angle(sw_vec3 from, sw_vec3 to, sw_vec3 axis);
/* The rotation from identity towards q, clamped to at most `max_angle`. */
sw_quat sw__ik_clamp_rotation(sw_quat q, float max_angle);

/* Limits: the solved chain (positions p[0..n), model rotation deltas
 * delta[0..n) of the chain joints) and what the limit needs. */
typedef struct sw__ik_chain {
    const sw_skeleton* skel;
    const sw_mat4* model;
    const sw_mat4* root_transform;
    const uint32_t* joints;
    uint32_t n;
    sw_vec3 p[SW_IK_MAX_CHAIN];       /* current positions */
    sw_vec3 p0[SW_IK_MAX_CHAIN];      /* input positions */
    float len[SW_IK_MAX_CHAIN];       /* bone lengths (n - 1) */
    sw_quat parent0[SW_IK_MAX_CHAIN]; /* input model rotation of each joint's skeleton parent */
    sw_vec3 root_ref;                 /* reference direction of joint 0 */
} sw__ik_chain;

/* Fills positions, lengths, parent rotations and the root reference. */
void sw__ik_chain_init(sw__ik_chain* c, const sw_skeleton* skel, const sw_mat4* model,
                       const sw_mat4* root_transform, const uint32_t* joints, uint32_t n);
/* Direction `dir` of bone i (unit) constrained by `lim`, where delta_parent is
 * the model rotation delta of chain joint i - 1 (identity for i = 0) and the
 * reference direction comes from the current positions. */
sw_vec3 sw__ik_limit_dir(const sw__ik_chain* c, uint32_t i, const sw_ik_limit* lim,
                         sw_quat delta_parent, sw_vec3 dir);
/* Direction `dir` (unit) constrained against reference `ref` (unit): a cone
 * of half-angle `cone`, or for a hinge about unit `axis` the plane
 * perpendicular to it at a signed angle from ref within [lo, hi] (outside,
 * the nearer end around the circle). NONE returns dir. */
sw_vec3 sw__ik_constrain(sw_ik_limit_type type, float lo, float hi, float cone, sw_vec3 dir,
                         sw_vec3 ref, sw_vec3 axis);
/* Model-space hinge axis of chain joint i given its parent's delta. */
sw_vec3 sw__ik_hinge_axis(const sw__ik_chain* c, uint32_t i, const sw_ik_limit* lim,
                          sw_quat delta_parent);
/* Writes the chain's rotations from model rotation deltas of its joints
 * (delta[i] for i < n - 1) at weight w. */
void sw__ik_chain_write(const sw__ik_chain* c, const sw_quat* delta, float w, sw_xform4* pose);
/* The common start of a FABRIK or CCD run: sw__ik_chain_init, then the
 * job's iteration count and tolerance with their defaults where 0. */
void sw__ik_chain_begin(sw__ik_chain* c, const sw_skeleton* skel, const sw_mat4* model,
                        const sw_mat4* root_transform, const uint32_t* joints, uint32_t n,
                        uint32_t* iterations, float* tolerance);
/* The common end: the tip's distance to target into *distance (when not
 * NULL), then sw__ik_chain_write. */
void sw__ik_chain_end(const sw__ik_chain* c, const sw_quat* delta, sw_vec3 target, float w,
                      sw_xform4* pose, float* distance);

#endif
