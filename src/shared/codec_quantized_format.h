/* The quantized codec's format (layout: sinew/codecs/codec.h), owned by its
 * decoder (src/runtime/codecs) and its encoder (src/tools/builders/compress.c)
 * together: track headers, key decoding and interpolation, so the compressor
 * measures its choices on exactly what the runtime will decode. Not
 * installed. */
#ifndef SINEW_SHARED_CODEC_QUANTIZED_FORMAT_H
#define SINEW_SHARED_CODEC_QUANTIZED_FORMAT_H

#include <math.h>
#include <string.h>

#include "sinew/codecs/codec.h"

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

static inline uint32_t sw__codec_le32(const uint8_t* p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Bits of a 4-bit code. */
static const uint8_t sw__codec_bits[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 22};

/* One track's parameters in one segment. */
typedef struct sw__codec_seg_track {
    float lo[3];
    float scale[3];
    uint32_t bits[3];        /* per component, 1..22 */
    uint32_t key_bits;       /* their sum (+ 2 for per-key rotations) */
    uint32_t shift[3];       /* bit offset of each component inside a key */
    uint32_t mask[3];        /* (1 << bits) - 1 */
    uint32_t lo8[3], hi8[3]; /* segment range bytes (0 and 255 without) */
    uint32_t stride_log2;    /* key stride 2^stride_log2 samples */
    uint32_t dropped;        /* rotations: component left out, or 5 when each key names
                                its own; 4 for translations and scales */
    uint32_t interp;         /* SW__CODEC_INTERP_*: rotations of a rotation byte 8..11
                                and per-key ones along the arc, 12..15 along their
                                short arc; the others lerped */
    bool masked;             /* keys at the samples of keys_mask (stride code 7 in
                                segments of at most 32 intervals) */
    uint32_t keys_mask;      /* interior samples kept: bit i - 1 for sample i */
    bool uniform;            /* one component stored (SW_CODEC_TRACK_UNIFORM): all three
                                parameters are component 0's */
} sw__codec_seg_track;

#define SW__CODEC_FMT_BITS(fmt) ((uint32_t)sw__codec_bits[(uint32_t)(fmt)&15u])
#define SW__CODEC_FMT_BITS1(b1) ((uint32_t)sw__codec_bits[(uint32_t)(b1)&15u])
#define SW__CODEC_FMT_BITS2(b1) ((uint32_t)sw__codec_bits[((uint32_t)(b1) >> 4) & 15u])
#define SW__CODEC_FMT_STRIDE_LOG2(fmt) (((uint32_t)(fmt) >> 4) & 7u)
#define SW__CODEC_FMT_RANGE 0x80u

/* Stride code 7 in a clip whose segments hold at most 32 intervals (where
 * no stride of 128 fits): the track's keys lie at the first and last
 * samples of the segment and at the interior samples a 32-bit key mask
 * names (bit i - 1 for sample i), its 4 bytes (little-endian) closing the
 * track's header. */
#define SW__CODEC_SL_MASK 7u
#define SW__CODEC_MASK_MAX_SPAN 32u

static inline bool sw__codec_masked(uint32_t sl, uint32_t segment_samples) {
    return sl == SW__CODEC_SL_MASK && segment_samples <= SW__CODEC_MASK_MAX_SPAN;
}

/* Bits set in x (inline: without a popcount instruction the compilers'
 * builtin is a library call). */
static inline uint32_t sw__codec_popcount(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}

/* Index of the highest set bit of x != 0. */
static inline uint32_t sw__codec_top_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 63u - (uint32_t)__builtin_clzll(x);
#else
    uint32_t i = 0;
    while (x >>= 1)
        ++i;
    return i;
#endif
}

/* Index of the lowest set bit of x != 0. */
static inline uint32_t sw__codec_low_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return (uint32_t)__builtin_ctzll(x);
#else
    uint32_t i = 0;
    for (; !(x & 1u); x >>= 1)
        ++i;
    return i;
#endif
}

/* Keys of a masked track (its two ends and the samples of mask). */
static inline uint32_t sw__codec_mask_keys(uint32_t mask) {
    return sw__codec_popcount(mask) + 2u;
}

