/* IK: model-space rotations written back to the local pose, shared checks,
 * limits and helpers used by every solver. */
#include <string.h>

#include "ik_internal.h"
#include "runtime/simd/simd4.h"

#define SW__IK_PI 3.14159265358979323846f

/* ---- shared checks ---- */

bool sw__ik_is_ancestor(const sw_skeleton* skel, uint32_t a, uint32_t b) {
    const int16_t* parents = sw_skeleton_parents(skel);
    if (a >= skel->joints_count || b >= skel->joints_count) return false;
    /* Parents come first, so the walk up from b ends within b steps. */
    for (int32_t j = parents[b]; j >= 0 && (uint32_t)j >= a; j = parents[j])
        if ((uint32_t)j == a) return true;
    return false;
}

sw_result sw__ik_check_chain(const sw_skeleton* skel, const sw_mat4* model, const uint32_t* joints,
                             uint32_t count, bool lengths) {
    for (uint32_t i = 0; i < count; ++i) {
        if (joints[i] >= skel->joints_count) return SW_RESULT_INVALID_ARGUMENT;
        if (i > 0 && !sw__ik_is_ancestor(skel, joints[i - 1], joints[i]))
            return SW_RESULT_INVALID_ARGUMENT;
    }
    return lengths ? sw__ik_check_lengths(model, joints, count) : SW_RESULT_OK;
}

sw_result sw__ik_check_lengths(const sw_mat4* model, const uint32_t* joints, uint32_t count) {
    /* x - x is 0 for finite x and NaN otherwise, so one sum checks every
     * coordinate; the squared lengths are then finite unless they overflow. */
    float zero = 0.0f;
    bool short_bone = false;
    sw_vec3 prev = sw__ik_pos(&model[joints[0]]);
    zero += (prev.x - prev.x) + (prev.y - prev.y) + (prev.z - prev.z);
    for (uint32_t i = 1; i < count; ++i) {
        const sw_vec3 p = sw__ik_pos(&model[joints[i]]);
        zero += (p.x - p.x) + (p.y - p.y) + (p.z - p.z);
        const sw_vec3 d = sw_vec3_sub(p, prev);
        const float len2 = sw_vec3_dot(d, d);
        short_bone |= !(len2 >= SW__IK_MIN_BONE * SW__IK_MIN_BONE) || !(len2 < INFINITY);
        prev = p;
    }
    return zero == 0.0f && !short_bone ? SW_RESULT_OK : SW_RESULT_BAD_DATA;
}

sw_result sw__ik_check_limits(const sw_ik_limit* limits, uint32_t count) {
    if (!limits) return SW_RESULT_OK;
    for (uint32_t i = 0; i < count; ++i) {
        const sw_ik_limit* l = &limits[i];
        if (!(l->max_step_angle >= 0.0f) || !sw__ik_finite(l->max_step_angle))
            return SW_RESULT_INVALID_ARGUMENT;
        switch (l->type) {
        case SW_IK_LIMIT_TYPE_NONE:
            break;
        case SW_IK_LIMIT_TYPE_HINGE:
            if (!sw__ik_finite3(l->axis) || !(sw_vec3_length(l->axis) > 0.0f))
                return SW_RESULT_INVALID_ARGUMENT;
            if (!(l->min_angle >= -SW__IK_PI) || !(l->max_angle <= SW__IK_PI) ||
                !(l->min_angle <= l->max_angle))
                return SW_RESULT_INVALID_ARGUMENT;
            break;
        case SW_IK_LIMIT_TYPE_CONE:
            if (!(l->cone_angle >= 0.0f) || !(l->cone_angle <= SW__IK_PI))
                return SW_RESULT_INVALID_ARGUMENT;
            break;
        default:
            return SW_RESULT_INVALID_ARGUMENT;
        }
    }
    return SW_RESULT_OK;
}

/* ---- rotations ---- */

sw_quat sw__ik_rot(const sw_mat4* model, uint32_t j) {
    return sw_quat_from_mat4(&model[j]);
}

sw_quat sw__ik_parent_rot(const sw_skeleton* skel, const sw_mat4* model,
                          const sw_mat4* root_transform, uint32_t j) {
    const int32_t parent = sw_skeleton_parents(skel)[j];
    if (parent >= 0) return sw_quat_from_mat4(&model[parent]);
    return root_transform ? sw_quat_from_mat4(root_transform) : sw_quat_identity();
}

