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

#endif
