/* sinew/tools/builders/retarget_map.h: building retargeting maps by name, and baking clips.
 *
 * sw_retarget_joint_map pairs target joints with source joints. The
 * automatic map (sw_retarget_joint_map_auto) works in four passes:
 * 1. roles (canonical humanoid bones), found in each skeleton on its own,
 *    among its skeleton joints only (sw_retarget_skeleton_joints: never mesh
 *    or helper nodes):
 *    - names: anything up to the last ':' or '|' is dropped ("mixamorig:"),
 *      the rest is split into tokens at separators, digits and case changes
 *      ("LHipJoint" -> l hip joint, "lShin" -> l shin); a side token (left,
 *      l, right, r) gives the side, rig prefixes and numbers are ignored
 *      (b, bip, bn, def, cc, base, j, jnt, character, bend: "B_Hip_Left",
 *      "Bip01 L Thigh", "DEF-thigh.L", "CC_Base_L_Thigh", "lShldrBend"), and
 *      the joined rest is looked up in a table of synonyms (hips/hip/pelvis;
 *      a sided hip, upleg, upperleg, thigh, femur; leg, lowerleg, calf, shin,
 *      knee; foot, ankle; toebase, toe, toes, ball; shoulder, clavicle,
 *      collar; arm, upperarm, shldr, humerus; forearm, lowerarm, elbow; hand,
 *      wrist, palm; neck; head), which covers Mixamo, the Unreal and Unity
 *      humanoids, 3ds Max Biped, Blender .L/.R and _L/_R, CMU BVH and
 *      DAZ/Genesis; the first joint (parent-first order) of a bone keeps it;
 *    - the hierarchy: each limb is a chain (arm: shoulder, upper arm, lower
 *      arm, hand; leg: upper leg, lower leg, foot, toes) settled from its
 *      most distal named joint that hangs below another named joint of the
 *      limb: up the parents (a named joint kept when it is an ancestor, else
 *      the parent, never a joint of the trunk: the hips, or an ancestor of
 *      another limb, the neck or the head), and down single children for
 *      unnamed distal roles (a named foot outside the leg, as in IK rigs,
 *      is kept); the chest is where the upper arms branch; without a hips
 *      name the hips are where the legs and the chest meet; a head must
 *      lie below the hips, and without one it is the top of the spine (from
 *      chest's one child that leads to no limb, up single children while
 *      the child has children); the
 *      neck is a named neck above the head, else the head's parent;
 * 2. the spine: the joints above the hips up to the chest (when it lies below
 *    the neck or head; else strictly
 *    between the hips and the neck or head) in each skeleton, matched by
 *    position along the chain (first to first, last to last, the rest
 *    spread evenly);
 * 3. equal normalised names (with the side) for joints still free, a
 *    skeleton joint only with a skeleton joint, another node with another;
 * 4. fuzzy: for a target skeleton joint still free, the free source skeleton
 *    joint whose normalised name has the smallest edit distance, accepted
 *    when that distance is at most a quarter of the longer name and no
 *    other source joint ties it.
 * Hand edits: sw_retarget_joint_map_set / _clear, or a map file
 * (sw_retarget_joint_map_parse): one `source=target` pair per line (joint
 * names, exact), `=target` to leave a target joint unmapped, `#` comments and
 * blank lines ignored.
 */
#ifndef SINEW_TOOLS_RETARGET_MAP_H
#define SINEW_TOOLS_RETARGET_MAP_H

#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"
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

/* The canonical bone a joint name stands for (names of pass 1), or NONE. */
SINEW_API sw_retarget_bone sw_retarget_bone_from_name(const char* name);
/* "hips", "left_upper_leg", ...; "none" for NONE or an unknown value. */
SINEW_API const char* sw_retarget_bone_str(sw_retarget_bone bone);

