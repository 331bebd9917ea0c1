/* sinew/animator/animator.h: parameter-driven animation controller (state machines,
 * blend spaces, layers, root motion, events).
 *
 * Three objects, from shared to per-character:
 * - sw_animator, the definition: parameters, blend spaces, state machines
 *   (states, transitions), layers and the root-motion joint. Built once from
 *   an sw_animator_desc into one contiguous, relocatable, immutable block
 *   (sw_animator_init / _create, like sw_skeleton; sw_animator_load validates
 *   a stored copy in place). Clips are referenced by
 *   name: every distinct clip name becomes a clip slot, numbered in order of
 *   first use by blend-space members (desc order), then by clip states.
 * - sw_animator_bound, the definition bound to one skeleton and its clips:
 *   clip slots resolved to sw_clip pointers by name, layer masks resolved to
 *   per-joint weights, the root-motion joint found. Caller memory; shared by
 *   every character with that skeleton and those clips.
 * - sw_animator_instance, one character's state: playing states, their times,
 *   transitions in progress, inertialization offsets, a sampling cache per
 *   clip each layer may play (sw_animator_keep: key cursors for raw clips
 *   with explicit key times, so forward playback resumes each key search
 *   where the last evaluate left it; optionally quantized clips' decoded
 *   keys too; poses are bit-identical to sampling without a cache). Caller
 *   memory of sw_animator_instance_size(bound) bytes; no pointers inside, so
 *   it can be copied (snapshots, rollback) while the bound object lives.
 *
 * Per frame:
 *
 *     params[speed] = 2.3f;                                // caller-owned floats
 *     sw_animator_update(inst, bound, params, n, dt, events, 16, &events_count, &rm);
 *     sw_animator_evaluate(inst, bound, scratch, scratch_size, pose, packets_count);
 *
 * Parameters are floats in a caller array (sw_animator_params_reset fills the
 * defaults): ints are whole floats, bools and triggers 0 or 1. A trigger stays
 * set until a transition that tests it fires; update then clears it to 0.
 *
 * State machines: each machine has states (a clip, a blend space or a nested
 * machine) and an entry state. A machine keeps a small stack of playing
 * states (at most SW_ANIMATOR_MAX_FADES): the newest fades in with weight
 * a = elapsed / duration (linear, so continuous and monotonic) while the
 * older ones keep their weights at the moment the transition began, scaled by
 * 1 - a; when a reaches 1 the older states stop. A transition interrupted by
 * another pushes a third state on the stack (no pop). When the stack is full
 * the oldest state is dropped and the others renormalized. Duration 0 is an
 * instant cut. Once per update and machine, after times advanced, the first
 * transition whose conditions hold fires: "any state" transitions first, then
 * those of the current state, each in desc order. While a transition is in
 * progress only its interruption source is considered (NONE: nothing; CURRENT:
 * the source state's transitions and "any state"; NEXT: the destination's and
 * "any state"). "Any state" transitions never re-enter the current state
 * unless `to_self` is set. A nested machine restarts from its entry state when
 * its state is entered and it was not playing; it advances with the
 * containing state's speed.
 *
 * Time: a state's normalized time counts cycles (2.25: a quarter into the
 * third loop). Looping states wrap; others stop at 1 and report
 * SW_ANIMATOR_EVENT_KIND_FINISHED once. Exit times are normalized: a looping
 * state satisfies exit time e in (0, 1] each time it crosses e + k (k >= 0),
 * e > 1 once its normalized time reaches e; a non-looping state once its
 * normalized time reaches e. A time window [t1, t2] (attack windows, combo
 * inputs) holds while the source state's time in its cycle t satisfies
 * t1 <= t <= t2, both ends included: a looping state's normalized time less
 * its whole cycles (the end of a cycle counts as 1), a non-looping state's
 * normalized time (at most 1); the source is the state the transition
 * leaves (for "any state" transitions, the current one). A transition's
 * offset starts the destination at that normalized time instead of 0 (a
 * blend space at that shared phase); events before it are not reported.
 *
 * Hits: sw_animator_apply_hit writes a hit (a world direction, a strength)
 * into the parameters desc.hit names: the direction the hit comes from in the
 * character's frame (+Z forward, +X its left, +Y up), flattened and scaled by
 * the strength, as (x, y) = strength * (sin a, cos a) with a the angle from
 * the front toward the left, and sets a trigger. With hit clips at front
 * (0, 1), left (1, 0), back (0, -1), right (-1, 0) in a directional 2D blend
 * space, a hit between two of them at angle b from the first (0 <= b <= 90
 * degrees) gets weights 1 - b / 90 and b / 90 (cartesian bands give
 * (1 + cos b - sin b) / 2 and (1 - cos b + sin b) / 2); members at two radii
 * (light and heavy hits) blend by strength as well.
 *
 * Blend spaces: 1D (members at x; linear between the two neighbours of the
 * parameter, clamped at the ends) or 2D freeform (members at (x, y); gradient
 * band interpolation in cartesian space: member i gets
 * h_i = max(0, min over j != i of 1 - dot(p - p_i, p_j - p_i) / |p_j - p_i|^2),
 * weights h_i / sum h; continuous, 1 at a member, the two neighbours along an
 * edge). Directional 2D spaces (velocity-like parameters: direction times
 * speed, as Unity's "freeform directional") use the bands in polar form: for
 * members i, j the vectors p - p_i and p_j - p_i become
 * ((|p| - |p_i|) / m, 2 * angle(p_i, p)) and ((|p_j| - |p_i|) / m,
 * 2 * angle(p_i, p_j)) with m = (|p_i| + |p_j|) / 2 and signed angles, the
 * angle terms 0 when p_i, p_j or p is at the origin; so speed and direction
 * blend separately and a member at the origin (idle) fades by speed alone. Members share one
 * normalized phase: the blended cycle length is L = sum w_i * duration_i and the phase advances by
 * speed * dt / L, so each clip plays at rate duration_i / L. With sync markers (event names such as
 * "LeftFootDown", "RightFootDown"), every member must hold the same cyclic
 * sequence of those events; the phase then runs segment by segment between
 * markers (segment length blended the same way) and each clip is mapped
 * linearly inside the segment, so the markers of all members coincide (the
 * state starts with every member at its first marker named sync_markers[0]).
 *
 * Layers: the first layer is the base (weight 1, no mask); override layers
 * replace the pose where their mask allows (per joint: base * (1 - w * m) +
 * layer * w * m), additive layers add their clips' deltas with weight w
 * (mask m per joint). Additive clips (SW_CLIP_FLAG_ADDITIVE) are used as
 * they are; other clips in an additive layer are turned into deltas against
 * their first frame or the rest pose (sw_animator_layer_desc.reference).
 *
 * Root motion (optional, from `root_motion_joint`): the joint's model-space
 * transform (ancestors at rest) is split into a ground transform G(t) (the
 * translation's x and z, the rotation's twist about +Y) and the rest. Update
 * reports G(a)^-1 * G(b) for each playing clip of the base layer from its
 * previous time a to its new time b (composed through the clip's end and
 * start for each loop wrap), averaged with the pose weights: translation in
 * the character's frame at the start of the update (y = 0) and the yaw
 * angle. Evaluate removes G(t) from every non-additive sampled pose, so the
 * joint stays above the origin facing +Z. Deltas compose exactly, so the
 * total does not depend on the frame rate.
 *
 * Events: every clip event crossed by a playing clip's time since the last
 * update is reported once (wraps split the range at the clip's end; an event
 * at the very end fires when the end is reached), unless the clip's weight
 * (state weight times blend-space weight times layer weight) is below
 * desc.event_weight_threshold. Events that a state would cross in the
 * update where it starts are not reported (it starts at time 0).
 *
 * Inertialization (transition mode): the destination replaces the source at
 * once; at the next evaluate, per joint of that layer, the offset between the
 * previous output (extrapolated by its velocity from the two previous
 * outputs) and the new pose is recorded (translation as a vector, rotation as
 * an axis-angle) and decays to zero over the transition's duration with
 * Bollo's quintic (x(T) = x'(T) = x''(T) = 0, initial velocity clamped to
 * point toward zero and T shortened to keep 5 * x0 / |v0| so it never
 * overshoots). Scale is not inertialized.
 *
 * Determinism: the same definition, clips, parameters and dt sequence give
 * bit-identical instances, events, root motion and poses.
 *
 * Threads: definitions and bound objects are read-only and shareable; an
 * instance belongs to one thread at a time.
 */
