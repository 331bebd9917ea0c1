/* sinew/showcase/scene.h: the showcase scene run by `sinew demo` and the viewer.
 *
 * One ground plane (+Y up, metres) with several actors, each on its own
 * spot, each showing a part of the library:
 * - "locomotion": a humanoid walking round a circle; its speed rises and
 *   falls through a spring, an animator blend space (idle / walk / jog,
 *   synchronized by the clips' foot-plant events when every member has them)
 *   follows the speed, the animator's root motion moves it along the
 *   circle, and a foot lock (two-bone IK between each foot's down and up
 *   events) keeps planted feet from sliding as it turns;
 * - "reach": a humanoid with one foot on a step (foot placement against the
 *   scene's analytic ground), reaching for a floating orb with two-bone IK
 *   whose weight fades in and out, its head following the camera within a
 *   neck limit through a spring (look-at);
 * - "caterpillar": follow-the-leader segments behind a head on a figure
 *   eight, a wave bobbing down the body (one sphere per segment joint);
 * - "arm": a two-bone arm whose target circles, sometimes out of reach;
 * - "spider": the built-in eight-legged creature stepping with the walker
 *   over bumpy ground and ducking under a beam;
 * - "hit": a blocking humanoid taking hits: an instant cut to a hit state,
 *   an additive pose shake, a hit pause, spine wander, and (on the scene's
 *   camera) a camera shake and a field-of-view pulse;
 * - "idle": a humanoid whose idle is varied by the animator's randomized
 *   idle controller (it never repeats);
 * - "props": the step, the beam and the bumpy ground patch, as one rigid mesh;
 * - "targets": the orb and the arm's target marker, on a small skeleton;
 * and, when the options give a physics engine (sw_physics, sinew/physics/ragdoll.h),
 * two ragdoll actors of the built-in humanoid:
 * - "powered": a powered ragdoll walking round a small circle, its hips
 *   moved by the animation (kinematic) and every other body simulated with
 *   motors pulling it to the walk, while impulses (random body, direction
 *   and strength from the seed, about three a second) knock its limbs about;
 * - "knockdown": a humanoid standing idle that is hit (alternately in the
 *   chest from the front and from behind), falls as a limp ragdoll, settles,
 *   picks the get-up clip by lying face up or down
 *   (sw_showcase_humanoid_getup), moves its root to where the ragdoll lies
 *   (sw_ragdoll_align_root) and blends from the ragdoll's pose into the clip,
 *   stands idle again, and is hit again.
 *
 * Every actor is a skeleton with skinned meshes, a local pose, its world
 * transform (the root transform of its model matrices) and its model-space
 * matrices in the world (model = world * FK), plus one skinning palette per
 * mesh, all updated by sw_showcase_update and owned by the scene. A renderer
 * skins mesh k of an actor with its palettes[k] (world space).
 *
 * Memory: sw_showcase_create allocates everything once (with options.alloc);
 * sw_showcase_update never allocates, does no file IO and prints nothing.
 * Determinism: the same options and the same sequence of update inputs give
 * bit-identical poses and metrics.
 *
 * Needs only the runtime and the showcase library (it compiles for the
 * WebAssembly viewer).
 */
#ifndef SINEW_SHOWCASE_SCENE_H
#define SINEW_SHOWCASE_SCENE_H

#include "sinew/core/mesh.h"
#include "sinew/core/skeleton.h"
#include "sinew/physics/ragdoll.h"
#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_SHOWCASE_MAX_ACTORS 12
#define SW_SHOWCASE_MAX_MESHES 64 /* per actor */

/* Materials (colour indices) a renderer may map to its own colours. */
typedef enum sw_showcase_material {
    SW_SHOWCASE_MATERIAL_DEFAULT = 0, /* light grey */
    SW_SHOWCASE_MATERIAL_SKIN,        /* humanoids */
    SW_SHOWCASE_MATERIAL_CREATURE,    /* spider, caterpillar */
    SW_SHOWCASE_MATERIAL_METAL,       /* the arm */
    SW_SHOWCASE_MATERIAL_PROP,        /* step, beam, bumps */
    SW_SHOWCASE_MATERIAL_TARGET,      /* orb, arm target */
    SW_SHOWCASE_MATERIAL_HIT,         /* the blocking humanoid */
    SW_SHOWCASE_MATERIAL_COUNT
} sw_showcase_material;

