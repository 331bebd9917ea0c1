/* sinew/tools/builders/retarget_map.h: building retargeting maps by name, and baking clips.
 *
 * sw_retarget_joint_map pairs target joints with source joints. The
 * automatic map (sw_retarget_joint_map_auto) works in four passes:
 * 1. canonical humanoid bones: every name is normalised (prefixes up to ':'
 *    or '|' such as "mixamorig:" dropped, case and separators ignored, a
 *    side marker found in any position: Left/Right, L/R as a separate
 *    token, a trailing capital L/R after a lower-case letter, _l/_r, .L/.R)
 *    and, without digits and a leading "bip" (3ds Max Biped: "Bip01 L Thigh"),
 *    looked up in a table of synonyms (hips/pelvis, upleg/thigh/upperleg,
 *    leg/calf/lowerleg/shin, foot/ankle, toebase/toe/ball, shoulder/clavicle,
 *    arm/upperarm, forearm/lowerarm, hand/wrist/palm, neck, head), which
 *    covers Mixamo, the Unreal mannequin, CMU BVH, RobotExpressive and the
 *    built-in humanoid; when several joints of one skeleton name the same
 *    bone, the first (closest to the root) is kept;
 * 2. the spine: the joints strictly between the hips and the neck (or head)
 *    in each skeleton, matched by position along the chain (first to first,
 *    last to last, the rest spread evenly);
 * 3. equal normalised names for joints still free;
 * 4. fuzzy: for a target joint still free, the free source joint whose
 *    normalised name has the smallest edit distance, accepted when that
 *    distance is at most a quarter of the longer name and no other source
 *    joint ties it.
 * Hand edits: sw_retarget_joint_map_set / _clear, or a map file
 * (sw_retarget_joint_map_parse): one `source=target` pair per line (joint
 * names, exact), `=target` to leave a target joint unmapped, `#` comments and
 * blank lines ignored.
 */
#ifndef SINEW_TOOLS_RETARGET_MAP_H
#define SINEW_TOOLS_RETARGET_MAP_H

#include "sinew/core/clip.h"
#include "sinew/retarget/retarget.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Canonical humanoid bones (the ids of pass 1). */
typedef enum sw_retarget_bone {
    SW_RETARGET_BONE_NONE = 0,
    SW_RETARGET_BONE_HIPS,
    SW_RETARGET_BONE_NECK,
    SW_RETARGET_BONE_HEAD,
    SW_RETARGET_BONE_LEFT_SHOULDER,
    SW_RETARGET_BONE_LEFT_UPPER_ARM,
    SW_RETARGET_BONE_LEFT_LOWER_ARM,
    SW_RETARGET_BONE_LEFT_HAND,
    SW_RETARGET_BONE_LEFT_UPPER_LEG,
    SW_RETARGET_BONE_LEFT_LOWER_LEG,
    SW_RETARGET_BONE_LEFT_FOOT,
    SW_RETARGET_BONE_LEFT_TOES,
    SW_RETARGET_BONE_RIGHT_SHOULDER,
    SW_RETARGET_BONE_RIGHT_UPPER_ARM,
    SW_RETARGET_BONE_RIGHT_LOWER_ARM,
    SW_RETARGET_BONE_RIGHT_HAND,
    SW_RETARGET_BONE_RIGHT_UPPER_LEG,
    SW_RETARGET_BONE_RIGHT_LOWER_LEG,
    SW_RETARGET_BONE_RIGHT_FOOT,
    SW_RETARGET_BONE_RIGHT_TOES,
    SW_RETARGET_BONE_COUNT
} sw_retarget_bone;

/* The canonical bone a joint name stands for (pass 1), or NONE. */
SINEW_API sw_retarget_bone sw_retarget_bone_from_name(const char* name);
/* "hips", "left_upper_leg", ...; "none" for NONE or an unknown value. */
SINEW_API const char* sw_retarget_bone_str(sw_retarget_bone bone);

typedef struct sw_retarget_joint_map {
    const sw_skeleton* source;                 /* not owned */
    const sw_skeleton* target;                 /* not owned */
    int32_t source_of[SW_SKELETON_MAX_JOINTS]; /* per target joint: source joint or -1 */
} sw_retarget_joint_map;

/* Fills *out with the automatic map of `source` onto `target` (see top).
 * Fails: INVALID_ARGUMENT (NULL argument). */
SINEW_API sw_result sw_retarget_joint_map_auto(const sw_skeleton* source, const sw_skeleton* target,
                                               sw_retarget_joint_map* out);

/* Maps the target joint named `target_name` from the source joint named
 * `source_name` (exact names), replacing what it had; a source joint may
 * drive several target joints.
 * Fails: INVALID_ARGUMENT (NULL); NOT_FOUND (an unknown name). */
SINEW_API sw_result sw_retarget_joint_map_set(sw_retarget_joint_map* map, const char* source_name,
                                              const char* target_name);
/* Leaves the target joint named `target_name` unmapped.
 * Fails: INVALID_ARGUMENT (NULL); NOT_FOUND (unknown name). */
SINEW_API sw_result sw_retarget_joint_map_clear(sw_retarget_joint_map* map,
                                                const char* target_name);

/* Applies a map file's lines (see top) to `map`, in order.
 * Fails: INVALID_ARGUMENT (NULL); PARSE "source=target" (a line without
 * '='), LIMIT "line length" (over 1023 bytes), NOT_FOUND "joint name" (an
 * unknown name); err->index is the 1-based line. Lines before the failing
 * one stay applied. */
