/* SIMD SoA kernels written once against simd4.h: one register holds one
 * component of the 4 joints of a packet, so every kernel is a loop over
 * packets with no per-joint calls. This file is compiled once per
 * instruction set: directly (the target's baseline: sse2, neon, wasm128;
 * table sw__soa_simd) and through soa_simd_sse41.c / soa_simd_avx2.c, which
 * define SW__SOA_TABLE and are built with -msse4.1 / -mavx2 -mfma.
 * Results agree with the scalar reference (soa_scalar.c) to rounding; fused
 * multiply-adds make the avx2 path differ in the last bits. */
#include <float.h>

#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"
#include "simd4.h"

#if SW__SIMD4_AVAILABLE

#ifndef SW__SOA_TABLE
#define SW__SOA_TABLE sw__soa_simd
#endif

#if defined(__GNUC__)
#define SW__UNLIKELY(c) __builtin_expect(!!(c), 0)
#else
#define SW__UNLIKELY(c) (c)
#endif

#define SW__LD(p, f) sw__v4_load((p)->f)
#define SW__ST(p, f, v) sw__v4_store((p)->f, (v))

/* A packet's 10 components in registers. */
typedef struct sw__x4 {
    sw__v4 tx, ty, tz, rx, ry, rz, rw, sx, sy, sz;
} sw__x4;

static inline sw__x4 sw__x4_load(const sw_xform4* p) {
    sw__x4 x = {SW__LD(p, tx), SW__LD(p, ty), SW__LD(p, tz), SW__LD(p, rx), SW__LD(p, ry),
                SW__LD(p, rz), SW__LD(p, rw), SW__LD(p, sx), SW__LD(p, sy), SW__LD(p, sz)};
    return x;
}

static inline void sw__x4_store(sw_xform4* p, const sw__x4* x) {
    SW__ST(p, tx, x->tx);
    SW__ST(p, ty, x->ty);
    SW__ST(p, tz, x->tz);
    SW__ST(p, rx, x->rx);
    SW__ST(p, ry, x->ry);
    SW__ST(p, rz, x->rz);
    SW__ST(p, rw, x->rw);
    SW__ST(p, sx, x->sx);
    SW__ST(p, sy, x->sy);
    SW__ST(p, sz, x->sz);
}

static inline sw__v4 sw__dot(sw__v4 ax, sw__v4 ay, sw__v4 az, sw__v4 aw, sw__v4 bx, sw__v4 by,
                             sw__v4 bz, sw__v4 bw) {
    return sw__v4_madd(aw, bw, sw__v4_madd(az, bz, sw__v4_madd(ay, by, sw__v4_mul(ax, bx))));
}

/* The lanes where inv = sw__v4_rsqrt_fast(len2) normalizes: len2 a normal
 * float (the function's domain), which its cheaper form tells by inv > 0. */
static inline sw__m4 sw__rsqrt_fast_ok(sw__v4 len2, sw__v4 inv) {
#if defined(SW__V4_HAS_RSQRT_FAST)
    (void)len2;
    return sw__v4_cmpgt(inv, sw__v4_zero());
#else
    (void)inv;
    return sw__m4_and(sw__v4_cmpge(len2, sw__v4_set1(FLT_MIN)),
                      sw__v4_cmplt(len2, sw__v4_set1(INFINITY)));
#endif
}

/* Normalizes (x, y, z, w) per lane; identity where the length is 0 or not
 * finite. Normal lengths use the estimate of sw__v4_rsqrt_fast; with ok
 * NULL, a packet with a zero, denormal, infinite or NaN squared length takes
 * sw__v4_rsqrt. With ok, every lane takes the estimate, without a branch,
 * and the lanes where it normalizes are ANDed into *ok (a caller whose *ok
 * loses a lane redoes its packets with ok NULL). */
SW__ALWAYS_INLINE void sw__normalize4_or_flag(sw__v4* x, sw__v4* y, sw__v4* z, sw__v4* w,
                                              sw__m4* ok) {
    const sw__v4 len2 = sw__dot(*x, *y, *z, *w, *x, *y, *z, *w);
    sw__v4 inv = sw__v4_rsqrt_fast(len2);
    const sw__m4 normal = sw__rsqrt_fast_ok(len2, inv);
    if (ok) {
        *ok = sw__m4_and(*ok, normal);
    } else if (SW__UNLIKELY(sw__m4_bits(normal) != 0xF)) {
        const sw__v4 inf = sw__v4_set1(INFINITY);
        const sw__m4 fine = sw__m4_and(sw__v4_cmpgt(len2, sw__v4_zero()), sw__v4_cmplt(len2, inf));
        inv = sw__v4_select(normal, inv, sw__v4_rsqrt(len2));
        *x = sw__v4_select(fine, sw__v4_mul(*x, inv), sw__v4_zero());
        *y = sw__v4_select(fine, sw__v4_mul(*y, inv), sw__v4_zero());
        *z = sw__v4_select(fine, sw__v4_mul(*z, inv), sw__v4_zero());
        *w = sw__v4_select(fine, sw__v4_mul(*w, inv), sw__v4_set1(1.0f));
        return;
    }
    *x = sw__v4_mul(*x, inv);
    *y = sw__v4_mul(*y, inv);
    *z = sw__v4_mul(*z, inv);
    *w = sw__v4_mul(*w, inv);
}

/* sw__normalize4_or_flag with ok NULL. */
static inline void sw__normalize4(sw__v4* x, sw__v4* y, sw__v4* z, sw__v4* w) {
    sw__normalize4_or_flag(x, y, z, w, NULL);
}

/* Joint weights p * 4 .. p * 4 + 3 clamped to [0, 1], NaN as 0. */
static inline sw__v4 sw__clamp01(sw__v4 jw) {
    const sw__v4 zero = sw__v4_zero();
    jw = sw__v4_select(sw__v4_cmpge(jw, zero), jw, zero);
    return sw__v4_min(jw, sw__v4_set1(1.0f));
}

/* Per-lane weight of a blend layer for packet p. */
static inline sw__v4 sw__layer_weight(const sw__blend_input* in, uint32_t p) {
    const sw__v4 w = sw__v4_set1(in->weight);
    if (!in->joint_weights) return w;
    return sw__v4_mul(w, sw__clamp01(sw__v4_loadu(in->joint_weights + (size_t)p * 4u)));
}

/* a += w * x, with the rotation weighted by w negated where x.r lies on the
 * other hemisphere than a.r; `first` (a constant) sets a = w * x instead. */
