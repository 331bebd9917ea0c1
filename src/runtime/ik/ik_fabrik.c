/* FABRIK: forward and backward reaching over a chain, pole, hinge and cone limits. */
#include "ik_internal.h"

/* Checks shared with CCD (the pole is FABRIK's own). */
sw_result sw__ik_chain_job_validate(const sw_skeleton* skel, const sw_mat4* model,
                                    uint32_t model_count, const sw_mat4* root_transform,
                                    const uint32_t* joints, uint32_t joints_count,
                                    const sw_ik_limit* limits, sw_vec3 target, float weight,
                                    float tolerance, sw_xform4* pose, uint32_t pose_count,
                                    const float* distance) {
    sw_result r = sw__ik_check_pose(skel, model, model_count, root_transform, pose, pose_count);
    if (r != SW_RESULT_OK) return r;
    if (!joints || joints_count < 2) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__ik_finite3(target) || !sw__ik_unit_weight(weight)) return SW_RESULT_INVALID_ARGUMENT;
    if (!(tolerance >= 0.0f) || !sw__ik_finite(tolerance)) return SW_RESULT_INVALID_ARGUMENT;
    if (joints_count > SW_IK_MAX_CHAIN) return SW_RESULT_LIMIT;
    r = sw__ik_check_chain(skel, model, joints, joints_count, false);
    if (r != SW_RESULT_OK) return r;
    const size_t pose_bytes = (size_t)skel->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(pose, pose_bytes, joints, joints_count * sizeof(uint32_t)) ||
        sw__overlaps(pose, pose_bytes, limits, limits ? joints_count * sizeof(sw_ik_limit) : 0))
        return SW_RESULT_OVERLAP;
    if (distance &&
        (sw__ik_overlaps_inputs(distance, sizeof(float), skel, model, root_transform, pose) ||
         sw__overlaps(distance, sizeof(float), joints, joints_count * sizeof(uint32_t)) ||
         sw__overlaps(distance, sizeof(float), limits,
                      limits ? joints_count * sizeof(sw_ik_limit) : 0)))
        return SW_RESULT_OVERLAP;
    r = sw__ik_check_limits(limits, joints_count);
    if (r != SW_RESULT_OK) return r;
    return sw__ik_check_chain(skel, model, joints, joints_count, true);
}

sw_result sw_ik_fabrik_job_validate(const sw_ik_fabrik_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__ik_chain_job_validate(
        job->skeleton, job->model, job->model_count, job->root_transform, job->joints,
        job->joints_count, job->limits, job->target, job->weight, job->tolerance, job->pose,
        job->pose_count, job->distance);
    if (r != SW_RESULT_OK) return r;
    if (!sw__ik_finite3(job->pole)) return SW_RESULT_INVALID_ARGUMENT;
    if (job->use_pole && !(sw_vec3_length(job->pole) > 0.0f)) return SW_RESULT_INVALID_ARGUMENT;
    return job->iterations > SW_IK_MAX_ITERATIONS ? SW_RESULT_LIMIT : SW_RESULT_OK;
}

/* p[i] = from + len * direction(p[i] - from), keeping `fallback` when p[i]
 * sits on `from`. */
static sw_vec3 sw__place(sw_vec3 from, sw_vec3 p, float len, sw_vec3 fallback) {
    sw_vec3 d = sw_vec3_sub(p, from);
    const float l = sw_vec3_length(d);
    d = l > 0.0f ? sw_vec3_scale(d, 1.0f / l) : fallback;
    return sw_vec3_add(from, sw_vec3_scale(d, len));
}

/* Turns each intermediate joint about the axis through its neighbours so it
 * lies on the pole's side (keeps both bone lengths and the neighbours). */
static void sw__pole_pass(sw__ik_chain* c, sw_vec3 pole) {
    for (uint32_t i = 1; i + 1 < c->n; ++i) {
        const sw_vec3 axis = sw_vec3_sub(c->p[i + 1], c->p[i - 1]);
        const float al = sw_vec3_length(axis);
        if (!(al > SW__IK_MIN_BONE)) continue;
        const sw_vec3 u = sw_vec3_scale(axis, 1.0f / al);
        const sw_vec3 v = sw_vec3_sub(c->p[i], c->p[i - 1]);
        const sw_vec3 off = sw_vec3_sub(v, sw_vec3_scale(u, sw_vec3_dot(v, u)));
        const sw_vec3 pp = sw_vec3_sub(pole, sw_vec3_scale(u, sw_vec3_dot(pole, u)));
        if (!(sw_vec3_length(off) > 1e-6f * c->len[i - 1]) ||
            !(sw_vec3_length(pp) > 1e-4f * sw_vec3_length(pole)))
            continue;
        const float angle = sw__ik_signed_angle(off, pp, u);
        c->p[i] = sw_vec3_add(c->p[i - 1], sw_quat_rotate(sw_quat_from_axis_angle(u, angle), v));
    }
}

/* Tip to root, limits too: the fold at joint i + 1, from bone i to bone
 * i + 1 (already placed), within its limit; p[i] moves to match. The hinge
 * axis comes from the previous root-to-tip pass. */
static void sw__backward_limit(sw__ik_chain* c, const sw_ik_limit* limits, const sw_quat* delta,
                               uint32_t i) {
    const sw_ik_limit* lim = &limits[i + 1];
    if (lim->type == SW_IK_LIMIT_TYPE_NONE) return;
    const sw_vec3 next = sw_vec3_normalize(sw_vec3_sub(c->p[i + 2], c->p[i + 1]));
    const sw_vec3 dir = sw_vec3_normalize(sw_vec3_sub(c->p[i + 1], c->p[i]));
    const sw_vec3 axis = lim->type == SW_IK_LIMIT_TYPE_HINGE
                             ? sw__ik_hinge_axis(c, i + 1, lim, delta[i])
                             : sw_vec3_make(0.0f, 0.0f, 0.0f);
    /* fold(dir -> next) in [lo, hi]  <=>  angle(next -> dir) in [-hi, -lo] */
    const sw_vec3 limited = sw__ik_constrain(lim->type, -lim->max_angle, -lim->min_angle,
                                             lim->cone_angle, dir, next, axis);
    c->p[i] = sw_vec3_sub(c->p[i + 1], sw_vec3_scale(limited, c->len[i]));
}

