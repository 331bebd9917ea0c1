/* The quantized codec's runtime decoder (format: shared/codec_quantized_format.h):
 * payload check and sampling, used by clip loading, the sampling job and
 * the tests. Not installed. */
#ifndef SINEW_RUNTIME_CODEC_QUANTIZED_H
#define SINEW_RUNTIME_CODEC_QUANTIZED_H

#include "runtime/core/internal.h"
#include "shared/codec_quantized_format.h"

/* Full check of a quantized clip's payload (the rest of the block checked
 * by clip.c). */
sw_result sw__codec_quantized_check(const sw_clip* c, sw_error* err);

/* Words of sample-cache storage in which the decoder keeps the decoded keys
 * of clip (validated, quantized) between calls; 0 when it keeps none (no
 * SSE2 path, no animated track, a pose over 8192 floats). */
uint32_t sw__codec_quantized_keep_words(const sw_clip* clip);

/* The first words of those (all but the tracks' parsed headers, which come
 * last): all that a key cache reading the clip's shared table uses; 0 when
 * sw__codec_quantized_keep_words is 0. */
uint32_t sw__codec_quantized_keep_words_shared(const sw_clip* clip);

/* sw__codec_quantized_sample_subset, bit for bit, with a key cache: keep
 * (caller storage of sw__codec_quantized_keep_words(clip) words, or with
 * table of sw__codec_quantized_keep_words_shared(clip)) holds the
 * keys of the last call on this clip; fresh: it holds nothing of this clip
 * (it is then refilled). A call whose key interval per stride is unchanged
 * interpolates the kept keys of the joints the subset keeps (NULL: all),
 * decoding those a subset of an earlier call left out; any other decodes
 * and keeps the keys of the joints the subset keeps. table: NULL, or the
 * clip's shared table (sw__codec_quantized_table_fill; checked by the
 * caller): the tracks' parsed headers are then read from it, not kept in
 * keep (the same bits, fewer lines per character). */
void sw__codec_quantized_sample_kept(const sw_clip* clip, const sw_skeleton* skel, float t,
                                     const uint8_t* subset, sw_xform4* out, uint32_t* keep,
                                     const uint32_t* table, bool fresh);

/* Words of clip's shared table (validated, quantized): every segment's
 * parsed track headers, which every key cache of the clip can read instead
 * of keeping its own, and the scratch its fill uses; 0 when the decoder
 * keeps no keys (sw__codec_quantized_keep_words 0). */
uint32_t sw__codec_quantized_table_words(const sw_clip* clip);

/* Fills table (sw__codec_quantized_table_words(clip) words, 16-byte
 * aligned) for clip, which it names (its address, size and counts). */
void sw__codec_quantized_table_fill(const sw_clip* clip, uint32_t* table);

/* A table's head: SW__TABLE_MAGIC, the clip's size, its animated track
 * and segment counts, its address (2 words), and the table's words. */
#define SW__TABLE_MAGIC 0x42545753u /* "SWTB" */
#define SW__TABLE_HEAD 7u

/* Whether table was filled for clip (quantized): the address, size and
 * counts its head names. */
static inline bool sw__codec_quantized_table_fits(const sw_clip* clip, const uint32_t* table) {
    const sw_codec_header* h = sw_clip_codec_header(clip);
    const uint64_t at = (uint64_t)(uintptr_t)clip;
    return table[0] == SW__TABLE_MAGIC && table[1] == (uint32_t)clip->size &&
           table[2] == h->animated_count && table[3] == h->segments_count &&
           table[4] == (uint32_t)at && table[5] == (uint32_t)(at >> 32);
}

/* The words of a table that fits its clip (its head's last word). */
static inline uint32_t sw__codec_quantized_table_size(const uint32_t* table) {
    return table[SW__TABLE_HEAD - 1u];
}

