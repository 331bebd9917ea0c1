/* sinew/physics/ragdoll.h: ragdolls and powered ragdolls for any physics engine.
 *
 * A ragdoll is a set of rigid bodies (capsules) that follow chosen joints of
 * a skeleton, linked by joints with swing and twist limits. sinew never
 * includes a physics engine: it talks to one through a small table of
 * callbacks (sw_physics) that the user's engine implements; the library
 * sinew_ode (sinew/backends/ode.h) implements it on the Open Dynamics Engine.
 *
 * Pieces:
 * - sw_ragdoll_desc: bodies (a joint, a capsule in that joint's space, a
 *   mass) and joints (parent and child body, anchor, twist axis, swing cone,
 *   twist range, motor torque). sw_ragdoll_desc_humanoid makes one from a
 *   skeleton and the joints of a humanoid (sinew/tools/builders/ragdoll.h finds those
 *   by canonical names: Mixamo, CMU, RobotExpressive, the built-in humanoid);
 *   users may also fill one by hand.
 * - sw_ragdoll: one character's ragdoll (caller memory, sized once by
 *   sw_ragdoll_measure): the mapping between the skeleton's pose and the
 *   bodies, per-body mode (kinematic: moved by the animation; dynamic:
 *   simulated, its joint motor pulling it toward the animated pose with a
 *   strength from 0 = limp to 1 = stiff), per-joint blend weights between
 *   animation and physics, the last two simulated states for interpolation,
 *   settle detection, face up / face down and root alignment for get-up.
 * - sw_ragdoll_stepper: a fixed-step accumulator giving the number of
 *   physics steps for a frame and the interpolation factor for rendering.
 *
 * How a frame runs (drive -> step -> read -> blend):
 *
 *     uint32_t n = sw_ragdoll_stepper_advance(&stepper, frame_dt, &alpha);
 *     for (uint32_t i = 0; i < n; ++i) {
 *         // animated local pose at the end of this step (or the frame's)
 *         sw_ragdoll_drive(rd, &(sw_ragdoll_drive_desc){ .pose = anim, ...,
 *                          .root = character_to_world, .step = stepper.step });
 *         my_engine_step(stepper.step);        // e.g. sw_ode_world_step
 *         sw_ragdoll_capture(rd);              // reads the bodies back
 *     }
 *     sw_ragdoll_read(rd, alpha, character_to_world, physics_pose, count);
 *     sw_ragdoll_blend(rd, anim, physics_pose, out_pose, count);
 *
 * drive: kinematic bodies are placed where the animated pose puts them (with
 * the velocity that carries them there over the step); dynamic bodies get
 * motor targets (the animated rotation of the child body relative to its
 * parent body) and their strength. step: the user's engine. capture: the
 * ragdoll keeps the previous and the new body states. read: body states
 * interpolated by alpha (0: previous step, 1: latest) turned into a local
 * pose; joints without a body keep the animated local transform (so a hand
 * follows its forearm body). blend: the blend job mixes animation and physics
 * per joint with the ragdoll's weights (0 = animation, 1 = physics): a whole
 * ragdoll, only a struck arm, or everything above the hips.
 *
 * Getting up: when sw_ragdoll_status says settled, pick the get-up clip by
 * status.facing, call sw_ragdoll_align_root with the clip's first pose to get
 * the character's new root (model -> world), read the ragdoll's pose in that
 * root's space (sw_ragdoll_read with the new root) and cross-fade from it to
 * the clip with the blend job (or feed it to the animator's inertialization),
 * while setting every body kinematic again.
 *
 * Spaces and frames: "model" is the skeleton's root space, "world" the
 * physics engine's (root = model -> world). A body's frame has the rotation
 * of its joint in model space composed with root (scale dropped) and its
 * origin at the capsule's centre; "joint space" is the joint's model frame
 * without scale (metres, so capsules keep their size whatever the joints'
 * scales). +Y is up in world space (gravity along -Y), metres, seconds,
 * kilograms, radians.
 *
 * Memory: sw_ragdoll lives in caller memory (sw_ragdoll_init) or is
 * allocated once (sw_ragdoll_create); nothing allocates per frame or step.
 * The skeleton and the sw_physics table must outlive the ragdoll.
 * Threads: a ragdoll is used by one thread at a time; its calls go through
 * the physics callbacks, so they inherit the engine's threading rules.
 * Determinism: the ragdoll's own arithmetic is deterministic; with a
 * deterministic engine (sinew_ode is) the same inputs give bit-identical
 * poses.
 */