typedef struct sw_showcase_options {
    /* Optional humanoid replacing the built-in one for every humanoid actor
     * (not copied: it must outlive the scene). Clips are taken by
     * clip_names, or else by name, case-insensitively: "idle", "walk",
     * "jog" (or else "run"); a missing walk or jog falls back to the other
     * and a missing idle to the slowest. Features whose joints the skeleton
     * lacks (legs for foot placement, an arm for reaching, a spine for
     * wander, a head for look-at) are left out, as reported by
     * sw_showcase_metrics.features. A character without a mesh is drawn
     * as its bones (sw_showcase_character_bones). */
    const sw_scene* character;
    const char* clip_names[3]; /* idle, walk, jog: exact clip names, NULL: by name */
    uint32_t seed;             /* varies the idle controller and hit noise; 0 is a seed */
    const sw_allocator* alloc; /* NULL: libc */
    /* Physics for the ragdoll actors (not copied: the engine must outlive
     * the scene); NULL: no ragdoll actors. The engine is expected to have a
     * ground plane at y = 0 and gravity -Y; the scene creates its bodies and
     * joints through the table and destroys them in sw_showcase_destroy.
     * physics_step advances the engine by one fixed step of
     * physics_step_size seconds (0: SW_RAGDOLL_DEFAULT_STEP), called with
     * physics_user; required with physics (e.g. sw_ode_world_step). */
    const sw_physics* physics;
    sw_result (*physics_step)(void* user);
    void* physics_user;
    float physics_step_size;
    /* NULL: every actor. Else the name of the one actor to make (and
     * "props", which draws the stage it walks on), e.g. "spider" for the
     * walker alone; NOT_FOUND when no actor has that name. */
    const char* only_actor;
} sw_showcase_options;

/* Transition mode of the "hit" actor's transitions and of "locomotion"'s
 * idle / move transitions (see sw_showcase_inputs.transitions). */
typedef enum sw_showcase_transitions {
    SW_SHOWCASE_TRANSITIONS_DEFAULT = 0, /* crossfade (the hit itself an instant cut) */
    SW_SHOWCASE_TRANSITIONS_CROSSFADE,
    SW_SHOWCASE_TRANSITIONS_INERTIALIZE /* the hit and the fades inertialized instead */
} sw_showcase_transitions;

/* Per-frame inputs. Zero means "the scene decides" (the defaults: foot
 * placement, sync and crossfades on). The animators of every variant run
 * side by side from the start, so switching a toggle shows the variant at
 * the same states and times (the pose may jump once). */
typedef struct sw_showcase_inputs {
    bool has_camera;       /* false: the scene's own slow orbit */
    sw_vec3 camera;        /* camera position (world), looked at by "reach" */
    sw_vec3 camera_target; /* point the camera looks at (has_camera) */
    bool has_look_target;  /* "reach" looks here instead of at the camera */
    sw_vec3 look_target;
    bool has_reach_target; /* "reach" reaches here instead of the orb */
    sw_vec3 reach_target;
    bool has_speed; /* "locomotion" speed goal (m/s) instead of the scene's schedule */
    float speed;
    /* Toggles. no_foot_placement: "reach" without foot placement (the foot
     * over the step sinks into it) and "locomotion" without its foot lock
     * (planted feet slide as the animation alone). no_sync: "locomotion"'s
     * idle, walk and jog play each at its own rate, blended by the same
     * weights (layers, not one synchronized blend space), so their feet
     * drift out of step; root motion still comes from the synchronized
     * blend. transitions: crossfade or inertialization. */
    bool no_foot_placement;
    bool no_sync;
    sw_showcase_transitions transitions;
    /* Steering (the viewer's WASD keys): "locomotion" and "spider" leave
     * their circles and go where they are steered, from where they are,
     * like a game pad's stick. steer_forward and steer_strafe are in units
     * of each actor's walking speed (1: a walk, 2: twice as fast; the
     * humanoid's walk clip speed, the spider's 0.22 m/s): forward along the
     * heading ("locomotion" walks forward only, a negative value stops it;
     * "spider", the walker's velocity, backwards too), strafe to the right
     * ("spider" only: the walker's gait steps sideways, the humanoid's
     * clips do not). steer_turn: radians per second about +Y (positive
     * turns left, from +Z toward +X), the walker's turn rate and the
     * humanoid's heading rate on top of its clips' root motion. */
    bool has_steer;
    float steer_forward, steer_strafe, steer_turn;
} sw_showcase_inputs;