sw_quat sw__ik_weighted(sw_quat t, float w) {
    const float len2 = sw_quat_dot(t, t);
    if (!(len2 > 0.0f) || !(len2 < INFINITY)) return sw_quat_identity();
    if (!(w < 1.0f)) return t;
    const float inv = 1.0f / sqrtf(len2);
    return sw_quat_slerp(sw_quat_identity(),
                         sw_quat_make(t.x * inv, t.y * inv, t.z * inv, t.w * inv), w);
}

sw_quat sw_ik_local_rotation(sw_quat parent_model, sw_quat local, sw_quat rotation, float weight) {
    if (!(weight > 0.0f)) return local;
    const sw_quat p = sw_quat_normalize(parent_model);
    const sw_quat t = sw__ik_weighted(rotation, weight);
    /* conj(P) * T * P is T expressed in the parent's space: the same w, the
     * axis turned by conj(P). */
    const sw_vec3 v = sw_quat_rotate(sw_quat_conjugate(p), sw_vec3_make(t.x, t.y, t.z));
    return sw__ik_turn_local(v, t.w, sw_vec3_dot(v, v) + t.w * t.w, local);
}

void sw__ik_write(sw_xform4* pose, uint32_t j, sw_quat parent, sw_quat t, float w) {
    if (!(w > 0.0f)) return;
    sw__ik_pose_set_rot(pose, j, sw_ik_local_rotation(parent, sw__ik_pose_rot(pose, j), t, w));
}

sw_vec3 sw__ik_perpendicular(sw_vec3 v) {
    const float ax = fabsf(v.x), ay = fabsf(v.y), az = fabsf(v.z);
    const sw_vec3 other = ax <= ay && ax <= az ? sw_vec3_make(1.0f, 0.0f, 0.0f)
                          : ay <= az           ? sw_vec3_make(0.0f, 1.0f, 0.0f)
                                               : sw_vec3_make(0.0f, 0.0f, 1.0f);
    const sw_vec3 p = sw_vec3_normalize(sw_vec3_cross(v, other));
    return sw_vec3_length(p) > 0.0f ? p : sw_vec3_make(1.0f, 0.0f, 0.0f);
}

float sw__ik_signed_angle(sw_vec3 from, sw_vec3 to, sw_vec3 axis) {
    const sw_vec3 f = sw_vec3_sub(from, sw_vec3_scale(axis, sw_vec3_dot(from, axis)));
    const sw_vec3 t = sw_vec3_sub(to, sw_vec3_scale(axis, sw_vec3_dot(to, axis)));
    return atan2f(sw_vec3_dot(sw_vec3_cross(f, t), axis), sw_vec3_dot(f, t));
}

sw_quat sw__ik_clamp_rotation(sw_quat q, float max_angle) {
    sw_vec3 axis;
    float angle;
    sw_quat_to_axis_angle(q, &axis, &angle);
    if (angle <= max_angle) return q;
    return sw_quat_from_axis_angle(axis, max_angle);
}

/* ---- rotate job ---- */

sw_result sw_ik_rotate_job_validate(const sw_ik_rotate_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    if (!job->skeleton || !job->model || !job->pose) return SW_RESULT_INVALID_ARGUMENT;
    if (job->skeleton->joints_count == 0 || job->joint >= job->skeleton->joints_count)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__ik_unit_weight(job->weight) || !sw__ik_finite4(job->rotation))
        return SW_RESULT_INVALID_ARGUMENT;
    return sw__ik_check_pose(job->skeleton, job->model, job->model_count, job->root_transform,
                             job->pose, job->pose_count);
}

sw_result sw_ik_rotate_job_run(const sw_ik_rotate_job* job) {
    const sw_result r = sw_ik_rotate_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    sw__ik_write_m(job->pose, job->joint,
                   sw__ik_parent_matrix(job->skeleton, job->model, job->root_transform, job->joint),
                   sw__ik_q4_of(job->rotation), sw_quat_dot(job->rotation, job->rotation), false,
                   job->weight);
    return SW_RESULT_OK;
}

/* ---- helpers ---- */