/* 1 / d for d = 1..32 (entry 0 unused). */
static const float sw__codec_inv_span[33] = {
    0.0f,         1.0f,         1.0f / 2.0f,  1.0f / 3.0f,  1.0f / 4.0f,  1.0f / 5.0f,
    1.0f / 6.0f,  1.0f / 7.0f,  1.0f / 8.0f,  1.0f / 9.0f,  1.0f / 10.0f, 1.0f / 11.0f,
    1.0f / 12.0f, 1.0f / 13.0f, 1.0f / 14.0f, 1.0f / 15.0f, 1.0f / 16.0f, 1.0f / 17.0f,
    1.0f / 18.0f, 1.0f / 19.0f, 1.0f / 20.0f, 1.0f / 21.0f, 1.0f / 22.0f, 1.0f / 23.0f,
    1.0f / 24.0f, 1.0f / 25.0f, 1.0f / 26.0f, 1.0f / 27.0f, 1.0f / 28.0f, 1.0f / 29.0f,
    1.0f / 30.0f, 1.0f / 31.0f, 1.0f / 32.0f};

/* The fraction of position p between the keys at samples ka < kb <= ka + 32:
 * (p - ka) * (1 / (kb - ka)). */
static inline float sw__codec_mask_u(float p, uint32_t ka, uint32_t kb) {
    return (p - (float)ka) * sw__codec_inv_span[kb - ka];
}

/* Key index of position p (in [0, n]) for a track whose keys the mask
 * names, in a segment of n (1..32) intervals; *ka and *kb: the samples of
 * that key and the next, *u = sw__codec_mask_u(p, ka, kb) the fraction between
 * them. */
static inline uint32_t sw__codec_mask_key(float p, uint32_t n, uint32_t mask, uint32_t* ka,
                                          uint32_t* kb, float* u) {
    uint32_t i = (uint32_t)p;
    if (i > n - 1u) i = n - 1u;
    const uint64_t full = 1u | ((uint64_t)mask << 1) | ((uint64_t)1 << n);
    const uint32_t below = (uint32_t)(full & ((2ull << i) - 1u)); /* i <= 31 */
    *ka = sw__codec_top_bit(below);
    *kb = i + 1u + sw__codec_low_bit(full >> (i + 1u));
    *u = sw__codec_mask_u(p, *ka, *kb);
    return sw__codec_popcount(below) - 1u;
}

/* The stored components of a rotation whose component `dropped` is rebuilt
 * (row 4: translations and scales). */
static const uint8_t sw__codec_kept[5][3] = {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}, {0, 1, 2}};

#define SW__CODEC_DROP_NONE 4u
#define SW__CODEC_DROP_PER_KEY 5u
/* Rotation byte: 4 per key (followed along the arc); else the component
 * left out (bits 0-1) and the interpolation (bits 2-3): 0 the three stored
 * components lerped and the fourth rebuilt, SW__CODEC_ROT_ARC both keys
 * rebuilt and followed along their arc, SW__CODEC_ROT_SHORT both keys
 * rebuilt and followed along their arc in one piece (sw__codec_short_arc:
 * where the compressor measured it close enough to the arc). */
#define SW__CODEC_ROT_PER_KEY 4u
#define SW__CODEC_ROT_ARC 8u
#define SW__CODEC_ROT_SHORT 12u

/* How a track interpolates between its keys (sw__codec_interp). */
#define SW__CODEC_INTERP_LERP 0u  /* linearly (rotations: the fourth rebuilt) */
#define SW__CODEC_INTERP_ARC 1u   /* rotations along the arc (sw__codec_arc) */
#define SW__CODEC_INTERP_SHORT 2u /* rotations along a short arc (sw__codec_short_arc) */

/* The interpolation of rotation byte rb (validated: 0..4 or 8..15). */
static inline uint32_t sw__codec_rot_interp(uint32_t rb) {
    if (rb == SW__CODEC_ROT_PER_KEY) return SW__CODEC_INTERP_ARC;
    return rb < SW__CODEC_ROT_ARC     ? SW__CODEC_INTERP_LERP
           : rb < SW__CODEC_ROT_SHORT ? SW__CODEC_INTERP_ARC
                                      : SW__CODEC_INTERP_SHORT;
}

/* Parses the header of one track at h (validated: the rotation byte 0..4 or 8..15)
 * into ts, all but the float range parameters (lo, scale), in a clip of
 * segments of L intervals; returns the next header. Reads the header's own
 * bytes only (the rotation byte of rotations, the range bytes when the
 * format says so, the key mask of masked tracks). A uniform track's three
 * components get component 0's bits, shift, mask and range bytes. */
