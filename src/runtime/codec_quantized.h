/* The quantized codec's shared pieces (layout: sinew/codec.h): key
 * decoding used by the runtime decoder and by the compressor, which measures
 * its choices on exactly what the runtime will decode. Not installed. */
#ifndef SINEW_RUNTIME_CODEC_QUANTIZED_H
#define SINEW_RUNTIME_CODEC_QUANTIZED_H

#include <math.h>

#include "sinew/codec.h"
#include "sinew/skeleton.h"

/* 1 / (2^b - 1) for b = 0..22 (entry 0 unused). */
static const float sw__codec_inv_levels[23] = {
    0.0f,
    1.0f / 1.0f,
    1.0f / 3.0f,
    1.0f / 7.0f,
    1.0f / 15.0f,
    1.0f / 31.0f,
    1.0f / 63.0f,
    1.0f / 127.0f,
    1.0f / 255.0f,
    1.0f / 511.0f,
    1.0f / 1023.0f,
    1.0f / 2047.0f,
    1.0f / 4095.0f,
    1.0f / 8191.0f,
    1.0f / 16383.0f,
    1.0f / 32767.0f,
    1.0f / 65535.0f,
    1.0f / 131071.0f,
    1.0f / 262143.0f,
    1.0f / 524287.0f,
    1.0f / 1048575.0f,
    1.0f / 2097151.0f,
    1.0f / 4194303.0f,
};

/* Bits of a 4-bit code. */
static const uint8_t sw__codec_bits[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 22};

/* One track's parameters in one segment. */
typedef struct sw__codec_seg_track {
    float lo[3];
    float scale[3];
    uint32_t bits[3];     /* per component, 1..22 */
    uint32_t key_bits;    /* their sum */
    uint32_t stride_log2; /* key stride 2^stride_log2 samples */
    uint32_t dropped;     /* rotations: component left out, or 5 when each key names
                             its own; 4 for translations and scales */
} sw__codec_seg_track;

#define SW__CODEC_FMT_BITS(fmt) ((uint32_t)sw__codec_bits[(uint32_t)(fmt)&15u])
#define SW__CODEC_FMT_BITS1(b1) ((uint32_t)sw__codec_bits[(uint32_t)(b1)&15u])
#define SW__CODEC_FMT_BITS2(b1) ((uint32_t)sw__codec_bits[((uint32_t)(b1) >> 4) & 15u])
#define SW__CODEC_FMT_STRIDE_LOG2(fmt) (((uint32_t)(fmt) >> 4) & 7u)
#define SW__CODEC_FMT_RANGE 0x80u

/* The stored components of a rotation whose component `dropped` is rebuilt
 * (row 4: translations and scales). */
static const uint8_t sw__codec_kept[5][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}, {0, 1, 2}};

#define SW__CODEC_DROP_NONE 4u
#define SW__CODEC_DROP_PER_KEY 5u

/* Parses the header of one track at h (validated: the rotation byte <= 4);
 * returns the next header. */
static inline const uint8_t* sw__codec_parse(const sw_codec_track* tr, const uint8_t* h,
                                             sw__codec_seg_track* ts) {
    const uint32_t fmt = h[0];
    uint32_t lo[3] = {0u, 0u, 0u}, hi[3] = {255u, 255u, 255u};
    ts->bits[0] = SW__CODEC_FMT_BITS(fmt);
    ts->bits[1] = SW__CODEC_FMT_BITS1(h[1]);
    ts->bits[2] = SW__CODEC_FMT_BITS2(h[1]);
    ts->key_bits = ts->bits[0] + ts->bits[1] + ts->bits[2];
    ts->stride_log2 = SW__CODEC_FMT_STRIDE_LOG2(fmt);
    h += 2;
    if (tr->kind == SW_TRACK_KIND_ROTATION) {
        ts->dropped = h[0] == 4u ? SW__CODEC_DROP_PER_KEY : (uint32_t)h[0] & 3u;
        h += 1;
    } else {
        ts->dropped = SW__CODEC_DROP_NONE;
    }
    const bool per_key = ts->dropped == SW__CODEC_DROP_PER_KEY;
    if (per_key) ts->key_bits += 2u;
    if (fmt & SW__CODEC_FMT_RANGE) {
        lo[0] = h[0];
        lo[1] = h[1];
        lo[2] = h[2];
        hi[0] = h[3];
        hi[1] = h[4];
        hi[2] = h[5];
        h += 6;
    }
    for (uint32_t c = 0; c < 3u; ++c) {
        /* per-key components: the three smallest, within [-1, 1] */
        const uint32_t i = sw__codec_kept[per_key ? 3u : ts->dropped][c];
        const float e = (per_key ? 2.0f : tr->extent[i]) * (1.0f / 255.0f);
        ts->lo[c] = (per_key ? -1.0f : tr->min[i]) + (float)lo[c] * e;
        ts->scale[c] = (float)(hi[c] - lo[c]) * e * sw__codec_inv_levels[ts->bits[c]];
    }
    return h;
}

