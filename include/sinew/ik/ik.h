/* sinew/ik/ik.h: inverse kinematics on the local pose (two-bone, FABRIK, CCD, look-at).
 *
 * The solvers run after blending. Each reads the model-space matrices of the
 * pose it edits (from sw_local_to_model_job), finds rotations in model space,
 * and writes them back into the local pose, in place:
 *
 *     local' = inverse(P) * T^w * P * local
 *
 * where T is the model-space rotation found for the joint, P the model-space
 * rotation of the joint's parent (its matrix columns normalized, so scale is
 * stripped; a root uses `root_transform`, or identity), and T^w the rotation
 * slerped from identity by the weight w in [0, 1]. Weight 0 leaves the pose
 * bit-identical, so a solver fades in and out without popping. Only
 * rotations are written; translations and scales stay as animated. The
 * formula is exact for uniform scale in the parents.
 *
 * The model matrices are an input and are not updated: after a solver, re-run
 * local-to-model for the sub-tree it changed before reading model space again
 * (another solver, skinning):
 *
 *     sw_ik_two_bone_job leg = {
 *         .skeleton = skel, .model = model, .model_count = skel->joints_count,
 *         .start_joint = hip, .mid_joint = knee, .end_joint = ankle,
 *         .target = foot_target, .pole_mode = SW_IK_POLE_MODE_DIRECTION,
 *         .pole = sw_vec3_make(0, 0, 1), .weight = 1.0f,
 *         .pose = pose, .pose_count = skel->packets_count, .reached = &reached,
 *     };
 *     sw_result r = sw_ik_two_bone_job_run(&leg);
 *     const sw_local_to_model_job l2m = {
 *         .skeleton = skel, .local = pose, .local_count = skel->packets_count,
 *         .subtree = true, .subtree_root = hip,
 *         .out = model, .out_count = skel->joints_count,
 *     };
 *     if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
 *
 * Chains are given as joint indices, root first; each joint must be an
 * ancestor of the next (joints in between, such as twist bones, follow their
 * parent). Targets, poles and directions are in model space (the space of
 * the model matrices). Angles are in radians.
 *
 * Joint limits (sw_ik_limit), shared by FABRIK and CCD, constrain the
 * direction of the bone that starts at a chain joint (towards the next chain
 * joint) relative to its reference direction: the previous bone of the chain,
 * or for the first joint the direction from its skeleton parent to it (the
 * bone's own direction in the input pose when the joint is a root or sits on
 * its parent).
 * - HINGE: the bone stays in the plane through the joint perpendicular to
 *   `axis` (given in the space of the joint's skeleton parent, so it turns
 *   with the parent), at a signed angle about `axis` from the reference
 *   direction (projected onto that plane) within [min_angle, max_angle]. For
 *   a knee: the knee axis, 0 = straight, max_angle = how far it folds.
 *   An angle outside the range goes to the nearer end (around the circle).
 *   CCD turns a hinge joint about its axis only.
 * - CONE: the angle between the bone and the reference direction is at most
 *   `cone_angle`.
 * FABRIK applies the limits in both passes (tip to root: the fold at each
 * joint; root to tip: as above), so the result respects them; against
 * one-sided hinges that ask for a fold the other way it can stall short of
 * the target where CCD gets there.
 *
 * Threads: jobs touch only their own fields; different jobs may run on
 * different threads when their poses differ.
 */
#ifndef SINEW_IK_H
#define SINEW_IK_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest chain for FABRIK, CCD and look-at. */
#define SW_IK_MAX_CHAIN 64
#define SW_IK_DEFAULT_ITERATIONS 10u
/* Most FABRIK and CCD iterations a job may ask for (LIMIT above): a solve
 * costs at most this many passes over SW_IK_MAX_CHAIN joints. */
#define SW_IK_MAX_ITERATIONS 1000u
#define SW_IK_DEFAULT_TOLERANCE 1e-4f /* metres (model units) */