#ifndef SINEW_RAGDOLL_H
#define SINEW_RAGDOLL_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most bodies (and joints) of a ragdoll. */
#define SW_RAGDOLL_MAX_BODIES 32

/* Defaults used where a field is zero. */
#define SW_RAGDOLL_DEFAULT_DENSITY 1000.0f     /* kg / m^3 (water; a body is close) */
#define SW_RAGDOLL_DEFAULT_SETTLE_SPEED 0.05f  /* m/s, fastest body origin */
#define SW_RAGDOLL_DEFAULT_SETTLE_ANGULAR 0.5f /* rad/s, fastest body */
#define SW_RAGDOLL_DEFAULT_SETTLE_TIME 0.5f    /* seconds below both speeds */
#define SW_RAGDOLL_DEFAULT_STEP (1.0f / 60.0f) /* seconds */
#define SW_RAGDOLL_DEFAULT_MAX_STEPS 8u        /* steps per frame at most */

/* ======================================================================
 * Physics interface: what a physics engine implements for sinew.
 * ====================================================================== */

/* Handle of a body or joint in the user's engine (an index or anything
 * that fits); chosen by the engine's create callbacks. */
typedef uint32_t sw_physics_handle;

/* A body's state, world space. */
typedef struct sw_physics_body_state {
    sw_xform transform;       /* origin (capsule centre) and rotation; scale is 1 */
    sw_vec3 linear_velocity;  /* m/s of the origin */
    sw_vec3 angular_velocity; /* rad/s */
} sw_physics_body_state;

/* A capsule body. Its centre of mass is its origin. */
typedef struct sw_physics_body_desc {
    sw_physics_body_state state; /* initial state */
    sw_vec3 axis;                /* capsule axis, unit, body space */
    float half_length;           /* metres from the centre to each end of the segment, >= 0 */
    float radius;                /* metres, > 0 */
    float mass;                  /* kg, > 0; inertia: the capsule's, uniform density */
    bool kinematic;              /* moved only by set_body_state (infinite mass) */
    uint32_t group;              /* bodies of one non-zero group never collide with each other */
} sw_physics_body_desc;

/* A joint between two bodies: a ball joint (anchor shared) whose child
 * rotation relative to the parent, measured from a reference, is limited to
 * a swing cone about the twist axis and a twist range about it, plus an
 * angular motor.
 * With R_p, R_c the bodies' world rotations, the relative rotation is
 * conj(R_p) * R_c, the deviation d = conj(reference) * conj(R_p) * R_c
 * (child space), split d = swing * twist about twist_axis
 * (sw_quat_swing_twist): the swing's angle stays <= swing_limit and the
 * twist's signed angle about twist_axis within [twist_min, twist_max]. */
typedef struct sw_physics_joint_desc {
    sw_physics_handle parent, child; /* body handles */
    sw_vec3 anchor;                  /* world, at the bodies' initial states */
    sw_quat reference;               /* relative rotation at the centre of the limits */
    sw_vec3 twist_axis;              /* unit, child body space */
    float swing_limit;               /* radians in [0, pi] */
    float twist_min, twist_max;      /* radians, -pi <= min <= max <= pi */
    float max_torque;                /* N m the motor exerts at strength 1, >= 0 */
} sw_physics_joint_desc;