typedef struct sw_retarget_joint_map {
    const sw_skeleton* source;                    /* not owned */
    const sw_skeleton* target;                    /* not owned */
    int32_t source_of[SW_SKELETON_MAX_JOINTS];    /* per target joint: source joint or -1 */
    int32_t source_bones[SW_RETARGET_BONE_COUNT]; /* per role: source joint or -1 (pass 1) */
    int32_t target_bones[SW_RETARGET_BONE_COUNT]; /* per role: target joint or -1 (pass 1) */
} sw_retarget_joint_map;

/* Marks the skeleton's own joints in mask[0..joints) (1, else 0): the joints
 * that weigh vertices of `meshes` (their palettes; meshes bound to another
 * joint count are skipped), the joints that `clips` animate (a track of
 * more than one key) and the ancestors of both; when that marks none, every
 * joint. Mesh and helper nodes that importers
 * keep as joints (assimp's "Head" mesh node of BCN_Epileptic.X) are left out.
 * Memory: mask is the caller's. Fails: INVALID_ARGUMENT (NULL skeleton or
 * mask, a count without its array). */
SINEW_API sw_result sw_retarget_skeleton_joints(const sw_skeleton* s, const sw_mesh* const* meshes,
                                                uint32_t meshes_count, const sw_clip* const* clips,
                                                uint32_t clips_count, uint8_t* mask);

/* Fills *out with the automatic map of `source` onto `target` (see top),
 * roles found among the joints marked in source_joints / target_joints
 * (sw_retarget_skeleton_joints; NULL: every joint).
 * Fails: INVALID_ARGUMENT (NULL skeleton or out). */
SINEW_API sw_result sw_retarget_joint_map_auto_masked(const sw_skeleton* source,
                                                      const uint8_t* source_joints,
                                                      const sw_skeleton* target,
                                                      const uint8_t* target_joints,
                                                      sw_retarget_joint_map* out);
/* sw_retarget_joint_map_auto_masked with every joint a candidate. */
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

/* The roles the target has (target_bones) but the map leaves unmapped, as
 * bits (1u << bone); 0 for NULL. */
SINEW_API uint32_t sw_retarget_joint_map_missing(const sw_retarget_joint_map* map);

/* Fills a runtime map desc from `map`: its pairs into pairs[0..joints) (capacity:
 * the target's joint count), and, with `leg_ik`, one limb per leg whose
 * upper leg, lower leg and foot (target_bones) form a chain in the target
 * and whose source foot is mapped, written into limbs (capacity
 * SW_RETARGET_MAX_LIMBS). root_scale is 0 (measured).
 * Fails: INVALID_ARGUMENT (NULL); NOT_FOUND (no pair at all). */
SINEW_API sw_result sw_retarget_joint_map_desc(const sw_retarget_joint_map* map, bool leg_ik,
                                               sw_retarget_pair* pairs, sw_retarget_limb* limbs,
                                               sw_retarget_map_desc* out);

/* ---- offline (src/tools/builders/retarget_bake.c) ---- */

/* The source's ground height (model y) for `clip`, to store in
 * map->source_ground, so that the source's ground maps onto the target's
 * (map->target_ground). When every mapped target joint rests at root_scale
 * times its source joint's model rest position (the source's own skeleton
 * or a scaled copy, within 1e-6), the grounds are the same place:
 * target_ground / root_scale (a clip retargeted onto its own skeleton is
 * unchanged, feet rolling below their rest height included). Otherwise it
 * is the height that puts the lowest point reached by the source's feet over
 * the clip (the source joints mapped to the target's left and right foot
 * roles, sampled at 60 Hz and at the duration) at the feet's rest height
 * above map->target_ground (the lower of the two grounds the feet give, so
 * no foot goes below its rest height).
 * Fails: INVALID_ARGUMENT (NULL argument, joint counts differing from the
 * map's); NOT_FOUND (no target foot mapped); results of sampling. */
SINEW_API sw_result sw_retarget_fit_ground(const sw_retarget_map* map, const sw_skeleton* source,
                                           const sw_clip* clip, const sw_skeleton* target,
                                           float* source_ground);