/* ---- write-back ---- */

/* The new local rotation of a joint whose parent has model-space rotation
 * `parent_model` when the model-space rotation `rotation` is applied to it at
 * `weight` (clamped to [0, 1]):
 * normalize(conj(parent_model) * slerp(identity, rotation, weight) * parent_model * local).
 * Weight 0 returns `local` unchanged (the same bits). Inputs need not be
 * normalized (they are normalized here; zero gives identity). */
SINEW_API sw_quat sw_ik_local_rotation(sw_quat parent_model, sw_quat local, sw_quat rotation,
                                       float weight);

/* Applies one model-space rotation to one joint of a local pose. */
typedef struct sw_ik_rotate_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` (sw_local_to_model_job) */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model; NULL = identity */
    uint32_t joint;
    sw_quat rotation;    /* model space; normalized here (zero: identity) */
    float weight;        /* [0, 1]; 0 leaves the pose unchanged */
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* >= skeleton->packets_count */
} sw_ik_rotate_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model or pose; joint out of range;
 * weight NaN or outside [0, 1]; non-finite rotation); BUFFER_TOO_SMALL
 * (model_count, pose_count); MISALIGNED (pose); OVERLAP (pose overlapping
 * the model matrices, root_transform or the skeleton). */
SINEW_API sw_result sw_ik_rotate_job_validate(const sw_ik_rotate_job* job);
/* Validates, then writes the joint's new local rotation. */
SINEW_API sw_result sw_ik_rotate_job_run(const sw_ik_rotate_job* job);

/* ---- helpers ---- */

/* Unit direction from `joint` to its descendant `child` at the rest pose,
 * in the local space of `joint` (the forward axis of a look-at when the bone
 * points where the joint looks). Returns the zero vector when an index is out
 * of range, `child` is not a descendant of `joint`, or both sit at the same
 * place. */
SINEW_API sw_vec3 sw_ik_forward_from_rest(const sw_skeleton* skeleton, uint32_t joint,
                                          uint32_t child);

/* Indices of a two-bone chain by names: out[0] = start, out[1] = mid,
 * out[2] = end, where start is an ancestor of mid and mid of end.
 * Fails: INVALID_ARGUMENT (NULL argument); NOT_FOUND (unknown name, or the
 * joints not in that ancestor order). */
SINEW_API sw_result sw_ik_find_two_bone(const sw_skeleton* skeleton, const char* start,
                                        const char* mid, const char* end, uint32_t out[3]);

/* ---- two-bone IK ---- */

typedef enum sw_ik_pole_mode {
    SW_IK_POLE_MODE_NONE = 0, /* keep the current bend plane */
    SW_IK_POLE_MODE_TARGET,   /* `pole` is a model-space point the mid joint bends towards */
    SW_IK_POLE_MODE_DIRECTION /* `pole` is a model-space direction the mid joint bends towards */
} sw_ik_pole_mode;

/* Places the end joint on `target` by turning the start and mid joints
 * (exact law of cosines), the mid joint bending towards the pole.
 * - The mid joint turns about the current bend-plane normal (its hinge), the
 *   start joint then points the limb at the target and turns about the
 *   start-target axis so the mid joint lies on the pole's side (pole
 *   collinear with the limb, or no pole: the current bend plane is kept),
 *   then by `twist` about that axis.
 * - A target out of reach is clamped: the limb straight, pointing at it. A
 *   target closer than |upper - lower| leaves the limb folded to that
 *   distance, pointing at it. A target on the start joint keeps the limb's
 *   current direction.
 * - softness s in [0, 1) eases the end of the reach: with L the full reach
 *   and d the distance to the target, past L * (1 - s) the reached distance
 *   is L * (1 - s) + L * s * (1 - exp(-(d - L * (1 - s)) / (L * s))), which
 *   grows monotonically and approaches L without snapping straight.
 * - end_rotation (model space) with end_rotation_weight > 0 also turns the
 *   end joint, at weight * end_rotation_weight.
 * Lengths are measured from the model matrices: the start-mid and mid-end
 * distances. */
typedef struct sw_ik_two_bone_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model */
    uint32_t start_joint;          /* e.g. upper leg; an ancestor of mid_joint */
    uint32_t mid_joint;            /* e.g. knee; an ancestor of end_joint */
    uint32_t end_joint;            /* e.g. ankle */
    sw_vec3 target;                /* model space */
    sw_ik_pole_mode pole_mode;
    sw_vec3 pole;              /* point or direction, per pole_mode */
    float weight;              /* [0, 1]; 0 leaves the pose unchanged */
    float softness;            /* [0, 1); 0 = none */
    float twist;               /* radians about the start-target axis; 0 = none */
    sw_quat end_rotation;      /* model-space rotation for the end joint */
    float end_rotation_weight; /* [0, 1]; 0 = end joint not turned (end_rotation unused) */
    sw_xform4* pose;           /* local pose, read and written in place */
    uint32_t pose_count;       /* >= skeleton->packets_count */
    bool* reached;             /* optional: set when the solve (at weight 1) puts the end
                                * joint on the target within 1e-4 of the limb length */
} sw_ik_two_bone_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model or pose; a joint out of
 * range or not in ancestor order; non-finite target, pole, twist or
 * end_rotation; zero pole direction in DIRECTION mode; unknown pole mode;
 * weight or end_rotation_weight NaN or outside [0, 1]; softness NaN or
 * outside [0, 1)); BUFFER_TOO_SMALL; MISALIGNED (pose); OVERLAP (pose or
 * reached overlapping an input, or each other); BAD_DATA (check "bone length
 * > 0": the start-mid or mid-end distance is below 1e-6 or not finite). */
SINEW_API sw_result sw_ik_two_bone_job_validate(const sw_ik_two_bone_job* job);
/* Validates, then writes the local rotations of start and mid (and end when
 * end_rotation_weight > 0) and *reached. On failure nothing is written. */
SINEW_API sw_result sw_ik_two_bone_job_run(const sw_ik_two_bone_job* job);

/* What a two-bone solve finds, before the weight: model-space rotations, each
 * about its own joint in the input pose (the mid joint's before the start
 * joint turns), as sw_ik_rotate_job takes them. */
typedef struct sw_ik_two_bone_rotations {
    sw_quat start; /* start joint, unit */
    sw_quat mid;   /* mid joint, unit */
    bool reached;  /* as sw_ik_two_bone_job.reached */
} sw_ik_two_bone_rotations;

/* Validates, then solves without writing anything but *out (`weight`,
 * `end_rotation`, `end_rotation_weight` and `reached` unused; `pose` is
 * validated, not read). Writing out->start and out->mid with two
 * sw_ik_rotate_job runs at the job's weight gives what sw_ik_two_bone_job_run
 * writes for them, up to float rounding (the run leaves normalizing them to
 * its write-back). Memory: out is the caller's.
 * Fails: as sw_ik_two_bone_job_validate, plus INVALID_ARGUMENT for a NULL out
 * and OVERLAP when out overlaps an input; on failure *out is untouched. */
SINEW_API sw_result sw_ik_two_bone_job_solve(const sw_ik_two_bone_job* job,
                                             sw_ik_two_bone_rotations* out);

/* ---- limits (FABRIK and CCD) ---- */

typedef enum sw_ik_limit_type {
    SW_IK_LIMIT_TYPE_NONE = 0,
    SW_IK_LIMIT_TYPE_HINGE,
    SW_IK_LIMIT_TYPE_CONE
} sw_ik_limit_type;

/* Limit of one chain joint (see the top of this file). */
typedef struct sw_ik_limit {
    sw_ik_limit_type type;
    sw_vec3 axis;         /* HINGE: axis in the skeleton parent's space (normalized here) */
    float min_angle;      /* HINGE: radians, in [-pi, pi] */
    float max_angle;      /* HINGE: radians, in [min_angle, pi] */
    float cone_angle;     /* CONE: radians, in [0, pi] */
    float max_step_angle; /* CCD only: most the joint turns per iteration; 0 = unlimited */
} sw_ik_limit;

/* ---- FABRIK ---- */

/* Forward And Backward Reaching IK over a chain of any length (at least 2
 * joints, root first). Positions come from the model matrices; each
 * iteration pulls the tip onto the target (tip to root), bends the
 * intermediate joints towards the pole (each turned about the axis through
 * its two neighbours), then puts the root back (root to tip) applying the
 * limits, until the tip is within `tolerance` of the target. A target out of
 * reach gives a straight chain pointing at it (then limited). A chain lying
 * straight along the root-target line is first nudged off it (1e-3 of its
 * length, towards the pole or any perpendicular) so it can bend. The solved
 * positions become rotations, each bone turned from its old to its new
 * direction (sw_quat_from_to, accumulated down the chain), written back with
 * `weight`. The root stays where it is; the last joint is not turned. */
typedef struct sw_ik_fabrik_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model */
    const uint32_t* joints;        /* chain, root first, each an ancestor of the next */
    uint32_t joints_count;         /* 2..SW_IK_MAX_CHAIN */
    const sw_ik_limit* limits;     /* optional: one per chain joint */
    sw_vec3 target;                /* model space */
    bool use_pole;
    sw_vec3 pole;        /* model-space direction the chain bends towards */
    float weight;        /* [0, 1] */
    uint32_t iterations; /* 0 = SW_IK_DEFAULT_ITERATIONS; at most SW_IK_MAX_ITERATIONS */
    float tolerance;     /* model units; 0 = SW_IK_DEFAULT_TOLERANCE */
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* >= skeleton->packets_count */
    float* distance;     /* optional: tip-target distance after the solve (weight 1) */
} sw_ik_fabrik_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, joints or pose; fewer than
 * 2 joints; a joint out of range or not in ancestor order; non-finite
 * target or pole; zero pole with use_pole; weight NaN or outside [0, 1];
 * negative or non-finite tolerance; a limit with an unknown type, a zero or
 * non-finite hinge axis, hinge angles outside [-pi, pi] or min > max, a cone
 * angle outside [0, pi], a negative or non-finite max_step_angle); LIMIT
 * (more than SW_IK_MAX_CHAIN joints, more than SW_IK_MAX_ITERATIONS
 * iterations); BUFFER_TOO_SMALL; MISALIGNED (pose);
 * OVERLAP (pose or distance overlapping an input, or each other); BAD_DATA
 * (check "bone length > 0": two consecutive chain joints closer than 1e-6). */
SINEW_API sw_result sw_ik_fabrik_job_validate(const sw_ik_fabrik_job* job);
/* Validates, then writes the local rotations of the chain's joints (all but
 * the last) and *distance. On failure nothing is written. */
SINEW_API sw_result sw_ik_fabrik_job_run(const sw_ik_fabrik_job* job);

/* ---- CCD ---- */

/* Cyclic Coordinate Descent over a chain (at least 2 joints, root first):
 * each iteration turns every joint from the one before the tip back to the
 * root so that the tip moves towards the target (the shortest rotation
 * taking the joint-tip direction to the joint-target direction), at most
 * the joint's max_step_angle, then applies its hinge or cone limit; stops
 * when the tip is within `tolerance`. Written back with `weight`. */
typedef struct sw_ik_ccd_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model */
    const uint32_t* joints;        /* chain, root first, each an ancestor of the next */
    uint32_t joints_count;         /* 2..SW_IK_MAX_CHAIN */
    const sw_ik_limit* limits;     /* optional: one per chain joint */
    sw_vec3 target;                /* model space */
    float weight;                  /* [0, 1] */
    uint32_t iterations;           /* 0 = SW_IK_DEFAULT_ITERATIONS; at most SW_IK_MAX_ITERATIONS */
    float tolerance;               /* model units; 0 = SW_IK_DEFAULT_TOLERANCE */
    sw_xform4* pose;               /* local pose, read and written in place */
    uint32_t pose_count;           /* >= skeleton->packets_count */
    float* distance;               /* optional: tip-target distance after the solve (weight 1) */
} sw_ik_ccd_job;

/* Fails: as sw_ik_fabrik_job_validate (without the pole). */
SINEW_API sw_result sw_ik_ccd_job_validate(const sw_ik_ccd_job* job);
/* Validates, then writes the local rotations of the chain's joints (all but
 * the last) and *distance. On failure nothing is written. */
SINEW_API sw_result sw_ik_ccd_job_run(const sw_ik_ccd_job* job);

/* ---- look-at / aim ---- */

/* One joint of a look-at chain. */
typedef struct sw_ik_look_at_joint {
    uint32_t joint;
    float share; /* [0, 1]: fraction of the remaining rotation this joint takes */
} sw_ik_look_at_joint;

/* Turns the forward axis of the last joint of a chain (spine, neck, head)
 * towards `target`. The wanted direction, from the last joint to the target,
 * is first clamped to within `limit_angle` of the current forward direction
 * (turned from it by at most the limit). Then, root first, each joint takes
 * its share of the rotation still needed, the shortest rotation from the
 * current forward to the wanted direction (sw_quat_from_to; opposite
 * directions turn about an arbitrary perpendicular axis), recomputed after
 * the joints before it have turned (the last joint moves with them). With
 * the last share 1 the forward axis ends on the wanted direction. With `up`
 * set, the last joint then turns about its forward axis so that `up` lies in
 * the vertical plane of the forward axis, on the side of `model_up` (skipped
 * when forward is within 1e-3 rad of vertical). Written back with `weight`. */
typedef struct sw_ik_look_at_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;              /* model matrices of `pose` */
    uint32_t model_count;              /* >= skeleton->joints_count */
    const sw_mat4* root_transform;     /* optional: as given to local-to-model */
    const sw_ik_look_at_joint* joints; /* root first, each an ancestor of the next */
    uint32_t joints_count;             /* 1..SW_IK_MAX_CHAIN */
    sw_vec3 forward;                   /* forward axis in the last joint's local space */
    sw_vec3 up;                        /* optional: up axis in the last joint's local space */
    sw_vec3 model_up;                  /* model-space up; zero = +Y */
    sw_vec3 target;                    /* model space */
    float limit_angle;                 /* radians in [0, pi]; 0 = pi (no limit) */
    float weight;                      /* [0, 1] */
    sw_xform4* pose;                   /* local pose, read and written in place */
    uint32_t pose_count;               /* >= skeleton->packets_count */
} sw_ik_look_at_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, joints or pose; no joints; a
 * joint out of range or not in ancestor order; share NaN or outside [0, 1];
 * zero or non-finite forward; non-finite up, model_up or target; up parallel
 * to forward; limit_angle NaN or outside [0, pi]; weight NaN or outside
 * [0, 1]); LIMIT (more than SW_IK_MAX_CHAIN joints); BUFFER_TOO_SMALL;
 * MISALIGNED (pose); OVERLAP (pose overlapping an input). */
SINEW_API sw_result sw_ik_look_at_job_validate(const sw_ik_look_at_job* job);
/* Validates, then writes the local rotations of the chain's joints. A target
 * on the last joint leaves the pose unchanged. On failure nothing is written. */
SINEW_API sw_result sw_ik_look_at_job_run(const sw_ik_look_at_job* job);

#ifdef __cplusplus
}
#endif

#endif
