/* sinew/ik/foot.h: foot placement on uneven ground (2, 4 or more legs).
 *
 * A post-process on the animated local pose. For every foot, a ray goes down
 * through a caller callback in model space, from above the animated ankle to
 * below the character's floor (the plane the animation was made on, height
 * `floor_height` along `up`). Where it hits, the ankle is moved along `up` by
 * the ground's height above the floor, so it keeps its animated height above
 * what is under it (a planted foot lands on the step, a swinging foot clears
 * it by as much as it cleared the floor):
 *
 *     ankle_target = ankle + up * offset,   offset = dot(hit, up) - floor_height
 *
 * Then
 * - the pelvis joint is lowered (never raised above the animation) by the
 *   lowest foot offset below 0, and further when a foot target would be out
 *   of reach of its hip (leg length times SW_FOOT_REACH);
 * - each leg is bent with two-bone IK (sinew/ik/ik.h) so the ankle reaches its
 *   target; the knee keeps its animated bend plane, or bends towards `pole`;
 * - the foot (the ankle joint) keeps its animated model-space orientation,
 *   tilted by the rotation taking `up` to the ground normal, at most
 *   `max_tilt`.
 * Foot offsets, the pelvis offset and the normals are smoothed over time with
 * critically damped springs (sinew/procedural/spring.h), so a step or a slope never pops.
 * Rays that miss leave the foot at offset 0 with an upright normal.
 *
 * State lives in caller memory (sw_foot_state): zero it, and the first run
 * snaps every spring to its goal; set `started` to false again after a cut.
 *
 * Weight w in [0, 1] scales the pelvis and foot offsets and the tilt; at 0
 * the pose and the model matrices are left bit-identical (the springs still
 * advance).
 *
 * Model matrices: the job reads the model matrices of the pose and updates
 * them in place for the pelvis sub-tree (it re-runs local-to-model there), so
 * after the job they match the written pose.
 *
 *     sw_foot_state feet = {0};
 *     const sw_foot_leg legs[2] = {{.hip = lhip, .knee = lknee, .ankle = lankle},
 *                                  {.hip = rhip, .knee = rknee, .ankle = rankle}};
 *     sw_foot_job job = {
 *         .skeleton = skel, .model = model, .model_count = skel->joints_count,
 *         .pelvis = hips, .legs = legs, .legs_count = 2,
 *         .ray = my_ray, .ray_user = world, .dt = dt, .weight = 1.0f,
 *         .state = &feet, .pose = pose, .pose_count = skel->packets_count,
 *     };
 *     sw_result r = sw_foot_job_run(&job);
 *
 * Threads: the job touches its pose, model matrices and state; the callback
 * is called from the calling thread only.
 */
#ifndef SINEW_FOOT_H
#define SINEW_FOOT_H

#include "sinew/core/skeleton.h"
#include "sinew/procedural/spring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_FOOT_MAX_LEGS 8
#define SW_FOOT_DEFAULT_MAX_STEP_UP 0.5f      /* metres */
#define SW_FOOT_DEFAULT_MAX_STEP_DOWN 0.5f    /* metres */
#define SW_FOOT_DEFAULT_MAX_TILT 0.61086524f  /* radians (35 degrees) */
#define SW_FOOT_DEFAULT_FOOT_HALF_LIFE 0.05f  /* seconds */
#define SW_FOOT_DEFAULT_PELVIS_HALF_LIFE 0.1f /* seconds */
#define SW_FOOT_DEFAULT_TILT_HALF_LIFE 0.08f  /* seconds */
/* Fraction of the leg length (hip-knee + knee-ankle) a foot target may be
 * from its hip before the pelvis is lowered further. */
#define SW_FOOT_REACH 0.999f

/* Casts a ray from `from` along the unit direction `dir`, at most
 * `max_distance` far. On a hit returns true and sets *point (on the surface)
 * and *normal (unit, facing the ray's origin side). Space: whatever space the
 * caller of the job that takes it works in (model space for sw_foot_job,
 * the walker's world for sw_walker_job). */
