/* The blending job: weighted normal layers, rest-pose fill, additive layers. */
#include "internal.h"

static bool sw__blend_finite(float x) {
    return x - x == 0.0f; /* false for NaN and infinities */
}

sw_result sw_blend_job_validate(const sw_blend_job* job) {
    if (!job || !job->rest_pose || !job->out || job->packets_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    if (!job->layers && job->layers_count != 0) return SW_RESULT_INVALID_ARGUMENT;
    if (!sw__blend_finite(job->threshold) || job->threshold < 0.0f)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->layers_count > SW_BLEND_MAX_LAYERS) return SW_RESULT_LIMIT;
    for (uint32_t i = 0; i < job->layers_count; ++i) {
        const sw_blend_layer* l = &job->layers[i];
        if (!l->pose) return SW_RESULT_INVALID_ARGUMENT;
        if (!sw__blend_finite(l->weight) || l->weight < 0.0f) return SW_RESULT_INVALID_ARGUMENT;
        if (l->mode != SW_BLEND_MODE_DEFAULT && l->mode != SW_BLEND_MODE_ADDITIVE)
            return SW_RESULT_INVALID_ARGUMENT;
    }
    if (job->out_count < job->packets_count) return SW_RESULT_BUFFER_TOO_SMALL;

    if (!sw__aligned16(job->out) || !sw__aligned16(job->rest_pose)) return SW_RESULT_MISALIGNED;
    for (uint32_t i = 0; i < job->layers_count; ++i)
        if (!sw__aligned16(job->layers[i].pose)) return SW_RESULT_MISALIGNED;

    const size_t pose_bytes = (size_t)job->packets_count * sizeof(sw_xform4);
    const size_t weights_bytes = (size_t)job->packets_count * 4u * sizeof(float);
    if (sw__overlaps(job->out, pose_bytes, job->rest_pose, pose_bytes) ||
        sw__overlaps(job->out, pose_bytes, job->layers,
                     (size_t)job->layers_count * sizeof(sw_blend_layer)))
        return SW_RESULT_OVERLAP;
    for (uint32_t i = 0; i < job->layers_count; ++i) {
        const sw_blend_layer* l = &job->layers[i];
        if (sw__overlaps(job->out, pose_bytes, l->pose, pose_bytes) ||
            sw__overlaps(job->out, pose_bytes, l->joint_weights,
                         l->joint_weights ? weights_bytes : 0))
            return SW_RESULT_OVERLAP;
    }
    return SW_RESULT_OK;
}

sw_result sw__blend_job_run_with(const sw_blend_job* job, const sw__soa_ops* ops) {
    sw_result r = sw_blend_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const float threshold = job->threshold > 0.0f ? job->threshold : SW_BLEND_DEFAULT_THRESHOLD;
    /* Normal layers in one fused pass, then each additive layer in place. */
    sw__blend_input normal[SW_BLEND_MAX_LAYERS];
    uint32_t normal_count = 0;
    for (uint32_t i = 0; i < job->layers_count; ++i) {
        const sw_blend_layer* l = &job->layers[i];
        if (l->mode != SW_BLEND_MODE_DEFAULT || l->weight == 0.0f) continue;
        normal[normal_count].pose = l->pose;
        normal[normal_count].joint_weights = l->joint_weights;
        normal[normal_count].weight = l->weight;
        ++normal_count;
    }
    ops->blend(normal, normal_count, job->rest_pose, threshold, job->out, job->packets_count);
    for (uint32_t i = 0; i < job->layers_count; ++i) {
        const sw_blend_layer* l = &job->layers[i];
        if (l->mode != SW_BLEND_MODE_ADDITIVE || l->weight == 0.0f) continue;
        ops->additive_apply(job->out, l->pose, l->weight, l->joint_weights, true, job->out,
                            job->packets_count);
    }
    return SW_RESULT_OK;
}

sw_result sw_blend_job_run(const sw_blend_job* job) {
    return sw__blend_job_run_with(job, sw__soa_best());
}