/* A chain lying straight along the root-target line cannot bend: both
 * passes only slide its joints along the line. Nudge the intermediate
 * joints off it (towards the pole, else any perpendicular) by 1e-3 of the
 * chain's length; the next root-to-tip pass restores the bone lengths. */
static void sw__unfold(sw__ik_chain* c, sw_vec3 target, float total, const sw_vec3* pole) {
    const sw_vec3 u = sw_vec3_normalize(sw_vec3_sub(target, c->p[0]));
    if (!(sw_vec3_length(u) > 0.0f)) return;
    for (uint32_t i = 1; i < c->n; ++i) {
        const sw_vec3 v = sw_vec3_sub(c->p[i], c->p[0]);
        const sw_vec3 off = sw_vec3_sub(v, sw_vec3_scale(u, sw_vec3_dot(v, u)));
        if (sw_vec3_length(off) > 1e-4f * total) return;
    }
    sw_vec3 side = sw__ik_perpendicular(u);
    if (pole) {
        const sw_vec3 pp = sw_vec3_sub(*pole, sw_vec3_scale(u, sw_vec3_dot(*pole, u)));
        if (sw_vec3_length(pp) > 1e-4f * sw_vec3_length(*pole)) side = sw_vec3_normalize(pp);
    }
    for (uint32_t i = 1; i + 1 < c->n; ++i)
        c->p[i] = sw_vec3_add(c->p[i], sw_vec3_scale(side, 1e-3f * total));
}

/* Root to tip: the root back in place, each bone at its length, limited;
 * fills the model rotation deltas. */
static void sw__forward_pass(sw__ik_chain* c, const sw_ik_limit* limits, sw_quat* delta) {
    c->p[0] = c->p0[0];
    sw_quat prev = sw_quat_identity();
    for (uint32_t i = 0; i + 1 < c->n; ++i) {
        const sw_vec3 old_dir =
            sw_vec3_scale(sw_vec3_sub(c->p0[i + 1], c->p0[i]), 1.0f / c->len[i]);
        const sw_vec3 carried = sw_quat_rotate(prev, old_dir);
        sw_vec3 dir = sw_vec3_sub(c->p[i + 1], c->p[i]);
        const float l = sw_vec3_length(dir);
        dir = l > 0.0f ? sw_vec3_scale(dir, 1.0f / l) : carried;
        if (limits) dir = sw__ik_limit_dir(c, i, &limits[i], prev, dir);
        c->p[i + 1] = sw_vec3_add(c->p[i], sw_vec3_scale(dir, c->len[i]));
        prev = sw_quat_normalize(sw_quat_mul(sw_quat_from_to(carried, dir), prev));
        delta[i] = prev;
    }
}

sw_result sw_ik_fabrik_job_run(const sw_ik_fabrik_job* job) {
    const sw_result res = sw_ik_fabrik_job_validate(job);
    if (res != SW_RESULT_OK) return res;
    sw__ik_chain c;
    uint32_t iterations = job->iterations;
    float tolerance = job->tolerance;
    sw__ik_chain_begin(&c, job->skeleton, job->model, job->root_transform, job->joints,
                       job->joints_count, &iterations, &tolerance);
    const uint32_t n = c.n;
    const sw_vec3 target = job->target;
    const sw_vec3 root = c.p0[0];
    sw_quat delta[SW_IK_MAX_CHAIN];

    float total = 0.0f;
    for (uint32_t i = 0; i + 1 < n; ++i)
        total += c.len[i];
    const sw_vec3 rt = sw_vec3_sub(target, root);
    const float rt_len = sw_vec3_length(rt);
    if (rt_len >= total) {
        /* Out of reach: straight at the target, then limited. */
        const sw_vec3 u = sw_vec3_scale(rt, 1.0f / rt_len);
        for (uint32_t i = 0; i + 1 < n; ++i)
            c.p[i + 1] = sw_vec3_add(c.p[i], sw_vec3_scale(u, c.len[i]));
        sw__forward_pass(&c, job->limits, delta);
    } else {
        if (n > 2) sw__unfold(&c, target, total, job->use_pole ? &job->pole : NULL);
        if (job->use_pole) sw__pole_pass(&c, job->pole);
        sw__forward_pass(&c, job->limits, delta);
        for (uint32_t it = 0; it < iterations; ++it) {
            if (sw_vec3_length(sw_vec3_sub(c.p[n - 1], target)) <= tolerance) break;
            /* Tip to root: the tip on the target. */
            c.p[n - 1] = target;
            for (uint32_t i = n - 1; i-- > 0;) {
                const sw_vec3 fallback =
                    sw_vec3_scale(sw_vec3_sub(c.p0[i], c.p0[i + 1]), 1.0f / c.len[i]);
                c.p[i] = sw__place(c.p[i + 1], c.p[i], c.len[i], fallback);
                if (job->limits && i + 2 < n) sw__backward_limit(&c, job->limits, delta, i);
            }
            if (job->use_pole) sw__pole_pass(&c, job->pole);
            sw__forward_pass(&c, job->limits, delta);
        }
    }
    sw__ik_chain_end(&c, delta, target, job->weight, job->pose, job->distance);
    return SW_RESULT_OK;
}
