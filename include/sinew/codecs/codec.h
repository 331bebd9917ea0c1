/* sinew/codecs/codec.h: the clip codecs' payloads: quantized
 * (SW_CLIP_CODEC_QUANTIZED) and frames (SW_CLIP_CODEC_FRAMES, below).
 *
 * A quantized clip is an sw_clip block (sinew/core/clip.h) whose joint track
 * table holds SW_CLIP_NO_TRACK everywhere and whose track array holds only
 * the raw float tracks; the joint motion lives in a codec payload at
 * sw_clip_codec_offset(c), 16-byte aligned, made by sw_compress_clip
 * (sinew/tools/builders/compress.h) and validated in full by sw_clip_load. It is
 * sampled by the ordinary sampling job (sinew/core/sample.h), with or without a
 * cache, without allocating.
 *
 * The motion is sampled uniformly: samples_count samples, sample i at time
 * i / rate (the last at most at the clip's duration). Each joint slot
 * (joint-major translation, rotation, scale) is one of
 *     default   SW_CODEC_SLOT_DEFAULT: the skeleton's rest value (identity
 *               for additive clips), no data;
 *     constant  SW_CODEC_SLOT_CONSTANT | c: float[4] constants[c] (x y z and
 *               0 for translation and scale, x y z w unit for rotations);
 *     uniform   scale slots only, SW_CODEC_SLOT_CONSTANT | SW_CODEC_SLOT_UNIFORM
 *               | f (f < 4 * constants_count): one float, ((float*)constants)[f],
 *               for x, y and z (the compressor packs them four to a record
 *               after the other constants);
 *     animated  a < animated_count: track record a.
 * Animated tracks are cut into segments of segment_samples sample
 * intervals (the last may be shorter). Segment s covers samples
 * [s * L, s * L + n] (n = min(L, samples_count - 1 - s * L)), both ends
 * included, so a pose is decoded from one segment. Its data, at
 * segment_offsets[s] from the payload, starts with H, the byte count of the
 * track headers (4 bytes, little-endian); then, for each animated track in
 * order, H bytes in all,
 *     one format byte: bits 0-3 the bit code of component 0,
 *                      bits 4-6 log2 of the key stride k (k divides n), or,
 *                      when L <= 32 (no stride of 128 fits), 7: the keys
 *                      a key mask names (below),
 *                      bit 7 segment range present;
 *     one byte:        bits 0-3 and 4-7 the bit codes of components 1 and 2
 *                      (code 0..13: 1..14 bits, 14: 17 bits, 15: 22 bits);
 *                      0xFF for a uniform track (below), which stores
 *                      component 0 only;
 *     rotations only, one byte: d, the component (0 x .. 3 w) left out in
 *                      this segment (0..3), 8 + d: the same, its keys
 *                      followed along their arc (below), 12 + d: the
 *                      same, followed along their arc in one piece
 *                      (below), or 4: each key
 *                      starts with 2 bits naming its own (the largest in
 *                      magnitude) and its three others lie in [-1, 1]
 *                      (min -1, extent 2), followed along the arc too;
 *     when bit 7 is set, 6 bytes: lo[3], hi[3] (lo <= hi), the segment's
 *                      range in 255ths of the track's clip range;
 *                      without it lo = 0, hi = 255; a uniform track's
 *                      2 bytes: lo, hi of component 0;
 *     with a key mask, 4 bytes: the mask m (little-endian), bit i - 1 set
 *                      when interior sample i (0 < i < n) holds a key (the
 *                      bits from n - 1 up are 0);
 * then one bit stream (LSB first within little-endian bytes) holding, per
 * track in order, n / k + 1 keys (sample s * L + key * k), or with a key
 * mask popcount(m) + 2 keys (samples 0, those of m and n, in order), of 3
 * components of b0, b1, b2 bits. Component c of a key decodes, in float arithmetic in
 * this order, as
 *     e  = extent_i * (1 / 255)
 *     v  = (min_i + lo_c * e) + q * ((hi_c - lo_c) * e * (1 / (2^b_c - 1)))
 * where i = c for translations and scales. Rotations store three components
 * of the quaternion, in x y z w order without d (i is the quaternion
 * component), signed so that component d is >= 0, and rebuild it as
 * sqrt(max(0, 1 - a^2 - b^2 - c^2)); the compressor leaves out the
 * component farthest from 0 over the segment. A position p in [0, n] of
 * the segment (time * rate - s * L) falls between keys j and j + 1: with a
 * stride, j = min(floor(p / k), n / k - 1) and the fraction p / k - j;
 * with a key mask, the keys at samples ka <= i < kb around
 * i = min(floor(p), n - 1) and the fraction (p - ka) * (1 / (kb - ka)), in
 * float. A uniform scale track (record flag SW_CODEC_TRACK_UNIFORM) stores
 * one component per key (b0 bits, its 2-byte range) and decodes it as
 * component 0; components 1 and 2 take the same value (their clip range
 * is component 0's). Between keys, translations
 * and scales interpolate linearly; rotations with byte d interpolate the
 * three stored components linearly and rebuild the fourth; the others
 * rebuild both keys and follow the shorter arc between them (the slerp,
 * within 1e-6 rad: sw__codec_arc in src/shared/codec_quantized_format.h),
 * those with byte 12 + d in one piece (sw__codec_short_arc there: the
 * normalized lerp of the whole arc at a corrected fraction, which the
 * compressor takes only where it measured it within its allowance).
 * The payload ends with at least 8 spare bytes after the last segment (the
 * decoder reads 8 bytes at a time).
 */