/* A read-only view of one actor after the last update. */
typedef struct sw_showcase_actor {
    const char* name;
    const sw_skeleton* skeleton;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
    sw_showcase_material material;
    sw_mat4 world;                  /* root transform of the model matrices */
    const sw_xform4* local;         /* local pose, skeleton->packets_count packets */
    const sw_mat4* model;           /* world-space model matrices, skeleton->joints_count */
    const sw_mat4* const* palettes; /* per mesh: palette_count matrices (world space) */
} sw_showcase_actor;

/* The camera after the last update: position and rotation (looking down
 * its -Z axis, +Y up) with the hit's camera shake on top, and the vertical
 * field of view (radians) with the shake's and the pulse's offsets. */
typedef struct sw_showcase_camera {
    sw_xform view;
    float fov_y;
} sw_showcase_camera;

/* Feature flags of sw_showcase_metrics.features. */
#define SW_SHOWCASE_FEATURE_SYNC 1u        /* locomotion blend space synchronized by markers */
#define SW_SHOWCASE_FEATURE_FOOT_IK 2u     /* "reach" foot placement on the step */
#define SW_SHOWCASE_FEATURE_REACH 4u       /* "reach" two-bone arm */
#define SW_SHOWCASE_FEATURE_LOOK 8u        /* "reach" look-at */
#define SW_SHOWCASE_FEATURE_WANDER 16u     /* "hit" spine wander */
#define SW_SHOWCASE_FEATURE_FOOT_TRACK 32u /* "locomotion" foot sliding measured */

/* Figures measured while the scene runs (over every update so far). */
typedef struct sw_showcase_metrics {
    uint32_t features; /* SW_SHOWCASE_FEATURE_* available with this character */
    uint32_t updates;
    /* Planted-foot sliding: horizontal drift (m) of a foot joint from where
     * it was planted, while it stays planted; per step the largest drift.
     * "locomotion" is measured after its foot lock (two-bone IK holding
     * planted ankles) and, as "unlocked", on the animation alone. */
    uint32_t locomotion_steps;
    float locomotion_slide_max;  /* m, largest per step */
    float locomotion_slide_mean; /* m, mean over steps */
    uint32_t locomotion_unlocked_steps;
    float locomotion_unlocked_slide_max;
    float locomotion_unlocked_slide_mean;
    uint32_t spider_steps;
    float spider_slide_max;
    float spider_slide_mean;
    /* Largest change of a joint's model-space velocity (m/s) between two
     * frames where a transition started (locomotion, hit). */
    uint32_t transitions;
    float transition_velocity_jump_max;
    float hit_velocity_jump_max; /* the hit actor's instant cuts alone */
    /* End-effector distance from its target (m) while the target is within
     * reach (and, for "reach", at full weight). */
    float reach_error_max;
    float arm_error_max;
    uint32_t arm_out_of_reach_frames;
    /* Depth of a foot sole (ankle height above the rest floor subtracted) or
     * a spider leg tip below the ground under it (m). */
    float foot_penetration_max;
    float spider_penetration_max;
    uint32_t hits;
    /* Ragdoll actors (zero without physics). "powered": impulses applied,
     * and its tracking error: per update the mean distance (m) between each
     * body's joint as simulated and as animated (world), averaged over
     * updates and at its largest. */
    uint32_t ragdoll_impulses;
    float ragdoll_tracking_error_mean;
    float ragdoll_tracking_error_max;
    /* "knockdown": knock-downs, get-ups begun (face up / down) and
     * finished; settle time (s) from the hit until the ragdoll is still
     * (largest and last); the largest joint-velocity jump (m/s, world)
     * between consecutive updates from the last ragdoll frame until the
     * blend into the get-up clip ends, and the clip's own largest jump
     * played alone at the same updates (its noise). */
    uint32_t knockdowns;
    uint32_t getups_face_up;
    uint32_t getups_face_down;
    uint32_t getups_done;
    float settle_time_max;
    float settle_time_last;
    float getup_velocity_jump_max;
    float getup_clip_noise_max;
} sw_showcase_metrics;