static inline const uint8_t* sw__codec_parse_header(const sw_codec_track* tr, uint32_t L,
                                                    const uint8_t* h, sw__codec_seg_track* ts) {
    const uint32_t fmt = h[0];
    const uint32_t b12 = h[1];
    const bool uni = (tr->flags & SW_CODEC_TRACK_UNIFORM) != 0u;
    ts->uniform = uni;
    ts->bits[0] = SW__CODEC_FMT_BITS(fmt);
    ts->bits[1] = uni ? ts->bits[0] : SW__CODEC_FMT_BITS1(b12);
    ts->bits[2] = uni ? ts->bits[0] : SW__CODEC_FMT_BITS2(b12);
    ts->stride_log2 = SW__CODEC_FMT_STRIDE_LOG2(fmt);
    const uint32_t rot = tr->kind == SW_TRACK_KIND_ROTATION ? 1u : 0u;
    const uint32_t rb = rot ? h[2] : 0u; /* only rotations have the byte */
    const uint32_t dropped = rb == SW__CODEC_ROT_PER_KEY ? SW__CODEC_DROP_PER_KEY : (rb & 3u);
    ts->dropped = rot ? dropped : SW__CODEC_DROP_NONE;
    ts->interp = rot ? sw__codec_rot_interp(rb) : SW__CODEC_INTERP_LERP;
    const bool per_key = ts->dropped == SW__CODEC_DROP_PER_KEY;
    ts->key_bits =
        uni ? ts->bits[0] : ts->bits[0] + ts->bits[1] + ts->bits[2] + (per_key ? 2u : 0u);
    const uint32_t first = per_key ? 2u : 0u;
    ts->shift[0] = first;
    ts->shift[1] = uni ? 0u : first + ts->bits[0];
    ts->shift[2] = uni ? 0u : first + ts->bits[0] + ts->bits[1];
    ts->mask[0] = (1u << ts->bits[0]) - 1u;
    ts->mask[1] = (1u << ts->bits[1]) - 1u;
    ts->mask[2] = (1u << ts->bits[2]) - 1u;
    const uint8_t* r = h + 2u + rot;
    const uint32_t has = fmt >> 7;     /* 0 or 1 */
    const uint32_t nr = uni ? 1u : 3u; /* range bytes per bound */
    for (uint32_t c = 0; c < 3u; ++c) {
        ts->lo8[c] = has ? r[uni ? 0u : c] : 0u;
        ts->hi8[c] = has ? r[nr + (uni ? 0u : c)] : 255u;
    }
    r += 2u * nr * has;
    ts->masked = sw__codec_masked(ts->stride_log2, L);
    ts->keys_mask = ts->masked ? sw__codec_le32(r) : 0u;
    return r + (ts->masked ? 4u : 0u);
}

/* Keys of a parsed track in a segment of n intervals. */
static inline uint32_t sw__codec_keys_count(const sw__codec_seg_track* ts, uint32_t n) {
    return ts->masked ? sw__codec_mask_keys(ts->keys_mask) : (n >> ts->stride_log2) + 1u;
}

/* The range of component c: the clip range's minimum and extent (per-key
 * rotations: -1 and 2). */
static inline void sw__codec_range(const sw_codec_track* tr, const sw__codec_seg_track* ts,
                                   uint32_t c, float* min, float* extent) {
    const bool per_key = ts->dropped == SW__CODEC_DROP_PER_KEY;
    const uint32_t i = sw__codec_kept[per_key ? 3u : ts->dropped][c];
    *min = per_key ? -1.0f : tr->min[i];
    *extent = per_key ? 2.0f : tr->extent[i];
}

/* Dequantization, in this order: e = extent * (1 / 255), lo = min + lo8 * e,
 * scale = (hi8 - lo8) * e * (1 / (2^b - 1)), value = lo + q * scale. */