sw_vec3 sw_ik_forward_from_rest(const sw_skeleton* skeleton, uint32_t joint, uint32_t child) {
    const sw_vec3 zero = sw_vec3_make(0.0f, 0.0f, 0.0f);
    if (!skeleton || !sw__ik_is_ancestor(skeleton, joint, child)) return zero;
    const int16_t* parents = sw_skeleton_parents(skeleton);
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    /* The child's origin in the joint's space: its rest transforms composed
     * up to (not including) the joint, then the joint's own rotation and
     * scale (the translation part cancels in the joint's frame). */
    sw_vec3 p = zero;
    uint32_t j = child;
    while (j != joint) {
        p = sw_xform_point(sw_pose_get(rest, j), p);
        j = (uint32_t)parents[j];
    }
    const sw_xform jr = sw_pose_get(rest, joint);
    p = sw_vec3_mul(jr.s, p);
    const float len = sw_vec3_length(p);
    if (!(len > SW__IK_MIN_BONE) || !sw__ik_finite(len)) return zero;
    return sw_vec3_scale(p, 1.0f / len);
}

sw_result sw_ik_find_two_bone(const sw_skeleton* skeleton, const char* start, const char* mid,
                              const char* end, uint32_t out[3]) {
    if (!skeleton || !start || !mid || !end || !out) return SW_RESULT_INVALID_ARGUMENT;
    const int32_t s = sw_skeleton_find_joint(skeleton, start);
    const int32_t m = sw_skeleton_find_joint(skeleton, mid);
    const int32_t e = sw_skeleton_find_joint(skeleton, end);
    if (s < 0 || m < 0 || e < 0) return SW_RESULT_NOT_FOUND;
    if (!sw__ik_is_ancestor(skeleton, (uint32_t)s, (uint32_t)m) ||
        !sw__ik_is_ancestor(skeleton, (uint32_t)m, (uint32_t)e))
        return SW_RESULT_NOT_FOUND;
    out[0] = (uint32_t)s;
    out[1] = (uint32_t)m;
    out[2] = (uint32_t)e;
    return SW_RESULT_OK;
}

/* ---- chains and limits ---- */

void sw__ik_chain_init(sw__ik_chain* c, const sw_skeleton* skel, const sw_mat4* model,
                       const sw_mat4* root_transform, const uint32_t* joints, uint32_t n) {
    c->skel = skel;
    c->model = model;
    c->root_transform = root_transform;
    c->joints = joints;
    c->n = n;
    for (uint32_t i = 0; i < n; ++i) {
        c->p[i] = c->p0[i] = sw__ik_pos(&model[joints[i]]);
        c->parent0[i] = sw__ik_parent_rot(skel, model, root_transform, joints[i]);
        c->len[i] = i + 1 < n
                        ? sw_vec3_length(sw_vec3_sub(sw__ik_pos(&model[joints[i + 1]]), c->p[i]))
                        : 0.0f;
    }
    /* Joint 0's reference: from its skeleton parent to it, or (root, or a
     * joint on its parent) the first bone as it is in the input pose. */
    c->root_ref = sw_vec3_normalize(sw_vec3_sub(c->p[1], c->p[0]));
    const int32_t parent = sw_skeleton_parents(skel)[joints[0]];
    if (parent >= 0) {
        const sw_vec3 d = sw_vec3_sub(c->p[0], sw__ik_pos(&model[parent]));
        const float len = sw_vec3_length(d);
        if (len > SW__IK_MIN_BONE && sw__ik_finite(len)) c->root_ref = sw_vec3_scale(d, 1.0f / len);
    }
}

/* |a| wrapped to [0, pi]. */
static float sw__ik_circular(float a) {
    a = fmodf(fabsf(a), 2.0f * SW__IK_PI);
    return a > SW__IK_PI ? 2.0f * SW__IK_PI - a : a;
}

