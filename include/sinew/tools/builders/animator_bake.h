/* sinew/tools/builders/animator_bake.h: baking an animator run into a clip.
 *
 * Whoever runs the animator (sw_animator_update, then sw_animator_evaluate,
 * once per frame at a fixed rate) hands each frame's local pose and root
 * motion to the bake. The root motion is summed into a character placement
 * on the ground (a yaw about +Y and a translation in x and z, each frame's
 * translation turned by the yaw so far); the placement is applied to the
 * skeleton's first root joint, so the baked clip travels as the run did.
 * The clip ("baked") has translation, rotation and scale tracks for every
 * joint with a key per frame (sinew/tools/builders/clip_recorder.h, nothing folded).
 */
#ifndef SINEW_TOOLS_ANIMATOR_BAKE_H
#define SINEW_TOOLS_ANIMATOR_BAKE_H

#include "sinew/animator/animator.h"
#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_animator_bake sw_animator_bake;

/* Creates a bake for poses of `skeleton` at `fps` frames per second,
 * allocated with `alloc` (NULL: libc). The skeleton must outlive the bake.
 * Free with sw_animator_bake_destroy.
 * Fails: INVALID_ARGUMENT (NULL skeleton or out, fps not finite and > 0 or
 * beyond float range); OUT_OF_MEMORY. */
SINEW_API sw_result sw_animator_bake_create(const sw_skeleton* skeleton, double fps,
                                            const sw_allocator* alloc, sw_animator_bake** out,
                                            sw_error* err);

/* Appends one frame: `pose` (local, pose_count packets, at least the
 * skeleton's; not changed) and the root motion of the update that led to it
 * (model space of the character; the first frame's is usually zero).
 * Fails: INVALID_ARGUMENT (NULL arguments, pose_count too small); LIMIT
 * (more than SW_CLIP_MAX_KEYS frames); OUT_OF_MEMORY. */
SINEW_API sw_result sw_animator_bake_append(sw_animator_bake* bake, const sw_xform4* pose,
                                            uint32_t pose_count,
                                            const sw_animator_root_motion* root_motion,
                                            sw_error* err);

/* Builds the clip of the frames appended so far: named "baked", lasting
 * (frames - 1) / fps. *out is allocated with `alloc` (NULL: libc); free it
 * with sw_clip_destroy.
 * Fails: INVALID_ARGUMENT (NULL arguments, no frame); OUT_OF_MEMORY; what
 * sw_clip_create returns (BAD_DATA for non-finite poses). */
SINEW_API sw_result sw_animator_bake_build(const sw_animator_bake* bake, const sw_allocator* alloc,
                                           const sw_clip** out, sw_error* err);

/* Frees a bake from sw_animator_bake_create; NULL is a no-op. */
SINEW_API void sw_animator_bake_destroy(sw_animator_bake* bake);

#ifdef __cplusplus
}
#endif

#endif