/* A joint motor's goal for the next step. */
typedef struct sw_physics_motor {
    sw_quat target;          /* relative rotation conj(R_p) * R_c to reach */
    sw_vec3 target_velocity; /* rad/s, world: child's angular velocity minus the parent's */
    float strength;          /* [0, 1]: torque limit strength * max_torque; 0 switches off */
} sw_physics_motor;

/* The callbacks. Every one receives `user` first. Handles passed in are
 * ones the same table's create callbacks returned and did not destroy.
 * Create callbacks return OK and a handle, or a result (OUT_OF_MEMORY,
 * LIMIT, INVALID_ARGUMENT, ...) that sinew passes on. Apart from the create
 * callbacks, none may fail. All are required. */
typedef struct sw_physics {
    void* user;
    sw_result (*create_body)(void* user, const sw_physics_body_desc* desc, sw_physics_handle* out);
    void (*destroy_body)(void* user, sw_physics_handle body);
    sw_result (*create_joint)(void* user, const sw_physics_joint_desc* desc,
                              sw_physics_handle* out);
    void (*destroy_joint)(void* user, sw_physics_handle joint);
    /* Kinematic (infinite mass, moved by set_body_state and its velocities)
     * or dynamic (simulated). */
    void (*set_kinematic)(void* user, sw_physics_handle body, bool kinematic);
    void (*set_body_state)(void* user, sw_physics_handle body, const sw_physics_body_state* s);
    void (*get_body_state)(void* user, sw_physics_handle body, sw_physics_body_state* out);
    /* Impulse in N s (world) at a world point (changes linear and angular
     * velocity at once). Ignored by kinematic bodies. */
    void (*apply_impulse)(void* user, sw_physics_handle body, sw_vec3 impulse, sw_vec3 point);
    void (*set_joint_motor)(void* user, sw_physics_handle joint, const sw_physics_motor* m);
} sw_physics;

/* ======================================================================
 * Description
 * ====================================================================== */

typedef struct sw_ragdoll_body_desc {
    uint32_t joint; /* skeleton joint the body follows; one body per joint */
    sw_vec3 a, b;   /* capsule segment ends, joint space (metres); may be equal (a sphere) */
    float radius;   /* metres, > 0 */
    float mass;     /* kg, > 0 */
} sw_ragdoll_body_desc;

typedef struct sw_ragdoll_joint_desc {
    uint32_t parent, child; /* body indices, parent < child; each body but 0 is a child once */
    sw_vec3 anchor;         /* child joint space; zero: the child's joint origin */
    sw_quat reference;      /* relative rotation at the limits' centre; all zero: the rest pose's */
    sw_vec3 twist_axis;     /* child joint space, non-zero (normalized when used) */
    float swing_limit;      /* radians in [0, pi] */
    float twist_min, twist_max; /* radians, -pi <= min <= max <= pi */
    float max_torque;           /* N m at strength 1, >= 0 */
} sw_ragdoll_joint_desc;

/* A ragdoll: bodies parent-first (body 0 is the root body, e.g. the hips;
 * every other body is the child of exactly one joint whose parent body
 * comes before it), a tree. */
typedef struct sw_ragdoll_desc {
    sw_ragdoll_body_desc bodies[SW_RAGDOLL_MAX_BODIES];
    uint32_t bodies_count; /* 1..SW_RAGDOLL_MAX_BODIES */
    sw_ragdoll_joint_desc joints[SW_RAGDOLL_MAX_BODIES];
    uint32_t joints_count; /* bodies_count - 1 */
    /* Face up / down: the character's forward direction in model space at
     * rest (zero: +Z) and the body that carries it (face_body, default 0).
     * Lying with that direction pointing up is face up. */
    sw_vec3 forward;
    uint32_t face_body;
    /* Root alignment (sw_ragdoll_align_root): the body up the trunk from
     * body 0, toward the head (humanoid: the chest); 0: the child body of
     * body 0 with the most bodies below it (the first on a tie). */
    uint32_t trunk_body;
    float settle_speed;   /* m/s; 0: SW_RAGDOLL_DEFAULT_SETTLE_SPEED */
    float settle_angular; /* rad/s; 0: SW_RAGDOLL_DEFAULT_SETTLE_ANGULAR */
    float settle_time;    /* seconds; 0: SW_RAGDOLL_DEFAULT_SETTLE_TIME */
} sw_ragdoll_desc;