#ifndef SINEW_ANIMATOR_H
#define SINEW_ANIMATOR_H

#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_ANIMATOR_MAX_PARAMS 256
#define SW_ANIMATOR_MAX_CLIPS 1024
#define SW_ANIMATOR_MAX_BLEND_SPACES 256
#define SW_ANIMATOR_MAX_MEMBERS 32 /* per blend space */
#define SW_ANIMATOR_MAX_MACHINES 64
#define SW_ANIMATOR_MAX_STATES 1024 /* in all machines */
#define SW_ANIMATOR_MAX_TRANSITIONS 4096
#define SW_ANIMATOR_MAX_CONDITIONS 16 /* per transition */
#define SW_ANIMATOR_MAX_LAYERS 8
#define SW_ANIMATOR_MAX_MASK 256         /* entries per layer mask */
#define SW_ANIMATOR_MAX_MARKERS 8        /* sync marker names per blend space */
#define SW_ANIMATOR_MAX_FADES 4          /* playing states per machine */
#define SW_ANIMATOR_MAX_CONTRIBUTIONS 64 /* playing clips per layer, worst case */
#define SW_ANIMATOR_MAX_NAME 255
#define SW_ANIMATOR_NONE 0xFFFFFFFFu

/* Each enum comes from one list of (value, word): the word is what the JSON
 * reader reads, the CLI prints and docs/animator.md lists for the value
 * (NULL: none, e.g. DEFAULT, which JSON writes by leaving the key out);
 * sw_animator_enum_word gives it at run time. */
#define SW_ANIMATOR_PARAM_TYPE_LIST(X)                                                             \
    X(DEFAULT, NULL) /* float */                                                                   \
    X(FLOAT, "float")                                                                              \
    X(INT, "int")                                                                                  \
    X(BOOL, "bool")                                                                                \
    X(TRIGGER, "trigger")

typedef enum sw_animator_param_type {
/* clang-format off */
#define SW__ANIMATOR_PARAM_TYPE(name, word) SW_ANIMATOR_PARAM_TYPE_##name,
    SW_ANIMATOR_PARAM_TYPE_LIST(SW__ANIMATOR_PARAM_TYPE)
#undef SW__ANIMATOR_PARAM_TYPE
    SW_ANIMATOR_PARAM_TYPE_COUNT
    /* clang-format on */
} sw_animator_param_type;

typedef struct sw_animator_param_desc {
    const char* name; /* unique, not empty */
    sw_animator_param_type type;
    float value; /* default; ints whole, bools and triggers 0 or 1 */
} sw_animator_param_desc;

typedef struct sw_animator_member_desc {
    const char* clip; /* clip name (a slot) */
    float x, y;       /* position in the space (y ignored in 1D) */
} sw_animator_member_desc;

typedef struct sw_animator_blend_space_desc {
    const char* name;    /* unique among blend spaces */
    const char* param_x; /* float or int parameter */
    const char* param_y; /* NULL: a 1D space; else a float or int parameter (2D) */
    const sw_animator_member_desc* members; /* 1..SW_ANIMATOR_MAX_MEMBERS, distinct positions */
    uint32_t members_count;
    const char* const* sync_markers; /* optional event names, checked against the clips at bind */
    uint32_t sync_markers_count;
    bool directional; /* 2D only: gradient bands in polar space (see the top); false: cartesian */
} sw_animator_blend_space_desc;

/* The words are the keys of a JSON state naming its target. */
#define SW_ANIMATOR_MOTION_LIST(X)                                                                 \
    X(NONE, NULL)                                                                                  \
    X(CLIP, "clip")                                                                                \
    X(BLEND_SPACE, "blend_space")                                                                  \
    X(MACHINE, "machine")

typedef enum sw_animator_motion {
/* clang-format off */
#define SW__ANIMATOR_MOTION(name, word) SW_ANIMATOR_MOTION_##name,
    SW_ANIMATOR_MOTION_LIST(SW__ANIMATOR_MOTION)
#undef SW__ANIMATOR_MOTION
    SW_ANIMATOR_MOTION_COUNT
    /* clang-format on */
} sw_animator_motion;

