/* sinew/retarget/retarget.h: carrying a pose from one skeleton onto another.
 *
 * A prepared map (sw_retarget_map, built once in caller memory from joint
 * pairs) says which source joint drives which target joint. Each frame the
 * job turns a source local pose into a target local pose:
 * - rotations go through each joint's rest orientation in MODEL space, so
 *   different rest poses, bone rolls and T vs A poses do not twist limbs:
 *   with Q the model-space rotations, for a pair (s, t)
 *       D = Q_s(pose) * inverse(Q_s(rest)),   Q_t = D * Q_t(rest),
 *   and the target's local rotation is inverse(Q_parent(t)) * Q_t;
 * - unmapped target joints keep their rest local transform (they follow
 *   their parent); mapped ones keep their rest local scale and their rest
 *   local translation (the target's own bone lengths) plus the source's
 *   translation away from its rest, carried through the parents' rest
 *   orientations and scaled: with P the parents' model rest rotations and
 *   S their model scales,
 *       t_t = rest_t + conj(P_t) * P_s * (t_s - rest_s) * root_scale * S_s / S_t
 *   (zero for the usual rigs whose joints only rotate);
 * - the root pair (the mapped target joint with the most mapped joints
 *   below it, the first in parent-first order on a tie: the pelvis/hips)
 *   also carries its translation: with g_s and g_t the heights of the
 *   source's and the target's ground (model y), its model position is
 *       p_t = root_scale * (p_s - g_s * Y) + g_t * Y,
 *   so root motion is scaled the same. Mapped target joints outside the root's
 *   sub-tree (feet of IK rigs hung beside the legs, as in RobotExpressive)
 *   are placed the same way (p_t from their source's p_s).
 *   root_scale 0 measures it from the rest poses: the root's height above
 *   the limbs' end joints (the feet; without limbs: above the lowest mapped
 *   joint) in the target over the same in the source (a leg-length ratio,
 *   +Y up);
 * - optional IK limbs (two-bone: e.g. hip, knee, ankle) put each limb's end
 *   joint on p_t of its source joint's model position (feet where the
 *   source put them relative to the ground, scaled), at
 *   `ik_weight`; first the root is lowered (by ik_weight times the most
 *   any limb needs) where a goal lies beyond 99.9% of its limb's reach,
 *   then each limb is solved (two-bone, bend plane kept) and its end joint
 *   gets back its retargeted model rotation.
 * Model space is the space of the skeletons' roots (no root transform); both
 * skeletons are assumed +Y up and facing the same way. Model rotations are
 * composed from local rotations (exact for uniform scale).
 */
#ifndef SINEW_RETARGET_H
#define SINEW_RETARGET_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most IK limbs of a map (two legs, two arms and room for more). */
#define SW_RETARGET_MAX_LIMBS 8

/* One source -> target joint pair. */
typedef struct sw_retarget_pair {
    uint32_t source; /* joint index in the source skeleton */
    uint32_t target; /* joint index in the target skeleton */
} sw_retarget_pair;

/* A two-bone chain of the target placed by IK on a source joint. */
typedef struct sw_retarget_limb {
    uint32_t start, mid, end; /* target joints, each an ancestor of the next (hip, knee, ankle) */
    uint32_t source_end;      /* source joint whose scaled model position is the goal */
} sw_retarget_limb;

typedef struct sw_retarget_map_desc {
    const sw_skeleton* source;
    const sw_skeleton* target;
    const sw_retarget_pair* pairs; /* at least 1; each target joint at most once */
    uint32_t pairs_count;
    float root_scale; /* model-space scale from source to target; 0: measured (see top) */
    const sw_retarget_limb* limbs; /* optional */
    uint32_t limbs_count;          /* <= SW_RETARGET_MAX_LIMBS */
    float source_ground;           /* model y of the source's ground; default 0 */
    float target_ground;           /* model y of the target's ground; default 0 */
} sw_retarget_map_desc;

/* Prepared map: fixed size, caller memory, filled by sw_retarget_map_init.
 * Read-only afterwards; may be shared between threads. */
typedef struct sw_retarget_map {
    uint32_t source_joints_count;
    uint32_t target_joints_count;
    uint32_t pairs_count;
    uint32_t limbs_count;
    int32_t root_target;                       /* target joint carrying the translation */
    int32_t root_source;                       /* its source joint */
    float root_scale;                          /* as given, or measured */
    float source_ground;                       /* from the desc; may be changed after init */
    float target_ground;                       /* from the desc; may be changed after init */
    int16_t source_of[SW_SKELETON_MAX_JOINTS]; /* per target joint: source or -1 */
    uint8_t placed[SW_SKELETON_MAX_JOINTS];    /* 1: translation from the source (see top) */
    sw_quat source_rest_model[SW_SKELETON_MAX_JOINTS]; /* model rest rotation per source joint */
    sw_quat target_rest_model[SW_SKELETON_MAX_JOINTS]; /* model rest rotation per target joint */
    float delta_scale[SW_SKELETON_MAX_JOINTS]; /* per target joint: root_scale * S_s / S_t */
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
} sw_retarget_map;

/* Prepares `map` from `desc`. The skeletons are not referenced by the map
 * (the job takes them again and checks their joint counts).
 * Fails: INVALID_ARGUMENT (NULL map, desc, skeletons or pairs; no pairs;
 * limbs_count without limbs; root_scale negative or not finite; a ground
 * not finite);
 * LIMIT (more than SW_RETARGET_MAX_LIMBS limbs); BAD_DATA with err: "pair
 * joint in range" (err->index the pair), "target joint mapped once", "limb
 * joints in ancestor order" (err->index the limb), "limb source in range",
 * "root height > 0" (root_scale 0 and a source or target whose root does not
 * stand above its limbs' ends or its lowest mapped joint). On failure *map is
 * left unchanged. */
SINEW_API sw_result sw_retarget_map_init(const sw_retarget_map_desc* desc, sw_retarget_map* map,
                                         sw_error* err);

/* Scratch bytes the job needs for `map` (16-byte aligned memory). */
SINEW_API size_t sw_retarget_scratch_size(const sw_retarget_map* map);

typedef struct sw_retarget_job {
    const sw_retarget_map* map;
    const sw_skeleton* source;    /* joints_count == map->source_joints_count */
    const sw_skeleton* target;    /* joints_count == map->target_joints_count */
    const sw_xform4* source_pose; /* source local pose, >= source->packets_count packets */
    uint32_t source_pose_count;
    float ik_weight; /* [0, 1]; 0: no IK (the limbs are not solved) */
    void* scratch;   /* >= sw_retarget_scratch_size(map) bytes, 16-byte aligned */
    size_t scratch_size;
    sw_xform4* out; /* target local pose, >= target->packets_count packets */
    uint32_t out_count;
} sw_retarget_job;

/* Fails: INVALID_ARGUMENT (NULL map, skeleton, pose, scratch or out; joint
 * counts differing from the map's; ik_weight NaN or outside [0, 1]);
 * BUFFER_TOO_SMALL (source_pose_count, out_count, scratch_size); MISALIGNED
 * (source_pose, out, scratch); OVERLAP (out or scratch overlapping an input
 * or each other). */
SINEW_API sw_result sw_retarget_job_validate(const sw_retarget_job* job);
/* Validates, then writes the target local pose (every joint, padding lanes
 * identity). Never allocates. On failure nothing is written. */
SINEW_API sw_result sw_retarget_job_run(const sw_retarget_job* job);

#ifdef __cplusplus
}
#endif

#endif