/* Humanoid bodies made by sw_ragdoll_desc_humanoid, in body order (the
 * spine body is left out when the skeleton has no spine joint between the
 * hips and the chest, and later bodies move down by one). */
typedef enum sw_ragdoll_part {
    SW_RAGDOLL_PART_NONE = 0,
    SW_RAGDOLL_PART_HIPS,
    SW_RAGDOLL_PART_SPINE,
    SW_RAGDOLL_PART_CHEST,
    SW_RAGDOLL_PART_HEAD,
    SW_RAGDOLL_PART_LEFT_UPPER_ARM,
    SW_RAGDOLL_PART_LEFT_FOREARM,
    SW_RAGDOLL_PART_RIGHT_UPPER_ARM,
    SW_RAGDOLL_PART_RIGHT_FOREARM,
    SW_RAGDOLL_PART_LEFT_THIGH,
    SW_RAGDOLL_PART_LEFT_SHIN,
    SW_RAGDOLL_PART_RIGHT_THIGH,
    SW_RAGDOLL_PART_RIGHT_SHIN,
    SW_RAGDOLL_PART_COUNT
} sw_ragdoll_part;

/* "hips", "left_forearm", ...; "none" for NONE or an unknown value. */
SINEW_API const char* sw_ragdoll_part_str(sw_ragdoll_part part);

/* The humanoid's joints, by skeleton index; -1 where absent. [0] is left,
 * [1] right. Required: hips, chest, head, upper_arm, forearm, hand, thigh,
 * shin, foot (hands and feet end the forearm and shin capsules: only their
 * rest positions are used, so they may hang elsewhere in the hierarchy, as
 * RobotExpressive's IK feet do). Optional:
 * spine (a body from spine to chest), neck (the head capsule starts there
 * and the head's joint anchor sits there). */
typedef struct sw_ragdoll_humanoid_joints {
    int32_t hips, spine, chest, neck, head;
    int32_t upper_arm[2], forearm[2], hand[2];
    int32_t thigh[2], shin[2], foot[2];
} sw_ragdoll_humanoid_joints;

typedef struct sw_ragdoll_humanoid_options {
    float density;      /* kg / m^3; 0: SW_RAGDOLL_DEFAULT_DENSITY */
    float radius_scale; /* multiplies the template's radii; 0: 1 */
    float torque_scale; /* multiplies the template's motor torques; 0: 1 */
    sw_vec3 forward;    /* model space; zero: +Z */
} sw_ragdoll_humanoid_options;

/* Fills *out with a humanoid ragdoll for `skeleton` from its rest pose:
 * capsules along the bones (hips across the thighs' roots, on the deepest
 * common ancestor of the hips and both thighs: the hips in most rigs, the
 * "Body" above RobotExpressive's "Hips" whose legs hang beside it; spine to chest,
 * chest to neck or head, head up from the neck by half the chest-to-head
 * distance, upper arm to forearm, forearm to hand, thigh to shin, shin to
 * foot), radii from the template as fractions of bone lengths, masses as
 * volume x density; joints anchored at the child's joint (the head's at the
 * neck), twist axis along the child bone, reference rotations and limits
 * from the template (knees and elbows: a cone centred on a half bend so
 * they bend one way; shoulders and hips: wide cones; spine and neck:
 * narrow), motor torques six times the gravity torque of what the joint
 * carries plus its inertia about the joint times 200 rad/s^2; a shin
 * capsule's lowest point stays a tenth of its bone above the rest pose's
 * lowest joint (shins stop short of foot joints that sit at the soles).
 * The body order is sw_ragdoll_part's (without the spine when absent).
 * parts (optional, SW_RAGDOLL_MAX_BODIES entries) receives each body's part.
 * Fails: INVALID_ARGUMENT (NULL skeleton, joints or out; negative or
 * non-finite options); NOT_FOUND "humanoid joint" (a required joint is -1;
 * err->index: its sw_ragdoll_part, or the hand/foot's forearm/shin part);
 * BAD_DATA "joint in range" (an index >= joints_count), "bone length > 0"
 * (a capsule of zero length: two joints at one place; err->index the part),
 * "finite rest pose" (NaN/Inf reached through the rest pose), "chain to
 * hips" (a part's joint not below its parent part's: an upper arm not below
 * the chest, a shin not below its thigh, ...). On failure *out is left
 * unchanged. */