static inline void sw__accumulate(sw__x4* a, const sw_xform4* x, sw__v4 w, bool first) {
#define SW__ACC(f, wf)                                                                             \
    a->f = first ? sw__v4_mul((wf), SW__LD(x, f)) : sw__v4_madd((wf), SW__LD(x, f), a->f)
    sw__v4 wr = w;
    if (!first) {
        const sw__v4 d = sw__dot(a->rx, a->ry, a->rz, a->rw, SW__LD(x, rx), SW__LD(x, ry),
                                 SW__LD(x, rz), SW__LD(x, rw));
        wr = sw__v4_negate_where(sw__v4_cmplt(d, sw__v4_zero()), w);
    }
    SW__ACC(tx, w);
    SW__ACC(ty, w);
    SW__ACC(tz, w);
    SW__ACC(rx, wr);
    SW__ACC(ry, wr);
    SW__ACC(rz, wr);
    SW__ACC(rw, wr);
    SW__ACC(sx, w);
    SW__ACC(sy, w);
    SW__ACC(sz, w);
#undef SW__ACC
}

/* Stores a blended packet: t and s times inv, r normalized. */
static inline void sw__blend_finish(sw__x4* a, sw__v4 inv, sw_xform4* out) {
    a->tx = sw__v4_mul(a->tx, inv);
    a->ty = sw__v4_mul(a->ty, inv);
    a->tz = sw__v4_mul(a->tz, inv);
    a->sx = sw__v4_mul(a->sx, inv);
    a->sy = sw__v4_mul(a->sy, inv);
    a->sz = sw__v4_mul(a->sz, inv);
    sw__normalize4(&a->rx, &a->ry, &a->rz, &a->rw);
    sw__x4_store(out, a);
}

/* The blend of packets [0, n), any weights: per-lane sums, rest fill and
 * 1 / sum. */
static void sw__blend_packets(const sw__blend_input* layers, uint32_t count, const sw_xform4* rest,
                              float threshold, sw_xform4* out, uint32_t n) {
    const sw__v4 zero = sw__v4_zero(), one = sw__v4_set1(1.0f), thr = sw__v4_set1(threshold);
    for (uint32_t p = 0; p < n; ++p) {
        sw__x4 a = {zero, zero, zero, zero, zero, zero, zero, zero, zero, zero};
        sw__v4 wsum = zero;
        if (count > 0) {
            wsum = sw__layer_weight(&layers[0], p);
            sw__accumulate(&a, &layers[0].pose[p], wsum, true);
        }
        for (uint32_t i = 1; i < count; ++i) {
            const sw__v4 w = sw__layer_weight(&layers[i], p);
            sw__accumulate(&a, &layers[i].pose[p], w, false);
            wsum = sw__v4_add(wsum, w);
        }
        const sw__v4 fill = sw__v4_max(sw__v4_sub(thr, wsum), zero);
        const sw__v4 inv = sw__v4_div(one, sw__v4_max(wsum, thr));
        /* Joints short of the threshold are filled from the rest pose. */
        if (sw__m4_bits(sw__v4_cmpgt(fill, zero))) sw__accumulate(&a, &rest[p], fill, false);
        sw__blend_finish(&a, inv, &out[p]);
    }
}

#if defined(__AVX2__)
/* A packet in 256-bit registers for the uniform blend: t.x|t.y, r.x|r.y,
 * r.z|r.w and s.x|s.y (loads and stores at 16-byte offsets), t.z and s.z in
 * 128 bits. Only the rotation halves take the hemisphere sign, so each sum
 * takes 6 fused multiply-adds where sw__x4 takes 10: the same products and
 * sums per lane, but the dot products add (x + z) + (y + w). */
typedef struct sw__xu {
    __m256 txy, rxy, rzw, sxy;
    sw__v4 tz, sz;
} sw__xu;

/* Per lane dot(a.r, b.r) from their x|y and z|w halves, in both halves. */
static inline __m256 sw__rdot8(__m256 axy, __m256 azw, __m256 bxy, __m256 bzw) {
    const __m256 d = _mm256_fmadd_ps(azw, bzw, _mm256_mul_ps(axy, bxy));
    return _mm256_add_ps(d, _mm256_permute2f128_ps(d, d, 0x01));
}

/* sw__accumulate on sw__xu. */
SW__ALWAYS_INLINE void sw__xu_accumulate(sw__xu* a, const sw_xform4* x, sw__v4 w, bool first) {
    const __m256 w8 = _mm256_set_m128(w, w);
    const __m256 rxy = _mm256_loadu_ps(x->rx), rzw = _mm256_loadu_ps(x->rz);
    if (first) {
        a->txy = _mm256_mul_ps(w8, _mm256_loadu_ps(x->tx));
        a->tz = sw__v4_mul(w, SW__LD(x, tz));
        a->rxy = _mm256_mul_ps(w8, rxy);
        a->rzw = _mm256_mul_ps(w8, rzw);
        a->sxy = _mm256_mul_ps(w8, _mm256_loadu_ps(x->sx));
        a->sz = sw__v4_mul(w, SW__LD(x, sz));
        return;
    }
    const __m256 d = sw__rdot8(a->rxy, a->rzw, rxy, rzw);
    const __m256 flip =
        _mm256_and_ps(_mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_LT_OQ), _mm256_set1_ps(-0.0f));
    const __m256 wr = _mm256_xor_ps(w8, flip);
    a->txy = _mm256_fmadd_ps(w8, _mm256_loadu_ps(x->tx), a->txy);
    a->tz = sw__v4_madd(w, SW__LD(x, tz), a->tz);
    a->rxy = _mm256_fmadd_ps(wr, rxy, a->rxy);
    a->rzw = _mm256_fmadd_ps(wr, rzw, a->rzw);
    a->sxy = _mm256_fmadd_ps(w8, _mm256_loadu_ps(x->sx), a->sxy);
    a->sz = sw__v4_madd(w, SW__LD(x, sz), a->sz);
}

/* sw__blend_finish on sw__xu, 1 / sum in every lane; the rotation as
 * sw__normalize4_or_flag normalizes it. */
SW__ALWAYS_INLINE void sw__xu_finish(const sw__xu* a, float inv_sum, sw_xform4* out, sw__m4* ok) {
    const sw__v4 inv = sw__v4_set1(inv_sum);
    const __m256 inv8 = _mm256_set1_ps(inv_sum);
    _mm256_storeu_ps(out->tx, _mm256_mul_ps(a->txy, inv8));
    SW__ST(out, tz, sw__v4_mul(a->tz, inv));
    _mm256_storeu_ps(out->sx, _mm256_mul_ps(a->sxy, inv8));
    SW__ST(out, sz, sw__v4_mul(a->sz, inv));
    const sw__v4 len2 = _mm256_castps256_ps128(sw__rdot8(a->rxy, a->rzw, a->rxy, a->rzw));
    const sw__v4 r = sw__v4_rsqrt_fast(len2);
    if (ok) {
        *ok = sw__m4_and(*ok, sw__rsqrt_fast_ok(len2, r));
    } else if (SW__UNLIKELY(sw__m4_bits(sw__rsqrt_fast_ok(len2, r)) != 0xF)) {
        _mm256_storeu_ps(out->rx, a->rxy);
        _mm256_storeu_ps(out->rz, a->rzw);
        sw__v4 x = SW__LD(out, rx), y = SW__LD(out, ry), z = SW__LD(out, rz), w = SW__LD(out, rw);
        sw__normalize4(&x, &y, &z, &w);
        SW__ST(out, rx, x);
        SW__ST(out, ry, y);
        SW__ST(out, rz, z);
        SW__ST(out, rw, w);
        return;
    }
    const __m256 r8 = _mm256_set_m128(r, r);
    _mm256_storeu_ps(out->rx, _mm256_mul_ps(a->rxy, r8));
    _mm256_storeu_ps(out->rz, _mm256_mul_ps(a->rzw, r8));
}

