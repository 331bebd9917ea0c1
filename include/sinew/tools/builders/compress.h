/* sinew/tools/builders/compress.h: error-bounded clip compression and its error
 * metric (docs/compression.md).
 *
 * The metric is ACL's: every joint carries three virtual vertices at
 * `shell` distance along its local X, Y and Z axes; both clips are sampled
 * through the sampling job at the same uniform times, their model-space
 * transforms computed along the hierarchy, and the error of a joint at a
 * sample is the largest distance between a vertex transformed by one and by
 * the other. Errors are in model-space units. The shell is a model-space
 * distance: each local vertex sits at shell / s along its axis, s the
 * reference's model-space scale along that axis, so that it lies `shell`
 * from the joint (rigs scaled in their hierarchy, like RobotExpressive's
 * armature at 100, keep a shell in metres); with unit scales, as in BVH,
 * this is exactly ACL's vertex.
 *
 * The compressor resamples a clip uniformly, leaves out tracks that stay at
 * the rest value, stores constant tracks once, and quantizes the rest
 * (SW_CLIP_CODEC_QUANTIZED, sinew/codecs/codec.h) in segments, choosing per track
 * and segment a key stride, a range and a bit rate by measuring this metric
 * on what the runtime decoder will return, so that the error stays within
 * the precision at every sample; the result is then measured at the
 * source's own key times too, and compressed again at a higher rate or
 * tighter thresholds until it holds, or refused. Between samples the
 * decoder's interpolation (three components lerped, the fourth rebuilt) may
 * depart from the source's slerp where a rotation turns far within one
 * sample interval; that is not measured here (docs/compression.md).
 */
#ifndef SINEW_TOOLS_COMPRESS_H
#define SINEW_TOOLS_COMPRESS_H

#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest rate sw_compress_sample_rate picks (samples per second); the
 * compressor raises it up to 1000 when its bound needs it. */
#define SW_COMPRESS_MAX_AUTO_RATE 240.0f

/* Uniform rate at which a clip is measured and compressed, from its own key
 * times: the smallest whole rate from one over the shortest key interval of
 * any joint track up to SW_COMPRESS_MAX_AUTO_RATE whose grid k / rate holds
 * every joint key (within 1e-5 s), so the samples fall on the keys; else,
 * when every joint track with two keys or more is uniform from time 0 at
 * one rate up to SW_COMPRESS_MAX_AUTO_RATE, that rate (BVH frame times such
 * as .0083333 s: 120.0005 Hz); without either (uneven keys) one over the
 * shortest key interval, rounded to
 * 1/1000 and clamped to [1, SW_COMPRESS_MAX_AUTO_RATE]; 30 when the clip has
 * no track with two keys (or clip is NULL). */
SINEW_API float sw_compress_sample_rate(const sw_clip* clip);

/* Samples of a clip at `rate`: sample i at min(i / rate, duration),
 * i < ceil(duration * rate - 1e-3) + 1, and at least 2. */
SINEW_API uint32_t sw_compress_samples_count(const sw_clip* clip, float rate);

typedef struct sw_clip_error_desc {
    const sw_skeleton* skeleton;
    const sw_clip* reference; /* e.g. the raw clip */
    const sw_clip* clip;      /* e.g. its compressed version; same joint count */
    float shell;              /* vertex distance, > 0; 0 means 1 */
    float rate;               /* samples per second; 0: sw_compress_sample_rate(reference) */
    float* errors;            /* optional: error of joint j at sample i at [i * joints + j];
                                 only without at_keys */
    uint64_t errors_count;    /* >= samples * joints when errors is set */
    bool at_keys;             /* also at the reference's joint key times */
    float* joint_max;         /* optional, joints entries: each joint's largest error */
    uint32_t between;         /* <= 15: also at this many evenly spaced times between every
                                 two consecutive ones above (3: the quarter points); only
                                 without errors */
} sw_clip_error_desc;