/* b <= 22 bits at bit position `bit` of data, LSB first (reads 4 bytes). */
static inline uint32_t sw__codec_read(const uint8_t* data, uint64_t bit, uint32_t b) {
    const uint8_t* p = data + (bit >> 3);
    const uint32_t v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                       ((uint32_t)p[3] << 24);
    return (v >> (uint32_t)(bit & 7u)) & ((1u << b) - 1u);
}

/* Key `key` of a track whose keys start at bit `base`: 3 decoded components. */
static inline void sw__codec_key(const uint8_t* bits, uint64_t base, uint32_t key,
                                 const sw__codec_seg_track* ts, float out[3], uint32_t* dropped) {
    uint64_t at = base + (uint64_t)key * ts->key_bits;
    *dropped = ts->dropped;
    if (ts->dropped == SW__CODEC_DROP_PER_KEY) {
        *dropped = sw__codec_read(bits, at, 2u);
        at += 2u;
    }
    for (uint32_t c = 0; c < 3u; ++c) {
        out[c] = ts->lo[c] + (float)sw__codec_read(bits, at, ts->bits[c]) * ts->scale[c];
        at += ts->bits[c];
    }
}

/* Full quaternion from three stored components. */
static inline void sw__codec_rebuild(const float v[3], uint32_t dropped, float q[4]) {
    const float ww = 1.0f - v[0] * v[0] - v[1] * v[1] - v[2] * v[2];
    q[dropped] = ww > 0.0f ? sqrtf(ww) : 0.0f;
    q[sw__codec_kept[dropped][0]] = v[0];
    q[sw__codec_kept[dropped][1]] = v[1];
    q[sw__codec_kept[dropped][2]] = v[2];
}

/* Interpolates two decoded keys at u into out: 3 values linearly, or for
 * rotations (with the components da, db left out) 4 by normalized lerp on
 * the shorter arc. */
static inline void sw__codec_interp(const float a[3], const float b[3], float u, bool rotation,
                                    uint32_t da, uint32_t db, float* out) {
    if (!rotation) {
        for (uint32_t c = 0; c < 3u; ++c)
            out[c] = a[c] + (b[c] - a[c]) * u;
        return;
    }
    float qa[4], qb[4];
    sw__codec_rebuild(a, da & 3u, qa);
    sw__codec_rebuild(b, db & 3u, qb);
    if (qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3] < 0.0f) {
        qb[0] = -qb[0];
        qb[1] = -qb[1];
        qb[2] = -qb[2];
        qb[3] = -qb[3];
    }
    const float x = qa[0] + (qb[0] - qa[0]) * u;
    const float y = qa[1] + (qb[1] - qa[1]) * u;
    const float z = qa[2] + (qb[2] - qa[2]) * u;
    const float w = qa[3] + (qb[3] - qa[3]) * u;
    const float len2 = x * x + y * y + z * z + w * w;
    if (len2 > 0.0f) {
        const float s = 1.0f / sqrtf(len2);
        out[0] = x * s;
        out[1] = y * s;
        out[2] = z * s;
        out[3] = w * s;
    } else {
        out[0] = 0.0f;
        out[1] = 0.0f;
        out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

/* Sample position of time t (clamped to the samples): segment, position
 * inside it and its interval count. */
typedef struct sw__codec_pos {
    uint32_t segment;
    uint32_t span; /* n: sample intervals in the segment */
    float p;       /* position in [0, n] */
} sw__codec_pos;

static inline sw__codec_pos sw__codec_pos_of(const sw_codec_header* h, float t) {
    sw__codec_pos r;
    float f = t * h->rate;
    const float last = (float)(h->samples_count - 1u);
    if (!(f > 0.0f)) f = 0.0f;
    if (f > last) f = last;
    uint32_t seg = (uint32_t)f / h->segment_samples;
    if (seg >= h->segments_count) seg = h->segments_count - 1u;
    const uint32_t first = seg * h->segment_samples;
    const uint32_t rest = h->samples_count - 1u - first;
    r.segment = seg;
    r.span = rest < h->segment_samples ? rest : h->segment_samples;
    r.p = f - (float)first;
    return r;
}

/* Key index and fraction of position p for a track with stride 2^sl in a
 * segment of n intervals. */
static inline uint32_t sw__codec_key_at(float p, uint32_t n, uint32_t sl, float* u) {
    const float ps = p * (1.0f / (float)(1u << sl));
    const uint32_t keys = (n >> sl) + 1u;
    uint32_t j = (uint32_t)ps;
    if (j > keys - 2u) j = keys - 2u;
    *u = ps - (float)j;
    return j;
}

static inline uint32_t sw__codec_le32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

/* Full check of a quantized clip's payload (the rest of the block checked
 * by clip.c). */
sw_result sw__codec_quantized_check(const sw_clip* c, sw_error* err);

/* Writes the joints of clip (validated, quantized) at time t into out
 * (skeleton->packets_count packets; lanes past the joints get identity). */
void sw__codec_quantized_sample(const sw_clip* clip, const sw_skeleton* skel, float t,
                                sw_xform4* out);

#endif