/* Packet p of the uniform blend of pose[0, count) at weights w, the
 * rotation normalized as sw__normalize4_or_flag normalizes it. */
SW__ALWAYS_INLINE void sw__uniform_packet(const sw_xform4* const* pose, const sw__v4* w,
                                          uint32_t count, float inv_sum, uint32_t p, sw_xform4* out,
                                          sw__m4* ok) {
    sw__xu a;
    sw__xu_accumulate(&a, &pose[0][p], w[0], true);
    for (uint32_t i = 1; i < count; ++i)
        sw__xu_accumulate(&a, &pose[i][p], w[i], false);
    sw__xu_finish(&a, inv_sum, out, ok);
}
#else
/* Packet p of the uniform blend of pose[0, count) at weights w: each
 * translation and scale component summed, scaled and stored on its own, so
 * that fewer sums are live at once (16 registers on sse2: the 10 sums of
 * sw__x4 spilled), then the rotation. The same operations per lane, in the
 * same order, as sw__accumulate and sw__blend_finish. Without ok the
 * rotation is normalized here as sw__normalize4 normalizes it; with ok it
 * is stored as summed, for sw__normalize_rotations. */
SW__ALWAYS_INLINE void sw__uniform_packet(const sw_xform4* const* pose, const sw__v4* w,
                                          uint32_t count, float inv_sum, uint32_t p, sw_xform4* out,
                                          sw__m4* ok) {
    const sw__v4 inv = sw__v4_set1(inv_sum);
#define SW__TS(f)                                                                                  \
    do {                                                                                           \
        sw__v4 v = sw__v4_mul(w[0], SW__LD(&pose[0][p], f));                                       \
        for (uint32_t i = 1; i < count; ++i)                                                       \
            v = sw__v4_madd(w[i], SW__LD(&pose[i][p], f), v);                                      \
        SW__ST(out, f, sw__v4_mul(v, inv));                                                        \
    } while (0)
    SW__TS(tx);
    SW__TS(ty);
    SW__TS(tz);
    SW__TS(sx);
    SW__TS(sy);
    SW__TS(sz);
    const sw_xform4* x = &pose[0][p];
    sw__v4 rx = sw__v4_mul(w[0], SW__LD(x, rx)), ry = sw__v4_mul(w[0], SW__LD(x, ry));
    sw__v4 rz = sw__v4_mul(w[0], SW__LD(x, rz)), rw = sw__v4_mul(w[0], SW__LD(x, rw));
    for (uint32_t i = 1; i < count; ++i) {
        x = &pose[i][p];
        const sw__v4 d =
            sw__dot(rx, ry, rz, rw, SW__LD(x, rx), SW__LD(x, ry), SW__LD(x, rz), SW__LD(x, rw));
        const sw__v4 wr = sw__v4_negate_where(sw__v4_cmplt(d, sw__v4_zero()), w[i]);
        rx = sw__v4_madd(wr, SW__LD(x, rx), rx);
        ry = sw__v4_madd(wr, SW__LD(x, ry), ry);
        rz = sw__v4_madd(wr, SW__LD(x, rz), rz);
        rw = sw__v4_madd(wr, SW__LD(x, rw), rw);
    }
    if (!ok) sw__normalize4(&rx, &ry, &rz, &rw);
    SW__ST(out, rx, rx);
    SW__ST(out, ry, ry);
    SW__ST(out, rz, rz);
    SW__ST(out, rw, rw);
#undef SW__TS
}

/* Normalizes the rotations of out[0, n) in place as sw__normalize4_or_flag
 * with ok does. A pass of its own after the packet loop: inside it, each
 * packet's chain of squared length, estimate, Newton step and scaling held
 * back the next packets' work (sse2 on an AMD EPYC Zen 4, 12 packets: 110
 * -> 93 ns per character in a driver, the same bits). The avx2 packet has
 * half the instructions and normalizes inline (as a second pass it took 62
 * -> 73 ns). */
static inline void sw__normalize_rotations(sw_xform4* out, uint32_t n, sw__m4* ok) {
    for (uint32_t p = 0; p < n; ++p) {
        sw__v4 x = SW__LD(&out[p], rx), y = SW__LD(&out[p], ry);
        sw__v4 z = SW__LD(&out[p], rz), w = SW__LD(&out[p], rw);
        sw__normalize4_or_flag(&x, &y, &z, &w, ok);
        SW__ST(&out[p], rx, x);
        SW__ST(&out[p], ry, y);
        SW__ST(&out[p], rz, z);
        SW__ST(&out[p], rw, w);
    }
}
#endif

/* The blend of packets [0, n) when no layer has joint weights and the
 * weights sum to at least the threshold: no rest fill, and every lane has
 * the same 1 / sum, computed once as the scalar path computes it.
 * (Pre-scaling the weights by 1 / sum instead saves 6 multiplies per packet
 * but moved sse2 from 0.18 to 0.77 of the test tolerance on translations
 * that cancel.) Inlined with a constant `count` and `fast`; poses and
 * weights are read once (stores to out could otherwise alias them). fast
 * normalizes every rotation with the estimate, without a branch per packet,
 * and returns false when a lane needed sw__normalize4's other path (a zero,
 * denormal, infinite or NaN squared length): the caller then blends again
 * with fast false, which gives the bits of normalizing packet by packet. */
SW__ALWAYS_INLINE bool sw__blend_uniform(const sw__blend_input* layers, uint32_t count,
                                         float inv_sum, sw_xform4* out, uint32_t n, bool fast) {
    const sw_xform4* pose[SW_BLEND_MAX_LAYERS];
    sw__v4 w[SW_BLEND_MAX_LAYERS];
    for (uint32_t i = 0; i < count; ++i) {
        pose[i] = layers[i].pose;
        w[i] = sw__v4_set1(layers[i].weight);
    }
    sw__m4 ok = sw__v4_cmpeq(w[0], w[0]); /* every lane: weights are finite */
    for (uint32_t p = 0; p < n; ++p)
        sw__uniform_packet(pose, w, count, inv_sum, p, &out[p], fast ? &ok : NULL);
#if !defined(__AVX2__)
    if (fast) sw__normalize_rotations(out, n, &ok);
#endif
    return sw__m4_bits(ok) == 0xF;
}