typedef bool (*sw_ground_ray_fn)(void* user, sw_vec3 from, sw_vec3 dir, float max_distance,
                                 sw_vec3* point, sw_vec3* normal);

/* One leg: joints of a two-bone chain (hip an ancestor of knee, knee of ankle). */
typedef struct sw_foot_leg {
    uint32_t hip;   /* e.g. LeftUpLeg; a descendant of the pelvis joint */
    uint32_t knee;  /* e.g. LeftLeg */
    uint32_t ankle; /* e.g. LeftFoot */
    sw_vec3 pole;   /* model-space direction the knee bends towards; zero = keep the
                     * animated bend plane */
} sw_foot_leg;

/* Smoothed values of one foot. */
typedef struct sw_foot_leg_state {
    sw_spring_float offset; /* metres along up */
    sw_spring_vec3 normal;  /* ground normal (normalized when used) */
    sw_vec3 target;         /* the ankle target of the last run (model space) */
    bool grounded;          /* the last ray hit */
} sw_foot_leg_state;

/* Per-character state in caller memory; zero it before the first run. */
typedef struct sw_foot_state {
    sw_spring_float pelvis; /* metres along up, <= 0 once settled */
    sw_foot_leg_state legs[SW_FOOT_MAX_LEGS];
    bool started; /* set by the first run; false snaps the springs to their goals */
} sw_foot_state;

typedef struct sw_foot_job {
    const sw_skeleton* skeleton;
    sw_mat4* model;                /* model matrices of `pose`: read, and updated for the
                                    * pelvis sub-tree */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* optional: as given to local-to-model; NULL = identity */
    uint32_t pelvis;               /* joint lowered; an ancestor of every hip (e.g. Hips) */
    const sw_foot_leg* legs;
    uint32_t legs_count; /* 1..SW_FOOT_MAX_LEGS */
    sw_ground_ray_fn ray;
    void* ray_user;
    sw_vec3 up;             /* model-space up, normalized here; zero = +Y */
    float floor_height;     /* model-space height of the animation's floor along up; 0 = 0 */
    float max_step_up;      /* how far above the floor rays start; 0 = default */
    float max_step_down;    /* how far below the floor rays reach; 0 = default */
    float max_tilt;         /* radians in [0, pi/2]; 0 = SW_FOOT_DEFAULT_MAX_TILT */
    bool no_tilt;           /* true: feet keep their animated orientation */
    float foot_half_life;   /* seconds; 0 = default; negative = no smoothing */
    float pelvis_half_life; /* seconds; 0 = default; negative = no smoothing */
    float tilt_half_life;   /* seconds; 0 = default; negative = no smoothing */
    float dt;               /* seconds since the last run, finite, >= 0 */
    float weight;           /* [0, 1] */
    sw_foot_state* state;
    sw_xform4* pose;     /* local pose, read and written in place */
    uint32_t pose_count; /* >= skeleton->packets_count */
} sw_foot_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, legs, ray, state or pose; no
 * legs; pelvis or a leg joint out of range; a leg not in hip-knee-ankle
 * ancestor order or whose hip is not a descendant of the pelvis (or the
 * pelvis itself); non-finite up, pole or floor_height; a negative or
 * non-finite max_step_up or max_step_down; max_tilt NaN or outside
 * [0, pi/2]; a non-finite half-life; dt negative or not finite; weight NaN
 * or outside [0, 1]); LIMIT (more than SW_FOOT_MAX_LEGS legs);
 * BUFFER_TOO_SMALL (model_count, pose_count); MISALIGNED (pose); OVERLAP
 * (pose, model or state overlapping an input or each other); BAD_DATA
 * (check "bone length > 0": a hip-knee or knee-ankle distance below 1e-6). */
SINEW_API sw_result sw_foot_job_validate(const sw_foot_job* job);

/* Validates, casts one ray per leg, advances the springs by dt and writes the
 * pelvis translation, the leg rotations and the ankle rotations into the
 * pose, then updates the model matrices of the pelvis sub-tree. On failure
 * nothing is written. */
SINEW_API sw_result sw_foot_job_run(const sw_foot_job* job);

#ifdef __cplusplus
}
#endif

#endif
