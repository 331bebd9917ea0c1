/* sinew/tools/builders/clip_recorder.h: recording a clip from a local pose per frame.
 *
 * Bakers (retargeting, an animator run, generated motion) produce one local
 * pose per frame at a fixed rate; the recorder keeps them and builds a raw
 * clip with linear translation, rotation and scale tracks of uniform keys
 * (key k at k / rate). Rotation keys are kept on one hemisphere (each key
 * negated when it points away from the one before), so interpolation takes
 * the short way; tracks may be folded (options below).
 */
#ifndef SINEW_TOOLS_CLIP_RECORDER_H
#define SINEW_TOOLS_CLIP_RECORDER_H

#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sw_clip_recorder_fold {
    SW_CLIP_RECORDER_FOLD_NONE = 0, /* every joint gets T, R and S tracks, a key per frame */
    SW_CLIP_RECORDER_FOLD_REST,     /* a track within `tolerance` of the skeleton's rest value
                                       at every frame is left out (the joint holds rest) */
    SW_CLIP_RECORDER_FOLD_CONSTANT  /* a track whose frames all equal the first (bit for bit)
                                       keeps one key */
} sw_clip_recorder_fold;

typedef struct sw_clip_recorder_options {
    sw_clip_recorder_fold fold;
    float tolerance; /* FOLD_REST: translation and scale components within `tolerance` of
                        rest, rotations with |dot(q, rest)| >= 1 - tolerance; 0: exact */
} sw_clip_recorder_options;

typedef struct sw_clip_recorder sw_clip_recorder;

/* Creates an empty recorder for clips of `skeleton` at `rate` frames per
 * second, allocated with `alloc` (NULL: libc); `options` may be NULL (fold
 * nothing). The skeleton must outlive the recorder (its rest pose is read at
 * build). Free with sw_clip_recorder_destroy.
 * Fails: INVALID_ARGUMENT (NULL skeleton or out, rate not finite and > 0,
 * unknown fold, tolerance negative or not finite); OUT_OF_MEMORY. */
SINEW_API sw_result sw_clip_recorder_create(const sw_skeleton* skeleton, float rate,
                                            const sw_clip_recorder_options* options,
                                            const sw_allocator* alloc, sw_clip_recorder** out,
                                            sw_error* err);

/* Appends the next frame: the local pose `pose` (pose_count packets, at
 * least the skeleton's) is copied.
 * Fails: INVALID_ARGUMENT (NULL recorder or pose, pose_count too small);
 * LIMIT (more than SW_CLIP_MAX_KEYS frames); OUT_OF_MEMORY (the recorder is
 * unchanged). */
SINEW_API sw_result sw_clip_recorder_append(sw_clip_recorder* recorder, const sw_xform4* pose,
                                            uint32_t pose_count, sw_error* err);

/* Frames appended so far (0 for NULL). */
SINEW_API uint32_t sw_clip_recorder_frames(const sw_clip_recorder* recorder);

/* What the built clip carries besides the recorded joint tracks. */
typedef struct sw_clip_recorder_clip {
    const char* name; /* NULL: "" */
    float duration;   /* seconds; 0: (frames - 1) / rate */
    const sw_clip_event_desc* events;
    uint32_t events_count;
    const sw_clip_track_desc* float_tracks; /* SW_TRACK_KIND_FLOAT tracks, copied as given */
    uint32_t float_tracks_count;
} sw_clip_recorder_clip;

/* Builds a raw clip from the frames recorded so far (the recorder is not
 * changed, so recording may go on); `clip` may be NULL (no name, the
 * duration of the frames). *out is allocated with `alloc` (NULL: libc);
 * free it with sw_clip_destroy.
 * Fails: INVALID_ARGUMENT (NULL recorder or out, no frame recorded);
 * OUT_OF_MEMORY; and whatever sw_clip_create returns for the tracks, e.g.
 * BAD_DATA for non-finite values or a float track that does not fit. */
SINEW_API sw_result sw_clip_recorder_build(const sw_clip_recorder* recorder,
                                           const sw_clip_recorder_clip* clip,
                                           const sw_allocator* alloc, const sw_clip** out,
                                           sw_error* err);

/* Frees a recorder from sw_clip_recorder_create; NULL is a no-op. */
SINEW_API void sw_clip_recorder_destroy(sw_clip_recorder* recorder);

/* Keeps `count` rotation keys (x, y, z, w each, packed) on one hemisphere, in
 * place: each key whose dot product with the key before it (as already
 * kept) is negative is negated. For importers that gather rotation keys
 * themselves; the recorder does this to every rotation track. */
SINEW_API void sw_rotation_keys_continuous(float* keys, uint32_t count);

#ifdef __cplusplus
}
#endif

#endif
