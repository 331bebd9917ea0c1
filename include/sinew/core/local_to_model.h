/* sinew/core/local_to_model.h: local pose -> model-space matrices.
 *
 * model[j] = model[parent[j]] * local[j] (root: root_transform * local[j]),
 * computed parent-first in one forward pass. With `subtree` set, only the
 * joint `subtree_root` and its descendants are recomputed; the other entries
 * of out must already hold valid model matrices (they are read for the
 * sub-tree root's parent, never written).
 */
#ifndef SINEW_LOCAL_TO_MODEL_H
#define SINEW_LOCAL_TO_MODEL_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_local_to_model_job {
    const sw_skeleton* skeleton;
    const sw_xform4* local;        /* local pose */
    uint32_t local_count;          /* >= skeleton->packets_count */
    const sw_mat4* root_transform; /* optional: model space of the roots' parent; NULL = identity */
    bool subtree;                  /* false: whole skeleton */
    uint32_t subtree_root;         /* joint index when subtree is set */
    sw_mat4* out;                  /* model-space matrix per joint */
    uint32_t out_count;            /* >= skeleton->joints_count */
    /* Optional joint subset (sinew/core/skeleton.h), packets_count bytes,
     * closed under parents; not with subtree. Kept joints are computed from
     * local as above (the same matrices as without a subset); each other
     * joint j gets model[parent[j]] * rest_local[j] (its rest offset, as if
     * local held the rest value), without reading local. NULL: all. */
    const uint8_t* keep;
    const sw_mat4* rest_local; /* with keep, optional: joints_count rest local matrices
                                * (sw_skeleton_rest_matrices); NULL: made from the rest pose */
} sw_local_to_model_job;

/* Each joint's rest local transform as a matrix (column-major, as
 * sw_mat4_from_xform) into out[0..joints_count): the rest_local of a
 * local-to-model job with a subset. Returns joints_count, or 0 (nothing
 * written) for NULL arguments or out_count < joints_count. */
SINEW_API uint32_t sw_skeleton_rest_matrices(const sw_skeleton* skeleton, sw_mat4* out,
                                             uint32_t out_count);

/* Fails: INVALID_ARGUMENT (NULL skeleton, local or out; subtree_root out of
 * range when subtree is set; keep with subtree, or not closed under parents; a skeleton header with
 * 0 or more than SW_SKELETON_MAX_JOINTS joints); BUFFER_TOO_SMALL; MISALIGNED (local); OVERLAP (out
 * overlapping the local pose, the skeleton, root_transform, keep or rest_local). */
SINEW_API sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job);
/* Validates, then computes model matrices. On failure nothing is written. */
SINEW_API sw_result sw_local_to_model_job_run(const sw_local_to_model_job* job);

#ifdef __cplusplus
}
#endif

#endif