#ifndef SINEW_CODEC_H
#define SINEW_CODEC_H

#include "sinew/core/clip.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_CODEC_SLOT_DEFAULT 0xFFFFFFFFu
#define SW_CODEC_SLOT_CONSTANT 0x80000000u
#define SW_CODEC_SLOT_UNIFORM 0x40000000u /* with SW_CODEC_SLOT_CONSTANT: one float */
#define SW_CODEC_TRACK_UNIFORM 1u         /* sw_codec_track.flags: x = y = z, one stored */
#define SW_CODEC_MAX_SEGMENT_SAMPLES 256u
#define SW_CODEC_MAX_BITS 22u

/* Payload header (64 bytes). Offsets are in bytes from the payload start. */
typedef struct sw_codec_header {
    uint32_t size;             /* bytes of the payload, a multiple of 16 */
    uint32_t samples_count;    /* >= 2 */
    float rate;                /* samples per second, finite > 0 */
    uint32_t segment_samples;  /* L: a power of two in [1, SW_CODEC_MAX_SEGMENT_SAMPLES] */
    uint32_t segments_count;   /* ceil((samples_count - 1) / L) */
    uint32_t animated_count;   /* animated tracks */
    uint32_t constants_count;  /* constant values */
    uint32_t slots_offset;     /* uint32_t[joints_count * 3] */
    uint32_t tracks_offset;    /* sw_codec_track[animated_count] */
    uint32_t constants_offset; /* float[constants_count * 4] */
    uint32_t segments_offset;  /* uint32_t[segments_count + 1]: segment data offsets,
                                  increasing; the last is the end of the data */
    uint32_t reserved[5];      /* zero */
} sw_codec_header;

/* Animated track record (36 bytes). */
typedef struct sw_codec_track {
    uint16_t joint;  /* joint index */
    uint8_t kind;    /* sw_track_kind: translation, rotation or scale */
    uint8_t flags;   /* SW_CODEC_TRACK_UNIFORM (scale tracks only), else zero */
    float min[4];    /* clip range per component (x y z, and w for rotations; else 0), finite;
                        a uniform track's y and z equal its x */
    float extent[4]; /* finite >= 0 */
} sw_codec_track;

/* Offset of the codec payload: the joint track table, 16-byte aligned up. */
static inline uint32_t sw_clip_codec_offset(const sw_clip* c) {
    return (c->joint_tracks_offset + 12u * c->joints_count + 15u) & ~15u;
}
static inline const sw_codec_header* sw_clip_codec_header(const sw_clip* c) {
    return (const sw_codec_header*)(const void*)((const char*)c + sw_clip_codec_offset(c));
}