SINEW_API sw_result sw_ragdoll_desc_humanoid(const sw_skeleton* skeleton,
                                             const sw_ragdoll_humanoid_joints* joints,
                                             const sw_ragdoll_humanoid_options* options,
                                             sw_ragdoll_desc* out,
                                             sw_ragdoll_part parts[SW_RAGDOLL_MAX_BODIES],
                                             sw_error* err);

/* Checks a description against `skeleton`.
 * Fails: INVALID_ARGUMENT (NULL); LIMIT (0 or more than
 * SW_RAGDOLL_MAX_BODIES bodies, joints_count != bodies_count - 1);
 * BAD_DATA with err->check and err->index (body or joint): "body joint in
 * range", "one body per joint", "body joint below parent body's joint"
 * (a child body's skeleton joint must descend from its parent body's),
 * "capsule finite", "radius > 0", "mass > 0", "joint bodies in range",
 * "parent body < child body", "child of one joint", "twist axis non-zero",
 * "limits in range" (swing outside [0, pi], twist_min > twist_max or
 * outside [-pi, pi], NaN), "torque >= 0", "reference unit" (neither zero
 * nor unit within 1e-3), "face body in range", "trunk body in range", "settle values >= 0". */
SINEW_API sw_result sw_ragdoll_desc_validate(const sw_ragdoll_desc* desc,
                                             const sw_skeleton* skeleton, sw_error* err);

/* Widens desc's joint limits so that the local `pose` (over `skeleton`,
 * pose_count >= its packets; e.g. one sampled frame of a clip the ragdoll
 * should follow) lies inside them with `margin` radians to spare: each
 * joint's deviation, measured as the limits measure it (sw_physics_joint_desc:
 * body rotations are their joints' model rotations; a zero reference is the
 * rest pose's), raises swing_limit to its swing + margin (at most pi) and
 * moves twist_min / twist_max out to its twist -/+ margin (within
 * [-pi, pi]). Never narrows a limit; other fields are untouched. Call it for
 * every sampled frame of the clips (the template's limits may be narrower
 * than a rig's animation: limits pushed by the motors hold the body off its
 * pose).
 * Fails: INVALID_ARGUMENT (NULL, pose_count too small, margin negative or
 * not finite); the results of sw_ragdoll_desc_validate; BAD_DATA "finite
 * pose" (err->index the joint). On failure *desc is unchanged. */
SINEW_API sw_result sw_ragdoll_desc_admit_pose(sw_ragdoll_desc* desc, const sw_skeleton* skeleton,
                                               const sw_xform4* pose, uint32_t pose_count,
                                               float margin, sw_error* err);

/* ======================================================================
 * Ragdoll
 * ====================================================================== */

typedef struct sw_ragdoll sw_ragdoll; /* opaque; one block in caller memory */

/* Body modes. Spawned bodies start KINEMATIC. */
typedef enum sw_ragdoll_mode {
    SW_RAGDOLL_MODE_KINEMATIC = 0, /* placed by the animation each step */
    SW_RAGDOLL_MODE_DYNAMIC        /* simulated; motor strength pulls it to the animation */
} sw_ragdoll_mode;