sw_vec3 sw__ik_constrain(sw_ik_limit_type type, float lo, float hi, float cone, sw_vec3 dir,
                         sw_vec3 ref, sw_vec3 axis) {
    if (type == SW_IK_LIMIT_TYPE_CONE) {
        if (sw_vec3_dot(ref, dir) >= cosf(cone)) return dir;
        sw_vec3 a = sw_vec3_cross(ref, dir);
        if (!(sw_vec3_length(a) > 1e-7f)) a = sw__ik_perpendicular(ref);
        return sw_vec3_normalize(sw_quat_rotate(sw_quat_from_axis_angle(a, cone), ref));
    }
    if (type != SW_IK_LIMIT_TYPE_HINGE) return dir;
    sw_vec3 rp = sw_vec3_sub(ref, sw_vec3_scale(axis, sw_vec3_dot(ref, axis)));
    if (!(sw_vec3_length(rp) > 1e-6f)) rp = sw__ik_perpendicular(axis);
    rp = sw_vec3_normalize(rp);
    const sw_vec3 dp = sw_vec3_sub(dir, sw_vec3_scale(axis, sw_vec3_dot(dir, axis)));
    float angle = 0.0f;
    if (sw_vec3_length(dp) > 1e-6f) angle = sw__ik_signed_angle(rp, dp, axis);
    if (angle < lo || angle > hi) {
        /* Outside: the nearer end of the range, around the circle. */
        angle = sw__ik_circular(angle - lo) <= sw__ik_circular(angle - hi) ? lo : hi;
    }
    return sw_vec3_normalize(sw_quat_rotate(sw_quat_from_axis_angle(axis, angle), rp));
}

sw_vec3 sw__ik_hinge_axis(const sw__ik_chain* c, uint32_t i, const sw_ik_limit* lim,
                          sw_quat delta_parent) {
    return sw_vec3_normalize(sw_quat_rotate(sw_quat_mul(delta_parent, c->parent0[i]), lim->axis));
}

sw_vec3 sw__ik_limit_dir(const sw__ik_chain* c, uint32_t i, const sw_ik_limit* lim,
                         sw_quat delta_parent, sw_vec3 dir) {
    if (!lim || lim->type == SW_IK_LIMIT_TYPE_NONE) return dir;
    sw_vec3 ref = c->root_ref;
    if (i > 0) {
        const sw_vec3 d = sw_vec3_sub(c->p[i], c->p[i - 1]);
        const float len = sw_vec3_length(d);
        if (len > 0.0f) ref = sw_vec3_scale(d, 1.0f / len);
    }
    /* The hinge axis turns with the joint's skeleton parent. */
    const sw_vec3 axis = lim->type == SW_IK_LIMIT_TYPE_HINGE
                             ? sw__ik_hinge_axis(c, i, lim, delta_parent)
                             : sw_vec3_make(0.0f, 0.0f, 0.0f);
    return sw__ik_constrain(lim->type, lim->min_angle, lim->max_angle, lim->cone_angle, dir, ref,
                            axis);
}

void sw__ik_chain_write(const sw__ik_chain* c, const sw_quat* delta, float w, sw_xform4* pose) {
    if (!(w > 0.0f)) return;
    /* Joint i's new model rotation is delta[i] * R; its parent's is
     * delta[i - 1] * P, so in the input frame it turns by
     * conj(delta[i - 1]) * delta[i]. */
    sw_quat prev = sw_quat_identity();
    for (uint32_t i = 0; i + 1 < c->n; ++i) {
        const sw_quat t = sw_quat_mul(sw_quat_conjugate(prev), delta[i]);
        sw__ik_write(pose, c->joints[i], c->parent0[i], t, w);
        prev = delta[i];
    }
}

void sw__ik_chain_begin(sw__ik_chain* c, const sw_skeleton* skel, const sw_mat4* model,
                        const sw_mat4* root_transform, const uint32_t* joints, uint32_t n,
                        uint32_t* iterations, float* tolerance) {
    sw__ik_chain_init(c, skel, model, root_transform, joints, n);
    if (*iterations == 0) *iterations = SW_IK_DEFAULT_ITERATIONS;
    if (!(*tolerance > 0.0f)) *tolerance = SW_IK_DEFAULT_TOLERANCE;
}

void sw__ik_chain_end(const sw__ik_chain* c, const sw_quat* delta, sw_vec3 target, float w,
                      sw_xform4* pose, float* distance) {
    if (distance) *distance = sw_vec3_length(sw_vec3_sub(c->p[c->n - 1], target));
    sw__ik_chain_write(c, delta, w, pose);
}