/* ---- SW_CLIP_CODEC_FRAMES ---------------------------------------------------
 *
 * A frames clip is an sw_clip block like a quantized one (no raw joint
 * tracks; float tracks and events raw in the block) whose payload, at
 * sw_clip_codec_offset(c), holds the local pose at a uniform rate as SoA
 * packets (sw_xform4), frame-major and 16-byte aligned, for forward reading:
 * sampling time t reads two frames and interpolates them (lerp for
 * translation and scale, normalized lerp for rotation), with no search and
 * no per-track branch, so sequential and random access cost the same. Made
 * by sw_frames_build (sinew/tools/builders/frames.h), validated in full by
 * sw_clip_load.
 *
 * Frame i is the pose at min(i / rate, duration), i < frames_count, where
 * frames_count = max(2, ceil(duration * rate - 1e-3) + 1). A time t in
 * [0, duration] falls in frame interval i = min(floor(t * rate), frames_count
 * - 2) (settled on the float frame times (float)i / rate, so a time exactly
 * at a frame time gives that frame exactly) with
 *     u = (t - t_i) / (t_{i+1} - t_i) clamped to [0, 1],
 *     t_i = (float)i / rate, t_{i+1} = min((float)(i + 1) / rate, duration).
 *
 * The packets of the skeleton (packets_count = ceil(joints / 4)) are cut
 * into runs of consecutive packets, in packet order, each of one kind:
 *     constant  SW_FRAMES_RUN_CONSTANT: packets that never change over the
 *               clip, stored once at constants[source ..] and copied;
 *     animated  SW_FRAMES_RUN_ANIMATED: frame f holds them at
 *               frames[f * animated_count + source ..].
 * Sources of constant runs and of animated runs each count up from 0 in run
 * order. Rotations of an animated packet lie on the hemisphere of the same
 * lane in the previous frame (dot >= 0), so no sign test is needed between
 * frames. Padding lanes (joints .. 4 * packets_count) hold identity.
 *
 * Joint slots the source clip has no track for hold, as in ozz-animation,
 * the rest values of the skeleton the clip was built with (identity for
 * additive clips), baked into the packets: a frames clip belongs to that
 * skeleton's rest pose (a raw or quantized clip takes them from whichever
 * skeleton samples it). Sampling touches no per-joint or per-lane branch.
 */

typedef enum sw_frames_run_kind {
    SW_FRAMES_RUN_NONE = 0, /* not valid in a payload */
    SW_FRAMES_RUN_CONSTANT,
    SW_FRAMES_RUN_ANIMATED
} sw_frames_run_kind;

/* Payload header (64 bytes). Offsets are in bytes from the payload start. */
typedef struct sw_frames_header {
    uint32_t size;            /* bytes of the payload, a multiple of 16 */
    uint32_t frames_count;    /* >= 2, from duration and rate as above */
    float rate;               /* frames per second, finite, in (0, 1000] */
    uint32_t packets_count;   /* ceil(joints_count / 4) */
    uint32_t animated_count;  /* packets stored per frame */
    uint32_t constants_count; /* packets stored once; animated + constants = packets */
    uint32_t runs_count;      /* in [1, packets_count] */
    /* One layout, checked on load: runs at 64, constants at the next
     * multiple of 16, frames right after the constants, and the payload
     * ends with the frames. */
    uint32_t runs_offset;      /* sw_frames_run[runs_count] */
    uint32_t constants_offset; /* sw_xform4[constants_count], 16-byte aligned */
    uint32_t frames_offset;    /* sw_xform4[frames_count * animated_count], 16-byte aligned */
    uint32_t reserved[6];      /* zero */
} sw_frames_header;

/* A run of packets [first, first + count) (16 bytes). */
typedef struct sw_frames_run {
    uint32_t first;  /* packet index: 0 for the first run, then the previous run's end */
    uint32_t count;  /* >= 1 */
    uint32_t kind;   /* sw_frames_run_kind, CONSTANT or ANIMATED */
    uint32_t source; /* first packet in the constants or in each frame */
} sw_frames_run;

static inline const sw_frames_header* sw_clip_frames_header(const sw_clip* c) {
    return (const sw_frames_header*)(const void*)((const char*)c + sw_clip_codec_offset(c));
}

#ifdef __cplusplus
}
#endif

#endif
