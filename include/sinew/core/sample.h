/* sinew/core/sample.h: the sampling job (clip -> local pose at a time).
 *
 * Fills a local-space SoA pose from a clip at `time` (clamped to
 * [0, duration]); joints without tracks get the skeleton's rest value (or
 * identity for additive clips). Optionally fills the clip's float tracks.
 *
 * A cache (caller-owned cursors, one per track) makes forward playback cheap:
 * each track resumes its key search where the previous call left it. With
 * sw_sample_cache_size(clip) entries, a quantized clip's decoder also keeps
 * the decoded keys and parsed headers of its animated tracks there (136
 * bytes per track) and decodes again only when a key interval changes.
 * Results are identical to a cold seek at any time, whatever the cache
 * holds; the cache resets itself
 * when given another clip or an earlier time. A cache belongs to the clip
 * at its address: call sw_sample_cache_init again before using it with a
 * clip created where a destroyed one was.
 *
 * Many characters playing one quantized clip can share its table: the
 * parsed track headers of every segment, made once (sw_sample_table_init)
 * and read by every cache whose `table` points at it, so that each
 * character's key crossings read the shared headers instead of keeping
 * their own (the same results; at 1000 characters fewer cache lines per
 * call), in a smaller cache (sw_sample_cache_size_with_table).
 *
 *     uint32_t count = sw_sample_cache_size(clip);
 *     uint32_t* cursors = ...;  // count entries, any storage
 *     sw_sample_cache cache;
 *     sw_sample_cache_init(&cache, cursors, count);
 *     sw_sample_job job = { .clip = clip, .skeleton = skel, .time = t,
 *                           .cache = &cache, .out = pose,
 *                           .out_count = skel->packets_count };
 *     sw_sample_job_run(&job);
 */
#ifndef SINEW_SAMPLE_H
#define SINEW_SAMPLE_H

#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_sample_cache {
    const sw_clip* clip; /* clip the cursors belong to; NULL: empty */
    float time;          /* time of the last sample */
    uint32_t* cursors;   /* caller storage, one per track of the clip */
    uint32_t cursors_count;
    const uint32_t* table; /* optional: the clip's shared table (sw_sample_table_init) */
} sw_sample_cache;

/* Prepares an empty cache over caller storage of `count` cursors. */
static inline void sw_sample_cache_init(sw_sample_cache* c, uint32_t* cursors, uint32_t count) {
    c->clip = NULL;
    c->time = 0.0f;
    c->cursors = cursors;
    c->cursors_count = count;
    c->table = NULL;
}

/* Cursor entries a cache for clip needs to keep everything it can: one per
 * track, plus the quantized decoder's kept keys (none on builds without its
 * SSE2 path or for other codecs). A cache with at least tracks_count
 * entries but fewer than this works and keeps cursors only. Returns 0 for
 * NULL. */
SINEW_API uint32_t sw_sample_cache_size(const sw_clip* clip);

/* Cursor entries a cache for clip needs to keep everything it can while its
 * `table` is set (sw_sample_table_init): sw_sample_cache_size less the 96
 * bytes per animated track of parsed headers that the table holds (Walking
 * quantized at 1 mm: 646 entries instead of 1,054). A cache of this size
 * used without a table keeps cursors only, and is emptied by that call (its
 * next call with the table decodes afresh). Returns sw_sample_cache_size
 * for clips without a table (sw_sample_table_size 0), 0 for NULL. */
SINEW_API uint32_t sw_sample_cache_size_with_table(const sw_clip* clip);

/* Words of clip's shared table (sw_sample_table_init); 0 when the clip has
 * none to share (not quantized, no animated track, or a build without the
 * quantized decoder's key cache) or for NULL. */
SINEW_API uint32_t sw_sample_table_size(const sw_clip* clip);

/* Fills table (caller storage of count >= sw_sample_table_size(clip)
 * words, 16-byte aligned, apart from the clip) for clip: read-only
 * afterwards, shared by any number of caches of that clip and threads
 * while the clip lives at its address. A cache uses it when its `table`
 * points at it (set after sw_sample_cache_init); the sampling job then
 * checks that the table names the job's clip (its address, size and
 * counts).
 * Fails: INVALID_ARGUMENT (NULL clip or table, a clip without a table:
 * sw_sample_table_size 0); BUFFER_TOO_SMALL (count); MISALIGNED (table);
 * OVERLAP (table overlapping the clip). Nothing is written on failure. */
SINEW_API sw_result sw_sample_table_init(const sw_clip* clip, uint32_t* table, uint32_t count);

typedef struct sw_sample_job {
    const sw_clip* clip;
    const sw_skeleton* skeleton; /* rest values; joints_count must equal the clip's */
    float time;                  /* seconds; clamped to [0, duration]; must not be NaN */
    sw_sample_cache* cache;      /* optional; cursors_count >= clip->tracks_count (or
                                    sw_sample_cache_size(clip) to keep decoded keys) */
    sw_xform4* out;              /* local pose, out_count >= skeleton->packets_count */
    uint32_t out_count;
    float* floats;         /* optional: float track values, in track order */
    uint32_t floats_count; /* >= clip->float_tracks_count when floats is set */
    const uint8_t* keep;   /* optional joint subset (sinew/core/skeleton.h), packets_count
                            * bytes: only the kept joints' tracks are decoded, the others
                            * get their rest value (identity for additive clips); NULL: all */
} sw_sample_job;

/* Checks the job without running it.
 * Fails: INVALID_ARGUMENT (missing clip, skeleton or out, NaN time, joint
 * count mismatch, unknown codec, a cache with cursors_count > 0 but no
 * cursors, a cache's table not made for the clip); BUFFER_TOO_SMALL (out,
 * floats or cache cursors too short); MISALIGNED (out not 16-byte
 * aligned); OVERLAP (out or floats overlapping the clip, the skeleton, the
 * cache, its cursors or its table, the subset, or each other). */
SINEW_API sw_result sw_sample_job_validate(const sw_sample_job* job);

/* Validates, then samples. On failure nothing is written.
 * Threads: reentrant; a cache must not be shared between threads. */
SINEW_API sw_result sw_sample_job_run(const sw_sample_job* job);

/* Checks, once after loading, that sampling `clip` on `skeleton` keeps every
 * joint's model-space transform finite: from the largest values each
 * joint's local transform can reach, it bounds the scale products and
 * translation sums along the hierarchy, as the skeleton does for its rest
 * pose (each within FLT_MAX / 16). Values that are finite one by one can
 * still overflow together (a chain of 1e20 scales). What a joint can reach:
 * raw clips, its tracks' keys and cubic tangents over the longest interval;
 * quantized clips, every constant and every decoded key in every segment
 * (a rotation whose stored components leave the unit ball stretches by
 * 2|q|^2 - 1); frames clips, every stored frame; untracked joints, the rest
 * pose (identity for additive clips). Time linear in the clip's size;
 * reads only, no allocation.
 * Fails: INVALID_ARGUMENT (NULL, joint counts differ); BAD_DATA "clip finite
 * in model space", err->index the first joint past the bound and
 * err->detail naming the clip and that joint. */
SINEW_API sw_result sw_clip_check_extent(const sw_clip* clip, const sw_skeleton* skeleton,
                                         sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