typedef struct sw_animator_state_desc {
    const char* name; /* unique within its machine */
    sw_animator_motion motion;
    const char* target;      /* clip name, blend space name or machine name */
    bool once;               /* false: loops; true: plays once, holds the end, reports finished */
    float speed;             /* time scale >= 0; 0 means 1 */
    const char* speed_param; /* optional float/int parameter multiplying speed (clamped >= 0) */
} sw_animator_state_desc;

#define SW_ANIMATOR_OP_LIST(X)                                                                     \
    X(NONE, NULL)                                                                                  \
    X(GREATER, ">")       /* float, int: param > value */                                          \
    X(LESS, "<")          /* float, int: param < value */                                          \
    X(EQUAL, "==")        /* float, int: param == value */                                         \
    X(NOT_EQUAL, "!=")    /* float, int: param != value */                                         \
    X(TRUE, "true")       /* bool: param != 0 */                                                   \
    X(FALSE, "false")     /* bool: param == 0 */                                                   \
    X(TRIGGER, "trigger") /* trigger: set; cleared when the transition fires */

typedef enum sw_animator_op {
/* clang-format off */
#define SW__ANIMATOR_OP(name, word) SW_ANIMATOR_OP_##name,
    SW_ANIMATOR_OP_LIST(SW__ANIMATOR_OP)
#undef SW__ANIMATOR_OP
    SW_ANIMATOR_OP_COUNT
    /* clang-format on */
} sw_animator_op;

typedef struct sw_animator_condition_desc {
    const char* param;
    sw_animator_op op;
    float value; /* for GREATER, LESS, EQUAL, NOT_EQUAL */
} sw_animator_condition_desc;

#define SW_ANIMATOR_TRANSITION_MODE_LIST(X)                                                        \
    X(DEFAULT, NULL) /* crossfade */                                                               \
    X(CROSSFADE, "crossfade")                                                                      \
    X(INERTIALIZE, "inertialize")

typedef enum sw_animator_transition_mode {
/* clang-format off */
#define SW__ANIMATOR_TRANSITION_MODE(name, word) SW_ANIMATOR_TRANSITION_MODE_##name,
    SW_ANIMATOR_TRANSITION_MODE_LIST(SW__ANIMATOR_TRANSITION_MODE)
#undef SW__ANIMATOR_TRANSITION_MODE
    SW_ANIMATOR_TRANSITION_MODE_COUNT
    /* clang-format on */
} sw_animator_transition_mode;

#define SW_ANIMATOR_INTERRUPT_LIST(X)                                                              \
    X(NONE, "none")       /* runs to its end */                                                    \
    X(CURRENT, "current") /* the source state's transitions may interrupt */                       \
    X(NEXT, "next")       /* the destination state's transitions may interrupt */

typedef enum sw_animator_interrupt {
/* clang-format off */
#define SW__ANIMATOR_INTERRUPT(name, word) SW_ANIMATOR_INTERRUPT_##name,
    SW_ANIMATOR_INTERRUPT_LIST(SW__ANIMATOR_INTERRUPT)
#undef SW__ANIMATOR_INTERRUPT
    SW_ANIMATOR_INTERRUPT_COUNT
    /* clang-format on */
} sw_animator_interrupt;

typedef struct sw_animator_transition_desc {
    const char* from; /* state of the same machine, or NULL / "*" for any state */
    const char* to;   /* state of the same machine */
    const sw_animator_condition_desc* conditions; /* all must hold (none: always) */
    uint32_t conditions_count;
    bool has_exit_time;
    float exit_time; /* normalized time of the source (see the top); > 0 when has_exit_time */
    float duration;  /* seconds >= 0; 0 is an instant cut */
    sw_animator_transition_mode mode;
    sw_animator_interrupt interrupt;
    bool to_self; /* "any state" transitions: may re-enter the current state */
    bool has_time_window;
    float time_window[2]; /* [start, end], 0 <= start <= end <= 1: fires only while the source
                             state's time in its cycle is inside (see the top) */
    float offset;         /* [0, 1]: normalized time the destination starts at; 0: its start */
} sw_animator_transition_desc;

typedef struct sw_animator_machine_desc {
    const char* name;                     /* unique among machines */
    const sw_animator_state_desc* states; /* 1 or more */
    uint32_t states_count;
    const sw_animator_transition_desc* transitions;
    uint32_t transitions_count;
    const char* entry; /* NULL: the first state */
} sw_animator_machine_desc;

#define SW_ANIMATOR_LAYER_MODE_LIST(X)                                                             \
    X(DEFAULT, NULL) /* override */                                                                \
    X(OVERRIDE, "override")                                                                        \
    X(ADDITIVE, "additive")

typedef enum sw_animator_layer_mode {
/* clang-format off */
#define SW__ANIMATOR_LAYER_MODE(name, word) SW_ANIMATOR_LAYER_MODE_##name,
    SW_ANIMATOR_LAYER_MODE_LIST(SW__ANIMATOR_LAYER_MODE)
#undef SW__ANIMATOR_LAYER_MODE
    SW_ANIMATOR_LAYER_MODE_COUNT
    /* clang-format on */
} sw_animator_layer_mode;

#define SW_ANIMATOR_REFERENCE_LIST(X)                                                              \
    X(DEFAULT, NULL)              /* first frame */                                                \
    X(FIRST_FRAME, "first_frame") /* delta against the clip at time 0 */                           \
    X(REST_POSE, "rest_pose")     /* delta against the skeleton's rest pose */

typedef enum sw_animator_reference {
/* clang-format off */
#define SW__ANIMATOR_REFERENCE(name, word) SW_ANIMATOR_REFERENCE_##name,
    SW_ANIMATOR_REFERENCE_LIST(SW__ANIMATOR_REFERENCE)
#undef SW__ANIMATOR_REFERENCE
    SW_ANIMATOR_REFERENCE_COUNT
    /* clang-format on */
} sw_animator_reference;

/* A mask entry sets the weight of a joint and its whole subtree; a joint
 * takes the weight of its nearest listed ancestor (or itself), 0 when none
 * is listed. A layer without entries covers every joint with weight 1. */
typedef struct sw_animator_mask_desc {
    const char* joint; /* joint name, resolved at bind */
    float weight;      /* [0, 1] */
} sw_animator_mask_desc;

typedef struct sw_animator_layer_desc {
    const char* name;            /* unique among layers */
    const char* machine;         /* the machine this layer plays */
    sw_animator_layer_mode mode; /* ignored for the first layer */
    float weight;                /* [0, 1], ignored for the first layer; 0 means 1 */
    const char* weight_param;    /* optional float parameter replacing weight (clamped to [0, 1]) */
    const sw_animator_mask_desc* mask;
    uint32_t mask_count;             /* must be 0 for the first layer */
    sw_animator_reference reference; /* additive layers, non-additive clips */
} sw_animator_layer_desc;

