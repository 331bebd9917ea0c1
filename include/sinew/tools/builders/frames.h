/* sinew/tools/builders/frames.h: building SW_CLIP_CODEC_FRAMES clips (layout:
 * sinew/codecs/codec.h) from raw clips.
 *
 * A frames clip stores the local pose at a uniform rate, so sampling is two
 * frames and one interpolation (normalized lerp for rotations) whatever the
 * time and the access pattern. When every joint track of the raw clip is
 * linear with keys on one grid k / rate (within 1e-5 s), the frames are the
 * keys themselves (exact at the keys; between keys translation and scale
 * are exact and rotations differ only by nlerp vs slerp). Otherwise the clip
 * is resampled at the rate asked for. The builder measures the largest
 * difference from the raw clip with the compressor's error metric
 * (sw_clip_error_measure, sinew/tools/builders/compress.h), so the cost of nlerp and
 * resampling is known. Joint slots without a track hold the skeleton's
 * rest values (identity for additive clips), baked into the frames as in
 * ozz-animation: the result belongs to that skeleton's rest pose.
 */
#ifndef SINEW_TOOLS_FRAMES_H
#define SINEW_TOOLS_FRAMES_H

#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"
#include "sinew/tools/builders/compress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest rate the builder picks by itself (frames per second); an explicit
 * rate may go up to 1000. */
#define SW_FRAMES_DEFAULT_MAX_RATE 120.0f

/* The rate of the grid all joint tracks of a raw clip have their keys on,
 * when every joint track with two keys or more is linear and each key time
 * lies within 1e-5 s of k / rate; 0 otherwise (cubic or step tracks, uneven
 * keys, a rate above 1000, no track with two keys). The rate is one over
 * the smallest key interval, taken as a whole number when within 1e-3 of
 * one and the keys lie on that grid too. */
SINEW_API float sw_frames_grid_rate(const sw_clip* clip);

typedef struct sw_frames_options {
    float rate;       /* frames per second, at most 1000; 0: the grid
                         rate when there is one, else sw_compress_sample_rate(clip)
                         capped at SW_FRAMES_DEFAULT_MAX_RATE */
    float shell;      /* error metric vertex distance (model space); 0 means 1 */
    float error_rate; /* rate at which the error is measured; 0: 4 x the frame rate, at
                         most 1000 (so between frames too) */
    float precision;  /* 0: build once at `rate`; > 0: while the measured error is larger,
                         double the rate and build again (up to 1000 Hz; a whole
                         multiple of the keys' grid still holds every key), and fail
                         when 1000 Hz does not hold it */
} sw_frames_options;

typedef struct sw_frames_stats {
    float rate; /* the frame rate used */
    uint32_t frames_count;
    bool on_keys;              /* every key is a frame: the rate is a whole multiple of the
                                  keys' common grid rate */
    uint32_t constant_packets; /* stored once */
    uint32_t animated_packets; /* stored per frame */
    uint64_t raw_bytes;        /* the raw clip block */
    uint64_t frames_bytes;     /* the frames clip block */
    sw_clip_error error;       /* frames vs raw, sw_clip_error_measure at error_rate and
                                  the raw keys (at_keys) */
} sw_frames_stats;

/* Builds a frames clip from `clip` (a raw clip of `skeleton`): joint motion
 * as frames (untracked slots at the skeleton's rest values), float tracks,
 * events, name and flags kept. *out is allocated
 * with alloc (NULL: libc; free with sw_clip_destroy). stats (optional) are
 * measured on the result (the error measure samples both clips).
 * Fails: INVALID_ARGUMENT (NULL arguments, a clip that is not raw or whose
 * joint count differs, a rate, shell, error rate or precision negative or
 * not finite, a rate above 1000); LIMIT (more than SW_CLIP_MAX_KEYS frames, block size;
 * "error within precision" when a precision is asked for and 1000 Hz does
 * not hold it: err->index the worst joint, stats the last attempt's);
 * OUT_OF_MEMORY. */
SINEW_API sw_result sw_frames_build(const sw_skeleton* skeleton, const sw_clip* clip,
                                    const sw_frames_options* options, const sw_allocator* alloc,
                                    const sw_clip** out, sw_frames_stats* stats, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
