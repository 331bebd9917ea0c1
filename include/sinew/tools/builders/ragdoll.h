/* sinew/tools/builders/ragdoll.h: finding a humanoid's ragdoll joints by name.
 *
 * The runtime's sw_ragdoll_desc_humanoid (sinew/physics/ragdoll.h) takes the
 * humanoid's joints by index; this finds them with the retargeting code's
 * roles (sinew/tools/builders/retarget_map.h, pass 1: names of Mixamo, the
 * Unreal mannequin, CMU BVH, RobotExpressive, 3ds Max Biped, the built-in
 * humanoid and more, settled by the hierarchy) and its spine rule: the
 * spine joints are those above the hips up to the chest (where the upper
 * arms branch) when it lies below the neck (or the head without a neck),
 * else those strictly between the hips and the neck; the chest is the last
 * of them, the spine the first when there are two or more.
 */
#ifndef SINEW_TOOLS_RAGDOLL_H
#define SINEW_TOOLS_RAGDOLL_H

#include "sinew/physics/ragdoll.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills *out with the joints of `skeleton` (hips, spine, chest, neck, head,
 * upper arms, forearms, hands, thighs, shins, feet; -1 where absent). When
 * several joints name one bone the first (closest to the root) is kept.
 * Fails: INVALID_ARGUMENT (NULL); NOT_FOUND "humanoid joint" when a joint
 * sw_ragdoll_desc_humanoid requires is missing (err->index: its
 * sw_ragdoll_part; hands count as the forearm, feet as the shin) or "chest"
 * (no joint between the hips and the neck or head). *out is filled as far
 * as found even on failure. */
SINEW_API sw_result sw_ragdoll_humanoid_find(const sw_skeleton* skeleton,
                                             sw_ragdoll_humanoid_joints* out, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
