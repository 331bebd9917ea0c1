/* sinew/procedural/spine.h: spine wander, an IK post-process that keeps hits and blocks alive.
 *
 * The same block or hit reaction played twice looks canned. The wander job
 * moves the end of a spine chain (e.g. CMU LowerBack, Spine, Spine1, Neck1,
 * Head: Neck sits on Spine1 with a zero offset, so it stays off the chain
 * and follows its parent) to a target
 * that wanders around where the animation (FK) puts it, and solves the chain
 * to it with FABRIK or CCD (sinew/ik/ik.h), blended with the animation by a
 * weight:
 *
 *     target = fk_tip + offset(time),   offset_k = range_k * n_k(time)
 *
 * where n_k, one per model axis, is smooth seeded noise in [-1, 1]: a sum of
 * three sines with weights 0.5, 0.3 and 0.2, at `frequency` times 1, about 2
 * and about 3.5, whose exact ratios and phases come from the seed. So the
 * offset is a pure function of (range, frequency, seed, time): deterministic,
 * different for different seeds, smooth in time, and never beyond the range
 * (|offset_k| <= range_k). Give each hit its own seed (a counter) and the
 * time since the hit; fade `weight` in and out with the reaction.
 *
 * Like every IK job it reads the model matrices of the pose, writes local
 * rotations back (local' = inverse(P) * T^w * P * local) and leaves the model
 * matrices as they were: re-run local-to-model afterwards. Weight 0 leaves
 * the pose bit-identical.
 *
 *     const sw_spine_wander_job job = {
 *         .skeleton = skel, .model = model, .model_count = skel->joints_count,
 *         .joints = spine, .joints_count = 6,
 *         .range = sw_vec3_make(0.04f, 0.02f, 0.04f), .seed = hit_id,
 *         .time = t_since_hit, .weight = fade,
 *         .pose = pose, .pose_count = skel->packets_count,
 *     };
 *     sw_result r = sw_spine_wander_job_run(&job);
 */
#ifndef SINEW_SPINE_H
#define SINEW_SPINE_H

#include "sinew/ik/ik.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_SPINE_DEFAULT_FREQUENCY 0.7f /* Hz */

typedef enum sw_spine_solver {
    SW_SPINE_SOLVER_DEFAULT = 0, /* FABRIK */
    SW_SPINE_SOLVER_FABRIK,
    SW_SPINE_SOLVER_CCD
} sw_spine_solver;

/* The wander offset at `time` seconds (model-space metres): component k is
 * range_k * n_k(time) as described above, |offset_k| <= |range_k|.
 * frequency <= 0 or not finite means SW_SPINE_DEFAULT_FREQUENCY; a
 * non-finite time gives zero. Pure; no failure. */
SINEW_API sw_vec3 sw_spine_wander_offset(sw_vec3 range, float frequency, uint32_t seed, float time);

typedef struct sw_spine_wander_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model */
    const uint32_t* joints;        /* spine chain, root first; the last joint wanders */
    uint32_t joints_count;         /* 2..SW_IK_MAX_CHAIN */
    const sw_ik_limit* limits;     /* optional: one per chain joint (sinew/ik/ik.h) */
    sw_vec3 range;                 /* metres along model X, Y, Z, each >= 0 */
    float frequency;               /* Hz; 0 = SW_SPINE_DEFAULT_FREQUENCY */
    uint32_t seed;                 /* any value */
    float time;                    /* seconds (e.g. since the hit), finite */
    sw_spine_solver solver;
    uint32_t iterations; /* 0 = SW_IK_DEFAULT_ITERATIONS */
    float tolerance;     /* model units; 0 = SW_IK_DEFAULT_TOLERANCE */
    float weight;        /* [0, 1]; 0 leaves the pose unchanged */
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* >= skeleton->packets_count */
    sw_vec3* target;     /* optional out: the model-space target the tip was sent to */
} sw_spine_wander_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, joints or pose; a range
 * component negative or not finite; frequency negative or not finite; time
 * not finite; unknown solver; and everything sw_ik_fabrik_job_validate or
 * sw_ik_ccd_job_validate refuses for the chain, limits, weight, tolerance);
 * LIMIT; BUFFER_TOO_SMALL; MISALIGNED; OVERLAP (also target overlapping the
 * pose or an input); BAD_DATA (check "bone length > 0"). */
SINEW_API sw_result sw_spine_wander_job_validate(const sw_spine_wander_job* job);
/* Validates, then solves the chain towards the wandering target and writes
 * the local rotations of its joints (all but the last) and *target. On
 * failure nothing is written. */
SINEW_API sw_result sw_spine_wander_job_run(const sw_spine_wander_job* job);

#ifdef __cplusplus
}
#endif

#endif
