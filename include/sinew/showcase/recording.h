/* sinew/showcase/recording.h: a showcase run recorded frame by frame and
 * merged into one scene for export (what `sinew demo` writes as demo.glb).
 *
 * The merged scene has one skeleton: a root joint named `name`, under it
 * one joint per actor named as the actor (its world transform, see
 * sw_showcase_actor.world), and under that the actor's own skeleton with
 * its joints named "actor:joint". One clip, also named `name`, plays the
 * recorded frames at `fps` (uniform keys, linear): per actor joint and per
 * actor placement a translation, rotation and scale track, each with a key
 * per frame, or one key when every frame holds the same value bit for bit;
 * rotation keys are kept on one hemisphere (each negated when it points
 * away from the one before) and the root joint has no tracks. Every actor's
 * meshes are copied as "actor:mesh" with their palettes moved to the merged
 * joints. Sampling the clip at frame f / fps and running local-to-model
 * gives, for joint "actor:joint", the actor's model matrix at that frame.
 *
 * Memory: the recording is allocated once (sw_showcase_recording_create,
 * with room for a fixed number of frames); adding a frame never allocates.
 */
#ifndef SINEW_SHOWCASE_RECORDING_H
#define SINEW_SHOWCASE_RECORDING_H

#include "sinew/showcase/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_showcase_recording sw_showcase_recording;

/* Creates an empty recording of `scene`'s actors (their count and
 * skeletons as they are now) with room for `frames` frames, allocated with
 * `alloc` (NULL: libc). The scene must outlive the recording.
 * Memory: free with sw_showcase_recording_destroy.
 * Fails: INVALID_ARGUMENT (NULL scene or out, frames 0); LIMIT (the merged
 * skeleton would have more than SW_SKELETON_MAX_JOINTS joints); OUT_OF_MEMORY. */
SINEW_API sw_result sw_showcase_recording_create(const sw_showcase* scene, uint32_t frames,
                                                 const sw_allocator* alloc,
                                                 sw_showcase_recording** out, sw_error* err);

/* Appends `scene`'s current poses (every actor's world transform and local
 * pose) as the next frame; no allocation.
 * Fails: INVALID_ARGUMENT (NULL argument, a scene with other actors than at
 * create); LIMIT (the recording is full). */
SINEW_API sw_result sw_showcase_recording_add(sw_showcase_recording* rec, const sw_showcase* scene);

/* Actor `actor`'s recorded frame `frame`: its world transform (*world) and
 * its local pose (*local, the recording's own memory, skeleton->packets_count
 * packets, valid until the recording is destroyed).
 * Fails: INVALID_ARGUMENT (NULL argument, actor or frame out of range). */
SINEW_API sw_result sw_showcase_recording_pose(const sw_showcase_recording* rec, uint32_t actor,
                                               uint32_t frame, sw_xform* world,
                                               const sw_xform4** local);

/* Frames recorded so far (0 for NULL). */
SINEW_API uint32_t sw_showcase_recording_frames(const sw_showcase_recording* rec);

/* Builds the merged scene (above) of the frames so far at `fps` frames per
 * second (finite, > 0), its skeleton, clip and meshes allocated with
 * `alloc` (NULL: libc); the clip lasts (frames - 1) / fps seconds.
 * Memory: free with sw_scene_free(out, alloc).
 * Fails: INVALID_ARGUMENT (NULL argument, fps, no frame recorded);
 * OUT_OF_MEMORY; the skeleton's, clip's or a mesh's create result with err.
 * On failure *out is zeroed with nothing left allocated. */
SINEW_API sw_result sw_showcase_recording_scene(const sw_showcase_recording* rec, double fps,
                                                const char* name, const sw_allocator* alloc,
                                                sw_scene* out, sw_error* err);

/* Frees a recording; NULL is a no-op. */
SINEW_API void sw_showcase_recording_destroy(sw_showcase_recording* rec);

#ifdef __cplusplus
}
#endif

#endif
