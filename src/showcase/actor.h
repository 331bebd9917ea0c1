/* The showcase's actor interface (src/showcase/actor.c, one actor per file
 * in src/showcase/actors/): each actor is a class (create, update, metrics,
 * destroy: function pointers) and an opaque state; the scene (scene.c)
 * keeps a table of classes, an actor view per actor and one context that
 * the actors share, and schedules them and the shared physics step.
 *
 * Per update of dt seconds the scene: advances the time and the camera;
 * calls update of every actor in table order; when ragdolls were
 * registered, runs the physics steps (drive every ragdoll, step the engine,
 * capture every ragdoll) and calls after_physics of the actors that have
 * it; fills each actor's palettes; then rebuilds the metrics and status
 * from every actor's metrics. */
#ifndef SINEW_SHOWCASE_ACTOR_H
#define SINEW_SHOWCASE_ACTOR_H

#include "showcase/build.h"
#include "showcase/cast.h"
#include "showcase/stage.h"
#include "sinew/showcase/scene.h"

/* A view's skinned surface as the ground guards see it: every vertex of
 * its meshes in the bind-time space of the joint that weighs most on it,
 * grouped by joint (points first[j] .. first[j + 1]), so it is carried
 * rigidly by that joint (skinning blends, within a few millimetres). */
typedef struct sw__sc_skin {
    sw_vec3* points;
    uint32_t* first;
} sw__sc_skin;

/* An actor's view: what sw_showcase_get_actor shows. The scene sets name
 * and material; create sets the rest with sw__sc_view_init; update writes
 * world, local and model. */
typedef struct sw__sc_actor {
    const char* name;
    const sw_skeleton* skel;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
    sw_showcase_material material;
    sw_mat4 world;
    sw_xform4* local;
    sw_mat4* model;
    sw_mat4* palettes[SW_SHOWCASE_MAX_MESHES];
    const sw_mat4* palettes_view[SW_SHOWCASE_MAX_MESHES];
    sw__sc_skin skin;
} sw__sc_actor;

/* The camera effects of a hit: shake and field-of-view pulse, `since`
 * seconds of scene time after the hit (< 0: no hit yet). */
typedef struct sw__sc_camera_fx {
    float since;
    sw_shake_desc shake;
    sw_fov_pulse_desc pulse;
} sw__sc_camera_fx;

/* A ragdoll driven and captured by the scene's physics step: it follows
 * `pose` (pose_count packets) placed at `root`, both owned by its actor. */
typedef struct sw__sc_ragdoll {
    sw_ragdoll* rd;
    const sw_xform4* pose;
    uint32_t pose_count;
    const sw_xform* root;
} sw__sc_ragdoll;

#define SW__SC_MAX_RAGDOLLS 4

/* What the actors share. */
typedef struct sw__sc_ctx {
    sw__sc_mem mem;
    uint32_t seed;
    double time;                /* scene time after this update */
    sw_showcase_inputs in;      /* this update's inputs (zeroed without) */
    sw_showcase_camera camera;  /* this update's camera, set before the actors run */
    sw__sc_camera_fx camera_fx; /* set by "hit" */
    sw__sc_cast cast;           /* the humanoid of the humanoid actors */
    sw_vec3 orb, arm_target;    /* set by "reach" and "arm", shown by "targets" */
    const sw_physics* physics;  /* NULL: no physics actors */
    sw_result (*physics_step)(void* user);
    void* physics_user;
    sw_ragdoll_stepper stepper;
    sw__sc_ragdoll ragdolls[SW__SC_MAX_RAGDOLLS];
    uint32_t ragdolls_count;
} sw__sc_ctx;

/* Registers a ragdoll with the physics step (drive and capture order is
 * registration order). Fails: LIMIT. */
sw_result sw__sc_ctx_add_ragdoll(sw__sc_ctx* ctx, const sw__sc_ragdoll* r);

/* An actor class. Optional hooks are NULL. */
typedef struct sw__sc_actor_class {
    const char* name;
    sw_showcase_material material;
    bool physics; /* made only when the options give a physics engine */
    /* Makes the state (memory from ctx->mem) and the view; *state is set
     * before anything can fail, so destroy cleans up a partial build.
     * Fails: OUT_OF_MEMORY, LIMIT, the builders' results with err. */
    sw_result (*create)(sw__sc_ctx* ctx, sw__sc_actor* view, void** state, sw_error* err);
    /* One update of dt seconds at ctx->time (before the physics steps);
     * NULL for an actor that never moves. Fails: a job's result. */
    sw_result (*update)(void* state, sw__sc_ctx* ctx, sw__sc_actor* view, float dt);
    /* After the physics steps; alpha: the stepper's interpolation factor. */
    sw_result (*after_physics)(void* state, sw__sc_ctx* ctx, sw__sc_actor* view, float dt,
                               float alpha);
    /* Adds the actor's figures (features, metrics, status) to m and st. */
    void (*metrics)(const void* state, sw_showcase_metrics* m, sw_showcase_status* st);
    /* Releases what the scene's memory list does not own (NULL state: none). */
    void (*destroy)(void* state);
} sw__sc_actor_class;

