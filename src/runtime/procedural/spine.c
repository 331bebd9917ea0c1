/* Spine wander: a seeded, smooth, bounded target offset solved with FABRIK or CCD. */
#include <math.h>

#include "runtime/core/internal.h"
#include "sinew/procedural/spine.h"

#define SW__SPINE_TWO_PI 6.28318530717958647692

/* Uniform in [0, 1) from the seed, the axis and the slot. */
static double sw__spine_unit(uint32_t seed, uint32_t axis, uint32_t slot) {
    const uint32_t h = sw__hash32(seed ^ sw__hash32(axis * 16u + slot + 0x9e3779b9u));
    return (double)(h >> 8) / 16777216.0;
}

/* Noise in [-1, 1]: three sines of weights 0.5, 0.3, 0.2. Evaluated in double
 * so long times keep their phase. */
static float sw__spine_noise(uint32_t seed, uint32_t axis, double frequency, double t) {
    static const double weights[3] = {0.5, 0.3, 0.2};
    const double ratio[3] = {1.0, 1.7 + 0.6 * sw__spine_unit(seed, axis, 0u),
                             3.1 + 0.8 * sw__spine_unit(seed, axis, 1u)};
    double sum = 0.0;
    for (uint32_t m = 0; m < 3; ++m) {
        const double phase = SW__SPINE_TWO_PI * sw__spine_unit(seed, axis, 2u + m);
        sum += weights[m] * sin(SW__SPINE_TWO_PI * frequency * ratio[m] * t + phase);
    }
    if (sum > 1.0) sum = 1.0;
    if (sum < -1.0) sum = -1.0;
    return (float)sum;
}

sw_vec3 sw_spine_wander_offset(sw_vec3 range, float frequency, uint32_t seed, float time) {
    if (!isfinite(time)) return sw_vec3_make(0.0f, 0.0f, 0.0f);
    const double f = frequency > 0.0f && isfinite(frequency) ? (double)frequency
                                                             : (double)SW_SPINE_DEFAULT_FREQUENCY;
    const double t = (double)time;
    return sw_vec3_make(range.x * sw__spine_noise(seed, 0u, f, t),
                        range.y * sw__spine_noise(seed, 1u, f, t),
                        range.z * sw__spine_noise(seed, 2u, f, t));
}

static bool sw__spine_range_ok(float v) {
    return v >= 0.0f && isfinite(v);
}

/* Fills the IK job for this wander job (target from the tip's FK position). */
static sw_result sw__spine_solve(const sw_spine_wander_job* job, bool run) {
    const sw_spine_solver solver =
        job->solver == SW_SPINE_SOLVER_DEFAULT ? SW_SPINE_SOLVER_FABRIK : job->solver;
    sw_vec3 target = sw_vec3_make(0.0f, 0.0f, 0.0f);
    if (run) {
        const sw_mat4* tip = &job->model[job->joints[job->joints_count - 1u]];
        const sw_vec3 fk = sw_vec3_make(tip->m[12], tip->m[13], tip->m[14]);
        target = sw_vec3_add(
            fk, sw_spine_wander_offset(job->range, job->frequency, job->seed, job->time));
    }
    if (solver == SW_SPINE_SOLVER_FABRIK) {
        const sw_ik_fabrik_job ik = {.skeleton = job->skeleton,
                                     .model = job->model,
                                     .model_count = job->model_count,
                                     .root_transform = job->root_transform,
                                     .joints = job->joints,
                                     .joints_count = job->joints_count,
                                     .limits = job->limits,
                                     .target = target,
                                     .weight = job->weight,
                                     .iterations = job->iterations,
                                     .tolerance = job->tolerance,
                                     .pose = job->pose,
                                     .pose_count = job->pose_count};
        if (!run) return sw_ik_fabrik_job_validate(&ik);
        const sw_result r = sw_ik_fabrik_job_run(&ik);
        if (r == SW_RESULT_OK && job->target) *job->target = target;
        return r;
    }
    const sw_ik_ccd_job ik = {.skeleton = job->skeleton,
                              .model = job->model,
                              .model_count = job->model_count,
                              .root_transform = job->root_transform,
                              .joints = job->joints,
                              .joints_count = job->joints_count,
                              .limits = job->limits,
                              .target = target,
                              .weight = job->weight,
                              .iterations = job->iterations,
                              .tolerance = job->tolerance,
                              .pose = job->pose,
                              .pose_count = job->pose_count};
    if (!run) return sw_ik_ccd_job_validate(&ik);
    const sw_result r = sw_ik_ccd_job_run(&ik);
    if (r == SW_RESULT_OK && job->target) *job->target = target;
    return r;
}

sw_result sw_spine_wander_job_validate(const sw_spine_wander_job* job) {
    if (!job || !job->skeleton || !job->model || !job->joints || !job->pose)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__spine_range_ok(job->range.x) || !sw__spine_range_ok(job->range.y) ||
        !sw__spine_range_ok(job->range.z))
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->frequency >= 0.0f) || !isfinite(job->frequency) || !isfinite(job->time))
        return SW_RESULT_INVALID_ARGUMENT;
    if ((uint32_t)job->solver > (uint32_t)SW_SPINE_SOLVER_CCD) return SW_RESULT_INVALID_ARGUMENT;
    const sw_result r = sw__spine_solve(job, false);
    if (r != SW_RESULT_OK) return r;
    if (job->target) {
        const size_t pose_bytes = (size_t)job->pose_count * sizeof(sw_xform4);
        const size_t t = sizeof(sw_vec3);
        if (sw__overlaps(job->target, t, job->pose, pose_bytes) ||
            sw__overlaps(job->target, t, job->model, (size_t)job->model_count * sizeof(sw_mat4)) ||
            sw__overlaps(job->target, t, job->skeleton, job->skeleton->size) ||
            sw__overlaps(job->target, t, job->joints, job->joints_count * sizeof(uint32_t)) ||
            sw__overlaps(job->target, t, job->root_transform,
                         job->root_transform ? sizeof(sw_mat4) : 0u))
            return SW_RESULT_OVERLAP;
    }
    return SW_RESULT_OK;
}

sw_result sw_spine_wander_job_run(const sw_spine_wander_job* job) {
    const sw_result r = sw_spine_wander_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    return sw__spine_solve(job, true);
}
