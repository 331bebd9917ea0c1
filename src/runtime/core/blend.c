/* The blending job: weighted normal layers, rest-pose fill, additive layers. */
#include <float.h>

#include "internal.h"

/* Byte range [lo, hi) of the output, for the overlap checks. */
typedef struct sw__blend_range {
    uintptr_t lo, hi;
} sw__blend_range;

/* True when [p, p + bytes) shares a byte with r (p NULL or bytes 0: false). */
static inline bool sw__blend_hits(sw__blend_range r, const void* p, size_t bytes) {
    const uintptr_t a = (uintptr_t)p;
    return p && bytes && a < r.hi && r.lo < a + bytes;
}

/* What sw__blend_prepare works out of a valid job for the kernels. */
typedef struct sw__blend_plan {
    sw__blend_input normal[SW_BLEND_MAX_LAYERS]; /* the normal layers of non-zero weight */
    uint32_t normal_count;
    bool additive; /* an additive layer of non-zero weight follows */
} sw__blend_plan;

/* sw_blend_job_validate's checks in one pass over the layers (an invalid
 * layer fails at once, as INVALID_ARGUMENT comes first; the later failure
 * classes are gathered, then reported in the documented order); fills plan. */
SW__ALWAYS_INLINE sw_result sw__blend_prepare(const sw_blend_job* job, sw__blend_plan* plan) {
    if (!job || !job->rest_pose || !job->out || job->packets_count == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    const sw_blend_layer* const layers = job->layers;
    const uint32_t layers_count = job->layers_count;
    if (layers_count != 0 && !layers) return SW_RESULT_INVALID_ARGUMENT;
    /* 0 <= threshold <= FLT_MAX: false for negative, infinite and NaN values */
    if (!(job->threshold >= 0.0f && job->threshold <= FLT_MAX)) return SW_RESULT_INVALID_ARGUMENT;
    if (layers_count > SW_BLEND_MAX_LAYERS) return SW_RESULT_LIMIT;
    const size_t pose_bytes = (size_t)job->packets_count * sizeof(sw_xform4);
    const size_t weights_bytes = (size_t)job->packets_count * 4u * sizeof(float);
    const sw__blend_range out = {(uintptr_t)job->out, (uintptr_t)job->out + pose_bytes};
    /* the failures after the layers' own, in their order */
    const sw_result late =
        job->out_count < job->packets_count                         ? SW_RESULT_BUFFER_TOO_SMALL
        : (((uintptr_t)job->out | (uintptr_t)job->rest_pose) & 15u) ? SW_RESULT_MISALIGNED
        : sw__blend_hits(out, job->rest_pose, pose_bytes) ||
                sw__blend_hits(out, job->keep, job->keep ? job->packets_count : 0u) ||
                sw__blend_hits(out, layers, (size_t)layers_count * sizeof(sw_blend_layer))
            ? SW_RESULT_OVERLAP
            : SW_RESULT_OK;
    bool overlap = false, add = false;
    float weights = 0.0f; /* their sum: inf once past float, which fails the bound */
    uintptr_t addresses = 0;
    uint32_t count = 0;
    for (uint32_t i = 0; i < layers_count; ++i) {
        const sw_blend_layer* l = &layers[i];
        const float w = l->weight;
        /* 0 <= w <= FLT_MAX: false for negative, infinite and NaN weights */
        if (!l->pose || !(w >= 0.0f && w <= FLT_MAX) ||
            (uint32_t)l->mode > (uint32_t)SW_BLEND_MODE_ADDITIVE)
            return SW_RESULT_INVALID_ARGUMENT;
        addresses |= (uintptr_t)l->pose;
        weights += w;
        overlap |= sw__blend_hits(out, l->pose, pose_bytes) ||
                   sw__blend_hits(out, l->joint_weights, weights_bytes);
        if (w == 0.0f) continue;
        if (l->mode == SW_BLEND_MODE_DEFAULT) {
            plan->normal[count++] =
                (sw__blend_input){.pose = l->pose, .joint_weights = l->joint_weights, .weight = w};
        } else {
            add = true;
        }
    }
    if (!(weights <= SW_BLEND_MAX_WEIGHT_SUM)) return SW_RESULT_INVALID_ARGUMENT;
    if (late == SW_RESULT_BUFFER_TOO_SMALL) return late;
    if (addresses & 15u) return SW_RESULT_MISALIGNED;
    if (late != SW_RESULT_OK) return late;
    if (overlap) return SW_RESULT_OVERLAP;
    plan->normal_count = count;
    plan->additive = add;
    return SW_RESULT_OK;
}

sw_result sw_blend_job_validate(const sw_blend_job* job) {
    sw__blend_plan plan;
    return sw__blend_prepare(job, &plan);
}

/* The blend of packets [first, first + n): normal layers in one fused pass,
 * then each additive layer in place (the kernels work lane by lane, so a
 * range gives the same values as the whole pose). */
SW__ALWAYS_INLINE void sw__blend_packets(const sw_blend_job* job, const sw__soa_ops* ops,
                                         const sw__blend_plan* plan, uint32_t first, uint32_t n) {
    sw__blend_input at[SW_BLEND_MAX_LAYERS];
    const sw__blend_input* in = plan->normal;
    if (first > 0) {
        for (uint32_t i = 0; i < plan->normal_count; ++i) {
            at[i] = plan->normal[i];
            at[i].pose += first;
            if (at[i].joint_weights) at[i].joint_weights += 4u * (size_t)first;
        }
        in = at;
    }
    const float threshold = job->threshold > 0.0f ? job->threshold : SW_BLEND_DEFAULT_THRESHOLD;
    sw_xform4* out = job->out + first;
    ops->blend(in, plan->normal_count, job->rest_pose + first, threshold, out, n);
    if (!plan->additive) return;
    for (uint32_t i = 0; i < job->layers_count; ++i) {
        const sw_blend_layer* l = &job->layers[i];
        if (l->mode != SW_BLEND_MODE_ADDITIVE || l->weight == 0.0f) continue;
        const float* jw = l->joint_weights ? l->joint_weights + 4u * (size_t)first : NULL;
        ops->additive_apply(out, l->pose + first, l->weight, jw, true, out, n);
    }
}

/* Rest values into the joints s leaves out (see sw__blend_job_run_subset). */
static void sw__blend_fill(const sw__subset* s, const sw_xform4* rest, sw_xform4* out,
                           uint32_t packets, bool outside_rest) {
    if (!outside_rest) { /* packets without a kept joint */
        sw__subset_fill_rest(s->keep, rest, out, s->first);
        sw__subset_fill_rest(s->keep + s->end, rest + s->end, out + s->end, packets - s->end);
    }
    const uint32_t p = s->mixed;
    if (s->mixed_lane < 4u) { /* one lane of one packet (a detail-major order) */
        sw__subset_copy_lane(&rest[p], &out[p], s->mixed_lane);
    } else if (p + 1u == s->end) { /* one packet, which keeps a joint */
        if (s->mixed_keep != 15u) sw__subset_fill_packet(s->mixed_keep, &rest[p], &out[p]);
    } else if (p < s->end) {
        sw__subset_fill_rest(s->keep + p, rest + p, out + p, s->end - p);
    }
}

sw_result sw__blend_job_run_subset(const sw_blend_job* job, const sw__soa_ops* ops,
                                   const sw__subset* s, bool outside_rest) {
    sw__blend_plan plan;
    const sw_result r = sw__blend_prepare(job, &plan);
    if (r != SW_RESULT_OK) return r;
    sw__subset own;
    if (!s && job->keep) { /* from the job's subset, once it is checked */
        own = sw__subset_of(job->keep, job->packets_count);
        s = &own;
    }
    /* No subset: every packet, without working out a subset for a NULL keep
     * (sw__subset_of is a call into another unit). */
    const uint32_t first = s ? s->first : 0u, end = s ? s->end : job->packets_count;
    if (first < end) sw__blend_packets(job, ops, &plan, first, end - first);
    if (s && s->keep) sw__blend_fill(s, job->rest_pose, job->out, job->packets_count, outside_rest);
    return SW_RESULT_OK;
}

sw_result sw__blend_job_run_with(const sw_blend_job* job, const sw__soa_ops* ops) {
    if (job && job->keep) return sw__blend_job_run_subset(job, ops, NULL, false);
    /* every packet: no subset to carry through the checks */
    sw__blend_plan plan;
    const sw_result r = sw__blend_prepare(job, &plan);
    if (r == SW_RESULT_OK) sw__blend_packets(job, ops, &plan, 0, job->packets_count);
    return r;
}

sw_result sw_blend_job_run(const sw_blend_job* job) {
    return sw__blend_job_run_with(job, sw__soa_best());
}
