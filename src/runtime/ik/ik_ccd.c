/* CCD: cyclic coordinate descent over a chain, with per-step and hinge/cone limits. */
#include "ik_internal.h"

sw_result sw_ik_ccd_job_validate(const sw_ik_ccd_job* job) {
    if (!job) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__ik_chain_job_validate(
        job->skeleton, job->model, job->model_count, job->root_transform, job->joints,
        job->joints_count, job->limits, job->target, job->weight, job->tolerance, job->pose,
        job->pose_count, job->distance);
    if (r != SW_RESULT_OK) return r;
    return job->iterations > SW_IK_MAX_ITERATIONS ? SW_RESULT_LIMIT : SW_RESULT_OK;
}

/* Turns chain joint i (and everything below it) by model-space rotation r
 * about its position. */
static void sw__ccd_turn(sw__ik_chain* c, sw_quat* delta, uint32_t i, sw_quat r) {
    for (uint32_t j = i + 1; j < c->n; ++j)
        c->p[j] = sw_vec3_add(c->p[i], sw_quat_rotate(r, sw_vec3_sub(c->p[j], c->p[i])));
    for (uint32_t j = i; j < c->n; ++j)
        delta[j] = sw_quat_normalize(sw_quat_mul(r, delta[j]));
}

sw_result sw_ik_ccd_job_run(const sw_ik_ccd_job* job) {
    const sw_result res = sw_ik_ccd_job_validate(job);
    if (res != SW_RESULT_OK) return res;
    sw__ik_chain c;
    uint32_t iterations = job->iterations;
    float tolerance = job->tolerance;
    sw__ik_chain_begin(&c, job->skeleton, job->model, job->root_transform, job->joints,
                       job->joints_count, &iterations, &tolerance);
    const uint32_t n = c.n;
    const sw_vec3 target = job->target;
    sw_quat delta[SW_IK_MAX_CHAIN];
    for (uint32_t i = 0; i < n; ++i)
        delta[i] = sw_quat_identity();

    for (uint32_t it = 0; it < iterations; ++it) {
        if (sw_vec3_length(sw_vec3_sub(c.p[n - 1], target)) <= tolerance) break;
        for (uint32_t i = n - 1; i-- > 0;) {
            const sw_ik_limit* lim = job->limits ? &job->limits[i] : NULL;
            sw_quat r =
                sw_quat_from_to(sw_vec3_sub(c.p[n - 1], c.p[i]), sw_vec3_sub(target, c.p[i]));
            if (lim && lim->type == SW_IK_LIMIT_TYPE_HINGE) {
                /* A hinge turns about its axis only: keep r's twist about it. */
                const sw_quat parent = i > 0 ? delta[i - 1] : sw_quat_identity();
                sw_quat twist;
                sw_quat_swing_twist(r, sw__ik_hinge_axis(&c, i, lim, parent), NULL, &twist);
                r = twist;
            }
            if (lim && lim->max_step_angle > 0.0f)
                r = sw__ik_clamp_rotation(r, lim->max_step_angle);
            sw__ccd_turn(&c, delta, i, r);
            if (lim && lim->type != SW_IK_LIMIT_TYPE_NONE) {
                const sw_vec3 dir = sw_vec3_scale(sw_vec3_sub(c.p[i + 1], c.p[i]), 1.0f / c.len[i]);
                const sw_quat parent = i > 0 ? delta[i - 1] : sw_quat_identity();
                const sw_vec3 limited = sw__ik_limit_dir(&c, i, lim, parent, dir);
                sw__ccd_turn(&c, delta, i, sw_quat_from_to(dir, limited));
            }
        }
    }
    sw__ik_chain_end(&c, delta, target, job->weight, job->pose, job->distance);
    return SW_RESULT_OK;
}