typedef struct sw_clip_error {
    float max;              /* largest error over all joints and samples */
    float p99;              /* 99th percentile over all joint-sample errors */
    uint32_t worst_joint;   /* where the largest error is */
    float worst_time;       /* seconds */
    uint32_t samples_count; /* times measured */
} sw_clip_error;

/* Measures the error between two clips of one skeleton by sampling both
 * (sample job, no cache) at the uniform sample times of `rate` (and with
 * at_keys at the reference's key times too, with `between` at times
 * between those) and comparing model-space virtual vertices, the model
 * matrices composed along the hierarchy in double precision.
 * Memory: temporary buffers from alloc (NULL: libc).
 * Fails: INVALID_ARGUMENT (NULL desc, skeleton, clips or out; joint counts
 * differ; shell or rate negative or not finite; errors with at_keys or
 * between; between over 15;
 * sampling fails); LIMIT (too many samples);
 * BUFFER_TOO_SMALL (errors shorter than samples * joints); OUT_OF_MEMORY. */
SINEW_API sw_result sw_clip_error_measure(const sw_clip_error_desc* desc, const sw_allocator* alloc,
                                          sw_clip_error* out, sw_error* err);

typedef struct sw_compress_options {
    float precision;              /* largest error allowed; 0 means 0.01 */
    float shell;                  /* virtual vertex distance; 0 means 3 */
    float rate;                   /* sampling rate; 0: sw_compress_sample_rate(clip) */
    uint32_t segment_samples;     /* power of two in [4, 256]; 0 means 32 */
    const float* joint_precision; /* optional, joints_count entries: a tighter (smaller,
                                     > 0) precision for a joint's own error; 0 keeps
                                     `precision` */
} sw_compress_options;

typedef struct sw_compress_stats {
    uint64_t raw_bytes;        /* 40 bytes per joint per sample (ACL's raw size) */
    uint64_t compressed_bytes; /* the whole clip block */
    double ratio;              /* raw_bytes / compressed_bytes */
    sw_clip_error error;       /* measured by sw_clip_error_measure on the result */
    double seconds;            /* compression time (every attempt), measurement excluded */
    float rate;                /* the sampling rate of the result */
    uint32_t samples_count;    /* its samples */
    uint32_t default_tracks;   /* joint slots left at the rest value */
    uint32_t constant_tracks;
    uint32_t animated_tracks;
    uint32_t uniform_scales; /* of the constant and animated ones, scales stored as one
                                value (x = y = z) */
} sw_compress_stats;

/* Compresses the joint tracks of `clip` (a raw clip of `skeleton`); float
 * tracks, events, name and flags are kept as they are. The rate (options
 * or sw_compress_sample_rate) is nudged so the duration is a whole number
 * of samples; the result is measured at its samples, the source's key
 * times and the quarter points between them (sw_clip_error_measure,
 * at_keys, between 3), and while a joint is
 * over its precision the compressor tries again: at twice the rate (up to
 * 1000) when the worst error lies between samples, with tighter thresholds
 * (down to 1/64) when it lies on one. *out is allocated with alloc (free
 * with sw_clip_destroy); stats (optional) describe the last attempt, also
 * when the bound cannot be held.
 * Fails: INVALID_ARGUMENT (NULL arguments, a clip that is not raw or whose
 * joint count differs, bad options: precision, shell, rate or a joint
 * precision negative or not finite, segment samples not a power of two in
 * [4, 256]); LIMIT (more than SW_CLIP_MAX_KEYS samples; or "error within
 * precision" when no rate or threshold holds the bound: err->index is the
 * worst joint, stats->error its error and time); OUT_OF_MEMORY. */
SINEW_API sw_result sw_compress_clip(const sw_skeleton* skeleton, const sw_clip* clip,
                                     const sw_compress_options* options, const sw_allocator* alloc,
                                     const sw_clip** out, sw_compress_stats* stats, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
