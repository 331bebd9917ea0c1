/* sinew/procedural/walker.h: a procedural walker for creatures with any number of legs.
 *
 * Spiders, crabs, robots, centipedes: the body moves where the game steers
 * it and the legs step by themselves.
 *
 * - Each leg has a rest foot position relative to the body. Its ideal
 *   position is that rest position turned by the body's heading, placed on
 *   the ground under it (a ray down through the caller's callback).
 * - A planted foot stays exactly where it landed. When it has drifted more
 *   than `stride` from its ideal position (horizontally), it steps: it lifts
 *   and travels along an arc (`step_height`) over `step_duration` to a
 *   target predicted ahead from the body's velocity and turn rate: its ideal
 *   position half a step duration after the landing, so the foot lands
 *   ahead and drifts back through its ideal position while planted. The
 *   target is predicted again every frame of the step (the body may turn)
 *   and is where the foot lands.
 * - Legs belong to gait groups: legs of one group step together and only one
 *   group is in the air at a time, so a leg never lifts while a leg of
 *   another group (its partner or neighbour) is airborne. A group lifts when
 *   one of its legs passes `stride`; its other legs join when past half of
 *   it. When several groups are due, the one that has waited longest goes.
 *   Once the body has stopped (below 1 cm/s and 0.01 rad/s), legs more than
 *   a quarter stride from their ideal positions step back to them, group by
 *   group, so a creature that stops settles into its rest stance.
 * - Stride: with `stride_speed` set, stride and step timing follow the
 *   feet's speed over the ground (the body's velocity plus its turn at each
 *   leg's rest position, averaged over the legs), as creatures lengthen and
 *   quicken their steps together: with r = that speed / stride_speed,
 *   clamped to [1/4, 4], a foot steps at stride * sqrt(r) and its step lasts
 *   step_duration / sqrt(r). Walking twice as fast takes steps 1.41 times as
 *   long and as quick; turning in place and creeping take short steps.
 * - The body's height follows the ground under the ideal foot positions (the
 *   mean of the ray hits) at `height` above it, lowered by up to `move_dip`
 *   while moving, and lowered under overhead obstacles (rays up from the
 *   ground at the body and at each ideal foot position, keeping `clearance`
 *   below what they hit) but never below `min_height`. Its tilt follows a
 *   plane fitted through the ground points (at most `max_tilt`). Height,
 *   tilt, velocity and turn rate are smoothed with springs and dampers
 *   (sinew/procedural/spring.h).
 *
 * Space: the walker lives in a world with +Y up; inputs, rays and outputs
 * are in that world. The body's local frame has +X to the right, +Y up and
 * +Z forward (heading 0 walks along world +Z).
 *
 * State lives in caller memory (sw_walker_state, fixed size, no pointers):
 * sw_walker_init places the body and plants the feet at their ideal
 * positions; sw_walker_job_run advances it by dt. The result is a pure
 * function of the inputs and the callback: the same inputs give the same
 * bits.
 *
 * With a skeleton, sw_walker_pose_job bends each leg's joint chain (two-bone
 * or FABRIK, sinew/ik/ik.h) so its tip reaches the foot position. Without one,
 * use the state's positions directly (debug drawing, particles, a mesh of
 * your own).
 *
 *     sw_walker_state st;
 *     sw_walker_init(&desc, sw_vec3_make(0, 0, 0), 0.0f, &st);
 *     sw_walker_job job = {.desc = &desc, .state = &st, .velocity = v,
 *                          .turn_rate = 0.3f, .dt = dt};
 *     sw_walker_job_run(&job);                // every frame
 *     sw_mat4 body = sw_walker_body_matrix(&st);
 *
 * Threads: the jobs touch only their state and pose; the callback is called
 * from the calling thread.
 */
#ifndef SINEW_WALKER_H
#define SINEW_WALKER_H

#include "sinew/core/skeleton.h"
#include "sinew/ik/foot.h"
#include "sinew/ik/ik.h"
#include "sinew/procedural/spring.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_WALKER_MAX_LEGS 16
#define SW_WALKER_MAX_GROUPS 8
#define SW_WALKER_DEFAULT_STEP_DURATION 0.25f /* seconds */
#define SW_WALKER_DEFAULT_MAX_TILT 0.5f       /* radians */
#define SW_WALKER_DEFAULT_DIP_SPEED 1.0f      /* m/s */
#define SW_WALKER_DEFAULT_HEIGHT_HALF_LIFE 0.1f
#define SW_WALKER_DEFAULT_TILT_HALF_LIFE 0.15f
#define SW_WALKER_DEFAULT_VELOCITY_HALF_LIFE 0.2f
#define SW_WALKER_DEFAULT_TURN_HALF_LIFE 0.2f