static void sw__simd_blend(const sw__blend_input* layers, uint32_t count, const sw_xform4* rest,
                           float threshold, sw_xform4* out, uint32_t n) {
    /* Decided once per call: joint weights and the sum against the threshold
     * (summed in the order the per-lane paths sum). */
    bool joint_weights = false;
    float sum = 0.0f;
    if (count == 2) { /* the common case, without the loop */
        joint_weights = (layers[0].joint_weights != NULL) | (layers[1].joint_weights != NULL);
        sum = layers[0].weight + layers[1].weight;
    } else {
        for (uint32_t i = 0; i < count; ++i) {
            joint_weights |= layers[i].joint_weights != NULL;
            sum += layers[i].weight;
        }
    }
    if (count > 0 && !joint_weights && sum >= threshold) {
        /* Weights 1 - w and w sum to exactly 1 in float (every w in [0, 1]),
         * and so does a crossfade's one layer at its ends: with a constant
         * 1 / sum the scaling by it folds away (x * 1 is x: the same bits
         * as the general call below, which multiplies by 1 / 1). */
        bool done = false;
        if (count == 2 && sum == 1.0f)
            done = sw__blend_uniform(layers, 2, 1.0f, out, n, true);
        else if (count == 2)
            done = sw__blend_uniform(layers, 2, 1.0f / sum, out, n, true);
        else if (count == 1 && sum == 1.0f)
            done = sw__blend_uniform(layers, 1, 1.0f, out, n, true);
        if (!done) sw__blend_uniform(layers, count, 1.0f / sum, out, n, false);
    } else {
        sw__blend_packets(layers, count, rest, threshold, out, n);
    }
}

/* Hamilton product a * b per lane. */
static inline void sw__qmul4(sw__v4 ax, sw__v4 ay, sw__v4 az, sw__v4 aw, sw__v4 bx, sw__v4 by,
                             sw__v4 bz, sw__v4 bw, sw__v4* x, sw__v4* y, sw__v4* z, sw__v4* w) {
    *x = sw__v4_nmadd(az, by, sw__v4_madd(ay, bz, sw__v4_madd(ax, bw, sw__v4_mul(aw, bx))));
    *y = sw__v4_madd(az, bx, sw__v4_madd(ay, bw, sw__v4_nmadd(ax, bz, sw__v4_mul(aw, by))));
    *z = sw__v4_madd(az, bw, sw__v4_nmadd(ay, bx, sw__v4_madd(ax, by, sw__v4_mul(aw, bz))));
    *w = sw__v4_nmadd(az, bz, sw__v4_nmadd(ay, by, sw__v4_nmadd(ax, bx, sw__v4_mul(aw, bw))));
}

static void sw__simd_additive_apply(const sw_xform4* base, const sw_xform4* delta, float weight,
                                    const float* joint_weights, bool clamp_joint_weights,
                                    sw_xform4* out, uint32_t n) {
    const sw__v4 zero = sw__v4_zero(), one = sw__v4_set1(1.0f);
    for (uint32_t p = 0; p < n; ++p) {
        sw__v4 w = sw__v4_set1(weight);
        if (joint_weights) {
            sw__v4 jw = sw__v4_loadu(joint_weights + (size_t)p * 4u);
            w = sw__v4_mul(w, clamp_joint_weights ? sw__clamp01(jw) : jw);
        }
        sw__x4 b = sw__x4_load(&base[p]);
        const sw_xform4* d = &delta[p];
        b.tx = sw__v4_madd(w, SW__LD(d, tx), b.tx);
        b.ty = sw__v4_madd(w, SW__LD(d, ty), b.ty);
        b.tz = sw__v4_madd(w, SW__LD(d, tz), b.tz);
        const sw__v4 drw = SW__LD(d, rw);
        const sw__v4 wr = sw__v4_negate_where(sw__v4_cmplt(drw, zero), w);
        const sw__v4 dx = sw__v4_mul(wr, SW__LD(d, rx));
        const sw__v4 dy = sw__v4_mul(wr, SW__LD(d, ry));
        const sw__v4 dz = sw__v4_mul(wr, SW__LD(d, rz));
        const sw__v4 dw = sw__v4_madd(wr, drw, sw__v4_sub(one, w));
        sw__qmul4(b.rx, b.ry, b.rz, b.rw, dx, dy, dz, dw, &b.rx, &b.ry, &b.rz, &b.rw);
        sw__normalize4(&b.rx, &b.ry, &b.rz, &b.rw);
        b.sx = sw__v4_mul(b.sx, sw__v4_madd(w, sw__v4_sub(SW__LD(d, sx), one), one));
        b.sy = sw__v4_mul(b.sy, sw__v4_madd(w, sw__v4_sub(SW__LD(d, sy), one), one));
        b.sz = sw__v4_mul(b.sz, sw__v4_madd(w, sw__v4_sub(SW__LD(d, sz), one), one));
        sw__x4_store(&out[p], &b);
    }
}

/* a / b per lane, 1 where b is 0. */
static inline sw__v4 sw__ratio_or_one(sw__v4 a, sw__v4 b) {
    return sw__v4_select(sw__v4_cmpeq(b, sw__v4_zero()), sw__v4_set1(1.0f), sw__v4_div(a, b));
}

static void sw__simd_additive_make(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out,
                                   uint32_t n) {
    for (uint32_t p = 0; p < n; ++p) {
        const sw__x4 a = sw__x4_load(&pose[p]), r = sw__x4_load(&ref[p]);
        sw__x4 d;
        d.tx = sw__v4_sub(a.tx, r.tx);
        d.ty = sw__v4_sub(a.ty, r.ty);
        d.tz = sw__v4_sub(a.tz, r.tz);
        sw__qmul4(sw__v4_neg(r.rx), sw__v4_neg(r.ry), sw__v4_neg(r.rz), r.rw, a.rx, a.ry, a.rz,
                  a.rw, &d.rx, &d.ry, &d.rz, &d.rw);
        d.sx = sw__ratio_or_one(a.sx, r.sx);
        d.sy = sw__ratio_or_one(a.sy, r.sy);
        d.sz = sw__ratio_or_one(a.sz, r.sz);
        sw__x4_store(&out[p], &d);
    }
}

