/* What ragdoll.c and ragdoll_humanoid.c share (not public). */
#ifndef SINEW_RAGDOLL_INTERNAL_H
#define SINEW_RAGDOLL_INTERNAL_H

#include "sinew/physics/ragdoll.h"

/* Model transform of `joint` in the local `pose`, composed up its parents. */
sw_xform sw__ragdoll_model_of(const sw_skeleton* s, const sw_xform4* pose, uint32_t joint);

/* True when `ancestor` is `joint` or one of its ancestors. */
bool sw__ragdoll_is_ancestor(const sw_skeleton* s, uint32_t ancestor, uint32_t joint);

#endif
