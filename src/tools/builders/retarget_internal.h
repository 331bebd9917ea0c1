/* What the retargeting tools share among themselves and with the ragdoll
 * builder (not public). */
#ifndef SINEW_TOOLS_RETARGET_INTERNAL_H
#define SINEW_TOOLS_RETARGET_INTERNAL_H

#include "sinew/tools/builders/retarget_map.h"

#define SW__RT_NAME 256

typedef enum sw__rt_side { SW__RT_SIDE_NONE, SW__RT_SIDE_LEFT, SW__RT_SIDE_RIGHT } sw__rt_side;

/* A joint name without prefixes, rig noise tokens and side marker, lower
 * case, tokens joined ("B_Hip_Left" -> "hip"), into out; returns the side. */
sw__rt_side sw__rt_normalize(const char* name, char out[SW__RT_NAME]);

/* True when a is a proper ancestor of j (false when either is -1). */
bool sw__rt_is_ancestor(const sw_skeleton* s, int32_t a, int32_t j);

/* The joint of each canonical bone, or -1: names first (the first joint in
 * parent-first order), then the hierarchy (retarget_map.h, pass 1); only
 * joints with mask[j] != 0 (mask NULL: every joint). */
void sw__rt_roles(const sw_skeleton* s, const uint8_t* mask, int32_t out[SW_RETARGET_BONE_COUNT]);

/* sw__rt_roles with every joint. */
void sw__rt_bones(const sw_skeleton* s, int32_t out[SW_RETARGET_BONE_COUNT]);

/* The spine, hips excluded, root first, into out (capacity: the skeleton's
 * joints): the joints up to the chest (where the upper arms branch) when it
 * lies strictly between the hips and the neck (else head), else the joints strictly
 * between those; returns their number (0 when hips or neck/head are missing
 * or not in one chain). */
uint32_t sw__rt_spine(const sw_skeleton* s, const int32_t bones[SW_RETARGET_BONE_COUNT],
                      int32_t* out);

/* Widens each contact of a joint (on: 1 in contact, from
 * sw_retarget_find_contacts; p: its positions) over the keys before it
 * where the joint stays under `touch` above its height at the contact's
 * first key, and over the keys after it where it stays under `touch` above
 * its height at the last key while the foot's other joint (heel or ball,
 * `other`) is not in contact (a heel lifting off a pinned ball is not
 * held): a foot skimming the ground as it lands or lifts is held from the
 * touch. */
void sw__rt_widen_contacts(const sw_vec3* p, uint32_t keys, float touch, uint8_t* on,
                           const uint8_t* other);

/* One foot's contacts over the bake's keys, for sw__rt_plan_contacts. */
typedef struct sw__rt_contact_plan {
    const sw_vec3* ankle;   /* the free (retargeted) ankle per key, model space */
    const sw_vec3* ball;    /* the free ball (toes joint) per key; NULL: no ball */
    const uint8_t* heel_on; /* per key: the heel (ankle) in contact */
    const uint8_t* ball_on; /* per key: the ball in contact (unread without ball) */
    uint32_t keys;
    uint32_t fade; /* keys of a blend in or out */
    float ankle_y; /* model height of the ankle standing flat (its rest height) */
    float ball_y;  /* model height of the ball standing flat */
    float length;  /* ankle to ball */
    float touch;   /* > 0: a joint this far above its standing height is lifted */
} sw__rt_contact_plan;

/* Per key, the ankle's offset from its free position and the turn of the
 * foot's model rotation (offset, turn: in->keys each): a heel contact pins
 * the ankle at ankle_y where it lands, a ball contact the ball at ball_y;
 * with both the foot lies flat between the pins; with the heel alone the
 * foot turns as animated about the ankle, the ball kept above ball_y; with
 * the ball alone the foot turns as animated (a pivot) about the ball, the
 * ankle kept above ankle_y. Between contacts the offset and turn are carried
 * across a gap within two fades, else faded out and in (smoothstep over
 * `fade` keys); at last every key lifts the ankle where the ankle or the
 * ball would be under its standing height. */
void sw__rt_plan_contacts(const sw__rt_contact_plan* in, sw_vec3* offset, sw_quat* turn);

#endif