SINEW_API sw_result sw_retarget_joint_map_parse(sw_retarget_joint_map* map, const char* text,
                                                size_t size, sw_error* err);

/* Number of mapped target joints. */
SINEW_API uint32_t sw_retarget_joint_map_count(const sw_retarget_joint_map* map);

/* Fills a runtime map desc from `map`: its pairs into pairs[0..joints) (capacity:
 * the target's joint count), and, with `leg_ik`, one limb per leg whose
 * upper leg, lower leg and foot (canonical names) form a chain in the target
 * and whose source foot is mapped, written into limbs (capacity
 * SW_RETARGET_MAX_LIMBS). root_scale is 0 (measured).
 * Fails: INVALID_ARGUMENT (NULL); NOT_FOUND (no pair at all). */
SINEW_API sw_result sw_retarget_joint_map_desc(const sw_retarget_joint_map* map, bool leg_ik,
                                               sw_retarget_pair* pairs, sw_retarget_limb* limbs,
                                               sw_retarget_map_desc* out);

/* ---- offline (src/tools/builders/retarget_bake.c) ---- */

/* The source's ground height (model y) for `clip`, to store in
 * map->source_ground: the height that puts the lowest point reached by the
 * source's feet over the clip (the source joints mapped to the target's
 * canonical left and right feet, sampled at 60 Hz and at the duration) at the
 * feet's rest height above map->target_ground (the lower of the two grounds
 * the feet give, so no foot goes below its rest height).
 * Fails: INVALID_ARGUMENT (NULL argument, joint counts differing from the
 * map's); NOT_FOUND (no target foot mapped); results of sampling. */
SINEW_API sw_result sw_retarget_fit_ground(const sw_retarget_map* map, const sw_skeleton* source,
                                           const sw_clip* clip, const sw_skeleton* target,
                                           float* source_ground);

/* Planted feet: defaults of sw_retarget_find_planted and the bake's lock. */
#define SW_RETARGET_PLANT_SPEED 0.1f   /* model units per second (m/s) */
#define SW_RETARGET_PLANT_HEIGHT 0.05f /* model units (m) above the lowest point */
#define SW_RETARGET_LOCK_BLEND 0.1f    /* seconds */

/* Marks the frames where a foot is planted, from its model positions
 * sampled at `rate` frames per second: planted[f] = 1 when the foot moves
 * slower than `speed` (|p[f] - p[f-1]| * rate; frame 0 uses |p[1] - p[0]|)
 * and stands less than `height` above the lowest y of all `count` frames,
 * else 0. One frame alone is never planted (no speed).
 * Fails: INVALID_ARGUMENT (NULL, count 0, rate, speed or height not > 0 or
 * not finite). */
SINEW_API sw_result sw_retarget_find_planted(const sw_vec3* positions, uint32_t count, float rate,
                                             float speed, float height, uint8_t* planted);

typedef struct sw_retarget_bake_options {
    float rate;      /* keys per second; 0: the source clip's highest uniform key rate, else 30 */
    float ik_weight; /* [0, 1] as sw_retarget_job.ik_weight */
    /* Foot lock: each target foot (canonical left and right foot, mapped)
     * is held at one model position while its SOURCE foot is planted
     * (sw_retarget_find_planted on the source foot at the key rate, with
     * lock_speed and lock_height): the target foot's position at the middle
     * key of the planted run. Over lock_blend seconds before and after a run
     * the goal moves from the foot's free position to the locked one and
     * back (smoothstep). A foot that ends a limb of the map (leg chain) is
     * put on its goal with two-bone IK, the root lowered first where the goal
     * is out of the leg's reach, the foot keeping its retargeted model
     * rotation; a placed foot (not below the map's root) is moved there. */
    bool foot_lock;
    float lock_speed;  /* source model units per second; 0: SW_RETARGET_PLANT_SPEED */
    float lock_height; /* source model units; 0: SW_RETARGET_PLANT_HEIGHT */
    float lock_blend;  /* seconds, >= 0; 0: SW_RETARGET_LOCK_BLEND (use a tiny value for none) */
} sw_retarget_bake_options;

/* Samples `clip` (of `source`) at uniform keys from 0 to its duration (the
 * last key at the duration), retargets each pose with `map` and writes a
 * clip for `target`: linear translation (every joint whose translation
 * differs from its rest anywhere), rotation tracks for every joint, scale
 * tracks where the pose's scale differs from the target's rest; the clip's
 * name, duration, events and float tracks carried over as they are.
 * Memory: *out allocated with `alloc` (NULL: libc), free with
 * sw_clip_destroy.
 * With options->foot_lock the planted feet are locked (see the options).
 * Fails: INVALID_ARGUMENT (NULL argument, joint counts differing from the
 * map's, an additive clip, bad options); OUT_OF_MEMORY; LIMIT (more than
 * SW_CLIP_MAX_KEYS keys); results of sampling or building, with err. */
SINEW_API sw_result sw_retarget_bake(const sw_retarget_map* map, const sw_skeleton* source,
                                     const sw_clip* clip, const sw_skeleton* target,
                                     const sw_retarget_bake_options* options,
                                     const sw_allocator* alloc, const sw_clip** out, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