/* The parameters a hit writes (sw_animator_apply_hit); each name is optional
 * (NULL: not written). A 2D blend space over (param_x, param_y) with hit
 * clips at front (0, 1), back (0, -1), left (1, 0) and right (-1, 0) picks
 * and blends them by the hit's direction (see the top). */
typedef struct sw_animator_hit_desc {
    const char* param_x;        /* float: strength * side the hit comes from (+: the left, +X) */
    const char* param_y;        /* float: strength * front (+) or behind (-) (+Z) */
    const char* strength_param; /* float: the strength */
    const char* trigger;        /* trigger parameter: set to 1 */
} sw_animator_hit_desc;

/* The locomotion parameters a steering input writes (sw_animator_apply_move:
 * a player's keys or stick, an AI's path follower); each name is optional
 * (NULL: not written) and names a float parameter. */
typedef struct sw_animator_move_desc {
    const char* speed_param;  /* m/s along the character's heading (negative: backwards) */
    const char* strafe_param; /* m/s to the character's right */
    const char* turn_param;   /* radians per second about +Y, positive turning left */
} sw_animator_move_desc;

typedef struct sw_animator_desc {
    const sw_animator_param_desc* params;
    uint32_t params_count;
    const sw_animator_blend_space_desc* blend_spaces;
    uint32_t blend_spaces_count;
    const sw_animator_machine_desc* machines; /* each played by one layer or one state */
    uint32_t machines_count;
    const sw_animator_layer_desc* layers; /* 1..SW_ANIMATOR_MAX_LAYERS, base first */
    uint32_t layers_count;
    const char* root_motion_joint; /* NULL: no root motion */
    float event_weight_threshold;  /* [0, 1]; 0: every event of a playing clip */
    sw_animator_hit_desc hit;      /* the parameters sw_animator_apply_hit writes */
    sw_animator_move_desc move;    /* the parameters sw_animator_apply_move writes */
} sw_animator_desc;

/* The definition block (opaque; see the accessors below). */
typedef struct sw_animator sw_animator;
/* A definition bound to a skeleton and clips (opaque, caller memory). */
typedef struct sw_animator_bound sw_animator_bound;
/* One character's state (opaque, caller memory). */
typedef struct sw_animator_instance sw_animator_instance;

/* The enums with a word list, for sw_animator_enum_word. */
typedef enum sw_animator_enum {
    SW_ANIMATOR_ENUM_PARAM_TYPE = 0,
    SW_ANIMATOR_ENUM_MOTION,
    SW_ANIMATOR_ENUM_OP,
    SW_ANIMATOR_ENUM_TRANSITION_MODE,
    SW_ANIMATOR_ENUM_INTERRUPT,
    SW_ANIMATOR_ENUM_LAYER_MODE,
    SW_ANIMATOR_ENUM_REFERENCE,
    SW_ANIMATOR_ENUM_EVENT_KIND,
    SW_ANIMATOR_ENUM_COUNT
} sw_animator_enum;

/* The word of `value` in enum `e` from its list ("float", ">", "inertialize",
 * "event", ...): a static string, or NULL when the value has none or either
 * argument is out of range. */
SINEW_API const char* sw_animator_enum_word(sw_animator_enum e, uint32_t value);

/* Number of values of enum `e` (its _COUNT), 0 when e is out of range. */
SINEW_API uint32_t sw_animator_enum_count(sw_animator_enum e);

/* ---- definition ---------------------------------------------------------- */

/* Bytes needed to build `desc`, or 0 when it is invalid. */
SINEW_API size_t sw_animator_measure(const sw_animator_desc* desc);

/* Builds a definition from `desc` in caller memory (16-byte aligned, at least
 * sw_animator_measure bytes); *out == mem. Names are copied.
 * Fails: INVALID_ARGUMENT (NULL desc, mem or out; a NULL array with a
 * non-zero count; a NULL name where one is required); MISALIGNED;
 * BUFFER_TOO_SMALL; LIMIT (counts above the SW_ANIMATOR_MAX_* limits, names
 * longer than SW_ANIMATOR_MAX_NAME, more than SW_ANIMATOR_MAX_CONTRIBUTIONS
 * clips playing at once in the worst case of a layer); BAD_DATA: empty or
 * duplicate names, unknown parameter / state / blend space / machine names,
 * a default value not fitting its type, a blend space parameter that is not
 * float or int, duplicate member positions (1D: same x; 2D: same (x, y)),
 * a state without motion or with a negative or non-finite speed, a
 * condition whose op does not fit its parameter's type, non-finite values,
 * has_exit_time with exit_time <= 0, a negative duration, a time window
 * not finite or not 0 <= start <= end <= 1 (has_time_window), an offset
 * outside [0, 1] or not 0 into a machine state, unknown enum
 * values, a transition into the current state of a nested machine state
 * (from == to on a machine state), hit parameters that are unknown or not
 * float (a trigger for desc.hit.trigger), move parameters that are unknown
 * or not float, a machine played by no layer or state
 * or by more than one, nested machines forming a cycle, a mask on the first
 * layer or a mask weight outside [0, 1], a layer weight outside [0, 1], an
 * event threshold outside [0, 1]. err names the check; err->index is the
 * element (parameter, blend space, machine, layer) the check is about, or -1.
 */
SINEW_API sw_result sw_animator_init(void* mem, size_t size, const sw_animator_desc* desc,
                                     const sw_animator** out, sw_error* err);

/* measure + allocate + init; free with sw_animator_destroy and the same allocator. */
SINEW_API sw_result sw_animator_create(const sw_animator_desc* desc, const sw_allocator* alloc,
                                       const sw_animator** out, sw_error* err);
SINEW_API void sw_animator_destroy(const sw_animator* a, const sw_allocator* alloc);

/* Validates a definition block of `size` bytes at `data` (16-byte aligned;
 * a copy of one built by sw_animator_init, e.g. read from a file) and sets
 * *out to it in place (nothing copied; data must outlive its use). Checks
 * everything update and evaluate rely on: offsets and counts in bounds and
 * limits, NUL-terminated names, every index (parameters, clips, blend
 * spaces, states, machines, layers) in range and of the right kind, condition
 * ops fitting their parameters, parameter defaults fitting their types (the
 * rules init applies to a desc), finite values, 1D members sorted, each
 * machine played once with consistent nesting depths (no cycle), the machine
 * order, the worst-case playing clips.
 * Fails: INVALID_ARGUMENT, MISALIGNED, TRUNCATED (shorter than the header or
 * the block's size), LIMIT, BAD_DATA; err names the check, the byte offset of
 * the array and the element. */
