/* sinew/core/additive.h: making and applying additive (delta) poses.
 *
 * A delta records how a pose differs from a reference, per joint in local
 * space: dt = pose.t - ref.t, dr = conj(ref.r) * pose.r, ds = pose.s / ref.s
 * (1 where ref.s is 0). Applying it to a base with weight w gives
 * t + w * dt, r * nlerp(identity, dr, w), s * lerp(1, ds, w); applied to the
 * reference with weight 1 it gives the pose back. Additive clips
 * (SW_CLIP_FLAG_ADDITIVE) store such deltas; the blend job applies them as
 * SW_BLEND_MODE_ADDITIVE layers. Offline making of additive clips is in
 * sinew/tools/additive_clip.h.
 */
#ifndef SINEW_ADDITIVE_H
#define SINEW_ADDITIVE_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_make_additive_job {
    const sw_xform4* pose;      /* packets_count packets */
    const sw_xform4* reference; /* packets_count packets */
    uint32_t packets_count;
    sw_xform4* out; /* delta; may not alias the inputs */
    uint32_t out_count;
} sw_make_additive_job;

/* Fails: INVALID_ARGUMENT (NULL pointers, zero count); BUFFER_TOO_SMALL;
 * MISALIGNED; OVERLAP. */
SINEW_API sw_result sw_make_additive_job_validate(const sw_make_additive_job* job);
/* Validates, then writes the delta of pose against reference. */
SINEW_API sw_result sw_make_additive_job_run(const sw_make_additive_job* job);

typedef struct sw_apply_additive_job {
    const sw_xform4* base;  /* packets_count packets */
    const sw_xform4* delta; /* packets_count packets */
    uint32_t packets_count;
    float weight;               /* finite; 0 leaves base, 1 applies fully */
    const float* joint_weights; /* optional: packets_count * 4 floats */
    sw_xform4* out;             /* may equal base (in place), not delta */
    uint32_t out_count;
} sw_apply_additive_job;

/* Fails: INVALID_ARGUMENT (NULL pointers, zero count, non-finite weight);
 * BUFFER_TOO_SMALL; MISALIGNED; OVERLAP (out overlapping delta or joint
 * weights, or base partially). */
SINEW_API sw_result sw_apply_additive_job_validate(const sw_apply_additive_job* job);
/* Validates, then writes base with the weighted delta applied. */
SINEW_API sw_result sw_apply_additive_job_run(const sw_apply_additive_job* job);

#ifdef __cplusplus
}
#endif

#endif