/* The actors, one file each in src/showcase/actors/. */
extern const sw__sc_actor_class sw__sc_locomotion;
extern const sw__sc_actor_class sw__sc_reach;
extern const sw__sc_actor_class sw__sc_caterpillar;
extern const sw__sc_actor_class sw__sc_arm;
extern const sw__sc_actor_class sw__sc_spider;
extern const sw__sc_actor_class sw__sc_hit;
extern const sw__sc_actor_class sw__sc_idle;
extern const sw__sc_actor_class sw__sc_props;
extern const sw__sc_actor_class sw__sc_targets;
extern const sw__sc_actor_class sw__sc_powered;
extern const sw__sc_actor_class sw__sc_knockdown;

/* Sets the view's skeleton and meshes and allocates its pose, model
 * matrices, palettes and skin from the list (rest pose, root at the
 * identity). Fails: OUT_OF_MEMORY. */
sw_result sw__sc_view_init(sw__sc_mem* m, sw__sc_actor* a, const sw_skeleton* s,
                           const sw_mesh* const* meshes, uint32_t meshes_count);
/* World-space model matrices of the view's local pose. */
void sw__sc_view_models(sw__sc_actor* a);
/* The same for joint j and the joints below it only (the others' model
 * matrices current): after a change to joint j's local transform. */
void sw__sc_view_models_below(sw__sc_actor* a, uint32_t j);
/* The rotation of a matrix (scale removed). */
sw_quat sw__sc_rotation(const sw_mat4* m);
/* Sets joint j's local rotation so that its world rotation is q (from its
 * parent's model matrix, or the view's world); model matrices not updated. */
void sw__sc_view_set_rotation(sw__sc_actor* a, uint32_t j, sw_quat q);
/* Two-bone IK at weight 1 on the view (start, mid, end joints; world-space
 * target, model matrices current), then its model matrices.
 * Fails: the IK job's result. */
sw_result sw__sc_view_two_bone(sw__sc_actor* a, int32_t start, int32_t mid, int32_t end,
                               sw_vec3 target);
/* The same, the mid joint bending toward world direction `bend` (the
 * current bend plane kept when `bend` is zero or lies along the limb) and
 * the reach eased by `softness` in [0, 1) (sw_ik_two_bone_job).
 * Fails: the IK job's result. */
sw_result sw__sc_view_two_bone_bent(sw__sc_actor* a, int32_t start, int32_t mid, int32_t end,
                                    sw_vec3 target, sw_vec3 bend, float softness);
/* The lowest point of the view's skinned surface (sw__sc_skin) carried by
 * joint `top` or a joint below it (top < 0: every joint), as its height
 * over the ground under it (sw__sc_ground); model matrices current.
 * INFINITY when those joints carry no vertex (or the view has no skin). */
float sw__sc_skin_gap(const sw__sc_actor* a, int32_t top);
/* sw__sc_skin_gap, and the lowest point itself (world) in *at (unset when
 * INFINITY). */
float sw__sc_skin_low(const sw__sc_actor* a, int32_t top, sw_vec3* at);
/* What a surface point `gap` over the ground lacks to its soft floor at the
 * ground (sw__sc_soft_floor: kept above `ease` m, eased in below, never
 * under the ground); 0 for INFINITY. */
float sw__sc_surface_lift(float gap, float ease);
/* Raises the end joint of the limb (start, mid, end joints) with two-bone
 * IK (weight 1) by what the lowest of joint `joints` and those below it
 * lacks to its soft floor (sw__sc_floor) or the surface of joint `skin`
 * and below (sw__sc_skin_gap) to the ground's, eased over `ease` m;
 * measured again after each raise (bending a joint can swing what hangs
 * from it lower), `passes` raises at most, none when both are clear.
 * Writes the view's pose and model matrices (current on entry).
 * Fails: the IK job's result. */
sw_result sw__sc_lift_limb(sw__sc_actor* a, const int32_t limb[3], int32_t joints, int32_t skin,
                           float ease, uint32_t passes);
/* Skinning palettes of every mesh of the view. Fails: the skinning job's result. */
sw_result sw__sc_view_palettes(sw__sc_actor* a);

/* Position (translation) of a matrix. */
static inline sw_vec3 sw__sc_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* Horizontal (x, z) distance. */
static inline float sw__sc_hdist(sw_vec3 a, sw_vec3 b) {
    const float dx = a.x - b.x, dz = a.z - b.z;
    return sqrtf(dx * dx + dz * dz);
}

