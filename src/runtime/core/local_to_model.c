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
    if (job->keep && job->subtree) return SW_RESULT_INVALID_ARGUMENT;
    if (job->local_count < skel->packets_count || job->out_count < skel->joints_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->local)) return SW_RESULT_MISALIGNED;
    const size_t out_bytes = (size_t)skel->joints_count * sizeof(sw_mat4);
    if (sw__overlaps(job->out, out_bytes, job->local,
                     (size_t)skel->packets_count * sizeof(sw_xform4)) ||
        sw__overlaps(job->out, out_bytes, skel, skel->size) ||
        sw__overlaps(job->out, out_bytes, job->root_transform,
                     job->root_transform ? sizeof(sw_mat4) : 0) ||
        sw__overlaps(job->out, out_bytes, job->keep, job->keep ? skel->packets_count : 0))
        return SW_RESULT_OVERLAP;
    return SW_RESULT_OK;
}

/* End of the sub-tree of `root` when the sub-tree is the contiguous range
 * [root, end) of a parent-first skeleton of n joints, else 0. Joints after
 * root whose parents lie in [root, j) all belong to it (by induction); the
 * first joint whose parent comes before root ends that run, and the sub-tree
 * is the run alone iff no later joint has its parent inside the run. */
static uint32_t sw__subtree_range_end(const int16_t* parents, uint32_t n, uint32_t root) {
    /* Parents as 16-bit lanes u (a root's -1 is 0xffff), four per 64-bit
     * word, with x = u | 0x8000: p >= root iff the top bit of x - root is set
     * and that of u clear; p < end iff the top bit of x - end is clear (it
     * stays set when u >= 0x8000). No borrow crosses a lane: x >= 0x8000 >
     * end. */
    const uint64_t top = 0x8000800080008000u, ones = 0x0001000100010001u;
    const uint64_t lo = ones * root;
    uint32_t end = root + 1u;
    for (; end + 4u <= n; end += 4u) {
        uint64_t u;
        memcpy(&u, parents + end, sizeof u);
        if ((((u | top) - lo) & ~u & top) != top) break;
    }
    while (end < n && parents[end] >= (int32_t)root)
        ++end;
    const uint64_t hi = ones * end;
    uint64_t stray = 0;
    uint32_t j = end;
    for (; j + 4u <= n; j += 4u) {
        uint64_t u;
        memcpy(&u, parents + j, sizeof u);
        const uint64_t x = u | top;
        stray |= (x - lo) & ~(x - hi) & top;
    }
    for (; j < n; ++j)
        stray |= (uint64_t)((uint32_t)((int32_t)parents[j] - (int32_t)root) < end - root);
    return stray ? 0u : end;
}

/* The job with a subset: one kernel pass over every joint, the kept ones
 * from local and the others from the rest pose (a bitset of the kept). */
static void sw__local_to_model_keep(const sw_local_to_model_job* job, const sw__soa_ops* ops) {
    const sw_skeleton* skel = job->skeleton;
    const uint32_t n = skel->joints_count;
    uint32_t kept[SW_SKELETON_MAX_JOINTS / 32u];
    const uint32_t packets = skel->packets_count, words = (n + 31u) / 32u;
    for (uint32_t w = 0; w < words; ++w) { /* 4 bits per packet, 8 packets per word */
        uint32_t v = 0;
        for (uint32_t q = 0; q < 8u && 8u * w + q < packets; ++q)
            v |= (uint32_t)(job->keep[8u * w + q] & 15u) << (4u * q);
        kept[w] = v;
    }
    ops->local_to_model(job->local, sw_skeleton_rest_pose(skel), sw_skeleton_parents(skel), n, 0,
                        kept, job->root_transform, job->out);
}

sw_result sw__local_to_model_job_run_with(const sw_local_to_model_job* job,
                                          const sw__soa_ops* ops) {
    sw_result r = sw_local_to_model_job_validate(job);
    if (r != SW_RESULT_OK) return r;
    const sw_skeleton* skel = job->skeleton;
    const uint32_t n = skel->joints_count;
    if (job->keep) {
        sw__local_to_model_keep(job, ops);
        return SW_RESULT_OK;
    }
    if (!job->subtree) {
        ops->local_to_model(job->local, NULL, sw_skeleton_parents(skel), n, 0, NULL,
                            job->root_transform, job->out);
        return SW_RESULT_OK;
    }
    const int16_t* parents = sw_skeleton_parents(skel);
    const uint32_t first = job->subtree_root;
    /* Depth-first joint order (the usual one): the sub-tree is one range. */
    const uint32_t end = sw__subtree_range_end(parents, n, first);
    if (end) {
        ops->local_to_model(job->local, NULL, parents, end, first, NULL, job->root_transform,
                            job->out);
        return SW_RESULT_OK;
    }
    /* Any other parent-first order: membership, one bit per joint (a joint
     * after the sub-tree root belongs to it iff its parent does). */
    uint32_t in_subtree[SW_SKELETON_MAX_JOINTS / 32u];
    memset(in_subtree, 0, sizeof(uint32_t) * ((n + 31u) / 32u));
    in_subtree[first >> 5] |= 1u << (first & 31u);
    for (uint32_t j = first + 1u; j < n; ++j) {
        const int32_t parent = parents[j];
        if (parent >= 0 && (in_subtree[(uint32_t)parent >> 5] & (1u << ((uint32_t)parent & 31u))))
            in_subtree[j >> 5] |= 1u << (j & 31u);
    }
    ops->local_to_model(job->local, NULL, parents, n, first, in_subtree, job->root_transform,
                        job->out);
    return SW_RESULT_OK;
}

sw_result sw_local_to_model_job_run(const sw_local_to_model_job* job) {
    return sw__local_to_model_job_run_with(job, sw__soa_best());
}
