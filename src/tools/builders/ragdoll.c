/* A humanoid's ragdoll joints found by the retargeting code's canonical names. */
#include "sinew/tools/builders/ragdoll.h"

#include "retarget_internal.h"
#include "shared/fail.h"

sw_result sw_ragdoll_humanoid_find(const sw_skeleton* skeleton, sw_ragdoll_humanoid_joints* out,
                                   sw_error* err) {
    if (!skeleton || !out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments", 0, -1);
    int32_t bones[SW_RETARGET_BONE_COUNT];
    sw__rt_bones(skeleton, bones);
    sw_ragdoll_humanoid_joints h;
    h.hips = bones[SW_RETARGET_BONE_HIPS];
    h.neck = bones[SW_RETARGET_BONE_NECK];
    h.head = bones[SW_RETARGET_BONE_HEAD];
    h.upper_arm[0] = bones[SW_RETARGET_BONE_LEFT_UPPER_ARM];
    h.forearm[0] = bones[SW_RETARGET_BONE_LEFT_LOWER_ARM];
    h.hand[0] = bones[SW_RETARGET_BONE_LEFT_HAND];
    h.upper_arm[1] = bones[SW_RETARGET_BONE_RIGHT_UPPER_ARM];
    h.forearm[1] = bones[SW_RETARGET_BONE_RIGHT_LOWER_ARM];
    h.hand[1] = bones[SW_RETARGET_BONE_RIGHT_HAND];
    h.thigh[0] = bones[SW_RETARGET_BONE_LEFT_UPPER_LEG];
    h.shin[0] = bones[SW_RETARGET_BONE_LEFT_LOWER_LEG];
    h.foot[0] = bones[SW_RETARGET_BONE_LEFT_FOOT];
    h.thigh[1] = bones[SW_RETARGET_BONE_RIGHT_UPPER_LEG];
    h.shin[1] = bones[SW_RETARGET_BONE_RIGHT_LOWER_LEG];
    h.foot[1] = bones[SW_RETARGET_BONE_RIGHT_FOOT];
    /* Spine: the joints above the hips up to the chest (retarget_internal.h). */
    int32_t chain[SW_SKELETON_MAX_JOINTS];
    const uint32_t n = sw__rt_spine(skeleton, bones, chain);
    h.chest = n > 0 ? chain[n - 1] : -1;
    h.spine = n > 1 ? chain[0] : -1;
    *out = h;
    const struct {
        int32_t joint;
        sw_ragdoll_part part;
    } required[] = {
        {h.hips, SW_RAGDOLL_PART_HIPS},
        {h.head, SW_RAGDOLL_PART_HEAD},
        {h.upper_arm[0], SW_RAGDOLL_PART_LEFT_UPPER_ARM},
        {h.forearm[0], SW_RAGDOLL_PART_LEFT_FOREARM},
        {h.hand[0], SW_RAGDOLL_PART_LEFT_FOREARM},
        {h.upper_arm[1], SW_RAGDOLL_PART_RIGHT_UPPER_ARM},
        {h.forearm[1], SW_RAGDOLL_PART_RIGHT_FOREARM},
        {h.hand[1], SW_RAGDOLL_PART_RIGHT_FOREARM},
        {h.thigh[0], SW_RAGDOLL_PART_LEFT_THIGH},
        {h.shin[0], SW_RAGDOLL_PART_LEFT_SHIN},
        {h.foot[0], SW_RAGDOLL_PART_LEFT_SHIN},
        {h.thigh[1], SW_RAGDOLL_PART_RIGHT_THIGH},
        {h.shin[1], SW_RAGDOLL_PART_RIGHT_SHIN},
        {h.foot[1], SW_RAGDOLL_PART_RIGHT_SHIN},
    };
    for (uint32_t i = 0; i < sizeof required / sizeof required[0]; ++i) {
        if (required[i].joint < 0)
            return sw__fail(err, SW_RESULT_NOT_FOUND, "humanoid joint", 0, required[i].part);
    }
    if (h.chest < 0) return sw__fail(err, SW_RESULT_NOT_FOUND, "chest", 0, SW_RAGDOLL_PART_CHEST);
    return SW_RESULT_OK;
}