static inline const uint8_t* sw__codec_parse(const sw_codec_track* tr, uint32_t L, const uint8_t* h,
                                             sw__codec_seg_track* ts) {
    h = sw__codec_parse_header(tr, L, h, ts);
    for (uint32_t c = 0; c < 3u; ++c) {
        float mn, ex;
        sw__codec_range(tr, ts, c, &mn, &ex);
        const float e = ex * (1.0f / 255.0f);
        ts->lo[c] = mn + (float)ts->lo8[c] * e;
        ts->scale[c] = (float)(ts->hi8[c] - ts->lo8[c]) * e * sw__codec_inv_levels[ts->bits[c]];
    }
    return h;
}

/* 8 little-endian bytes at p as an integer (one unaligned load). */
static inline uint64_t sw__codec_load64(const uint8_t* p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | p[i];
    return v;
#else
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
#endif
}

/* b <= 22 bits at bit position `bit` of data, LSB first (reads 4 bytes). */
static inline uint32_t sw__codec_read(const uint8_t* data, uint64_t bit, uint32_t b) {
    const uint8_t* p = data + (bit >> 3);
    const uint32_t v =
        (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
    return (v >> (uint32_t)(bit & 7u)) & ((1u << b) - 1u);
}

/* Key `key` of a track whose keys start at bit `base`: 3 decoded components. */
static inline void sw__codec_key(const uint8_t* bits, uint64_t base, uint32_t key,
                                 const sw__codec_seg_track* ts, float out[3], uint32_t* dropped) {
    const uint64_t at = base + (uint64_t)key * ts->key_bits;
    const bool per_key = ts->dropped == SW__CODEC_DROP_PER_KEY;
    *dropped = ts->dropped;
    if (ts->key_bits <= 57u) {
        /* the whole key from one load (57 + 7 bits of shift fit in 64) */
        const uint64_t v = sw__codec_load64(bits + (at >> 3)) >> (uint32_t)(at & 7u);
        if (per_key) *dropped = (uint32_t)(v & 3u);
        for (uint32_t c = 0; c < 3u; ++c) {
            const uint32_t q = (uint32_t)(v >> ts->shift[c]) & ts->mask[c];
            out[c] = ts->lo[c] + (float)q * ts->scale[c];
        }
        return;
    }
    if (per_key) *dropped = sw__codec_read(bits, at, 2u);
    for (uint32_t c = 0; c < 3u; ++c) {
        out[c] =
            ts->lo[c] + (float)sw__codec_read(bits, at + ts->shift[c], ts->bits[c]) * ts->scale[c];
    }
}

/* Keys k and k + 1 of a track whose keys start at bit `base` (adjacent in
 * the stream: one load when both fit in it). */
static inline void sw__codec_keys2(const uint8_t* bits, uint64_t base, uint32_t key,
                                   const sw__codec_seg_track* ts, float ka[3], float kb[3],
                                   uint32_t* da, uint32_t* db) {
    if (ts->key_bits <= 28u) {
        const uint64_t at = base + (uint64_t)key * ts->key_bits;
        const uint64_t va = sw__codec_load64(bits + (at >> 3)) >> (uint32_t)(at & 7u);
        const uint64_t vb = va >> ts->key_bits;
        for (uint32_t c = 0; c < 3u; ++c) {
            const int32_t qa = (int32_t)((uint32_t)(va >> ts->shift[c]) & ts->mask[c]);
            const int32_t qb = (int32_t)((uint32_t)(vb >> ts->shift[c]) & ts->mask[c]);
            ka[c] = ts->lo[c] + (float)qa * ts->scale[c];
            kb[c] = ts->lo[c] + (float)qb * ts->scale[c];
        }
        const bool per_key = ts->dropped == SW__CODEC_DROP_PER_KEY;
        *da = per_key ? (uint32_t)(va & 3u) : ts->dropped;
        *db = per_key ? (uint32_t)(vb & 3u) : ts->dropped;
        return;
    }
    sw__codec_key(bits, base, key, ts, ka, da);
    sw__codec_key(bits, base, key + 1u, ts, kb, db);
}

/* Full quaternion from three stored components. */
static inline void sw__codec_rebuild(const float v[3], uint32_t dropped, float q[4]) {
    const float ww = 1.0f - v[0] * v[0] - v[1] * v[1] - v[2] * v[2];
    q[dropped] = ww > 0.0f ? sqrtf(ww) : 0.0f;
    q[sw__codec_kept[dropped][0]] = v[0];
    q[sw__codec_kept[dropped][1]] = v[1];
    q[sw__codec_kept[dropped][2]] = v[2];
}

/* The arc correction's coefficients c[i][j] (derived for this decoder by a
 * weighted least-squares fit, tests/unit/test_compress.c checks the result
 * against sw_quat_slerp): on a half arc of cosine c (>= cos 45 degrees),
 * the normalized lerp at s = t + t (t - 1) (t - 1/2) sum_ij c[i][j]
 * (1 - c)^(i + 1) (t (t - 1))^j lies within 7e-8 rad of the slerp at t. */
static const float sw__codec_arc_c[3][3] = {{6.670460246e-01f, 1.751231082e-03f, 2.285945565e-03f},
                                            {2.597410653e-01f, 5.002162177e-01f, -4.798216504e-02f},
                                            {1.502342916e-01f, 5.858102216e-01f, 6.913352030e-01f}};

/* Writes x / |x| (identity for a zero x). */
static inline void sw__codec_normalize4(const float x[4], float out[4]) {
    const float len2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3];
    if (!(len2 > 0.0f)) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    const float len = sqrtf(len2);
    for (uint32_t c = 0; c < 4u; ++c)
        out[c] = x[c] / len;
}