/* What the toggles change, after the last update. */
typedef struct sw_showcase_status {
    /* "reach": height of the sole of the foot over the step above the ground
     * under it (m; < 0: in the step). About 0 with foot placement. */
    float reach_foot_gap;
    /* "locomotion": largest foot-lock weight of the two feet (0 without the lock). */
    float locomotion_lock_weight;
    /* "locomotion": phase difference (cycles, 0 to 0.5) between its walk and
     * jog clips while both weigh more than 5% of the pose (else 0); about 0
     * when synchronized (clips with their markers at the same phases). */
    float locomotion_phase_spread;
    /* States playing in the "hit" actor's machine (2 or more while crossfading). */
    uint32_t hit_states;
    /* Updates so far during which the "hit" actor's machine was crossfading
     * (more than one state playing). */
    uint32_t hit_crossfade_updates;
    /* Largest joint distance (m) between the "hit" actor's inertialized
     * pose and the crossfaded one at the last update (0 with crossfades):
     * the inertialization offset, appearing at each hit and decaying. */
    float hit_offset;
    /* "knockdown": what it is doing (SW_SHOWCASE_KNOCKDOWN_*; NONE without physics). */
    uint32_t knockdown_phase;
} sw_showcase_status;

/* Phases of the "knockdown" actor (sw_showcase_status.knockdown_phase). */
#define SW_SHOWCASE_KNOCKDOWN_NONE 0u
#define SW_SHOWCASE_KNOCKDOWN_STANDING 1u   /* idle, animated */
#define SW_SHOWCASE_KNOCKDOWN_FALLING 2u    /* limp ragdoll until it settles */
#define SW_SHOWCASE_KNOCKDOWN_GETTING_UP 3u /* playing a get-up clip */

typedef struct sw_showcase sw_showcase;

/* Builds the scene: the built-in characters (or options->character), the
 * animators, the props and every actor's state, placed at time 0; with
 * options->physics also the ragdoll actors (always of the built-in
 * humanoid), spawned in the engine.
 * Memory: free with sw_showcase_destroy.
 * Fails: INVALID_ARGUMENT (NULL out; a character without a skeleton or
 * without clips; physics without physics_step, a physics_step_size not
 * finite or negative); NOT_FOUND (a clip named in clip_names is missing,
 * or no clip at all could be mapped; err->check says which); OUT_OF_MEMORY;
 * any failure of the builders and binders it calls, with their err (the
 * ragdoll's and the physics create callbacks' results included);
 * NOT_FOUND (check "only_actor names an actor") for an unknown only_actor. */
SINEW_API sw_result sw_showcase_create(const sw_showcase_options* options, sw_showcase** out,
                                       sw_error* err);
SINEW_API void sw_showcase_destroy(sw_showcase* s);

/* Advances the scene by dt seconds (finite, >= 0; large steps are split
 * into steps of at most 1/30 s) with optional inputs (NULL: none).
 * Fails: INVALID_ARGUMENT (NULL scene, dt negative or not finite, non-finite
 * inputs, an unknown transitions value); a job failure (a defect) is returned as is. */
SINEW_API sw_result sw_showcase_update(sw_showcase* s, float dt, const sw_showcase_inputs* in);

/* Seconds simulated so far. */
SINEW_API double sw_showcase_time(const sw_showcase* s);
SINEW_API uint32_t sw_showcase_actors_count(const sw_showcase* s);
/* View of actor i (i < actors_count), valid until the next update or
 * destroy; a zeroed view for an index out of range. */
SINEW_API sw_showcase_actor sw_showcase_get_actor(const sw_showcase* s, uint32_t i);
SINEW_API sw_showcase_camera sw_showcase_get_camera(const sw_showcase* s);
SINEW_API const sw_showcase_metrics* sw_showcase_get_metrics(const sw_showcase* s);
/* Bones of the options' character drawn as capsules because it came without
 * a mesh (sw_showcase_bones_mesh, shown by every humanoid actor and in the
 * recording's scene), or 0 when it has meshes, for the built-in humanoid and
 * for NULL. Front ends say so (the character is otherwise invisible). */
SINEW_API uint32_t sw_showcase_character_bones(const sw_showcase* s);
/* Status of the toggles' effects (zeroed for NULL). */
SINEW_API sw_showcase_status sw_showcase_get_status(const sw_showcase* s);
/* Height of the scene's ground at (x, z) (the step, the bumps; 0 elsewhere). */
SINEW_API float sw_showcase_ground_height(float x, float z);

#ifdef __cplusplus
}
#endif

#endif
