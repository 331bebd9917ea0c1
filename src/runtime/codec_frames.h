/* The frames codec (layout: sinew/codec.h): payload validation, the frame
 * interval of a time, and the sampler. Shared by the runtime, its tests and
 * the builder (src/tools/frames.c). Not installed. */
#ifndef SINEW_RUNTIME_CODEC_FRAMES_H
#define SINEW_RUNTIME_CODEC_FRAMES_H

#include "internal.h"
#include "sinew/codec.h"

/* Largest frame rate a frames payload may use (frames per second). */
#define SW__FRAMES_MAX_RATE 1000.0f

/* Frames of a clip of `duration` seconds at `rate`: max(2, ceil(duration *
 * rate - 1e-3) + 1), or SW_CLIP_MAX_KEYS + 1 when that is above the limit
 * (also for a rate that is not finite and > 0). */
uint32_t sw__frames_count(float duration, float rate);

/* Frame interval of time t (clamped to [0, duration]) in a payload of
 * frames_count >= 2 frames: frames i and i + 1 at fraction u in [0, 1]. */
typedef struct sw__frames_pos {
    uint32_t i;
    float u;
} sw__frames_pos;
sw__frames_pos sw__frames_locate(uint32_t frames_count, float rate, float duration, float t);

/* Validates the payload of a frames clip (called by sw_clip_load after the
 * raw part of the block was checked). Fails with BAD_DATA naming the check. */
sw_result sw__codec_frames_check(const sw_clip* c, sw_error* err);

/* Samples the joint motion of a validated frames clip at t (already clamped
 * to [0, duration]) into out (packets_count packets), interpolating with
 * ops->interp (NULL: sw__soa_best()). */
void sw__codec_frames_sample_with(const sw_clip* clip, float t, sw_xform4* out,
                                  const sw__soa_ops* ops);
void sw__codec_frames_sample(const sw_clip* clip, float t, sw_xform4* out);

/* Joint `joint` of what sw__codec_frames_sample_with writes at t (the
 * packet's two frames through ops->interp, or its constant packet), bit for
 * bit, reading one packet per frame (backs sw__clip_sample_joint). */
sw_xform sw__codec_frames_sample_joint(const sw_clip* clip, uint32_t joint, float t,
                                       const sw__soa_ops* ops);

#endif
