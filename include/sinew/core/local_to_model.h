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
    /* Optional joint subset (sinew/core/skeleton.h), packets_count bytes;
     * not with subtree. Kept joints are computed from local as above (the
     * same matrices as without a subset); the others as if local held the
     * skeleton's rest value, without reading local. A subset built by
     * sw_joint_subset_from_detail is closed under parents; in one that is
     * not, a kept joint lies on its left-out parent's rest-based matrix.
     * NULL: all. */
    const uint8_t* keep;
} sw_local_to_model_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, local or out; subtree_root out of
 * range when subtree is set; keep with subtree; a skeleton header with 0 or more than
 * SW_SKELETON_MAX_JOINTS joints); BUFFER_TOO_SMALL; MISALIGNED (local); OVERLAP (out overlapping
 * the local pose, the skeleton, root_transform or keep). */
SINEW_API sw_result sw_local_to_model_job_validate(const sw_local_to_model_job* job);
/* Validates, then computes model matrices. On failure nothing is written. */
SINEW_API sw_result sw_local_to_model_job_run(const sw_local_to_model_job* job);

#ifdef __cplusplus
}
#endif

#endif