static void sw__simd_interp(const sw_xform4* a, const sw_xform4* b, float u, sw_xform4* out,
                            uint32_t n) {
    const sw__v4 uu = sw__v4_set1(u), zero = sw__v4_zero();
    for (uint32_t p = 0; p < n; ++p) {
        sw__x4 x = sw__x4_load(&a[p]);
        const sw__x4 y = sw__x4_load(&b[p]);
        x.tx = sw__v4_madd(uu, sw__v4_sub(y.tx, x.tx), x.tx);
        x.ty = sw__v4_madd(uu, sw__v4_sub(y.ty, x.ty), x.ty);
        x.tz = sw__v4_madd(uu, sw__v4_sub(y.tz, x.tz), x.tz);
        x.sx = sw__v4_madd(uu, sw__v4_sub(y.sx, x.sx), x.sx);
        x.sy = sw__v4_madd(uu, sw__v4_sub(y.sy, x.sy), x.sy);
        x.sz = sw__v4_madd(uu, sw__v4_sub(y.sz, x.sz), x.sz);
        const sw__m4 flip =
            sw__v4_cmplt(sw__dot(x.rx, x.ry, x.rz, x.rw, y.rx, y.ry, y.rz, y.rw), zero);
        x.rx = sw__v4_madd(uu, sw__v4_sub(sw__v4_negate_where(flip, y.rx), x.rx), x.rx);
        x.ry = sw__v4_madd(uu, sw__v4_sub(sw__v4_negate_where(flip, y.ry), x.ry), x.ry);
        x.rz = sw__v4_madd(uu, sw__v4_sub(sw__v4_negate_where(flip, y.rz), x.rz), x.rz);
        x.rw = sw__v4_madd(uu, sw__v4_sub(sw__v4_negate_where(flip, y.rw), x.rw), x.rw);
        sw__normalize4(&x.rx, &x.ry, &x.rz, &x.rw);
        sw__x4_store(&out[p], &x);
    }
}

/* The 4 joints of a packet as affine 3x4 matrices in SoA: m[0..8] the
 * columns of r * s (column 0 rows 0-2, then 1, then 2); t stays in the
 * packet. Kept in registers: stored to a stack array and read back lane by
 * lane, they made the sse2 local-to-model of a RobotExpressive pose take
 * 168 or 220 ns on AMD Zen 5 depending on where the process was placed
 * (half the processes slow, whatever the data's page offsets). */
typedef struct sw__m9 {
    sw__v4 m[9];
} sw__m9;

static inline sw__m9 sw__trs_rows(const sw_xform4* in) {
    const sw__v4 one = sw__v4_set1(1.0f);
    const sw__v4 qx = SW__LD(in, rx), qy = SW__LD(in, ry), qz = SW__LD(in, rz), qw = SW__LD(in, rw);
    /* Doubling is exact, so 2 * (a * b) == a * (2 * b) bit for bit. */
    const sw__v4 x2 = sw__v4_add(qx, qx), y2 = sw__v4_add(qy, qy), z2 = sw__v4_add(qz, qz);
    const sw__v4 xx = sw__v4_mul(qx, x2), yy = sw__v4_mul(qy, y2), zz = sw__v4_mul(qz, z2);
    const sw__v4 xy = sw__v4_mul(qx, y2), xz = sw__v4_mul(qx, z2), yz = sw__v4_mul(qy, z2);
    const sw__v4 wx = sw__v4_mul(qw, x2), wy = sw__v4_mul(qw, y2), wz = sw__v4_mul(qw, z2);
    const sw__v4 sx = SW__LD(in, sx), sy = SW__LD(in, sy), sz = SW__LD(in, sz);
    sw__m9 r;
    r.m[0] = sw__v4_mul(sw__v4_sub(one, sw__v4_add(yy, zz)), sx);
    r.m[1] = sw__v4_mul(sw__v4_add(xy, wz), sx);
    r.m[2] = sw__v4_mul(sw__v4_sub(xz, wy), sx);
    r.m[3] = sw__v4_mul(sw__v4_sub(xy, wz), sy);
    r.m[4] = sw__v4_mul(sw__v4_sub(one, sw__v4_add(xx, zz)), sy);
    r.m[5] = sw__v4_mul(sw__v4_add(yz, wx), sy);
    r.m[6] = sw__v4_mul(sw__v4_add(xz, wy), sz);
    r.m[7] = sw__v4_mul(sw__v4_sub(yz, wx), sz);
    r.m[8] = sw__v4_mul(sw__v4_sub(one, sw__v4_add(xx, yy)), sz);
    return r;
}

/* Lane L (a constant) of SoA row k of the rows (sw__m9), in every lane. */
#define SW__BC(k, L) sw__v4_splat##L(rows.m[k])
/* Lane L of a translation component of the packet, in every lane. */
#define SW__BT(f, L) sw__v4_splat##L(sw__v4_load(src->f))

#if defined(__AVX2__)
/* 256 bits: columns 0 and 1 of out[j] in c01, column 2 and the translation
 * in c23, each the parent's columns (broadcast to both halves) times row i
 * of the local matrix: a[i] holds row i of columns 0 and 1 as SoA arrays,
 * b[i] row i of column 2 and t. The same fused sums as the 128-bit form
 * (column 2's first product is fused with 0: exact), in half the
 * instructions. The last joint's columns stay in c01, c23. */
typedef struct sw__l2m_rows {
    __m256 a[3], b[3];
} sw__l2m_rows;

static inline void sw__l2m_rows_make(const sw_xform4* src, sw__l2m_rows* r) {
    const sw__m9 m = sw__trs_rows(src);
    r->a[0] = _mm256_set_m128(m.m[3], m.m[0]);
    r->a[1] = _mm256_set_m128(m.m[4], m.m[1]);
    r->a[2] = _mm256_set_m128(m.m[5], m.m[2]);
    r->b[0] = _mm256_set_m128(SW__LD(src, tx), m.m[6]);
    r->b[1] = _mm256_set_m128(SW__LD(src, ty), m.m[7]);
    r->b[2] = _mm256_set_m128(SW__LD(src, tz), m.m[8]);
}

#define SW__L2M_STATE __m256 c01 = _mm256_setzero_ps(), c23 = c01
#define SW__L2M_ROWS(src) sw__l2m_rows_make(src, &rows)
#define SW__BR(v, L) _mm256_permute_ps((v), 0x55 * (L))
#define SW__BCAST(p) _mm256_broadcast_ps((const __m128*)(const void*)(p))
#define SW__L2M_LANE(L)                                                                            \
    if (lanes & (1u << L)) {                                                                       \
        const uint32_t j = j0 + L;                                                                 \
        const int32_t parent = parents[j];                                                         \
        __m256 p0, p1, p2, p3;                                                                     \
        if (parent == last) {                                                                      \
            p0 = _mm256_permute2f128_ps(c01, c01, 0x00);                                           \
            p1 = _mm256_permute2f128_ps(c01, c01, 0x11);                                           \
            p2 = _mm256_permute2f128_ps(c23, c23, 0x00);                                           \
            p3 = _mm256_blend_ps(c23, _mm256_setzero_ps(), 0x0F);                                  \
        } else {                                                                                   \
            const float* pm = parent >= 0 ? out[parent].m : root ? root->m : identity;             \
            p0 = SW__BCAST(pm);                                                                    \
            p1 = SW__BCAST(pm + 4);                                                                \
            p2 = SW__BCAST(pm + 8);                                                                \
            p3 = _mm256_insertf128_ps(_mm256_setzero_ps(), _mm_loadu_ps(pm + 12), 1);              \
        }                                                                                          \
        c01 = _mm256_fmadd_ps(                                                                     \
            p2, SW__BR(rows.a[2], L),                                                              \
            _mm256_fmadd_ps(p1, SW__BR(rows.a[1], L), _mm256_mul_ps(p0, SW__BR(rows.a[0], L))));   \
        c23 = _mm256_fmadd_ps(p2, SW__BR(rows.b[2], L),                                            \
                              _mm256_fmadd_ps(p1, SW__BR(rows.b[1], L),                            \
                                              _mm256_fmadd_ps(p0, SW__BR(rows.b[0], L), p3)));     \
        _mm256_storeu_ps(out[j].m, c01);                                                           \
        _mm256_storeu_ps(out[j].m + 8, c23);                                                       \
        last = (int32_t)j;                                                                         \
    }