/* Sets the slots a validated quantized clip holds (constant or animated;
 * default slots left as they are) in e (joints_count entries) to what its
 * decoder can return: each constant, and every key of every animated track
 * in every segment, decoded as the sampler decodes it (values between keys
 * are interpolated linearly, so they stay within their keys; a rotation
 * whose three stored components lie within the unit ball gets a unit
 * quaternion, else their own length). Reads each key once: linear in the
 * payload. */
void sw__codec_quantized_extent(const sw_clip* c, sw__joint_extent* e);

/* The decoder (scalar, simd false, or the best path) writing the pose of a
 * validated quantized clip at t into out (skel's packets), decoding only
 * the tracks of the joints the joint subset keeps (sinew/core/skeleton.h;
 * NULL: all): the others' headers give where the next keys start, their
 * keys are not decoded, and their lanes hold the rest value (identity for
 * additive clips). */
void sw__codec_quantized_sample_subset(const sw_clip* clip, const sw_skeleton* skel, float t,
                                       const uint8_t* subset, sw_xform4* out, bool simd);

#if defined(SINEW_SOA_X86_PATHS)
/* The two samplers above built with -mavx2 (codec_quantized_avx2.c; the
 * same bits), for the avx2 kernel path; defined when that path is. */
void sw__codec_quantized_sample_kept_avx2(const sw_clip* clip, const sw_skeleton* skel, float t,
                                          const uint8_t* subset, sw_xform4* out, uint32_t* keep,
                                          const uint32_t* table, bool fresh);
void sw__codec_quantized_sample_subset_avx2(const sw_clip* clip, const sw_skeleton* skel, float t,
                                            const uint8_t* subset, sw_xform4* out, bool simd);
#endif

/* Joint `joint` of what sw__codec_quantized_sample_subset writes at t, bit for bit,
 * decoding only that joint's tracks (backs sw__clip_sample_joint). */
sw_xform sw__codec_quantized_sample_joint(const sw_clip* clip, const sw_skeleton* skel,
                                          uint32_t joint, float t);

/* The decoder's arithmetic over a batch of tracks: per track and component
 * the range (min, extent, lo8, hi8 - lo8, 1 / (2^b - 1)) and the two keys'
 * quantized values, the fraction u, and whether it is a rotation (then the
 * fourth component is rebuilt). out[c][i]: the three interpolated
 * components and the rebuilt one (0 for translations and scales); the same
 * operations in the same order as sw__codec_parse, sw__codec_key and
 * sw__codec_interp. */
#define SW__CODEC_BATCH 32u
typedef struct sw__codec_batch {
    float min[3][SW__CODEC_BATCH];
    float extent[3][SW__CODEC_BATCH];
    int32_t lo8[3][SW__CODEC_BATCH];
    int32_t span8[3][SW__CODEC_BATCH]; /* hi8 - lo8 */
    float inv[3][SW__CODEC_BATCH];
    int32_t qa[3][SW__CODEC_BATCH];
    int32_t qb[3][SW__CODEC_BATCH];
    float u[SW__CODEC_BATCH];
    int32_t rotation[SW__CODEC_BATCH]; /* 1 or 0 */
} sw__codec_batch;

/* Scalar reference and SSE2 path (bit for bit the same; tests compare). */
void sw__codec_finish_scalar(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]);
#if SINEW_HAS_SSE2
void sw__codec_finish_sse2(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]);
#endif
void sw__codec_finish_best(const sw__codec_batch* b, uint32_t n, float out[4][SW__CODEC_BATCH]);
#if SINEW_HAS_SSE2
/* sw__codec_arc, or when short_arc sw__codec_short_arc (their scalar
 * references), on four rotations at once, bit for bit the same: out[i]
 * the rotation at u[i] along the arc from qa[i] to qb[i] (unit quaternions
 * x y z w). The SSE2 decoder's path for the rotations followed along their
 * arc. */
void sw__codec_arc4_sse2(const float qa[4][4], const float qb[4][4], const float u[4],
                         bool short_arc, float out[4][4]);
#endif

#endif
