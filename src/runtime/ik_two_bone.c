/* Two-bone IK: law of cosines, pole, softness, twist, end orientation. */
#include "ik_internal.h"

sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    sw_result r = sw__ik_check_pose(job->skeleton, job->model, job->model_count,
                                    job->root_transform, job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    if (!sw__ik_finite3(job->target) || !sw__ik_finite3(job->pole) || !sw__ik_finite(job->twist) ||
        !sw__ik_finite4(job->end_rotation))
        return SW_RESULT_INVALID_ARGUMENT;
    switch (job->pole_mode) {
    case SW_IK_POLE_MODE_NONE:
    case SW_IK_POLE_MODE_TARGET:
        break;
    case SW_IK_POLE_MODE_DIRECTION:
        if (!(sw_vec3_length(job->pole) > 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
        break;
    default:
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (!sw__ik_unit_weight(job->weight) || !sw__ik_unit_weight(job->end_rotation_weight))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->softness >= 0.0f) || !(job->softness < 1.0f)) return SW_RESULT_INVALID_ARGUMENT;
    if (job->end_rotation_weight > 0.0f &&
        !(sw_quat_dot(job->end_rotation, job->end_rotation) > 0.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    const uint32_t chain[3] = {job->start_joint, job->mid_joint, job->end_joint};
    r = sw__ik_check_chain(job->skeleton, job->model, chain, 3, false);
    if (r != SW_RESULT_OK) return r;
    if (job->reached && sw__ik_overlaps_inputs(job->reached, sizeof(bool), job->skeleton,
                                               job->model, job->root_transform, job->pose))
        return SW_RESULT_OVERLAP;
    return sw__ik_check_chain(job->skeleton, job->model, chain, 3, true);
}

/* Distance the limb reaches for a target at distance d, with full reach L,
 * shortest reach lmin and softness s in [0, 1). */
static float sw__two_bone_reach(float d, float lmin, float L, float s) {
    if (s > 0.0f) {
        const float soft_start = L * (1.0f - s);
        if (d > soft_start) {
            const float width = L * s;
            d = soft_start + width * (1.0f - expf(-(d - soft_start) / width));
        }
    }
    if (d > L) d = L;
    if (d < lmin) d = lmin;
    return d;
}

static float sw__clamp_unit(float x) {
    return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x);
}

sw_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job) {
    const sw_result res = sw_ik_two_bone_job_validate(job);
    if (res != SW_RESULT_OK) return res;
    const sw_mat4* model = job->model;
    const sw_vec3 a = sw__ik_pos(&model[job->start_joint]);
    const sw_vec3 b = sw__ik_pos(&model[job->mid_joint]);
    const sw_vec3 c = sw__ik_pos(&model[job->end_joint]);
    const sw_vec3 ab = sw_vec3_sub(b, a), bc = sw_vec3_sub(c, b), ac = sw_vec3_sub(c, a);
    const float lab = sw_vec3_length(ab), lbc = sw_vec3_length(bc);
    const float reach = lab + lbc;

    /* Direction to the target; on the start joint, the limb's own. */
    const sw_vec3 at = sw_vec3_sub(job->target, a);
    const float dist = sw_vec3_length(at);
    sw_vec3 u;
    if (dist > 1e-6f * reach) {
        u = sw_vec3_scale(at, 1.0f / dist);
    } else if (sw_vec3_length(ac) > 1e-6f * reach) {
        u = sw_vec3_normalize(ac);
    } else {
        u = sw_vec3_normalize(ab);
    }
    const float d = sw__two_bone_reach(dist, fabsf(lab - lbc), reach, job->softness);

    /* Pole: its part perpendicular to the start-target axis. */
    sw_vec3 pole_perp = sw_vec3_make(0.0f, 0.0f, 0.0f);
    bool has_pole = false;
    if (job->pole_mode != SW_IK_POLE_MODE_NONE) {
        const sw_vec3 pd =
            job->pole_mode == SW_IK_POLE_MODE_TARGET ? sw_vec3_sub(job->pole, a) : job->pole;
        pole_perp = sw_vec3_sub(pd, sw_vec3_scale(u, sw_vec3_dot(pd, u)));
        has_pole = sw_vec3_length(pole_perp) > 1e-4f * sw_vec3_length(pd);
    }

    /* 1. Mid joint about its hinge: the current bend-plane normal. A limb
     * within 1e-4 rad of straight has none worth trusting (its direction
     * would be rounding noise): take the plane of the limb and the pole, or
     * any. */
    sw_vec3 n = sw_vec3_cross(ab, bc);
    if (!(sw_vec3_length(n) > 1e-4f * lab * lbc)) {
        const sw_vec3 limb = sw_vec3_normalize(ab);
        const sw_vec3 pp =
            has_pole ? sw_vec3_sub(pole_perp, sw_vec3_scale(limb, sw_vec3_dot(pole_perp, limb)))
                     : sw_vec3_make(0.0f, 0.0f, 0.0f);
        /* The mid joint lies on the side m with n = m x limb (see step 3). */
        n = sw_vec3_length(pp) > 1e-6f ? sw_vec3_cross(pp, limb) : sw__ik_perpendicular(limb);
    }
    n = sw_vec3_normalize(n);
    const float bend0 = atan2f(sw_vec3_length(sw_vec3_cross(ab, bc)), sw_vec3_dot(ab, bc));
    /* Bend = pi - interior angle; interior angle from the law of cosines. */
    const float cos_interior = sw__clamp_unit((lab * lab + lbc * lbc - d * d) / (2.0f * lab * lbc));
    const float bend1 = 3.14159265358979f - acosf(cos_interior);
    const sw_quat t_mid = sw_quat_from_axis_angle(n, bend1 - bend0);
    const sw_vec3 c1 = sw_vec3_add(b, sw_quat_rotate(t_mid, bc));

    /* 2. Start joint: point the limb at the target. */
    sw_quat t_start = sw_quat_from_to(sw_vec3_sub(c1, a), u);
    /* 3. About the start-target axis: the bend-plane normal n (= mid side x
     * limb direction) onto the pole's, so the mid joint lies on the pole's
     * side. Using the normal rather than the mid joint's offset keeps this
     * continuous through full extension, where the offset vanishes. */
    if (has_pole) {
        const sw_vec3 n1 = sw_quat_rotate(t_start, n);
        const sw_vec3 n_pole = sw_vec3_normalize(sw_vec3_cross(pole_perp, u));
        const float angle = sw__ik_signed_angle(n1, n_pole, u);
        t_start = sw_quat_mul(sw_quat_from_axis_angle(u, angle), t_start);
    }
    if (job->twist != 0.0f) t_start = sw_quat_mul(sw_quat_from_axis_angle(u, job->twist), t_start);
    t_start = sw_quat_normalize(t_start);

    if (job->reached) {
        const sw_vec3 end = sw_vec3_add(a, sw_quat_rotate(t_start, sw_vec3_sub(c1, a)));
        *job->reached = sw_vec3_length(sw_vec3_sub(end, job->target)) <= 1e-4f * reach;
    }

    const float w = job->weight;
    if (!(w > 0.0f)) return SW_RESULT_OK;
    /* Each joint's turn is expressed in the input frame (the parent's turn
     * cancels in conj(P') * T' * P'), so both use the input parent rotations. */
    const sw_skeleton* skel = job->skeleton;
    const sw_quat p_start = sw__ik_parent_rot(skel, model, job->root_transform, job->start_joint);
    const sw_quat p_mid = sw__ik_parent_rot(skel, model, job->root_transform, job->mid_joint);
    sw__ik_write(job->pose, job->start_joint, p_start, t_start, w);
    sw__ik_write(job->pose, job->mid_joint, p_mid, t_mid, w);

    const float ew = w * job->end_rotation_weight;
    if (ew > 0.0f) {
        /* The end's parent has turned by T_start^w * T_mid^w (both in model
         * space: t_mid about the mid joint before the start turned). */
        const sw_quat ident = sw_quat_identity();
        const sw_quat ts_w = w < 1.0f ? sw_quat_slerp(ident, t_start, w) : t_start;
        const sw_quat tm_w = w < 1.0f ? sw_quat_slerp(ident, t_mid, w) : t_mid;
        const sw_quat moved = sw_quat_mul(ts_w, tm_w);
        const sw_quat p_end =
            sw_quat_mul(moved, sw__ik_parent_rot(skel, model, job->root_transform, job->end_joint));
        const sw_quat r_end =
            sw_quat_normalize(sw_quat_mul(moved, sw__ik_rot(model, job->end_joint)));
        const sw_quat t_end =
            sw_quat_mul(sw_quat_normalize(job->end_rotation), sw_quat_conjugate(r_end));
        sw__ik_write(job->pose, job->end_joint, p_end, t_end, ew);
    }
    return SW_RESULT_OK;
}
