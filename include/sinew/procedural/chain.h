/* sinew/procedural/chain.h: follow-the-leader chains and jiggle (Verlet chains on the pose).
 *
 * Tails, tentacles, ropes, hair strands, earrings, trains of wagons: a row of
 * points, each hanging behind the one before it.
 *
 * - Follow-the-leader (sw_chain_follow_job): the head moves freely; every
 *   other point moves along the line to its leader until it is exactly its
 *   segment length behind. Pure geometry, no time step, no state but the
 *   points themselves.
 * - Aim (sw_chain_aim_job): drives a joint chain from such points, turning
 *   each joint so the next one lies towards the next point, written back
 *   into the local pose with a weight.
 * - Jiggle (sw_jiggle_job): a Verlet chain simulated on top of the animated
 *   pose, whose joint positions are the goal: stiffness towards the pose,
 *   damping, gravity, segment lengths and sphere/capsule colliders, advanced
 *   in fixed sub-steps (1/120 s by default) with an accumulator and
 *   interpolation, so it moves the same at 30 and 240 frames per second. The
 *   result is written back with sw_chain_aim_job's rotations.
 *
 * Space: the jobs read the model matrices of the pose (sw_local_to_model_job)
 * and work in their space, "model space". Give local-to-model the
 * character's world transform as root_transform (and the same root_transform
 * here) and model space is the world: moving the character then swings the
 * jiggle chain. Points, gravity and colliders are in that space.
 *
 * Write-back (sw_ik_local_rotation of sinew/ik/ik.h): joint i, whose skeleton
 * parent has model-space rotation P, turned by the model-space rotation T at
 * weight w becomes local' = inverse(P) * slerp(identity, T, w) * P * local,
 * and weight 0 leaves the pose bit-identical. Only rotations
 * change; the chain root stays where the pose puts it. Exact for uniform
 * scale. The model matrices are not updated: re-run local-to-model after.
 *
 * Chains are joint indices, root first, each joint an ancestor of the next
 * (joints in between follow their parent); at most SW_CHAIN_MAX_JOINTS.
 *
 * Threads: jobs touch only their own fields and state.
 */
#ifndef SINEW_CHAIN_H
#define SINEW_CHAIN_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_CHAIN_MAX_JOINTS 64
#define SW_JIGGLE_DEFAULT_STEP (1.0f / 120.0f) /* seconds */
#define SW_JIGGLE_DEFAULT_MAX_STEPS 16u

/* ---- points from a pose ---- */

/* Model-space positions of the chain's joints (translation column of their
 * model matrices) into points[0..joints_count), and when lengths is not NULL
 * the distances between consecutive joints into lengths[0..joints_count - 1).
 * Memory: caller arrays of joints_count points and joints_count - 1 lengths.
 * Fails: INVALID_ARGUMENT (NULL model, joints or points; no joints; a joint
 * index not below model_count). */
SINEW_API sw_result sw_chain_points_from_model(const sw_mat4* model, uint32_t model_count,
                                               const uint32_t* joints, uint32_t joints_count,
                                               sw_vec3* points, float* lengths);

/* ---- follow-the-leader ---- */

/* Moves points[0] to `head`, then for i = 1.. moves points[i] along the line
 * from points[i - 1] to it until it is exactly lengths[i - 1] away (a point
 * that sits exactly on its leader is placed on the line continuing the
 * segment in front, or below the head, -Y, for the first one). The tail
 * follows the head's path: on a straight path it stays on it. Space: any
 * (usually world or model space). */
typedef struct sw_chain_follow_job {
    sw_vec3 head;           /* new position of points[0] */
    const float* lengths;   /* lengths[i]: distance from points[i] to points[i + 1], >= 0 */
    uint32_t lengths_count; /* >= points_count - 1 */
    sw_vec3* points;        /* read and written in place; points[0] is the head */
    uint32_t points_count;  /* >= 1 */
} sw_chain_follow_job;

/* Fails: INVALID_ARGUMENT (NULL points, or NULL lengths with more than one
 * point; no points; non-finite head; a negative or non-finite length);
 * BUFFER_TOO_SMALL (lengths_count); OVERLAP (points overlapping lengths). */
SINEW_API sw_result sw_chain_follow_job_validate(const sw_chain_follow_job* job);
/* Validates, then moves the points. On failure nothing is written. */
SINEW_API sw_result sw_chain_follow_job_run(const sw_chain_follow_job* job);

/* ---- aim a joint chain at points ---- */

/* Root first, each chain joint i < joints_count - 1 is turned by the
 * shortest rotation that takes the direction to chain joint i + 1 (where the
 * joints before have put it) to the direction of points[i + 1], at `weight`.
 * points[0] is not used (the root stays in place); the last joint is not
 * turned. A point on its joint leaves that joint as it is. */
