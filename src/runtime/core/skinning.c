/* The skinning palette job: model * inverse bind per mesh joint. */
#include "internal.h"

sw_result sw_skinning_job_validate(const sw_skinning_job* job) {
    if (!job || !job->model || !job->inverse_bind || !job->out || job->count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->joints) {
        for (uint32_t i = 0; i < job->count; ++i)
            if (job->joints[i] >= job->model_count) return SW_RESULT_INVALID_ARGUMENT;
    } else if (job->count > job->model_count) {
        return SW_RESULT_INVALID_ARGUMENT;
    }
    if (job->out_count < job->count) return SW_RESULT_BUFFER_TOO_SMALL;
    const size_t out_bytes = (size_t)job->count * sizeof(sw_mat4);
    if (sw__overlaps(job->out, out_bytes, job->model, (size_t)job->model_count * sizeof(sw_mat4)) ||
        sw__overlaps(job->out, out_bytes, job->inverse_bind, out_bytes) ||
        sw__overlaps(job->out, out_bytes, job->joints,
                     job->joints ? (size_t)job->count * sizeof(uint16_t) : 0))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw__skinning_job_run_with(const sw_skinning_job* job, const sw__soa_ops* ops) {
    sw_result r = sw_skinning_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    ops->skinning(job->model, job->joints, job->inverse_bind, job->out, job->count);
    return SW_RESULT_OK;
}

sw_result sw_skinning_job_run(const sw_skinning_job* job) {
    return sw__skinning_job_run_with(job, sw__soa_best());
}