SINEW_API sw_result sw_animator_load(const void* data, size_t size, const sw_animator** out,
                                     sw_error* err);

/* Bytes of the block (what init used). */
SINEW_API size_t sw_animator_size(const sw_animator* a);

/* Counts and names (index out of range: NULL or SW_ANIMATOR_NONE). States
 * are numbered across machines in desc order (machine 0's states first). */
SINEW_API uint32_t sw_animator_params_count(const sw_animator* a);
SINEW_API const char* sw_animator_param_name(const sw_animator* a, uint32_t param);
SINEW_API sw_animator_param_type sw_animator_param_type_of(const sw_animator* a, uint32_t param);
SINEW_API int32_t sw_animator_find_param(const sw_animator* a, const char* name);
SINEW_API uint32_t sw_animator_clips_count(const sw_animator* a);
SINEW_API const char* sw_animator_clip_name(const sw_animator* a, uint32_t slot);
SINEW_API uint32_t sw_animator_states_count(const sw_animator* a);
SINEW_API const char* sw_animator_state_name(const sw_animator* a, uint32_t state);
SINEW_API uint32_t sw_animator_state_machine(const sw_animator* a, uint32_t state);
SINEW_API uint32_t sw_animator_machines_count(const sw_animator* a);
SINEW_API const char* sw_animator_machine_name(const sw_animator* a, uint32_t machine);
SINEW_API uint32_t sw_animator_layers_count(const sw_animator* a);
SINEW_API const char* sw_animator_layer_name(const sw_animator* a, uint32_t layer);

/* True when a transition of the definition inertializes: its instances keep
 * the layers' output history, which a caller that keeps a pose instead of
 * evaluating records with sw_animator_reuse_pose (without such transitions
 * that call records nothing). False for NULL. */
SINEW_API bool sw_animator_inertializes(const sw_animator* a);
/* State by name: "State" (first machine holding it) or "Machine/State"; -1 if none. */
SINEW_API int32_t sw_animator_find_state(const sw_animator* a, const char* name);

/* Writes every parameter's default into params[0..params_count).
 * Fails: INVALID_ARGUMENT (NULL), BUFFER_TOO_SMALL (params_count too small). */
SINEW_API sw_result sw_animator_params_reset(const sw_animator* a, float* params,
                                             uint32_t params_count);

/* A hit: the way the blow travels and how hard it is. */
typedef struct sw_animator_hit {
    sw_vec3 direction; /* world space, from the attacker into the character; any length */
    float strength;    /* >= 0 */
} sw_animator_hit;

/* Writes `hit` into the parameters that desc.hit names (see the top): the
 * direction the hit comes from (-direction) turned into the character's frame
 * (facing: the character's world rotation) and flattened onto its ground
 * plane, as a unit vector (x, z) times the strength into param_x and
 * param_y; the strength into strength_param; 1 into the trigger. A hit with
 * no horizontal part (straight down) counts as from the front. Other
 * parameters are left alone; the caller then runs sw_animator_update.
 * Fails (nothing written): INVALID_ARGUMENT (NULL), BUFFER_TOO_SMALL
 * (params_count below the definition's), BAD_DATA (direction or facing not
 * finite, strength negative or not finite), NOT_FOUND (desc.hit named no
 * parameter). */
SINEW_API sw_result sw_animator_apply_hit(const sw_animator* a, sw_quat facing,
                                          const sw_animator_hit* hit, float* params,
                                          uint32_t params_count);

/* A steering input: how fast and which way the character should go. */
typedef struct sw_animator_move {
    float speed;  /* m/s along the heading; negative: backwards */
    float strafe; /* m/s to the right */
    float turn;   /* radians per second about +Y, positive turning left (from +Z toward +X) */
} sw_animator_move;

/* Writes `move` into the parameters desc.move names, each clamped to the
 * span of the blend space members placed along that parameter (so a blend
 * space is never asked for a speed it has no clip for); a parameter no
 * blend space reads is written as given. Other parameters are left alone.
 * Returns the number of parameters written (0 when the definition declares
 * none: the caller then steers another way, e.g. its own heading).
 * Fails (nothing written, returns 0): NULL a or params, params_count below
 * the definition's, a move value not finite. */
SINEW_API uint32_t sw_animator_apply_move(const sw_animator* a, const sw_animator_move* move,
                                          float* params, uint32_t params_count);

/* The parameter desc.move declares for speed (0), strafe (1) or turn (2),
 * or -1 when none (or a or which out of range). */
SINEW_API int32_t sw_animator_move_param(const sw_animator* a, uint32_t which);

/* The span of values the definition gives parameter `param`, for a slider
 * or to clamp an input: the smallest and largest of its default, its blend
 * spaces' member positions along it and its conditions' thresholds; a
 * bool or trigger gives [0, 1]; a float or int that nothing constrains
 * gets [min(default, 0), max(default, 1)]. When the values found are all
 * one number v the span is [v - 1, v + 1]. Returns false (lo and hi
 * untouched) for NULL or a parameter out of range. */
SINEW_API bool sw_animator_param_range(const sw_animator* a, uint32_t param, float* lo, float* hi);

/* ---- binding ------------------------------------------------------------- */

/* Bytes of the bound object for `a` over `skeleton` (0 for NULL arguments). */
SINEW_API size_t sw_animator_bound_size(const sw_animator* a, const sw_skeleton* skeleton);

/* Resolves the definition against a skeleton and a set of clips, in caller
 * memory (16-byte aligned, sw_animator_bound_size bytes): each clip slot to
 * the first clip with that name (sw_clip_name), masks to per-joint weights,
 * the root-motion joint, the sync markers of blend spaces.
 * Memory: the bound object points at a, skeleton and the clips (not copied):
 * they must outlive it. The clips array itself is not kept.
 * Fails: INVALID_ARGUMENT (NULL arguments, a NULL clip in the array);
 * MISALIGNED; BUFFER_TOO_SMALL; NOT_FOUND (a clip slot without a clip, an
 * unknown mask joint, an unknown root-motion joint; err->check names which,
 * err->index the slot, layer or -1); BAD_DATA (a clip whose joint count is not
 * the skeleton's; blend space members whose sync markers are missing, more
 * than 16 per clip, not strictly increasing, or differ in count or cyclic
 * order; err->index is the blend space). */