typedef struct sw_chain_aim_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` (sw_local_to_model_job) */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model; NULL = identity */
    const uint32_t* joints;        /* chain, root first, each an ancestor of the next */
    uint32_t joints_count;         /* 2..SW_CHAIN_MAX_JOINTS */
    const sw_vec3* points;         /* model space, one per chain joint */
    uint32_t points_count;         /* >= joints_count */
    float weight;                  /* [0, 1]; 0 leaves the pose unchanged */
    sw_xform4* pose;               /* local pose, read and written in place */
    uint32_t pose_count;           /* >= skeleton->packets_count */
} sw_chain_aim_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, joints, points or pose;
 * fewer than 2 joints; a joint out of range or not an ancestor of the next;
 * a non-finite point; weight NaN or outside [0, 1]); LIMIT (more than
 * SW_CHAIN_MAX_JOINTS joints); BUFFER_TOO_SMALL (model_count, points_count,
 * pose_count); MISALIGNED (pose); OVERLAP (pose overlapping the model
 * matrices, the points, root_transform or the skeleton). */
SINEW_API sw_result sw_chain_aim_job_validate(const sw_chain_aim_job* job);
/* Validates, then writes the local rotations of all chain joints but the
 * last. On failure nothing is written. */
SINEW_API sw_result sw_chain_aim_job_run(const sw_chain_aim_job* job);

/* ---- jiggle ---- */

/* A capsule (segment a-b swept by radius) or, with a == b, a sphere, in model
 * space. Jiggle points are pushed out of it. */
typedef struct sw_jiggle_collider {
    sw_vec3 a;
    sw_vec3 b;
    float radius; /* metres, >= 0 */
} sw_jiggle_collider;

/* Simulation state of one chain point, model space. */
typedef struct sw_jiggle_point {
    sw_vec3 position;  /* at the last sub-step */
    sw_vec3 previous;  /* at the sub-step before (Verlet velocity = position - previous) */
    sw_vec3 goal;      /* the animated position at the last run */
    sw_vec3 step_goal; /* the animated position at the last sub-step */
} sw_jiggle_point;

/* Per-character state in caller memory. Zero-initialise it (with points set)
 * and the first run starts at rest on the pose; set `started` to false again
 * to teleport the chain back onto the pose (after a cut). */
typedef struct sw_jiggle_state {
    sw_jiggle_point* points; /* one per chain joint */
    uint32_t points_count;   /* >= the job's joints_count */
    float time;              /* seconds of accumulated time not yet simulated, [0, step) */
    bool started;            /* set by the first run */
} sw_jiggle_state;

/* Advances the jiggle chain by dt and writes it into the pose.
 *
 * Each sub-step of length `step` moves every point but the root (which is
 * pinned to the animated root position) by Verlet integration:
 *     x' = x + u + (x - x_prev - u) e^(-damping step)
 *            + (gravity + stiffness (x_parent + g_i - g_parent - x)) step^2
 * where g are the animated (goal) positions, interpolated linearly between
 * the previous run's pose and this one at the sub-step's time, and u = the
 * point's animated motion over the step. Damping thus slows the motion
 * relative to the animation (a chain carried along by a running character
 * is not dragged behind it), and the pull is towards the animated shape
 * hanging from the simulated parent. Then,
 * root to tip, each point is put back at its animated distance from its
 * parent and pushed out of the colliders (alternating up to 8 times, ending
 * with a push: when both cannot hold, the length gives way, so a point is
 * never left inside a collider unless colliders overlap). stiffness * step^2 is clamped to 1 for
 * stability.
 *
 * Time: sub-steps run on a fixed grid (`time` carries the remainder), at most
 * max_steps per run; the time beyond that is dropped (a huge dt cannot blow
 * up or stall a frame). The pose gets the positions interpolated between the
 * last two sub-steps, shifted so the root sits on its animated position; so
 * 30 and 240 frames per second give the same motion up to how the goal is
 * interpolated between frames.
 *
 * With stiffness > 0, damping > 0 and no gravity the chain comes to rest on
 * the animated pose. */
typedef struct sw_jiggle_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* model matrices of `pose` (the animated goal) */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model; NULL = identity */
    const uint32_t* joints;        /* chain, root first, each an ancestor of the next */
    uint32_t joints_count;         /* 2..SW_CHAIN_MAX_JOINTS */
    float dt;                      /* seconds since the last run, finite, >= 0 */
    float stiffness;               /* 1/s^2: pull towards the animated shape; 0 = none */
    float damping;                 /* 1/s: velocity decay rate; 0 = none */
    sw_vec3 gravity;               /* model-space acceleration, m/s^2; zero = none */
    float step;                    /* seconds per sub-step; 0 = SW_JIGGLE_DEFAULT_STEP */
    uint32_t max_steps;            /* sub-steps per run at most; 0 = SW_JIGGLE_DEFAULT_MAX_STEPS */
    const sw_jiggle_collider* colliders; /* optional */
    uint32_t colliders_count;
    float weight; /* [0, 1] blend of the written rotations; 0 = pose unchanged
                   * (the simulation still advances) */
    sw_jiggle_state* state;
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* >= skeleton->packets_count */
} sw_jiggle_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, joints, state,
 * state->points or pose; fewer than 2 joints; a joint out of range or not an
 * ancestor of the next; dt negative or not finite; stiffness or damping
 * negative or not finite; non-finite gravity; step negative, not finite or
 * above 1 s; weight NaN or outside [0, 1]; NULL colliders with a count; a
 * collider with a non-finite end or a negative or non-finite radius); LIMIT
 * (more than SW_CHAIN_MAX_JOINTS joints); BUFFER_TOO_SMALL (model_count,
 * state->points_count, pose_count); MISALIGNED (pose); OVERLAP (pose or
 * state overlapping an input or each other). */
SINEW_API sw_result sw_jiggle_job_validate(const sw_jiggle_job* job);
/* Validates, advances the state and writes the chain's local rotations (all
 * joints but the last). On failure neither the state nor the pose changes. */
SINEW_API sw_result sw_jiggle_job_run(const sw_jiggle_job* job);

#ifdef __cplusplus
}
#endif

#endif