/* The correction's coefficient j (0..2) for an arc of cosine 1 - x:
 * x sum_i c[i][j] x^i. */
static inline float sw__codec_arc_coef(float x, uint32_t j) {
    return x * (sw__codec_arc_c[0][j] + x * (sw__codec_arc_c[1][j] + x * sw__codec_arc_c[2][j]));
}

/* The arc between two unit quaternions, prepared once for every fraction
 * (sw__codec_arc_prep): the first key a, the arc's midpoint m (the
 * normalized sum, exact), the second key b on a's side, and the
 * correction polynomial's coefficients p in h = t (t - 1) for this arc's
 * cosine: p[j] = x sum_i c[i][j] x^i, x = 1 - c. 16 floats (the last 0):
 * the key cache keeps it as it is. */
typedef struct sw__codec_arc_prep {
    float a[4], m[4], b[4], p[4];
} sw__codec_arc_prep;

/* -1 when qb lies on the other side of qa (qa . qb < 0; *dot: qa . qb),
 * else 1: the factor that puts qb on qa's side, for the shorter arc. */
static inline float sw__codec_side(const float qa[4], const float qb[4], float* dot) {
    *dot = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    return *dot < 0.0f ? -1.0f : 1.0f;
}

/* Prepares the shorter arc from unit quaternion qa to qb. */
static inline void sw__codec_arc_prepare(const float qa[4], const float qb[4],
                                         sw__codec_arc_prep* r) {
    float dot;
    const float sign = sw__codec_side(qa, qb, &dot);
    float m[4];
    for (uint32_t c = 0; c < 4u; ++c) {
        r->a[c] = qa[c];
        r->b[c] = sign * qb[c];
        m[c] = qa[c] + r->b[c];
    }
    const float mlen = sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2] + m[3] * m[3]);
    sw__codec_normalize4(m, r->m);
    /* the half arc's cosine: |qa + qb| / 2 for unit keys */
    float ch = 0.5f * mlen;
    if (ch > 1.0f) ch = 1.0f;
    for (uint32_t j = 0; j < 3u; ++j)
        r->p[j] = sw__codec_arc_coef(1.0f - ch, j);
    r->p[3] = 0.0f;
}

/* The rotation at u on a prepared arc (the slerp: within 1e-6 rad of
 * sw_quat_slerp, test_compress): the half holding u is followed by a
 * normalized lerp whose parameter t is corrected to t + h (t - 1/2)
 * (p0 + h (p1 + h p2)), h = t (t - 1). */
static inline void sw__codec_arc_at(const sw__codec_arc_prep* r, float u, float out[4]) {
    const bool first = u < 0.5f;
    const float* p0 = first ? r->a : r->m;
    const float* p1 = first ? r->m : r->b;
    const float t = first ? 2.0f * u : 2.0f * u - 1.0f;
    const float h = t * (t - 1.0f);
    const float poly = r->p[0] + h * (r->p[1] + h * r->p[2]);
    const float s = t + h * (t - 0.5f) * poly;
    float v[4];
    for (uint32_t c = 0; c < 4u; ++c)
        v[c] = p0[c] + (p1[c] - p0[c]) * s;
    sw__codec_normalize4(v, out);
}