SINEW_API sw_result sw_animator_bind(const sw_animator* a, const sw_skeleton* skeleton,
                                     const sw_clip* const* clips, uint32_t clips_count, void* mem,
                                     size_t size, const sw_animator_bound** out, sw_error* err);

/* sw_animator_bind, with each clip's shared table (sinew/core/sample.h):
 * tables[i] is NULL or clips[i]'s table (sw_sample_table_init), which the
 * slot resolved to clips[i] then reads. Instances keeping keys
 * (SW_ANIMATOR_KEEP_KEYS) read the tracks' parsed headers there instead of
 * keeping their own, in caches of sw_sample_cache_size_with_table words
 * (RobotExpressive's Walking: 2.6 KB instead of 4.2 KB), the same poses.
 * tables NULL: sw_animator_bind. Memory: the bound object points at the
 * tables (not copied): they must outlive it.
 * Fails: as sw_animator_bind; INVALID_ARGUMENT also for a table not made
 * for its clip (err->index is i). */
SINEW_API sw_result sw_animator_bind_tables(const sw_animator* a, const sw_skeleton* skeleton,
                                            const sw_clip* const* clips,
                                            const uint32_t* const* tables, uint32_t clips_count,
                                            void* mem, size_t size, const sw_animator_bound** out,
                                            sw_error* err);

/* What a bound object refers to. */
SINEW_API const sw_animator* sw_animator_bound_definition(const sw_animator_bound* b);
SINEW_API const sw_skeleton* sw_animator_bound_skeleton(const sw_animator_bound* b);
SINEW_API const sw_clip* sw_animator_bound_clip(const sw_animator_bound* b, uint32_t slot);

/* ---- instance ------------------------------------------------------------ */

/* What an instance keeps between evaluations to sample its clips faster.
 * Each layer gets one sampling cache (sinew/core/sample.h) per clip its
 * states may play that the mode caches, at most its playing clips, and
 * gives each playing clip the cache that last sampled it. Poses are the
 * same bits in every mode. */
typedef enum sw_animator_keep {
    /* key cursors of raw clips with explicit key times (the default): a
     * track's cursors per such clip, a few bytes per track */
    SW_ANIMATOR_KEEP_CURSORS = 0,
    /* also the decoded keys of quantized clips (on builds whose decoder keeps
     * them: x86 with SSE2), sw_sample_cache_size(clip) words per such clip
     * (RobotExpressive's Walking: 4.2 KB; with the clip's shared table,
     * sw_animator_bind_tables, sw_sample_cache_size_with_table: 2.6 KB), so
     * that a frame decodes only when a key interval changes. Faster per
     * character while the instances stay in the CPU's caches (a few heroes);
     * in crowds of a thousand the caches' memory traffic costs more than the
     * decoding it saves (docs/animator.md). */
    SW_ANIMATOR_KEEP_KEYS = 1,
    SW_ANIMATOR_KEEP_COUNT
} sw_animator_keep;

/* Bytes of an instance for `b` keeping cursors (0 for NULL):
 * sw_animator_instance_size_keeping(b, SW_ANIMATOR_KEEP_CURSORS). */
SINEW_API size_t sw_animator_instance_size(const sw_animator_bound* b);

/* Bytes of an instance for `b` keeping `keep` (0 for NULL or an unknown
 * mode). */
SINEW_API size_t sw_animator_instance_size_keeping(const sw_animator_bound* b,
                                                   sw_animator_keep keep);

/* Builds an instance keeping cursors in caller memory (16-byte aligned, at
 * least sw_animator_instance_size bytes): every layer's machine in its
 * entry state at time 0, no transition, no events pending.
 * Fails: INVALID_ARGUMENT (NULL), MISALIGNED, BUFFER_TOO_SMALL. */
SINEW_API sw_result sw_animator_instance_init(void* mem, size_t size, const sw_animator_bound* b,
                                              sw_animator_instance** out);

/* sw_animator_instance_init keeping `keep`, in at least
 * sw_animator_instance_size_keeping(b, keep) bytes.
 * Fails: as sw_animator_instance_init; INVALID_ARGUMENT also for an unknown
 * mode. */
SINEW_API sw_result sw_animator_instance_init_keeping(void* mem, size_t size,
                                                      const sw_animator_bound* b,
                                                      sw_animator_keep keep,
                                                      sw_animator_instance** out);

#define SW_ANIMATOR_EVENT_KIND_LIST(X)                                                             \
    X(NONE, NULL)                                                                                  \
    X(CLIP, "event")        /* a clip event was crossed */                                         \
    X(FINISHED, "finished") /* a non-looping state reached its end (once per entry) */             \
    X(ENTER, "enter")       /* a transition (or play) entered `state` */

typedef enum sw_animator_event_kind {
/* clang-format off */
#define SW__ANIMATOR_EVENT_KIND(name, word) SW_ANIMATOR_EVENT_KIND_##name,
    SW_ANIMATOR_EVENT_KIND_LIST(SW__ANIMATOR_EVENT_KIND)
#undef SW__ANIMATOR_EVENT_KIND
    SW_ANIMATOR_EVENT_KIND_COUNT
    /* clang-format on */
} sw_animator_event_kind;

typedef struct sw_animator_event {
    sw_animator_event_kind kind;
    uint32_t layer;
    uint32_t state;   /* global state index */
    uint32_t clip;    /* CLIP: clip slot; else SW_ANIMATOR_NONE */
    uint32_t event;   /* CLIP: event index in the clip; else SW_ANIMATOR_NONE */
    const char* name; /* CLIP: event name (inside the clip); else the state's name */
    float time;       /* CLIP: event time in the clip (s); else 0 */
    float weight;     /* CLIP: the clip's weight; else the state's weight */
} sw_animator_event;

typedef struct sw_animator_root_motion {
    sw_vec3 translation; /* metres, in the character frame at the start of the update; y = 0 */
    float yaw;           /* radians about +Y */
} sw_animator_root_motion;

/* Places a character on the ground by one update's root motion: the
 * translation (in the character frame at the start of the update) turned
 * by *heading (radians about +Y, 0 faces +Z) and added to *position (world;
 * y unchanged), then the yaw added to *heading. NULL arguments: nothing. */