#else
#define SW__L2M_STATE                                                                              \
    sw__v4 c0 = sw__v4_zero(), c1 = c0, c2 = c0, c3 = c0;                                          \
    sw__m9 rows
#define SW__L2M_ROWS(src) rows = sw__trs_rows(src)
/* out[j] for lane L of the packet whose SoA local matrices are in rows: the
 * parent's columns times the affine local matrix (bottom row 0, 0, 0, 1).
 * The last joint's columns stay in c0..c3: in a chain (parent == last) the
 * next joint reads registers instead of waiting for its parent's stores. */
#define SW__L2M_LANE(L)                                                                            \
    if (lanes & (1u << L)) {                                                                       \
        const uint32_t j = j0 + L;                                                                 \
        const int32_t parent = parents[j];                                                         \
        sw__v4 p0 = c0, p1 = c1, p2 = c2, p3 = c3;                                                 \
        if (parent != last) {                                                                      \
            const float* pm = parent >= 0 ? out[parent].m : root ? root->m : identity;             \
            p0 = sw__v4_loadu(pm);                                                                 \
            p1 = sw__v4_loadu(pm + 4);                                                             \
            p2 = sw__v4_loadu(pm + 8);                                                             \
            p3 = sw__v4_loadu(pm + 12);                                                            \
        }                                                                                          \
        c0 = sw__v4_madd(p2, SW__BC(2, L),                                                         \
                         sw__v4_madd(p1, SW__BC(1, L), sw__v4_mul(p0, SW__BC(0, L))));             \
        c1 = sw__v4_madd(p2, SW__BC(5, L),                                                         \
                         sw__v4_madd(p1, SW__BC(4, L), sw__v4_mul(p0, SW__BC(3, L))));             \
        c2 = sw__v4_madd(p2, SW__BC(8, L),                                                         \
                         sw__v4_madd(p1, SW__BC(7, L), sw__v4_mul(p0, SW__BC(6, L))));             \
        c3 = sw__v4_madd(p2, SW__BT(tz, L),                                                        \
                         sw__v4_madd(p1, SW__BT(ty, L), sw__v4_madd(p0, SW__BT(tx, L), p3)));      \
        float* o = out[j].m;                                                                       \
        sw__v4_storeu(o, c0);                                                                      \
        sw__v4_storeu(o + 4, c1);                                                                  \
        sw__v4_storeu(o + 8, c2);                                                                  \
        sw__v4_storeu(o + 12, c3);                                                                 \
        last = (int32_t)j;                                                                         \
    }
#endif

/* Packet p of local with the lanes outside the subset from rest (in tmp
 * when it mixes the two). */
static inline const sw_xform4* sw__l2m_source(const sw_xform4* local, const sw_xform4* rest,
                                              const uint32_t* subset, uint32_t p, sw_xform4* tmp) {
    const uint32_t kept = (subset[p >> 3] >> (4u * (p & 7u))) & 0xFu;
    if (kept == 0xFu) return &local[p];
    if (kept == 0u) return &rest[p];
    const sw__m4 in = sw__v4_cmpgt(
        sw__v4_set((float)(kept & 1u), (float)(kept & 2u), (float)(kept & 4u), (float)(kept & 8u)),
        sw__v4_zero());
    const float* a = (const float*)(const void*)&local[p];
    const float* b = (const float*)(const void*)&rest[p];
    float* o = (float*)(void*)tmp;
    for (uint32_t f = 0; f < 10u; ++f) /* the 10 arrays of 4 lanes */
        sw__v4_store(o + 4u * f,
                     sw__v4_select(in, sw__v4_load(a + 4u * f), sw__v4_load(b + 4u * f)));
    return tmp;
}

/* Packets from first / 4 on; `whole` (a constant once inlined: first == 0, no
 * subset, or a subset with rest) computes every lane but the padding of the
 * last packet. */
SW__ALWAYS_INLINE void sw__l2m_packets(const sw_xform4* local, const sw_xform4* rest,
                                       const int16_t* parents, uint32_t joints_count,
                                       uint32_t first, const uint32_t* subset, bool whole,
                                       const sw_mat4* root, sw_mat4* out) {
    /* Roots without a root transform multiply the identity. */
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    sw_xform4 mixed;
#if defined(__AVX2__)
    sw__l2m_rows rows;
#endif
    SW__L2M_STATE;
    int32_t last = -2; /* no joint (and not a root's -1) */
    for (uint32_t p = first >> 2; p * 4u < joints_count; ++p) {
        const uint32_t j0 = p * 4u;
        const sw_xform4* src = rest ? sw__l2m_source(local, rest, subset, p, &mixed) : &local[p];
        if (whole && joints_count - j0 >= 4u) {
            /* A full packet of a whole-skeleton run: constant lanes, no tests. */
            const uint32_t lanes = 0xFu;
            SW__L2M_ROWS(src);
            SW__L2M_LANE(0)
            SW__L2M_LANE(1)
            SW__L2M_LANE(2)
            SW__L2M_LANE(3)
            continue;
        }
        uint32_t lanes = 0xFu;
        if (joints_count - j0 < 4u) lanes &= 0xFu >> (4u - (joints_count - j0));
        if (!whole) {
            if (j0 < first) lanes &= 0xFu << (first - j0);
            if (subset) lanes &= (subset[j0 >> 5] >> (j0 & 31u)) & 0xFu;
            if (!lanes) continue;
        }
        SW__L2M_ROWS(src);
        /* In lane order: a parent in the same packet is written first. */
        SW__L2M_LANE(0)
        SW__L2M_LANE(1)
        SW__L2M_LANE(2)
        SW__L2M_LANE(3)
    }
}

SW__CODE_ALIGNED void sw__simd_local_to_model(const sw_xform4* local, const sw_xform4* rest,
                                              const int16_t* parents, uint32_t joints_count,
                                              uint32_t first, const uint32_t* subset,
                                              const sw_mat4* root, sw_mat4* out) {
    /* Products only: a subnormal product (a rest pose's 5e-37 rotation
     * component times another) would cost an assist per instruction. */
    const sw__fp_mode mode = sw__fp_flush_begin();
    if (first == 0 && !subset)
        sw__l2m_packets(local, NULL, parents, joints_count, 0, NULL, true, root, out);
    else if (rest && subset)
        sw__l2m_packets(local, rest, parents, joints_count, 0, subset, true, root, out);
    else
        sw__l2m_packets(local, NULL, parents, joints_count, first, subset, false, root, out);
    sw__fp_flush_end(mode);
}