/* The rotation at u on the shorter arc from unit quaternion qa to qb:
 * sw__codec_arc_prepare, then sw__codec_arc_at. */
static inline void sw__codec_arc(const float qa[4], const float qb[4], float u, float out[4]) {
    sw__codec_arc_prep r;
    sw__codec_arc_prepare(qa, qb, &r);
    sw__codec_arc_at(&r, u, out);
}

/* The rotation at u on the shorter arc from unit quaternion qa to qb, in
 * one piece: qb put on qa's side (sw__codec_side),
 * then the normalized lerp at s = u + h ((u - 1/2) k), h = u (u - 1), k
 * the leading term of sw__codec_arc_at's correction for the arc's own
 * cosine |qa . qb| (sw__codec_arc_coef 0). Without the midpoint's square
 * root and divisions, and with a shorter chain of operations than the arc
 * in halves. Its departure from the slerp grows with the turn between the
 * keys (test_compress: float rounding, 6e-7 rad, up to 20 degrees; 2e-5
 * rad at 45; 8e-4 at 90), so the compressor measures it before it takes
 * it. */
static inline void sw__codec_short_arc(const float qa[4], const float qb[4], float u,
                                       float out[4]) {
    float dot;
    const float sign = sw__codec_side(qa, qb, &dot);
    float cs = sign * dot;
    if (cs > 1.0f) cs = 1.0f; /* a NaN kept */
    const float k = sw__codec_arc_coef(1.0f - cs, 0u);
    const float s = u + (u * (u - 1.0f)) * ((u - 0.5f) * k);
    float v[4];
    for (uint32_t c = 0; c < 4u; ++c)
        v[c] = qa[c] + (sign * qb[c] - qa[c]) * s;
    sw__codec_normalize4(v, out);
}

/* Interpolates two decoded keys at u into out: 3 values linearly; for
 * rotations (left-out components da, db), by interp (SW__CODEC_INTERP_*):
 * lerp the three stored components linearly and the fourth rebuilt (unit
 * by construction, one square root); arc (per-key rotations and those
 * whose segment says so) both keys rebuilt and followed along their arc
 * (sw__codec_arc: the raw clip's slerp); short both keys rebuilt and
 * followed along their arc in one piece (sw__codec_short_arc). */
static inline void sw__codec_interp(const float a[3], const float b[3], float u, bool rotation,
                                    uint32_t interp, uint32_t da, uint32_t db, float* out) {
    if (!rotation) {
        for (uint32_t c = 0; c < 3u; ++c)
            out[c] = a[c] + (b[c] - a[c]) * u;
        return;
    }
    if (interp == SW__CODEC_INTERP_LERP) {
        float v[3];
        for (uint32_t c = 0; c < 3u; ++c)
            v[c] = a[c] + (b[c] - a[c]) * u;
        sw__codec_rebuild(v, da & 3u, out);
        return;
    }
    float qa[4], qb[4];
    sw__codec_rebuild(a, da & 3u, qa);
    sw__codec_rebuild(b, db & 3u, qb);
    if (interp == SW__CODEC_INTERP_SHORT)
        sw__codec_short_arc(qa, qb, u, out);
    else
        sw__codec_arc(qa, qb, u, out);
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
static const float sw__codec_inv_pow2[8] = {1.0f,    0.5f,     0.25f,     0.125f,
                                            0.0625f, 0.03125f, 0.015625f, 0.0078125f};

static inline uint32_t sw__codec_key_at(float p, uint32_t n, uint32_t sl, float* u) {
    const float ps = p * sw__codec_inv_pow2[sl & 7u];
    const uint32_t keys = (n >> sl) + 1u;
    uint32_t j = (uint32_t)ps;
    if (j > keys - 2u) j = keys - 2u;
    *u = ps - (float)j;
    return j;
}

/* Key index and fraction *u of position p for a parsed track in a segment
 * of n intervals (by its stride or its key mask). */
static inline uint32_t sw__codec_track_key(const sw__codec_seg_track* ts, float p, uint32_t n,
                                           float* u) {
    uint32_t ka, kb;
    if (ts->masked) return sw__codec_mask_key(p, n, ts->keys_mask, &ka, &kb, u);
    return sw__codec_key_at(p, n, ts->stride_log2, u);
}

#endif