SINEW_API void sw_animator_root_motion_apply(const sw_animator_root_motion* rm, sw_vec3* position,
                                             float* heading);

/* Advances the instance by dt seconds with the given parameters: states'
 * times, transitions (evaluated after the times advanced), trigger
 * consumption (params of fired trigger conditions set to 0), events, root
 * motion. Events go to events[0..events_capacity) in a fixed order: layer by
 * layer, clip events (machine, playing state from oldest, member, time), then
 * FINISHED, then ENTER;
 * *events_count receives how many there were, which may exceed the capacity
 * (the extra ones are lost, everything else is still done; the count
 * saturates at UINT32_MAX). A state advances at most 1e12 cycles per update.
 * root_motion is optional; without a root-motion joint it is zero.
 * Fails (nothing changed): INVALID_ARGUMENT (NULL inst, bound or
 * events_count; NULL params with params_count > 0; events NULL with a non-zero
 * capacity; dt negative or not finite; an instance whose layout does not match the bound
 * object); BUFFER_TOO_SMALL (params_count below the definition's); BAD_DATA
 * (a parameter that is NaN). */
SINEW_API sw_result sw_animator_update(sw_animator_instance* inst, const sw_animator_bound* bound,
                                       float* params, uint32_t params_count, float dt,
                                       sw_animator_event* events, uint32_t events_capacity,
                                       uint32_t* events_count,
                                       sw_animator_root_motion* root_motion);

/* Code-driven transition: makes `state` the current state of its machine
 * with a crossfade of `fade` seconds (0: instant cut), from time 0. The
 * machine must be playing (a layer's machine, or nested in a playing state).
 * Takes effect at once for evaluate; no events are reported for it.
 * Fails: INVALID_ARGUMENT (NULL, state out of range, fade negative or not
 * finite, another bound object); NOT_FOUND (the state's machine is not
 * playing). */
SINEW_API sw_result sw_animator_play(sw_animator_instance* inst, const sw_animator_bound* bound,
                                     uint32_t state, float fade);

/* Scrubbing: sets the normalized time (cycles, see the top) of the current
 * state of `machine` (a clip state's clip time over its duration; a blend
 * space's shared phase). Once-playing states clamp to 1; FINISHED is reported
 * again when a seek before the end reaches it later. The jump itself reports
 * no events and no root motion; other playing states keep their times.
 * Takes effect at once for evaluate and the inspection calls.
 * Fails (nothing changed): INVALID_ARGUMENT (NULL, machine out of range,
 * normalized_time negative or not finite, another bound object, a current
 * state playing a nested machine: seek that machine instead); NOT_FOUND
 * (the machine is not playing). */
SINEW_API sw_result sw_animator_seek(sw_animator_instance* inst, const sw_animator_bound* bound,
                                     uint32_t machine, double normalized_time);

/* Bytes of scratch memory evaluate needs (0 for NULL). */
SINEW_API size_t sw_animator_scratch_size(const sw_animator_bound* b);

/* Samples the playing clips at their current times and blends them into a
 * local-space pose: per layer the sample jobs and one blend job, then the
 * layers in order (override, additive), inertialization offsets added per
 * layer. The root-motion ground transform is removed (see the top).
 * Also records the layers' output for inertialization (once per update:
 * evaluating twice after one update gives the same pose) and moves the
 * sampling caches of the instance forward (sinew/sample.h: the result does
 * not depend on them).
 * Memory: scratch (16-byte aligned, sw_animator_scratch_size bytes) is
 * overwritten; out gets the skeleton's packets_count packets.
 * Fails (out untouched): INVALID_ARGUMENT (NULL arguments, another bound
 * object); MISALIGNED (scratch or out); BUFFER_TOO_SMALL (scratch or
 * out_count); OVERLAP (out overlapping scratch or the instance). */
SINEW_API sw_result sw_animator_evaluate(sw_animator_instance* inst, const sw_animator_bound* bound,
                                         void* scratch, size_t scratch_size, sw_xform4* out,
                                         uint32_t out_count);

/* sw_animator_evaluate for the joints of a subset (joint LOD; `keep`,
 * packets_count bytes, see sinew/core/skeleton.h; NULL: every joint): only
 * the kept joints' tracks are sampled and blended, and they come out as
 * sw_animator_evaluate gives them; the other joints hold their rest local
 * transform. Memory and failures as sw_animator_evaluate, plus OVERLAP (out
 * overlapping keep). */
SINEW_API sw_result sw_animator_evaluate_subset(sw_animator_instance* inst,
                                                const sw_animator_bound* bound, const uint8_t* keep,
                                                void* scratch, size_t scratch_size, sw_xform4* out,
                                                uint32_t out_count);

/* Dirty tracking: true when evaluate's inputs (the playing clips with their
 * times and weights, the layer weights, an inertialization in progress)
 * changed since the instance's last successful evaluate, bit for bit, or it
 * was never evaluated; false when evaluate would give the same pose as last
 * time, bit for bit (a paused or frozen character, a state held on one
 * frame, parameters that move nothing). update, play and seek set it;
 * evaluate clears it. A copied instance carries its own flag, which speaks of
 * the copy's last evaluate, not of a pose the caller kept. True for NULL or
 * mismatched arguments.
 * Memory: update leaves the playing clips to be listed by the first call
 * that reads them (this one, evaluate, reuse_pose, sw_animator_contributions),
 * so an update whose pose is never evaluated (an off-screen character) does
 * not list them; that call writes the instance (not concurrently with
 * another call on it). */
SINEW_API bool sw_animator_pose_changed(const sw_animator_instance* inst,
                                        const sw_animator_bound* bound);

/* Instead of evaluate when sw_animator_pose_changed is false and the caller
 * keeps the pose of the last evaluate: records what evaluate would (the
 * layers' output history for a later inertialization) without sampling, so
 * later poses are those of evaluating every frame.
 * Fails (nothing changed): INVALID_ARGUMENT (NULL, another bound object, or
 * the pose changed). */
SINEW_API sw_result sw_animator_reuse_pose(sw_animator_instance* inst,
                                           const sw_animator_bound* bound);

/* ---- inspection ---------------------------------------------------------- */