#undef SW__L2M_LANE
#undef SW__L2M_STATE
#undef SW__L2M_ROWS
#undef SW__BC
#undef SW__BT
#if defined(__AVX2__)
#undef SW__BR
#undef SW__BCAST
#endif

static void sw__simd_skinning(const sw_mat4* model, const uint16_t* joints,
                              const sw_mat4* inverse_bind, sw_mat4* out, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        const float* a = model[joints ? joints[i] : i].m;
        const float* b = inverse_bind[i].m;
        const sw__v4 a0 = sw__v4_loadu(a), a1 = sw__v4_loadu(a + 4);
        const sw__v4 a2 = sw__v4_loadu(a + 8), a3 = sw__v4_loadu(a + 12);
        for (int c = 0; c < 4; ++c) {
            sw__v4 col = sw__v4_mul(a0, sw__v4_set1(b[c * 4]));
            col = sw__v4_madd(a1, sw__v4_set1(b[c * 4 + 1]), col);
            col = sw__v4_madd(a2, sw__v4_set1(b[c * 4 + 2]), col);
            col = sw__v4_madd(a3, sw__v4_set1(b[c * 4 + 3]), col);
            sw__v4_storeu(out[i].m + c * 4, col);
        }
    }
}

/* a x b in lanes 0..2 (lane 3: 0 up to rounding). */
static inline sw__v4 sw__cross4(sw__v4 a, sw__v4 b) {
    return sw__v4_yzx(sw__v4_sub(sw__v4_mul(a, sw__v4_yzx(b)), sw__v4_mul(sw__v4_yzx(a), b)));
}

/* v / |v| over lanes 0..2 (lane 3 must be 0); 0 where the length is 0 or
 * not finite. */
static inline sw__v4 sw__normalize3(sw__v4 v) {
    const sw__v4 d = sw__v4_mul(v, v);
    const sw__v4 len2 =
        sw__v4_add(sw__v4_add(sw__v4_splat0(d), sw__v4_splat1(d)), sw__v4_splat2(d));
    const sw__m4 ok =
        sw__m4_and(sw__v4_cmpgt(len2, sw__v4_zero()), sw__v4_cmplt(len2, sw__v4_set1(INFINITY)));
    return sw__v4_select(ok, sw__v4_mul(v, sw__v4_rsqrt(len2)), sw__v4_zero());
}

/* A3 n (cofactor: cof(A3) n) for columns c0..c2, lane 3 cleared, normalized. */
static inline sw__v4 sw__skin_normal4(sw__v4 c0, sw__v4 c1, sw__v4 c2, const float* n,
                                      bool cofactor, sw__v4 xyz) {
    if (cofactor) {
        const sw__v4 k0 = sw__cross4(c1, c2), k1 = sw__cross4(c2, c0), k2 = sw__cross4(c0, c1);
        c0 = k0;
        c1 = k1;
        c2 = k2;
    }
    sw__v4 v = sw__v4_madd(c2, sw__v4_set1(n[2]),
                           sw__v4_madd(c1, sw__v4_set1(n[1]), sw__v4_mul(c0, sw__v4_set1(n[0]))));
    return sw__normalize3(sw__v4_mul(v, xyz));
}

/* Stores lanes 0..2 of v at o: one 4-float store when the float after them
 * may be overwritten (`spare`: it belongs to the next vertex of the range,
 * written later), else three. */
static inline void sw__store3(float* o, sw__v4 v, bool spare) {
    if (spare) {
        sw__v4_storeu(o, v);
        return;
    }
    SINEW_ALIGN16 float t[4];
    sw__v4_store(t, v);
    o[0] = t[0];
    o[1] = t[1];
    o[2] = t[2];
}

/* Palette index of slot k of a vertex: slots of weight 0 may hold any index,
 * so indices past the palette read its entry 0 (times weight 0). */
#define SW__SLOT(j, k, n) ((j)[k] < (n) ? (j)[k] : 0u)

static void sw__simd_skin_lbs(const sw__skin_args* a) {
    const sw_mat4* pal = (const sw_mat4*)a->palette;
    const uint32_t n = a->palette_count;
    const sw__v4 xyz = sw__v4_set(1.0f, 1.0f, 1.0f, 0.0f);
    for (uint32_t v = a->first; v < a->end; ++v) {
        const uint16_t* j = &a->joints[4u * v];
        const float* w = &a->weights[4u * v];
        const float* m = pal[SW__SLOT(j, 0, n)].m;
        sw__v4 wk = sw__v4_set1(w[0]);
        sw__v4 c0 = sw__v4_mul(wk, sw__v4_loadu(m)), c1 = sw__v4_mul(wk, sw__v4_loadu(m + 4));
        sw__v4 c2 = sw__v4_mul(wk, sw__v4_loadu(m + 8)), c3 = sw__v4_mul(wk, sw__v4_loadu(m + 12));
        for (uint32_t k = 1; k < 4u; ++k) {
            m = pal[SW__SLOT(j, k, n)].m;
            wk = sw__v4_set1(w[k]);
            c0 = sw__v4_madd(wk, sw__v4_loadu(m), c0);
            c1 = sw__v4_madd(wk, sw__v4_loadu(m + 4), c1);
            c2 = sw__v4_madd(wk, sw__v4_loadu(m + 8), c2);
            c3 = sw__v4_madd(wk, sw__v4_loadu(m + 12), c3);
        }
        const float* p = &a->positions[3u * v];
        const sw__v4 o = sw__v4_add(
            sw__v4_madd(c2, sw__v4_set1(p[2]),
                        sw__v4_madd(c1, sw__v4_set1(p[1]), sw__v4_mul(c0, sw__v4_set1(p[0])))),
            c3);
        const bool spare = v + 1u < a->end;
        sw__store3(&a->out_positions[3u * v], o, spare);
        if (a->normals)
            sw__store3(&a->out_normals[3u * v],
                       sw__skin_normal4(c0, c1, c2, &a->normals[3u * v], a->cofactor, xyz), spare);
    }
}

/* q rotating v (lanes 0..2; rv = q's xyz with lane 3 cleared, rw = q.w in
 * every lane): v + 2 (rw (rv x v) + rv x (rv x v)). */
static inline sw__v4 sw__rotate4(sw__v4 rv, sw__v4 rw, sw__v4 v) {
    const sw__v4 c = sw__cross4(rv, v);
    return sw__v4_add(v, sw__v4_mul(sw__v4_set1(2.0f), sw__v4_madd(rw, c, sw__cross4(rv, c))));
}

/* The blended, normalized dual quaternion of a vertex and its blended scale
 * columns s[0..2] (identity unless a->scaled). */
