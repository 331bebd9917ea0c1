/* The frames codec's runtime decoder (format: shared/codec_frames_format.h):
 * payload validation and the sampler, used by clip loading, the sampling job
 * and the tests. Not installed. */
#ifndef SINEW_RUNTIME_CODEC_FRAMES_H
#define SINEW_RUNTIME_CODEC_FRAMES_H

#include "runtime/core/internal.h"
#include "shared/codec_frames_format.h"

/* Validates the payload of a frames clip (called by sw_clip_load after the
 * raw part of the block was checked). Fails with BAD_DATA naming the check. */
sw_result sw__codec_frames_check(const sw_clip* c, sw_error* err);

/* Samples the joint motion of a validated frames clip at t (already clamped
 * to [0, duration]) into out (packets_count packets), interpolating with
 * ops->interp (NULL: sw__soa_best()). */
void sw__codec_frames_sample_with(const sw_clip* clip, float t, sw_xform4* out,
                                  const sw__soa_ops* ops);
void sw__codec_frames_sample(const sw_clip* clip, float t, sw_xform4* out);
/* sw__codec_frames_sample_with writing, per run of packets (animated:
 * interpolated, constant: copied), only packets [first, end) (end at most
 * the clip's packets): a joint subset's span (sw__subset_span); the other
 * packets are not written, and the left-out joints within the span hold
 * the clip's values (the sampling job fills both with rest values). */
void sw__codec_frames_sample_span(const sw_clip* clip, float t, uint32_t first, uint32_t end,
                                  sw_xform4* out, const sw__soa_ops* ops);
/* sw__codec_frames_sample_span over the span of the subset keep (NULL:
 * every packet; sinew/core/skeleton.h). */
void sw__codec_frames_sample_keep(const sw_clip* clip, float t, const uint8_t* keep, sw_xform4* out,
                                  const sw__soa_ops* ops);

/* Sets e (joints_count entries) to what a validated frames clip holds for
 * each joint (the rest values are baked in): its constant packets and every
 * frame of its animated ones (the sampler interpolates between two frames,
 * within them). Linear in the payload. */
void sw__codec_frames_extent(const sw_clip* clip, sw__joint_extent* e);

/* Joint `joint` of what sw__codec_frames_sample_with writes at t (the
 * packet's two frames through ops->interp, or its constant packet), bit for
 * bit, reading one packet per frame (backs sw__clip_sample_joint). */
sw_xform sw__codec_frames_sample_joint(const sw_clip* clip, uint32_t joint, float t,
                                       const sw__soa_ops* ops);

#endif
