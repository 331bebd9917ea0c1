/* sinew/tools/builders/mirror_bake.h: baking mirrored clips offline.
 *
 * The mirrored clip plays, sampled at any time, the pose the mirror job
 * (sinew/retarget/mirror.h) makes of the original sampled at that time. Each output
 * joint k reads only its twin's own tracks, through a map that is linear in
 * the values and keeps rotations unit and their dot products (a constant
 * rotation on each side and a reflection), so every track is carried over key
 * by key on the twin joint: the same key times and interpolation, values and
 * cubic tangents mapped, no resampling and no added error. A joint whose twin
 * has no track of a kind but whose mirrored rest value differs from its own
 * (bone lengths of an asymmetric rest pose) gets a one-key track.
 * Root translation and rotation, hence root motion, are mirrored with the
 * rest. Float tracks are kept with Left/Right swapped in their names, events
 * likewise (a "foot_down_l" event becomes "foot_down_r"), with
 * sw_mirror_swap_name candidate 0; names without a side marker are kept.
 */
#ifndef SINEW_TOOLS_MIRROR_BAKE_H
#define SINEW_TOOLS_MIRROR_BAKE_H

#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"
#include "sinew/retarget/mirror.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_mirror_bake_options {
    const char* name; /* NULL: the clip's name followed by "_mirrored" */
} sw_mirror_bake_options;

/* Model-space reference frames for sw_mirror_desc.frames: the rest pose's
 * model matrices, replaced for every joint in a mesh palette by its bind
 * pose (the inverse of the mesh's inverse bind matrix; the first mesh that
 * skins the joint wins). With them a skinned mesh whose bind pose is not the
 * rest pose (RobotExpressive) mirrors as a mesh.
 * Fails: INVALID_ARGUMENT (NULL skeleton or out, NULL meshes with a count, a
 * mesh for another joint count); BUFFER_TOO_SMALL (out_count below
 * joints_count); BAD_DATA (an inverse bind matrix that does not invert). */
SINEW_API sw_result sw_mirror_bind_frames(const sw_skeleton* skeleton, const sw_mesh* const* meshes,
                                          uint32_t meshes_count, sw_mat4* out, uint32_t out_count);

/* Builds the mirrored clip of `clip` (raw, not additive) for `skeleton`
 * with `mirror` built from that skeleton; options may be NULL. The clip is
 * allocated with `alloc` (NULL: libc); free with sw_clip_destroy.
 * Fails: INVALID_ARGUMENT (NULL arguments, joint counts that differ, a
 * quantized or additive clip); LIMIT (a name too long once swapped);
 * BAD_DATA (swapped float track names that collide); OUT_OF_MEMORY. */
SINEW_API sw_result sw_mirror_bake_clip(const sw_skeleton* skeleton, const sw_mirror* mirror,
                                        const sw_clip* clip, const sw_mirror_bake_options* options,
                                        const sw_allocator* alloc, const sw_clip** out,
                                        sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