/* One leg of the creature. */
typedef struct sw_walker_leg {
    sw_vec3 rest;   /* foot rest position in body space (x right, z forward); y unused */
    uint32_t group; /* gait group, < SW_WALKER_MAX_GROUPS */
} sw_walker_leg;

/* The creature: immutable, may be shared by many walkers. */
typedef struct sw_walker_desc {
    const sw_walker_leg* legs;
    uint32_t legs_count;      /* 1..SW_WALKER_MAX_LEGS */
    float height;             /* body height above the ground, metres, > 0 */
    float min_height;         /* lowest height under obstacles, in (0, height]; 0 = height / 2 */
    float clearance;          /* kept between the body and an obstacle above it, m; 0 = none */
    float stride;             /* drift from the ideal position that makes a foot step, m, > 0 */
    float step_duration;      /* seconds; 0 = SW_WALKER_DEFAULT_STEP_DURATION */
    float step_height;        /* arc height, m; 0 = stride / 2 */
    float stride_speed;       /* foot speed (m/s) at which stride and step_duration hold;
                                 0 = they hold at every speed (see "Stride" above) */
    float move_dip;           /* body lowered while moving at dip_speed or faster, m; 0 = none */
    float dip_speed;          /* m/s; 0 = SW_WALKER_DEFAULT_DIP_SPEED */
    float max_tilt;           /* radians in [0, pi/2]; 0 = SW_WALKER_DEFAULT_MAX_TILT */
    bool no_tilt;             /* true: the body stays upright */
    float ray_up;             /* ground rays start this far above the last ground; 0 = height / 4 */
    float ray_down;           /* and reach this far below it; 0 = 2 * height */
    float height_half_life;   /* seconds; 0 = default, negative = no smoothing */
    float tilt_half_life;     /* seconds; 0 = default, negative = no smoothing */
    float velocity_half_life; /* seconds; 0 = default, negative = no smoothing */
    float turn_half_life;     /* seconds; 0 = default, negative = no smoothing */
    sw_ground_ray_fn ray;     /* ground (down) and overhead (up) rays, world space */
    void* ray_user;
} sw_walker_desc;

/* One foot. */
typedef struct sw_walker_foot {
    sw_vec3 position; /* world; unchanged while planted */
    sw_vec3 start;    /* where the current step lifted off */
    sw_vec3 target;   /* where the current step lands (re-predicted every frame) */
    sw_vec3 ideal;    /* ideal position on the ground at the last update */
    float phase;      /* step progress in [0, 1) while airborne, 0 planted */
    bool airborne;
    uint32_t steps; /* steps completed */
} sw_walker_foot;

/* Per-walker state in caller memory (plain data: copy it to save or fork). */
typedef struct sw_walker_state {
    sw_vec3 position;            /* body position (world) */
    sw_quat rotation;            /* body rotation: tilt * heading */
    float heading;               /* radians about +Y; 0 faces +Z */
    sw_spring_vec3 motion;       /* horizontal position and velocity (y unused) */
    float turn_rate;             /* smoothed, radians per second */
    sw_spring_float ground;      /* smoothed ground height under the body */
    sw_spring_float body_height; /* smoothed height above the ground */
    sw_spring_quat tilt;
    float ground_raw;   /* mean ground height under the ideal feet, this update */
    float height_limit; /* allowed height above the ground, this update */
    float time;         /* seconds since init */
    float group_last[SW_WALKER_MAX_GROUPS]; /* time each group last lifted */
    int32_t airborne_group;                 /* group in the air, or -1 */
    uint32_t legs_count;
    sw_walker_foot feet[SW_WALKER_MAX_LEGS];
    float ground_y[SW_WALKER_MAX_LEGS]; /* last ground height at each ideal position */
} sw_walker_state;

/* Places the body above `position` facing `heading`, at rest, with every
 * foot planted at its ideal position. The first ground rays start ray_up
 * above position.y (give a point on or just above the ground); the body
 * then stands at its height above the ground they find.
 * Fails: INVALID_ARGUMENT (NULL desc or state, or a desc sw_walker_job_validate
 * refuses; non-finite position or heading; state overlapping the desc or
 * its legs). */