typedef enum sw_ragdoll_facing {
    SW_RAGDOLL_FACING_NONE = 0, /* not spawned */
    SW_RAGDOLL_FACING_UP,       /* forward direction points up (lying on the back) */
    SW_RAGDOLL_FACING_DOWN      /* forward direction points down (on the belly) */
} sw_ragdoll_facing;

/* Bytes for a ragdoll of `desc` over `skeleton` (16-byte aligned memory),
 * or 0 when either is NULL. */
SINEW_API size_t sw_ragdoll_measure(const sw_ragdoll_desc* desc, const sw_skeleton* skeleton);

/* Builds a ragdoll in `mem` (16-byte aligned, >= sw_ragdoll_measure bytes),
 * not yet spawned. The desc and the physics table are copied; the skeleton
 * is referenced and must outlive the ragdoll (the engine behind the table
 * too).
 * Fails: INVALID_ARGUMENT (NULL); MISALIGNED; BUFFER_TOO_SMALL; the results
 * of sw_ragdoll_desc_validate with err. */
SINEW_API sw_result sw_ragdoll_init(void* mem, size_t size, const sw_ragdoll_desc* desc,
                                    const sw_skeleton* skeleton, const sw_physics* physics,
                                    sw_ragdoll** out, sw_error* err);
/* sw_ragdoll_measure + allocation + sw_ragdoll_init. Free with
 * sw_ragdoll_destroy and the same allocator (it despawns first).
 * Fails: as sw_ragdoll_init, plus OUT_OF_MEMORY. */
SINEW_API sw_result sw_ragdoll_create(const sw_ragdoll_desc* desc, const sw_skeleton* skeleton,
                                      const sw_physics* physics, const sw_allocator* alloc,
                                      sw_ragdoll** out, sw_error* err);
/* Despawns (destroying its bodies and joints in the engine) and frees a
 * ragdoll from sw_ragdoll_create; NULL is a no-op. */
SINEW_API void sw_ragdoll_destroy(sw_ragdoll* r, const sw_allocator* alloc);

/* Creates the bodies and joints in the engine, placed by the local `pose`
 * (pose_count >= skeleton packets) under `root` (model -> world), all
 * KINEMATIC, at rest, in collision group `group`; captures that state
 * (previous = latest). Per-body strength starts at 1 and blend weights at 0.
 * Fails: INVALID_ARGUMENT (NULL, already spawned, pose_count too small);
 * BAD_DATA "finite pose" (NaN/Inf in the pose or root, err->index the
 * joint); a create callback's result (what was created is destroyed again). */
SINEW_API sw_result sw_ragdoll_spawn(sw_ragdoll* r, const sw_xform4* pose, uint32_t pose_count,
                                     sw_xform root, uint32_t group, sw_error* err);
/* Destroys the bodies and joints in the engine; no-op when not spawned. */
SINEW_API void sw_ragdoll_despawn(sw_ragdoll* r);

/* The ragdoll's description (its copy; capsules for drawing, limits). */
SINEW_API const sw_ragdoll_desc* sw_ragdoll_get_desc(const sw_ragdoll* r);

/* Number of bodies; the joint that body b follows; the body following
 * `joint` or -1. Bodies are the desc's, in its order. */
SINEW_API uint32_t sw_ragdoll_bodies_count(const sw_ragdoll* r);
SINEW_API uint32_t sw_ragdoll_body_joint(const sw_ragdoll* r, uint32_t body);
SINEW_API int32_t sw_ragdoll_find_body(const sw_ragdoll* r, uint32_t joint);
/* The engine handle of body b (valid while spawned; 0 when out of range). */
SINEW_API sw_physics_handle sw_ragdoll_body_handle(const sw_ragdoll* r, uint32_t body);

