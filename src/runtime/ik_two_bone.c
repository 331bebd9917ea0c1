/* Two-bone IK: law of cosines, pole, softness, twist, end orientation. */
#include "ik_internal.h"

/* The checks of sw_ik_two_bone_job_validate but the bone lengths (the solve
 * makes those itself, from the positions it reads anyway). */
static sw_result sw__two_bone_check(const sw_ik_two_bone_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__ik_check_pose(job->skeleton, job->model, job->model_count,
                                          job->root_transform, job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    /* x - x is 0 for finite x, NaN otherwise: one test for all the numbers. */
    const sw_vec3 t = job->target, p = job->pole;
    const sw_quat e = job->end_rotation;
    const float zero = (t.x - t.x) + (t.y - t.y) + (t.z - t.z) + (p.x - p.x) + (p.y - p.y) +
                       (p.z - p.z) + (job->twist - job->twist) + (e.x - e.x) + (e.y - e.y) +
                       (e.z - e.z) + (e.w - e.w);
    if (!(zero == 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
    switch (job->pole_mode) {
    case SW_IK_POLE_MODE_NONE:
    case SW_IK_POLE_MODE_TARGET:
        break;
    case SW_IK_POLE_MODE_DIRECTION:
        if (!(sw_vec3_dot(p, p) > 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
        break;
    default:
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (!sw__ik_unit_weight(job->weight) || !sw__ik_unit_weight(job->end_rotation_weight) ||
        !(job->softness >= 0.0f) || !(job->softness < 1.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->end_rotation_weight > 0.0f && !(sw_quat_dot(e, e) > 0.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    const sw_skeleton* skel = job->skeleton;
    if (job->start_joint >= skel->joints_count || job->mid_joint >= skel->joints_count ||
        job->end_joint >= skel->joints_count ||
        !sw__ik_is_ancestor(skel, job->start_joint, job->mid_joint) ||
        !sw__ik_is_ancestor(skel, job->mid_joint, job->end_joint))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->reached && sw__ik_overlaps_inputs(job->reached, sizeof(bool), job->skeleton,
                                               job->model, job->root_transform, job->pose))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job) {
    const sw_result r = sw__two_bone_check(job);
    if (r != SW_RESULT_OK) return r;
    const uint32_t chain[3] = {job->start_joint, job->mid_joint, job->end_joint};
    return sw__ik_check_lengths(job->model, chain, 3);
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

/* (cos(h), sin(h)) up to a common positive factor, for the half angle h of
 * an angle with cosine c and sine s up to a common positive factor r
 * (r = |(c, s)|): (r + c, s), or when c < 0, where r + c loses its digits,
 * (s, r - c) (the same direction, or its opposite: the same rotation). */
static void sw__half_angle(float c, float s, float r, float* hc, float* hs) {
    const bool pos = c >= 0.0f;
    *hc = pos ? r + c : s;
    *hs = pos ? s : r - c;
}

/* sw_quat_from_to(from, to) for a unit `to`, inline but for opposite
 * directions. */
static sw_quat sw__from_to_unit(sw_vec3 from, sw_vec3 to) {
    const sw_vec3 f = sw_vec3_scale(from, 1.0f / sqrtf(sw_vec3_dot(from, from)));
    const sw_vec3 h = sw_vec3_add(f, to);
    const float h2 = sw_vec3_dot(h, h);
    if (!(h2 >= 1e-12f)) return sw_quat_from_to(from, to);
    /* As sw_quat_from_to: 1 + f.t = |f + t|^2 / 2, and the cross product's
     * rounding along f removed. */
    sw_vec3 c = sw_vec3_cross(f, to);
    c = sw_vec3_sub(c, sw_vec3_scale(f, sw_vec3_dot(c, f)));
    const float w = 0.5f * h2;
    const float inv = 1.0f / sqrtf(sw_vec3_dot(c, c) + w * w);
    return sw_quat_make(c.x * inv, c.y * inv, c.z * inv, w * inv);
}

/* The solve of a validated job. Trigonometry-free: the bend angles enter
 * only through the half-angle cosines and sines the quaternions need.
 * - Mid joint: with m = |lab - lbc| and L = lab + lbc, the law of cosines
 *   for the new bend b1 (pi minus the interior angle) gives
 *   cos^2(b1 / 2) = (d - m)(d + m) / (4 lab lbc) and
 *   sin^2(b1 / 2) = (L - d)(L + d) / (4 lab lbc), both products free of
 *   cancellation; the current bend b0 has cosine ab.bc and sine |ab x bc|
 *   (times lab lbc). The turn b1 - b0 about the bend normal n has
 *   cos((b1 - b0) / 2) and sin((b1 - b0) / 2) from the angle differences.
 * - Start joint: the shortest rotation taking the new start-end direction e
 *   onto the target direction u (sw_quat_from_to), then the turn about u
 *   taking the turned bend normal onto the pole's, its half angle from its
 *   cosine and sine (sw__half_angle). */
static sw_result sw__two_bone_solve(const sw_ik_two_bone_job* job, sw_ik_two_bone_rotations* out) {
    const sw_mat4* model = job->model;
    const sw_vec3 a = sw__ik_pos(&model[job->start_joint]);
    const sw_vec3 b = sw__ik_pos(&model[job->mid_joint]);
    const sw_vec3 c = sw__ik_pos(&model[job->end_joint]);
    const sw_vec3 ab = sw_vec3_sub(b, a), bc = sw_vec3_sub(c, b);
    const float lab2 = sw_vec3_dot(ab, ab), lbc2 = sw_vec3_dot(bc, bc);
    /* sw__ik_check_lengths on the chain: finite positions, bones at least
     * SW__IK_MIN_BONE long (and their squares finite). */
    const float zero = (a.x - a.x) + (a.y - a.y) + (a.z - a.z) + (b.x - b.x) + (b.y - b.y) +
                       (b.z - b.z) + (c.x - c.x) + (c.y - c.y) + (c.z - c.z);
    const float min2 = SW__IK_MIN_BONE * SW__IK_MIN_BONE;
    if (!(zero == 0.0f) || !(lab2 >= min2) || !(lbc2 >= min2) || !(lab2 < INFINITY) ||
        !(lbc2 < INFINITY))
        return SW_RESULT_BAD_DATA;
    const float lab = sqrtf(lab2), lbc = sqrtf(lbc2);
    const float reach = lab + lbc, rr = lab * lbc;
    const sw_vec3 cr = sw_vec3_cross(ab, bc);
    const float cr_len = sqrtf(sw_vec3_dot(cr, cr));

    /* Direction to the target; on the start joint, the limb's own. */
    const sw_vec3 at = sw_vec3_sub(job->target, a);
    const float dist = sqrtf(sw_vec3_dot(at, at));
    sw_vec3 u;
    if (dist > 1e-6f * reach) {
        u = sw_vec3_scale(at, 1.0f / dist);
    } else {
        const sw_vec3 ac = sw_vec3_sub(c, a);
        u = sw_vec3_normalize(sw_vec3_length(ac) > 1e-6f * reach ? ac : ab);
    }
    const float m = fabsf(lab - lbc);
    const float d = sw__two_bone_reach(dist, m, reach, job->softness);

    /* Pole: its part perpendicular to the start-target axis. */
    sw_vec3 pole_perp = sw_vec3_make(0.0f, 0.0f, 0.0f);
    bool has_pole = false;
    if (job->pole_mode != SW_IK_POLE_MODE_NONE) {
        const sw_vec3 pd =
            job->pole_mode == SW_IK_POLE_MODE_TARGET ? sw_vec3_sub(job->pole, a) : job->pole;
        pole_perp = sw_vec3_sub(pd, sw_vec3_scale(u, sw_vec3_dot(pd, u)));
        has_pole = sw_vec3_dot(pole_perp, pole_perp) > 1e-8f * sw_vec3_dot(pd, pd);
    }

    /* 1. Mid joint about its hinge: the current bend-plane normal. A limb
     * within 1e-4 rad of straight has none worth trusting (its direction
     * would be rounding noise): take the plane of the limb and the pole, or
     * any. */
    sw_vec3 n;
    if (cr_len > 1e-4f * rr) {
        n = sw_vec3_scale(cr, 1.0f / cr_len);
    } else {
        const sw_vec3 limb = sw_vec3_scale(ab, 1.0f / lab);
        const sw_vec3 pp =
            has_pole ? sw_vec3_sub(pole_perp, sw_vec3_scale(limb, sw_vec3_dot(pole_perp, limb)))
                     : sw_vec3_make(0.0f, 0.0f, 0.0f);
        /* The mid joint lies on the side m with n = m x limb (see step 3). */
        n = sw_vec3_length(pp) > 1e-6f ? sw_vec3_normalize(sw_vec3_cross(pp, limb))
                                       : sw__ik_perpendicular(limb);
    }
    /* The current bend's cosine and sine scaled to at most 2 and the new
     * one's to about the limb length keep the products below in range. */
    const float inv_rr = 1.0f / rr;
    float c0, s0;
    sw__half_angle(sw_vec3_dot(ab, bc) * inv_rr, cr_len * inv_rr, 1.0f, &c0, &s0);
    const float c1 = sqrtf((d - m) * (d + m)), s1 = sqrtf((reach - d) * (reach + d));
    const float mc = c1 * c0 + s1 * s0, ms = s1 * c0 - c1 * s0;
    const float minv = 1.0f / sqrtf(mc * mc + ms * ms);
    const sw_quat t_mid =
        sw_quat_make(n.x * ms * minv, n.y * ms * minv, n.z * ms * minv, mc * minv);
    const sw_vec3 e = sw_vec3_add(ab, sw_quat_rotate(t_mid, bc));

    /* 2. Start joint: point the limb at the target. */
    sw_quat t_start = sw__from_to_unit(e, u);
    /* 3. About the start-target axis: the bend-plane normal n (= mid side x
     * limb direction) onto the pole's, so the mid joint lies on the pole's
     * side. Using the normal rather than the mid joint's offset keeps this
     * continuous through full extension, where the offset vanishes. */
    if (has_pole) {
        const sw_vec3 n1 = sw_quat_rotate(t_start, n);
        /* The pole's normal is p x u for p the pole's unit perpendicular
         * part, so cos = n1.(p x u) = p.(u x n1) and sin = (n1 x (p x u)).u
         * = -n1.p. */
        const sw_vec3 p = sw_vec3_scale(pole_perp, 1.0f / sqrtf(sw_vec3_dot(pole_perp, pole_perp)));
        const float rc = sw_vec3_dot(p, sw_vec3_cross(u, n1)), rs = -sw_vec3_dot(n1, p);
        float hc, hs;
        sw__half_angle(rc, rs, sqrtf(rc * rc + rs * rs), &hc, &hs);
        const sw_quat roll = sw_quat_make(u.x * hs, u.y * hs, u.z * hs, hc);
        t_start = sw_quat_mul(roll, t_start);
    }
    if (job->twist != 0.0f) t_start = sw_quat_mul(sw_quat_from_axis_angle(u, job->twist), t_start);
    /* A product of unit quaternions: only rounding to remove. */
    const float sinv = 1.0f / sqrtf(sw_quat_dot(t_start, t_start));
    t_start = sw_quat_make(t_start.x * sinv, t_start.y * sinv, t_start.z * sinv, t_start.w * sinv);

    /* The end lands at a + u * |e| with |e| = d (the mid turn makes the
     * start-end distance d), so its distance to the target is |dist - d|. */
    out->reached = fabsf(dist - d) <= 1e-4f * reach;
    out->start = t_start;
    out->mid = t_mid;
    return SW_RESULT_OK;
}

sw_result sw_ik_two_bone_job_solve(const sw_ik_two_bone_job* job, sw_ik_two_bone_rotations* out) {
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    sw_result res = sw__two_bone_check(job);
    if (res != SW_RESULT_OK) return res;
    if (sw__ik_overlaps_inputs(out, sizeof *out, job->skeleton, job->model, job->root_transform,
                               job->pose))
        return SW_RESULT_OVERLAP;
    /* Solved into a copy: on failure *out stays untouched. */
    sw_ik_two_bone_rotations rots;
    res = sw__two_bone_solve(job, &rots);
    if (res == SW_RESULT_OK) *out = rots;
    return res;
}

sw_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job) {
    sw_result res = sw__two_bone_check(job);
    if (res != SW_RESULT_OK) return res;
    sw_ik_two_bone_rotations rots;
    res = sw__two_bone_solve(job, &rots);
    if (res != SW_RESULT_OK) return res;
    if (job->reached) *job->reached = rots.reached;
    const sw_quat t_start = rots.start, t_mid = rots.mid;
    const sw_mat4* model = job->model;
    const float w = job->weight;
    if (!(w > 0.0f)) return SW_RESULT_OK;
    /* Each joint's turn is expressed in the input frame (the parent's turn
     * cancels in conj(P') * T' * P'), so both use the input parent rotations. */
    const sw_skeleton* skel = job->skeleton;
    sw__ik_write_m(job->pose, job->start_joint,
                   sw__ik_parent_matrix(skel, model, job->root_transform, job->start_joint),
                   t_start, w);
    sw__ik_write_m(job->pose, job->mid_joint,
                   sw__ik_parent_matrix(skel, model, job->root_transform, job->mid_joint), t_mid,
                   w);

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
