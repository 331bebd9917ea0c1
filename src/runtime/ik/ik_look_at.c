/* Look-at / aim: a forward axis turned towards a target, limited, spread over a chain. */
#include "ik_internal.h"

#define SW__IK_PI 3.14159265358979323846f

sw_result sw_ik_look_at_job_validate(const sw_ik_look_at_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_skeleton* skel = job->skeleton;
    sw_result r = sw__ik_check_pose(skel, job->model, job->model_count, job->root_transform,
                                    job->pose, job->pose_count);
    if (r != SW_RESULT_OK) return r;
    if (!job->joints || job->joints_count == 0) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__ik_finite3(job->forward) || !(sw_vec3_length(job->forward) > 0.0f) ||
        !sw__ik_finite3(job->up) || !sw__ik_finite3(job->model_up) || !sw__ik_finite3(job->target))
        return SW_RESULT_INVALID_ARGUMENT;
    if (sw_vec3_length(job->up) > 0.0f) {
        const sw_vec3 f = sw_vec3_normalize(job->forward), u = sw_vec3_normalize(job->up);
        if (!(sw_vec3_length(sw_vec3_cross(f, u)) > 1e-3f)) return SW_RESULT_INVALID_ARGUMENT;
    }
    if (!(job->limit_angle >= 0.0f) || !(job->limit_angle <= SW__IK_PI) ||
        !sw__ik_unit_weight(job->weight))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->joints_count > SW_IK_MAX_CHAIN) return SW_RESULT_LIMIT;
    if (sw__overlaps(job->pose, (size_t)skel->packets_count * sizeof(sw_xform4), job->joints,
                     job->joints_count * sizeof(sw_ik_look_at_joint)))
        return SW_RESULT_OVERLAP;
    for (uint32_t i = 0; i < job->joints_count; ++i) {
        const sw_ik_look_at_joint* j = &job->joints[i];
        if (j->joint >= skel->joints_count || !sw__ik_unit_weight(j->share))
            return SW_RESULT_INVALID_ARGUMENT;
        if (i > 0 && !sw__ik_is_ancestor(skel, job->joints[i - 1].joint, j->joint))
            return SW_RESULT_INVALID_ARGUMENT;
    }
    return SW_RESULT_OK;
}

/* Direction `want` turned from `from` by at most `limit` (unit vectors in,
 * unit vector out; opposite directions turn about any perpendicular). */
static sw_vec3 sw__clamp_dir(sw_vec3 from, sw_vec3 want, float limit) {
    const sw_quat q = sw_quat_from_to(from, want);
    return sw_vec3_normalize(sw_quat_rotate(sw__ik_clamp_rotation(q, limit), from));
}

sw_result sw_ik_look_at_job_run(const sw_ik_look_at_job* job) {
    const sw_result res = sw_ik_look_at_job_validate(job);
    if (res != SW_RESULT_OK) return res;
    const sw_skeleton* skel = job->skeleton;
    const sw_mat4* model = job->model;
    const uint32_t n = job->joints_count;
    const uint32_t last = job->joints[n - 1].joint;
    const float limit = job->limit_angle > 0.0f ? job->limit_angle : SW__IK_PI;
    const sw_quat r_last = sw__ik_rot(model, last);
    const sw_vec3 fwd0 = sw_vec3_normalize(sw_quat_rotate(r_last, sw_vec3_normalize(job->forward)));
    if (!(sw_vec3_length(sw_vec3_sub(job->target, sw__ik_pos(&model[last]))) > SW__IK_MIN_BONE))
        return SW_RESULT_OK;
    /* Current positions of the chain joints (the last one is the eye). */
    sw_vec3 pos[SW_IK_MAX_CHAIN];
    for (uint32_t k = 0; k < n; ++k)
        pos[k] = sw__ik_pos(&model[job->joints[k].joint]);

    /* d: the model rotation delta of everything below the joints turned so
     * far (each joint is a descendant of the one before). */
    sw_quat d = sw_quat_identity();
    for (uint32_t k = 0; k < n; ++k) {
        const uint32_t j = job->joints[k].joint;
        const sw_vec3 fwd = sw_quat_rotate(d, fwd0);
        const sw_vec3 to_target = sw_vec3_sub(job->target, pos[n - 1]);
        sw_quat turn = sw_quat_identity();
        if (sw_vec3_length(to_target) > SW__IK_MIN_BONE) {
            /* The wanted direction, within the limit of the input forward. */
            const sw_vec3 want = sw__clamp_dir(fwd0, sw_vec3_normalize(to_target), limit);
            turn = sw_quat_from_to(fwd, want);
            const float share = job->joints[k].share;
            if (share < 1.0f) turn = sw_quat_slerp(sw_quat_identity(), turn, share);
        }
        if (k + 1 == n && sw_vec3_length(job->up) > 0.0f) {
            /* Level: turn about the final forward so `up` lies in the
             * vertical plane of the forward axis, on model_up's side. */
            const sw_vec3 f = sw_vec3_normalize(sw_quat_rotate(turn, fwd));
            const sw_vec3 mu = sw_vec3_length(job->model_up) > 0.0f
                                   ? sw_vec3_normalize(job->model_up)
                                   : sw_vec3_make(0.0f, 1.0f, 0.0f);
            const sw_vec3 up = sw_quat_rotate(sw_quat_mul(turn, sw_quat_mul(d, r_last)),
                                              sw_vec3_normalize(job->up));
            if (sw_vec3_length(sw_vec3_cross(f, mu)) > 1e-3f) {
                const float angle = sw__ik_signed_angle(up, mu, f);
                turn = sw_quat_mul(sw_quat_from_axis_angle(f, angle), turn);
            }
        }
        /* In the input frame the turn is conj(d) * turn * d. */
        const sw_quat t_in = sw_quat_mul(sw_quat_conjugate(d), sw_quat_mul(turn, d));
        sw__ik_write(job->pose, j, sw__ik_parent_rot(skel, model, job->root_transform, j), t_in,
                     job->weight);
        for (uint32_t m = k + 1; m < n; ++m)
            pos[m] = sw_vec3_add(pos[k], sw_quat_rotate(turn, sw_vec3_sub(pos[m], pos[k])));
        d = sw_quat_normalize(sw_quat_mul(turn, d));
    }
    return SW_RESULT_OK;
}