/* Per-body settings (take effect at the next drive; mode at once).
 * strength in [0, 1]; weight in [0, 1] is the physics share of the body's
 * joint in sw_ragdoll_blend (0: animation). Fails: INVALID_ARGUMENT (NULL,
 * body out of range, value NaN or outside [0, 1], mode unknown). */
SINEW_API sw_result sw_ragdoll_set_mode(sw_ragdoll* r, uint32_t body, sw_ragdoll_mode mode);
SINEW_API sw_result sw_ragdoll_set_strength(sw_ragdoll* r, uint32_t body, float strength);
SINEW_API sw_result sw_ragdoll_set_weight(sw_ragdoll* r, uint32_t body, float weight);
/* The same for every body at once (a full ragdoll: DYNAMIC, 0, 1). */
SINEW_API sw_result sw_ragdoll_set_all(sw_ragdoll* r, sw_ragdoll_mode mode, float strength,
                                       float weight);
/* The same for body b and every body below it (a struck arm, the upper
 * body from the spine). */
SINEW_API sw_result sw_ragdoll_set_subtree(sw_ragdoll* r, uint32_t body, sw_ragdoll_mode mode,
                                           float strength, float weight);

/* Impulse (N s, world) at a world point on body b, through the engine.
 * Fails: INVALID_ARGUMENT (NULL, not spawned, body out of range, non-finite). */
SINEW_API sw_result sw_ragdoll_apply_impulse(sw_ragdoll* r, uint32_t body, sw_vec3 impulse,
                                             sw_vec3 point);

/* One physics step's input. */
typedef struct sw_ragdoll_drive_desc {
    const sw_xform4* pose; /* animated local pose at the end of the step */
    uint32_t pose_count;   /* >= skeleton packets */
    sw_xform root;         /* model -> world at the end of the step (scale ignored) */
    float step;            /* seconds the coming step lasts, > 0 */
} sw_ragdoll_drive_desc;

/* Before a physics step: kinematic bodies get the state that carries them
 * from their current place to where `pose` puts them in `step` seconds
 * (transform now, velocity (target - now) / step); dynamic bodies' joints
 * get motors toward the pose's relative rotations (target velocity from the
 * previous drive's targets) with their child body's strength.
 * Fails: INVALID_ARGUMENT (NULL, not spawned, pose_count too small, step
 * not > 0 or not finite); BAD_DATA "finite pose" with err->index (nothing
 * is sent to the engine). */
SINEW_API sw_result sw_ragdoll_drive(sw_ragdoll* r, const sw_ragdoll_drive_desc* d, sw_error* err);

/* After a physics step of `step` seconds: previous state = latest, latest =
 * the engine's body states; updates settle detection (the time every body
 * has stayed below the settle speeds, dynamic bodies only) and facing.
 * Fails: INVALID_ARGUMENT (NULL, not spawned, step not > 0). */
SINEW_API sw_result sw_ragdoll_capture(sw_ragdoll* r, float step);

/* The local pose the bodies give, interpolated between the previous and
 * latest captured states by alpha in [0, 1] (positions lerp, rotations
 * nlerp), relative to `root` (model -> world; pass the character's, or the
 * aligned root from sw_ragdoll_align_root). Joints with a body take their
 * model rotation from it, and the root body's joint also its model
 * position; everything else comes from `anim` (local translations, so bone
 * lengths stay the animation's; scales; the local transforms of joints
 * without a body: above the root body, between bodies, below them). Writes
 * every joint of `out` (padding lanes identity).
 * Fails: INVALID_ARGUMENT (NULL, not spawned, counts too small, alpha
 * outside [0, 1] or NaN); OVERLAP (out == anim). */
SINEW_API sw_result sw_ragdoll_read(const sw_ragdoll* r, float alpha, sw_xform root,
                                    const sw_xform4* anim, uint32_t anim_count, sw_xform4* out,
                                    uint32_t out_count);

