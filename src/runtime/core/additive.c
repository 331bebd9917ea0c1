/* Additive jobs: deltas of a pose against a reference, and applying them. */
#include "internal.h"

sw_result sw_make_additive_job_validate(const sw_make_additive_job* job) {
    if (!job || !job->pose || !job->reference || !job->out || job->packets_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->out_count < job->packets_count) return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->pose) || !sw__aligned16(job->reference) || !sw__aligned16(job->out))
        return SW_RESULT_MISALIGNED;
    const size_t bytes = (size_t)job->packets_count * sizeof(sw_xform4);
    if (sw__overlaps(job->out, bytes, job->pose, bytes) ||
        sw__overlaps(job->out, bytes, job->reference, bytes))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw__make_additive_job_run_with(const sw_make_additive_job* job, const sw__soa_ops* ops) {
    sw_result r = sw_make_additive_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    ops->additive_make(job->pose, job->reference, job->out, job->packets_count);
    return SW_RESULT_OK;
}

sw_result sw_make_additive_job_run(const sw_make_additive_job* job) {
    return sw__make_additive_job_run_with(job, sw__soa_best());
}

sw_result sw_apply_additive_job_validate(const sw_apply_additive_job* job) {
    if (!job || !job->base || !job->delta || !job->out || job->packets_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!(job->weight - job->weight == 0.0f)) return SW_RESULT_INVALID_ARGUMENT; /* NaN, inf */
    if (job->out_count < job->packets_count) return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->base) || !sw__aligned16(job->delta) || !sw__aligned16(job->out))
        return SW_RESULT_MISALIGNED;
    const size_t bytes = (size_t)job->packets_count * sizeof(sw_xform4);
    const size_t weights_bytes =
        job->joint_weights ? (size_t)job->packets_count * 4u * sizeof(float) : 0;
    if (sw__overlaps(job->out, bytes, job->delta, bytes) ||
        sw__overlaps(job->out, bytes, job->joint_weights, weights_bytes))
        return SW_RESULT_OVERLAP;
    /* In place (out == base) is fine; a shifted overlap would read written packets. */
    if (job->out != job->base && sw__overlaps(job->out, bytes, job->base, bytes))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw__apply_additive_job_run_with(const sw_apply_additive_job* job,
                                          const sw__soa_ops* ops) {
    sw_result r = sw_apply_additive_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    ops->additive_apply(job->base, job->delta, job->weight, job->joint_weights, false, job->out,
                        job->packets_count);
    return SW_RESULT_OK;
}

sw_result sw_apply_additive_job_run(const sw_apply_additive_job* job) {
    return sw__apply_additive_job_run_with(job, sw__soa_best());
}