/* One foot of the contact model (actors/contact.c): heel (the ankle joint)
 * and ball (its first child, -1 without) in contact while within 12 mm of
 * their heights over the ground under them at the first run (feet flat),
 * released above 16 mm; a contact pins its joint's horizontal world
 * position from the frame it begins, the leg is bent to it (two-bone IK),
 * the foot turned about +Y to keep the ball on its pin and, with both down,
 * pitched so the ball stays on it as the animation tilts the foot (only
 * ever lifting the ball; the pitch fades over 0.1 s once either lifts);
 * once both contacts end, the offset from the animation fades out. A foot
 * held too far from where the animation puts it, or freed far from it,
 * steps there instead: it rises, moves, and lands (a contact pinned where
 * it lands), never gliding along the ground. Then a foot (held or not)
 * whose skinned surface or its lower leg's (sw__sc_skin_gap) dips under
 * the ground is raised onto it (eased over 5 mm), the leg bent to the
 * raised ankle, and pitched about the ankle where the leg cannot reach. */
typedef struct sw__sc_contact {
    int32_t hip, knee, ankle, ball;
    bool detached; /* the ankle is not below the knee: the foot is moved, the knee bent and the
                      upper leg aimed so the leg's end follows it */
    float heel_ref, ball_ref; /* heights over the ground at the first run */
    bool heel_on, ball_on;
    sw_vec3 heel_pin, ball_pin; /* world, while on */
    sw_vec3 offset;             /* horizontal, output ankle minus animated */
    float yaw;                  /* radians about +Y, output foot minus animated */
    float weight;               /* 1 in contact, fading out after */
    sw_quat roll; /* world, with heel and ball down: keeps the ball on its pin as the foot tilts */
    float step, step_time; /* s into a step, and its length (0: no step) */
    sw_vec3 step_from;     /* offset at the step's start */
    float step_yaw;        /* yaw at the step's start */
    float step_over;       /* m, the animated ankle over the ground at the step's start */
    sw_vec3 step_land;     /* world, where it comes down (step_down) */
    bool step_down;
    float lift;  /* m, the step's raise of the ankle this frame */
    float raise; /* m, the sole's raise of the ankle onto the ground this frame */
} sw__sc_contact;

typedef struct sw__sc_contacts {
    sw__sc_contact feet[2]; /* left, right */
} sw__sc_contacts;

/* Zeroed contacts of a humanoid's two legs. */
void sw__sc_contacts_init(sw__sc_contacts* c, const sw__sc_human* h, const sw_skeleton* s);
/* Runs the contact model on the view's animated pose (world-space model
 * matrices current), writing its pose and model matrices; off: contacts
 * cleared, the pose untouched. Fails: the IK job's result. */
sw_result sw__sc_contacts_run(sw__sc_contacts* c, sw__sc_actor* a, bool off, float dt);

/* A soft floor at height min (m): heights above min + ease are kept, lower
 * ones eased (C1) onto min, which nothing goes under. */
static inline float sw__sc_soft_floor(float y, float min, float ease) {
    const float lo = min - ease;
    if (y >= min + ease) return y;
    if (y <= lo) return min;
    return min + (y - lo) * (y - lo) / (4.0f * ease);
}

/* The soft floor of the ground guards' joints: heights above 2 cm are
 * kept, lower ones eased onto 1.5 cm. */
static inline float sw__sc_floor(float y) {
    return sw__sc_soft_floor(y, 0.015f, 0.005f);
}

/* Keeps each arm's joints above the ground (sw__sc_ground, soft floor
 * sw__sc_floor) and the skinned surface of its forearm and hand on it
 * (eased over 6 cm; RobotExpressive's fingers hang from the forearm, beside
 * its hand joint): an arm whose lowest joint or surface point is under has
 * its hand raised by what it lacks, with two-bone IK (RobotExpressive's long arms swing its
 * fingers through the floor while it runs). Writes the view's
 * pose and model matrices (world-space model matrices current on entry).
 * Fails: the IK job's result. */
sw_result sw__sc_arms_above_ground(const sw__sc_human* h, sw__sc_actor* a);

/* World matrix at p turned by yaw about +Y, scaled uniformly. */
sw_mat4 sw__sc_world(sw_vec3 p, float yaw, float scale);

/* Joint velocities of an actor between updates (prev_pos, prev_vel:
 * skeleton joints_count each). */
typedef struct sw__sc_velocity {
    sw_vec3* prev_pos;
    sw_vec3* prev_vel;
    uint32_t valid; /* 0, 1 (positions) or 2 (positions and velocities) */
} sw__sc_velocity;

/* Room for `joints` joints from the list. Fails: OUT_OF_MEMORY. */
sw_result sw__sc_velocity_init(sw__sc_mem* m, sw__sc_velocity* v, uint32_t joints);
/* Largest joint velocity change (world, m/s) of an actor since the previous
 * update, from its model matrices; 0 until two updates were seen. */
float sw__sc_velocity_jump(sw__sc_velocity* v, const sw__sc_actor* a, float dt);

/* A planted foot: where it landed and its largest horizontal drift since. */
typedef struct sw__sc_plant {
    bool planted;
    sw_vec3 anchor;
    float drift;
} sw__sc_plant;

/* Ends a plant (if planted): counts the step, raises *max, adds to *sum. */
void sw__sc_close_step(sw__sc_plant* p, uint32_t* steps, float* max, double* sum);

#endif
