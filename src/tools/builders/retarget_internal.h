/* What retarget_map.c shares with other tools (not public). */
#ifndef SINEW_TOOLS_RETARGET_INTERNAL_H
#define SINEW_TOOLS_RETARGET_INTERNAL_H

#include "sinew/tools/builders/retarget_map.h"

/* First joint (parent-first order) of each canonical bone, or -1. */
void sw__rt_bones(const sw_skeleton* s, int32_t out[SW_RETARGET_BONE_COUNT]);

/* Joints strictly between the hips and the neck (else the head), root
 * first, into out (capacity: the skeleton's joints); returns their number
 * (0 when hips or neck/head are missing or not in one chain). */
uint32_t sw__rt_spine(const sw_skeleton* s, const int32_t bones[SW_RETARGET_BONE_COUNT],
                      int32_t* out);

#endif