static inline void sw__dq_blend4(const sw__skin_args* a, uint32_t v, sw__v4* r, sw__v4* d,
                                 sw__v4 s[3]) {
    const sw_dq_transform* pal = (const sw_dq_transform*)a->palette;
    const uint32_t n = a->palette_count;
    const uint16_t* j = &a->joints[4u * v];
    const float* w = &a->weights[4u * v];
    const sw_dq_transform* x[4] = {&pal[SW__SLOT(j, 0, n)], &pal[SW__SLOT(j, 1, n)],
                                   &pal[SW__SLOT(j, 2, n)], &pal[SW__SLOT(j, 3, n)]};
    uint32_t p = 0;
    for (uint32_t k = 1; k < 4u; ++k)
        if (w[k] > w[p]) p = k;
    const float* q = x[p]->real;
    const sw__v4 r0 = sw__v4_load(x[0]->real), r1 = sw__v4_load(x[1]->real);
    const sw__v4 r2 = sw__v4_load(x[2]->real), r3 = sw__v4_load(x[3]->real);
    sw__v4 tx = r0, ty = r1, tz = r2, tw = r3;
    SW__V4_TRANSPOSE(tx, ty, tz, tw);
    const sw__v4 dots = sw__dot(tx, ty, tz, tw, sw__v4_set1(q[0]), sw__v4_set1(q[1]),
                                sw__v4_set1(q[2]), sw__v4_set1(q[3]));
    const sw__v4 wv = sw__v4_loadu(w);
    const sw__v4 ws = sw__v4_negate_where(sw__v4_cmplt(dots, sw__v4_zero()), wv);
    const sw__v4 w0 = sw__v4_splat0(ws), w1 = sw__v4_splat1(ws);
    const sw__v4 w2 = sw__v4_splat2(ws), w3 = sw__v4_splat3(ws);
    sw__v4 br = sw__v4_madd(w3, r3, sw__v4_madd(w2, r2, sw__v4_madd(w1, r1, sw__v4_mul(w0, r0))));
    sw__v4 bd = sw__v4_mul(w0, sw__v4_load(x[0]->dual));
    bd = sw__v4_madd(w1, sw__v4_load(x[1]->dual), bd);
    bd = sw__v4_madd(w2, sw__v4_load(x[2]->dual), bd);
    bd = sw__v4_madd(w3, sw__v4_load(x[3]->dual), bd);
    const sw__v4 sq = sw__v4_mul(br, br);
    const sw__v4 len2 =
        sw__v4_add(sw__v4_add(sw__v4_add(sw__v4_splat0(sq), sw__v4_splat1(sq)), sw__v4_splat2(sq)),
                   sw__v4_splat3(sq));
    const sw__v4 inv = sw__v4_div(sw__v4_set1(1.0f), sw__v4_sqrt(len2));
    *r = sw__v4_mul(br, inv);
    *d = sw__v4_mul(bd, inv);
    if (!a->scaled) return;
    const sw__v4 u[4] = {sw__v4_splat0(wv), sw__v4_splat1(wv), sw__v4_splat2(wv),
                         sw__v4_splat3(wv)};
    for (int c = 0; c < 3; ++c) {
        sw__v4 col = sw__v4_mul(u[0], sw__v4_load(x[0]->scale + 4 * c));
        for (int k = 1; k < 4; ++k)
            col = sw__v4_madd(u[k], sw__v4_load(x[k]->scale + 4 * c), col);
        s[c] = col;
    }
}

static void sw__simd_skin_dq(const sw__skin_args* a) {
    const sw__v4 xyz = sw__v4_set(1.0f, 1.0f, 1.0f, 0.0f), two = sw__v4_set1(2.0f);
    const sw__v4 id[3] = {sw__v4_set(1, 0, 0, 0), sw__v4_set(0, 1, 0, 0), sw__v4_set(0, 0, 1, 0)};
    for (uint32_t v = a->first; v < a->end; ++v) {
        sw__v4 r, d, s[3] = {id[0], id[1], id[2]};
        sw__dq_blend4(a, v, &r, &d, s);
        const sw__v4 rv = sw__v4_mul(r, xyz), rw = sw__v4_splat3(r), dw = sw__v4_splat3(d);
        const float* p = &a->positions[3u * v];
        sw__v4 ps;
        if (a->scaled)
            ps = sw__v4_madd(
                s[2], sw__v4_set1(p[2]),
                sw__v4_madd(s[1], sw__v4_set1(p[1]), sw__v4_mul(s[0], sw__v4_set1(p[0]))));
        else
            ps = sw__v4_set(p[0], p[1], p[2], 0.0f);
        const sw__v4 dv = sw__v4_mul(d, xyz);
        const sw__v4 t = sw__v4_add(sw__v4_nmadd(dw, rv, sw__v4_mul(rw, dv)), sw__cross4(rv, dv));
        const sw__v4 o = sw__v4_add(sw__rotate4(rv, rw, ps), sw__v4_mul(two, t));
        const bool spare = v + 1u < a->end;
        sw__store3(&a->out_positions[3u * v], o, spare);
        if (a->normals) {
            const sw__v4 ns =
                sw__skin_normal4(s[0], s[1], s[2], &a->normals[3u * v], a->cofactor, xyz);
            sw__store3(&a->out_normals[3u * v], sw__rotate4(rv, rw, ns), spare);
        }
    }
}

#undef SW__SLOT

static void sw__simd_morph(const float* base, const float* deltas, size_t stride, const float* w,
                           const uint32_t* targets, uint32_t count, float* out, size_t n) {
    size_t i = 0;
    for (; i + 4u <= n; i += 4u) {
        sw__v4 x = sw__v4_loadu(base + i);
        for (uint32_t t = 0; t < count; ++t)
            x = sw__v4_madd(sw__v4_set1(w[t]), sw__v4_loadu(deltas + targets[t] * stride + i), x);
        sw__v4_storeu(out + i, x);
    }
    for (; i < n; ++i) {
        float x = base[i];
        for (uint32_t t = 0; t < count; ++t)
            x += w[t] * deltas[targets[t] * stride + i];
        out[i] = x;
    }
}

#if defined(__AVX2__) && defined(SINEW_SOA_X86_PATHS)
#define SW__QUANTIZED(name) name##_avx2
#else
#define SW__QUANTIZED(name) name
#endif

const sw__soa_ops SW__SOA_TABLE = {
    SW__SIMD4_NAME,
    sw__simd_blend,
    sw__simd_additive_apply,
    sw__simd_additive_make,
    sw__simd_interp,
    sw__simd_local_to_model,
    sw__simd_skinning,
    sw__simd_skin_lbs,
    sw__simd_skin_dq,
    sw__simd_morph,
    SW__QUANTIZED(sw__codec_quantized_sample_kept),
    SW__QUANTIZED(sw__codec_quantized_sample_subset),
};

#else

/* ISO C forbids an empty translation unit. */
typedef int sw__soa_simd_disabled;

#endif