/* Foot contacts: defaults of sw_retarget_find_contacts and the bake's lock. */
#define SW_RETARGET_PLANT_SPEED 0.15f    /* model units per second (m/s) */
#define SW_RETARGET_PLANT_HEIGHT 0.05f   /* model units (m) above the lowest slow point */
#define SW_RETARGET_LOCK_BLEND 0.1f      /* seconds */
#define SW_RETARGET_CONTACT_WINDOW 0.05f /* seconds: speeds over this span */
#define SW_RETARGET_CONTACT_RELEASE 1.5f /* a contact ends over this times the thresholds */
#define SW_RETARGET_CONTACT_TOUCH 0.2f   /* times the height: a contact's widening */

/* Marks the keys where a joint (a heel or a ball) is in contact with the
 * ground, from its model positions sampled at `rate` keys per second, with
 * hysteresis: a contact begins at a key where the joint moves slower than
 * `speed` and stands less than `height` above `low`, and lasts while it
 * moves slower than SW_RETARGET_CONTACT_RELEASE times `speed` and stands
 * less than that times `height` above `low`. A key's speed is its
 * displacement across SW_RETARGET_CONTACT_WINDOW seconds centred on it
 * (at least one key each side, clamped at the ends) over that time; `low`
 * is the lowest y of the keys slower than `speed` (a pose held still
 * anywhere, not a reference frame passed through). One key alone is never
 * in contact (no speed).
 * Fails: INVALID_ARGUMENT (NULL, count 0, rate, speed or height not > 0 or
 * not finite). */
SINEW_API sw_result sw_retarget_find_contacts(const sw_vec3* positions, uint32_t count, float rate,
                                              float speed, float height, uint8_t* contact);

typedef struct sw_retarget_bake_options {
    float rate;      /* keys per second; 0: the grid the source's keys lie on
                        (sw_frames_grid_rate), else their highest rate
                        (sw_compress_sample_rate: 30 without keys) */
    float ik_weight; /* [0, 1] as sw_retarget_job.ik_weight */
    /* Foot contacts ("foot lock"): per side, the heel (the target's
     * canonical foot, mapped) and the ball (its canonical toes, a child of
     * the foot, mapped; none without) are in contact where their SOURCE
     * joints are (sw_retarget_find_contacts at the key rate, with
     * lock_speed and lock_height), each contact widened over the keys
     * before it, and after it while the other joint is free, where its
     * source joint stays within SW_RETARGET_CONTACT_TOUCH times lock_height
     * of its height at the contact's first or last key. A contact is put
     * on the target's ground and pinned where it lands: the ankle at its
     * rest height (heel), the ball at its rest height (ball); with both,
     * the foot lies flat
     * between the pins; with one, the foot turns about the pinned joint as
     * animated, the other joint kept above its rest height and the foot's
     * yaw held until that joint is lifted SW_RETARGET_CONTACT_TOUCH times
     * lock_height (scaled), fully at twice that (a pivot in a turn on a
     * lifted heel turns about the ball). Between contacts the foot is drawn
     * from its free pose towards its pins over lock_blend seconds (at most
     * half the gap): fading out it rises first, then moves across the
     * ground, about the joint lower where the fade ends (the ball at a
     * toe-off); fading in the reverse; a fade cut by the clip's start or
     * end holds the pins. Off the contacts neither the ankle nor the ball
     * goes under its rest height, and both are kept the touch above it as
     * far as a fade has lifted them. A foot that ends a limb of the map
     * (leg chain) is put on its goal with two-bone IK, the root lowered
     * first where the goal is out of the leg's reach, the foot turned as
     * above; a placed foot (not below the map's root) is moved there. The
     * toes joint is turned up about the ball where its tip (half the
     * ankle-to-ball length along the foot's rest direction, turned as the
     * toes are) would be under the ball's rest height: toes on the ground
     * lie flat on it, as at a toe-off. */
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