/* A clip playing after the last update, as evaluate will sample it. */
typedef struct sw_animator_contribution {
    uint32_t layer;
    uint32_t state; /* global index of the state that plays it */
    uint32_t clip;  /* slot */
    float weight;   /* within the layer (the layer's clips sum to 1) */
    float time;     /* seconds in the clip */
    float phase;    /* normalized time of the clip in [0, 1] */
} sw_animator_contribution;

/* Writes the playing clips into out[0..capacity) (out may be NULL to count)
 * and returns how many there are. 0 for NULL inst or bound. Writes the
 * instance as sw_animator_pose_changed does. */
SINEW_API uint32_t sw_animator_contributions(const sw_animator_instance* inst,
                                             const sw_animator_bound* bound,
                                             sw_animator_contribution* out, uint32_t capacity);

/* A playing state of a machine. */
typedef struct sw_animator_state_info {
    uint32_t machine;
    uint32_t state;         /* global index */
    float weight;           /* within its machine */
    double normalized_time; /* cycles, unwrapped */
    bool current;           /* the newest (destination) state of its machine */
} sw_animator_state_info;

/* Writes the playing states of every playing machine (machines in desc
 * order, oldest state first) and returns how many there are. */
SINEW_API uint32_t sw_animator_states(const sw_animator_instance* inst,
                                      const sw_animator_bound* bound, sw_animator_state_info* out,
                                      uint32_t capacity);

/* Weight of a layer at the last update (its constant or parameter, clamped
 * to [0, 1]; 1 for the first layer), or 0 for NULL or a layer out of range. */
SINEW_API float sw_animator_layer_weight(const sw_animator_instance* inst,
                                         const sw_animator_bound* bound, uint32_t layer);

/* A machine's transition in progress (crossfade): the state it leaves
 * (the newest of the older playing states), the state it enters (the
 * current one), seconds elapsed and its duration; progress is the
 * entering state's weight ramp, elapsed / duration in [0, 1]. */
typedef struct sw_animator_fade_info {
    uint32_t from, to; /* global state indices */
    float elapsed, duration;
    float progress;
} sw_animator_fade_info;

/* True and *out filled when machine `machine` is crossfading (more than one
 * state playing); false for a machine at rest in one state, not playing,
 * out of range or NULL arguments. Inertialized transitions replace the
 * state at once and so show no fade here. */
SINEW_API bool sw_animator_machine_fade(const sw_animator_instance* inst,
                                        const sw_animator_bound* bound, uint32_t machine,
                                        sw_animator_fade_info* out);

/* The current (newest) state of a machine, SW_ANIMATOR_NONE when it is not playing. */
SINEW_API uint32_t sw_animator_current_state(const sw_animator_instance* inst,
                                             const sw_animator_bound* bound, uint32_t machine);

/* ---- float curves -------------------------------------------------------- */

/* Value of the clips' float track `name` (a curve: the morph weights
 * "<mesh>.weights[k]" the importers write, or a user curve) as the animator
 * plays it after the last update, mixed like the pose: per layer, the sum
 * over its playing clips (sw_animator_contributions) of the clip's weight
 * times the track's value at the clip's time (sw_clip_sample_float; a clip
 * without the track adds 0). The base layer sets the value; an override
 * layer in which some playing clip has the track mixes its sum in by the
 * layer's weight; an additive layer adds its weight times its sum of
 * deltas (additive clips' values as they are, other clips' values less
 * their value at time 0 when the layer's reference is the first frame).
 * *found (optional): whether some playing clip has the track. Considers the
 * first 256 playing clips. 0 for NULL arguments. No allocation. */
SINEW_API float sw_animator_float_curve(const sw_animator_instance* inst,
                                        const sw_animator_bound* bound, const char* name,
                                        bool* found);

/* Morph weights of `mesh` (sinew/core/skin.h, sw_morph_job) as the animator
 * plays them: weights[k] (k < count) = sw_animator_float_curve of
 * "<mesh name>.weights[k]", or of "<m>.weights[k]" for a mesh named
 * "<m>_<digits>" (a glTF primitive) when the whole name has no curve; 0
 * for targets without a curve and for k >= the mesh's targets. Returns how
 * many targets have a curve (0 for NULL arguments). */
SINEW_API uint32_t sw_animator_morph_weights(const sw_animator_instance* inst,
                                             const sw_animator_bound* bound, const sw_mesh* mesh,
                                             float* weights, uint32_t count);

/* ---- randomized idle ----------------------------------------------------- */

#define SW_ANIMATOR_IDLE_MAX_CHANNELS 16

/* A parameter driven toward random targets: a target is drawn in [min, max],
 * approached at a random speed in [min_speed, max_speed] (units per second,
 * linearly), held for a random time in [min_hold, max_hold] seconds once
 * reached, then the next target is drawn. */
typedef struct sw_animator_idle_channel {
    uint32_t param;
    float min, max;
    float min_speed, max_speed; /* > 0 */
    float min_hold, max_hold;   /* >= 0 */
} sw_animator_idle_channel;

/* Controller state (plain data, copyable). */
typedef struct sw_animator_idle {
    uint64_t rng; /* PCG32 state */
    uint32_t channels_count;
    sw_animator_idle_channel channels[SW_ANIMATOR_IDLE_MAX_CHANNELS];
    float target[SW_ANIMATOR_IDLE_MAX_CHANNELS];
    float speed[SW_ANIMATOR_IDLE_MAX_CHANNELS];
    float hold[SW_ANIMATOR_IDLE_MAX_CHANNELS]; /* seconds left to hold; < 0 while moving */
} sw_animator_idle;

/* Sets up the controller with `seed` (any value). Targets are drawn at the
 * first update, from the parameters' values then.
 * Fails: INVALID_ARGUMENT (NULL, channels NULL with a count), LIMIT (more
 * than SW_ANIMATOR_IDLE_MAX_CHANNELS), BAD_DATA (min > max, speeds not > 0,
 * holds negative, non-finite values). */
SINEW_API sw_result sw_animator_idle_init(sw_animator_idle* idle,
                                          const sw_animator_idle_channel* channels,
                                          uint32_t channels_count, uint64_t seed);

/* Moves each channel's parameter toward its target by at most speed * dt,
 * holding and redrawing as described; deterministic in seed and dt sequence.
 * Fails: INVALID_ARGUMENT (NULL, dt negative or not finite, a channel's param
 * >= params_count). */
SINEW_API sw_result sw_animator_idle_update(sw_animator_idle* idle, float* params,
                                            uint32_t params_count, float dt);

#ifdef __cplusplus
}
#endif

#endif
