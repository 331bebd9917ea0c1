/* Local-to-model: local SoA pose -> model-space matrices, parent-first. */
#include <string.h>

#include "internal.h"
#if SINEW_HAS_SSE2
#include <emmintrin.h>
#endif

sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job) {
    if (!job || !job->skeleton || !job->local || !job->out) return SW_RESULT_INVALID_ARGUMENT;
    const sw_skeleton* skel = job->skeleton;
    /* The job trusts a built or loaded skeleton; this only guards the
     * sub-tree bitset against a header that was never validated. */
    if (skel->joints_count == 0 || skel->joints_count > SW_SKELETON_MAX_JOINTS)
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->subtree && job->subtree_root >= skel->joints_count) return SW_RESULT_INVALID_ARGUMENT;
    if (job->keep && (job->subtree || !sw_joint_subset_closed(skel, job->keep)))
        return SW_RESULT_INVALID_ARGUMENT;
    if (job->local_count < skel->packets_count || job->out_count < skel->joints_count)
        return SW_RESULT_BUFFER_TOO_SMALL;
    if (!sw__aligned16(job->local)) return SW_RESULT_MISALIGNED;
    const size_t out_bytes = (size_t)skel->joints_count * sizeof(sw_mat4);
    if (sw__overlaps(job->out, out_bytes, job->local,
                     (size_t)skel->packets_count * sizeof(sw_xform4)) ||
        sw__overlaps(job->out, out_bytes, skel, skel->size) ||
        sw__overlaps(job->out, out_bytes, job->root_transform,
                     job->root_transform ? sizeof(sw_mat4) : 0) ||
        sw__overlaps(job->out, out_bytes, job->keep, job->keep ? skel->packets_count : 0) ||
        sw__overlaps(job->out, out_bytes, job->rest_local,
                     job->keep && job->rest_local ? out_bytes : 0))
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

uint32_t sw_skeleton_rest_matrices(const sw_skeleton* skeleton, sw_mat4* out, uint32_t out_count) {
    if (!skeleton || !out || out_count < skeleton->joints_count) return 0;
    const sw_xform4* rest = sw_skeleton_rest_pose(skeleton);
    for (uint32_t j = 0; j < skeleton->joints_count; ++j)
        out[j] = sw_mat4_from_xform(sw_xform4_get(&rest[j >> 2], j & 3u));
    return skeleton->joints_count;
}

/* c = a * b, column-major 4x4: a column of c is the columns of a weighted
 * by a column of b (c may not alias a or b). */
static inline void sw__l2m_mul(const float* a, const float* b, float* c) {
#if SINEW_HAS_SSE2
    const __m128 a0 = _mm_loadu_ps(a), a1 = _mm_loadu_ps(a + 4), a2 = _mm_loadu_ps(a + 8),
                 a3 = _mm_loadu_ps(a + 12);
    for (uint32_t col = 0; col < 4u; ++col) {
        const float* bc = b + 4u * col;
        const __m128 r = _mm_add_ps(
            _mm_add_ps(_mm_mul_ps(a0, _mm_set1_ps(bc[0])), _mm_mul_ps(a1, _mm_set1_ps(bc[1]))),
            _mm_add_ps(_mm_mul_ps(a2, _mm_set1_ps(bc[2])), _mm_mul_ps(a3, _mm_set1_ps(bc[3]))));
        _mm_storeu_ps(c + 4u * col, r);
    }
#else
    float x[16], y[16], z[16];
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    for (uint32_t col = 0; col < 4u; ++col) {
        for (uint32_t row = 0; row < 4u; ++row) {
            z[4u * col + row] = x[row] * y[4u * col] + x[4u + row] * y[4u * col + 1u] +
                                x[8u + row] * y[4u * col + 2u] + x[12u + row] * y[4u * col + 3u];
        }
    }
    memcpy(c, z, sizeof z);
#endif
}

/* The job with a subset: the kept joints through the kernel (a bitset of
 * them), then the others, parent-first, at their rest offsets. */
static void sw__local_to_model_keep(const sw_local_to_model_job* job, const sw__soa_ops* ops) {
    const sw_skeleton* skel = job->skeleton;
    const uint32_t n = skel->joints_count;
    const int16_t* parents = sw_skeleton_parents(skel);
    uint32_t kept[SW_SKELETON_MAX_JOINTS / 32u];
    const uint32_t packets = skel->packets_count, words = (n + 31u) / 32u;
    for (uint32_t w = 0; w < words; ++w) { /* 4 bits per packet, 8 packets per word */
        uint32_t v = 0;
        for (uint32_t q = 0; q < 8u && 8u * w + q < packets; ++q)
            v |= (uint32_t)(job->keep[8u * w + q] & 15u) << (4u * q);
        kept[w] = v;
    }
    if (n & 31u) kept[n >> 5] &= (1u << (n & 31u)) - 1u;
    ops->local_to_model(job->local, parents, n, 0, kept, job->root_transform, job->out);
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    for (uint32_t j = 0; j < n; ++j) {
        if (kept[j >> 5] & (1u << (j & 31u))) continue;
        sw_mat4 made;
        const sw_mat4* m = job->rest_local;
        if (m) {
            m += j;
        } else {
            made = sw_mat4_from_xform(sw_xform4_get(&rest[j >> 2], j & 3u));
            m = &made;
        }
        const sw_mat4* parent = parents[j] >= 0 ? &job->out[parents[j]] : job->root_transform;
        if (parent)
            sw__l2m_mul(parent->m, m->m, job->out[j].m);
        else
            job->out[j] = *m;
    }
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
        ops->local_to_model(job->local, sw_skeleton_parents(skel), n, 0, NULL, job->root_transform,
                            job->out);
        return SW_RESULT_OK;
    }
    const int16_t* parents = sw_skeleton_parents(skel);
    const uint32_t first = job->subtree_root;
    /* Depth-first joint order (the usual one): the sub-tree is one range. */
    const uint32_t end = sw__subtree_range_end(parents, n, first);
    if (end) {
        ops->local_to_model(job->local, parents, end, first, NULL, job->root_transform, job->out);
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
    ops->local_to_model(job->local, parents, n, first, in_subtree, job->root_transform, job->out);
    return SW_RESULT_OK;
}

sw_result sw_local_to_model_job_run(const sw_local_to_model_job* job) {
    return sw__local_to_model_job_run_with(job, sw__soa_best());
}