/* Mixes `anim` and `physics` (local poses) per joint with the blend job:
 * each body's joint takes its weight, joints without a body take their
 * nearest ancestor body's (joints above the root body: 0). 16-byte aligned
 * poses; out may not alias an input.
 * Fails: as sw_blend_job_run (INVALID_ARGUMENT, BUFFER_TOO_SMALL,
 * MISALIGNED, OVERLAP). */
SINEW_API sw_result sw_ragdoll_blend(const sw_ragdoll* r, const sw_xform4* anim,
                                     const sw_xform4* physics, sw_xform4* out, uint32_t count);

/* The per-joint physics weights sw_ragdoll_blend uses, for a blend job of
 * one's own (layer weights (1 - w) on the animation, w on the physics):
 * writes out[0..count) with count >= skeleton packets * 4 (padding 0).
 * Fails: INVALID_ARGUMENT (NULL); BUFFER_TOO_SMALL. */
SINEW_API sw_result sw_ragdoll_joint_weights(const sw_ragdoll* r, float* out, uint32_t count);

/* The latest captured state of body b (world), or identity and zero when
 * not spawned or out of range. */
SINEW_API sw_physics_body_state sw_ragdoll_body_state(const sw_ragdoll* r, uint32_t body);

typedef struct sw_ragdoll_status {
    bool settled;            /* still_time >= settle_time (no dynamic body: true) */
    float still_time;        /* seconds every dynamic body has stayed below the settle speeds */
    float max_speed;         /* m/s, fastest dynamic body origin at the last capture */
    float max_angular_speed; /* rad/s, fastest dynamic body at the last capture */
    sw_ragdoll_facing facing;
    float facing_dot; /* forward (world) . +Y of the face body: > 0 face up, < 0 face down */
} sw_ragdoll_status;

/* Fills *out from the latest capture. Fails: INVALID_ARGUMENT (NULL). */
SINEW_API sw_result sw_ragdoll_status_get(const sw_ragdoll* r, sw_ragdoll_status* out);

/* Where to put the character's root (model -> world) so that a clip's first
 * pose (`clip_pose`, local, over the skeleton's joints) lies where the
 * ragdoll lies: a rotation about +Y and a translation such that
 * - the clip's root body joint (model space, no root) lands over the
 *   ragdoll's root body joint (same x and z; y of the result is `ground`);
 * - the horizontal direction from the root body joint to the trunk body
 *   joint (desc.trunk_body: toward the head) in the clip turns onto the same
 *   direction of the ragdoll's latest captured state. When that direction
 *   is near vertical (|horizontal| < 0.2 x its length) in either pose, the
 *   face body's forward direction, projected, is used instead.
 * Fails: INVALID_ARGUMENT (NULL, not spawned, pose_count too small, ground
 * not finite); BAD_DATA "finite pose" (err->index the joint). */
SINEW_API sw_result sw_ragdoll_align_root(const sw_ragdoll* r, const sw_xform4* clip_pose,
                                          uint32_t pose_count, float ground, sw_xform* out,
                                          sw_error* err);

/* ======================================================================
 * Fixed-step stepper
 * ====================================================================== */

typedef struct sw_ragdoll_stepper {
    float step;         /* seconds per step; 0: SW_RAGDOLL_DEFAULT_STEP */
    uint32_t max_steps; /* most steps per frame (time beyond is dropped); 0: default */
    float accumulator;  /* seconds not yet stepped, in [0, step) */
} sw_ragdoll_stepper;

/* Adds frame time dt (>= 0; NaN and negative count as 0) and returns how many
 * fixed steps to run now; *alpha (optional) receives accumulator / step in
 * [0, 1), the interpolation factor for sw_ragdoll_read between the
 * previous and the latest state (the rendered pose lags the simulation by
 * at most one step). Deterministic; no allocation. */
SINEW_API uint32_t sw_ragdoll_stepper_advance(sw_ragdoll_stepper* s, float dt, float* alpha);

#ifdef __cplusplus
}
#endif

#endif
