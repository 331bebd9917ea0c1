/* Local-to-model: local SoA pose -> model-space matrices, parent-first. */
#include <string.h>

#include "internal.h"

sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job) {
    if (!job || !job->skeleton || !job->local || !job->out) return SW_RESULT_INVALID_ARGUMENT;
    const sw_skeleton* skel = job->skeleton;
    /* The job trusts a built or loaded skeleton; this only guards the
     * sub-tree bitset against a header that was never validated. */
    if (skel->joints_count == 0 || skel->joints_count > SW_SKELETON_MAX_JOINTS)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->subtree && job->subtree_root >= skel->joints_count) return SW_RESULT_INVALID_ARGUMENT;
    if (job->local_count < skel->packets_count || job->out_count < skel->joints_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->local)) return SW_RESULT_MISALIGNED;
    const size_t out_bytes = (size_t)skel->joints_count * sizeof(sw_mat4);
    if (sw__overlaps(job->out, out_bytes, job->local,
                     (size_t)skel->packets_count * sizeof(sw_xform4)) ||
        sw__overlaps(job->out, out_bytes, skel, skel->size) ||
        sw__overlaps(job->out, out_bytes, job->root_transform,
                     job->root_transform ? sizeof(sw_mat4) : 0))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

sw_result sw__local_to_model_job_run_with(const sw_local_to_model_job* job,
                                          const sw__soa_ops* ops) {
    sw_result r = sw_local_to_model_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* skel = job->skeleton;
    const uint32_t n = skel->joints_count;
    if (!job->subtree) {
        ops->local_to_model(job->local, sw_skeleton_parents(skel), n, 0, NULL, job->root_transform,
                            job->out);
        return SW_RESULT_OK;
    }
    /* Sub-tree membership, one bit per joint (parent-first order means a
     * joint after the sub-tree root belongs to it iff its parent does). */
    const int16_t* parents = sw_skeleton_parents(skel);
    const uint32_t first = job->subtree_root;
    uint32_t in_subtree[SW_SKELETON_MAX_JOINTS / 32u];
    memset(in_subtree, 0, sizeof(uint32_t) * ((n + 31u) / 32u));
    in_subtree[first >> 5] |= 1u << (first & 31u);
    for (uint32_t j = first + 1u; j < n; ++j) {
        const int32_t parent = parents[j];
        if (parent >= 0 && (in_subtree[(uint32_t)parent >> 5] & (1u << ((uint32_t)parent & 31u))))
            in_subtree[j >> 5] |= 1u << (j & 31u);
    }
    ops->local_to_model(job->local, parents, n, first, in_subtree, job->root_transform, job->out);
    return SW_RESULT_OK;
}

sw_result sw_local_to_model_job_run(const sw_local_to_model_job* job) {
    return sw__local_to_model_job_run_with(job, sw__soa_best());
}