SINEW_API sw_result sw_walker_init(const sw_walker_desc* desc, sw_vec3 position, float heading,
                                   sw_walker_state* state);

/* One update. */
typedef struct sw_walker_job {
    const sw_walker_desc* desc;
    sw_walker_state* state; /* from sw_walker_init with the same desc */
    sw_vec3 velocity;       /* desired world velocity, m/s (y unused) */
    float turn_rate;        /* desired turn rate about +Y, radians per second */
    float dt;               /* seconds, finite, >= 0 */
} sw_walker_job;

/* Fails: INVALID_ARGUMENT (NULL desc, state, legs or ray; no legs; a group
 * at or above SW_WALKER_MAX_GROUPS; a non-finite rest position; height,
 * stride not > 0 or not finite; min_height outside [0, height]; clearance,
 * step_duration, step_height, move_dip, dip_speed, ray_up or ray_down
 * negative or not finite; max_tilt outside [0, pi/2]; a non-finite
 * half-life; non-finite velocity or turn rate; dt negative or not finite;
 * state->legs_count different from desc->legs_count); LIMIT (more than
 * SW_WALKER_MAX_LEGS legs); OVERLAP (state overlapping the desc or legs). */
SINEW_API sw_result sw_walker_job_validate(const sw_walker_job* job);
/* Validates, then advances the walker by dt. On failure the state is unchanged. */
SINEW_API sw_result sw_walker_job_run(const sw_walker_job* job);

/* The body transform as a matrix (translation `position`, rotation `rotation`). */
SINEW_API sw_mat4 sw_walker_body_matrix(const sw_walker_state* state);

/* ---- legs on a skeleton ---- */

typedef enum sw_walker_solver {
    SW_WALKER_SOLVER_DEFAULT = 0, /* two-bone for 3 joints, FABRIK otherwise */
    SW_WALKER_SOLVER_TWO_BONE,    /* joints[0], joints[1], joints[2] */
    SW_WALKER_SOLVER_FABRIK
} sw_walker_solver;

/* The joints of one leg, root first; the last joint is the foot. */
typedef struct sw_walker_chain {
    const uint32_t* joints;
    uint32_t joints_count; /* 2..SW_IK_MAX_CHAIN; 3 for two-bone */
    sw_walker_solver solver;
    sw_vec3 pole; /* body-space direction the knees bend towards (zero: keep / none) */
} sw_walker_chain;

/* Bends each leg chain so its last joint reaches its foot position.
 * The model matrices must be in the walker's world: run local-to-model with
 * root_transform = sw_walker_body_matrix(state) and give the same matrix
 * here. Poles turn with the body. Rotations are written back with `weight`
 * (sinew/ik/ik.h); run local-to-model again afterwards. */
typedef struct sw_walker_pose_job {
    const sw_skeleton* skeleton;
    const sw_mat4* model;          /* world-space model matrices of `pose` */
    uint32_t model_count;          /* >= skeleton->joints_count */
    const sw_mat4* root_transform; /* the body matrix given to local-to-model */
    const sw_walker_state* state;
    const sw_walker_chain* chains; /* one per walker leg, in leg order */
    uint32_t chains_count;         /* == state->legs_count */
    uint32_t iterations;           /* FABRIK; 0 = SW_IK_DEFAULT_ITERATIONS */
    float weight;                  /* [0, 1] */
    sw_xform4* pose;               /* local pose, read and written in place */
    uint32_t pose_count;           /* >= skeleton->packets_count */
} sw_walker_pose_job;

/* Fails: INVALID_ARGUMENT (NULL skeleton, model, state, chains or pose; a
 * chain count different from state->legs_count; a chain with NULL joints,
 * too few joints (2, or 3 for two-bone), not 3 joints for two-bone, an
 * unknown solver, a joint out of range or not in ancestor order, a
 * non-finite pole; weight NaN or outside [0, 1]); LIMIT (a chain longer than
 * SW_IK_MAX_CHAIN); BUFFER_TOO_SMALL; MISALIGNED (pose); OVERLAP (pose
 * overlapping an input); BAD_DATA (check "bone length > 0", from the IK
 * solvers). */
SINEW_API sw_result sw_walker_pose_job_validate(const sw_walker_pose_job* job);
/* Validates, then solves every leg in order (each against the model matrices
 * given: legs must not share joints) and writes the pose. On failure nothing
 * is written. */
SINEW_API sw_result sw_walker_pose_job_run(const sw_walker_pose_job* job);

#ifdef __cplusplus
}
#endif

#endif
