/* sinew/core/blend.h: the blending job (N weighted local poses -> one).
 *
 * Normal layers are averaged by weight (times the layer's per-joint weight
 * when given): translation and scale linearly, rotations by a weighted sum
 * in which each input is first brought to the hemisphere of the running sum
 * (so q and -q never cancel), then normalized. Where the total weight of a
 * joint is below `threshold`, the rest pose fills the difference, so a
 * fading pose never collapses. Additive layers (deltas from
 * sw_make_additive_job or additive clips) are then applied on top, each with
 * its weight: translation += w * dt, rotation = rotation * nlerp(1, dr, w),
 * scale *= lerp(1, ds, w).
 *
 *     const sw_blend_layer layers[2] = {
 *         { .pose = walk, .weight = 1.0f - t },
 *         { .pose = run,  .weight = t },
 *     };
 *     const sw_blend_job job = {
 *         .layers = layers, .layers_count = 2,
 *         .rest_pose = sw_skeleton_rest_pose(skel), .packets_count = skel->packets_count,
 *         .out = blended, .out_count = skel->packets_count,
 *     };
 *     sw_result r = sw_blend_job_run(&job);
 */
#ifndef SINEW_BLEND_H
#define SINEW_BLEND_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_BLEND_MAX_LAYERS 64
#define SW_BLEND_DEFAULT_THRESHOLD 0.1f
/* Largest sum of the layers' weights: weighted sums of poses stay finite
 * (weights near FLT_MAX overflowed them to inf and NaN). */
#define SW_BLEND_MAX_WEIGHT_SUM 1e6f

typedef enum sw_blend_mode {
    SW_BLEND_MODE_DEFAULT = 0, /* normal: weighted average */
    SW_BLEND_MODE_ADDITIVE     /* delta applied on top of the normal result */
} sw_blend_mode;

typedef struct sw_blend_layer {
    const sw_xform4* pose;      /* packets_count packets */
    float weight;               /* >= 0, finite; 0 skips the layer */
    const float* joint_weights; /* optional: packets_count * 4 floats in [0, 1], joint order;
                                 * values outside are clamped, NaN counts as 0 */
    sw_blend_mode mode;
} sw_blend_layer;

typedef struct sw_blend_job {
    const sw_blend_layer* layers; /* at most SW_BLEND_MAX_LAYERS */
    uint32_t layers_count;
    const sw_xform4* rest_pose; /* fills joints whose total weight is below threshold */
    uint32_t packets_count;
    float threshold;     /* > 0; 0 means SW_BLEND_DEFAULT_THRESHOLD */
    sw_xform4* out;      /* may not alias any input */
    uint32_t out_count;  /* >= packets_count */
    const uint8_t* keep; /* optional joint subset (sinew/core/skeleton.h), packets_count
                          * bytes: only the packets from the first to the last holding
                          * a kept joint are blended, and left-out joints get
                          * rest_pose's value; NULL: all */
} sw_blend_job;

/* Checks the job without running it.
 * Fails: INVALID_ARGUMENT (NULL rest_pose or out, packets_count 0, a layer
 * without pose, negative or non-finite weight or threshold, weights summing
 * past SW_BLEND_MAX_WEIGHT_SUM, unknown mode, layers NULL with a non-zero
 * count); LIMIT (too many layers);
 * BUFFER_TOO_SMALL (out_count); MISALIGNED (poses not 16-byte aligned);
 * OVERLAP (out overlapping a layer pose, joint weights, the rest pose, the
 * layers array or the subset). */
SINEW_API sw_result sw_blend_job_validate(const sw_blend_job* job);

/* Validates, then blends into out. On failure nothing is written. */
SINEW_API sw_result sw_blend_job_run(const sw_blend_job* job);

#ifdef __cplusplus
}
#endif

#endif
