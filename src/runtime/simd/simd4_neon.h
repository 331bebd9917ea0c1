/* simd4.h on arm64 (AArch64 Advanced SIMD, "neon"): every AArch64 CPU has
 * it, with fused multiply-add, vector division and directed rounding.
 * 32-bit ARM NEON lacks those and is not supported here (simd4.h leaves it
 * out there: the scalar path). Include simd4.h, not this file. */
#ifndef SINEW_RUNTIME_SIMD4_NEON_H
#define SINEW_RUNTIME_SIMD4_NEON_H

#if !defined(__aarch64__)
#error "simd4_neon.h needs AArch64 (32-bit ARM NEON is not supported)"
#endif

#include <arm_neon.h>
#include <stdint.h>

#define SW__SIMD4_NAME "neon"

typedef float32x4_t sw__v4;
typedef uint32x4_t sw__m4;

static inline sw__v4 sw__v4_load(const float* p) {
    return vld1q_f32(p);
}
static inline sw__v4 sw__v4_loadu(const float* p) {
    return vld1q_f32(p);
}
static inline void sw__v4_store(float* p, sw__v4 v) {
    vst1q_f32(p, v);
}
static inline void sw__v4_storeu(float* p, sw__v4 v) {
    vst1q_f32(p, v);
}
static inline sw__v4 sw__v4_set1(float x) {
    return vdupq_n_f32(x);
}
static inline sw__v4 sw__v4_set(float l0, float l1, float l2, float l3) {
    const float t[4] = {l0, l1, l2, l3};
    return vld1q_f32(t);
}
static inline sw__v4 sw__v4_zero(void) {
    return vdupq_n_f32(0.0f);
}

static inline sw__v4 sw__v4_add(sw__v4 a, sw__v4 b) {
    return vaddq_f32(a, b);
}
static inline sw__v4 sw__v4_sub(sw__v4 a, sw__v4 b) {
    return vsubq_f32(a, b);
}
static inline sw__v4 sw__v4_mul(sw__v4 a, sw__v4 b) {
    return vmulq_f32(a, b);
}
static inline sw__v4 sw__v4_div(sw__v4 a, sw__v4 b) {
    return vdivq_f32(a, b);
}
static inline sw__v4 sw__v4_min(sw__v4 a, sw__v4 b) {
    return vminq_f32(a, b);
}
static inline sw__v4 sw__v4_max(sw__v4 a, sw__v4 b) {
    return vmaxq_f32(a, b);
}
static inline sw__v4 sw__v4_neg(sw__v4 a) {
    return vnegq_f32(a);
}
static inline sw__v4 sw__v4_abs(sw__v4 a) {
    return vabsq_f32(a);
}

/* Fused: a*b + c and c - a*b rounded once. */
static inline sw__v4 sw__v4_madd(sw__v4 a, sw__v4 b, sw__v4 c) {
    return vfmaq_f32(c, a, b);
}
static inline sw__v4 sw__v4_nmadd(sw__v4 a, sw__v4 b, sw__v4 c) {
    return vfmsq_f32(c, a, b);
}

static inline sw__v4 sw__v4_sqrt(sw__v4 a) {
    return vsqrtq_f32(a);
}
/* Estimate (about 8 bits) refined by two Newton steps, each
 * e' = e * (3 - a*e*e) / 2 through FRSQRTS. The product is formed as
 * (e*e) * a so that a = 0 (e = inf) and a = inf (e = 0) meet FRSQRTS's
 * 0 * inf = 1.5 rule and give inf and 0 instead of NaN. */
static inline sw__v4 sw__v4_rsqrt(sw__v4 a) {
    float32x4_t e = vrsqrteq_f32(a);
    e = vmulq_f32(e, vrsqrtsq_f32(vmulq_f32(e, e), a));
    e = vmulq_f32(e, vrsqrtsq_f32(vmulq_f32(e, e), a));
    return e;
}

static inline sw__m4 sw__v4_cmplt(sw__v4 a, sw__v4 b) {
    return vcltq_f32(a, b);
}
static inline sw__m4 sw__v4_cmple(sw__v4 a, sw__v4 b) {
    return vcleq_f32(a, b);
}
static inline sw__m4 sw__v4_cmpgt(sw__v4 a, sw__v4 b) {
    return vcgtq_f32(a, b);
}
static inline sw__m4 sw__v4_cmpge(sw__v4 a, sw__v4 b) {
    return vcgeq_f32(a, b);
}
static inline sw__m4 sw__v4_cmpeq(sw__v4 a, sw__v4 b) {
    return vceqq_f32(a, b);
}

static inline sw__v4 sw__v4_select(sw__m4 m, sw__v4 a, sw__v4 b) {
    return vbslq_f32(m, a, b);
}
static inline sw__v4 sw__v4_negate_where(sw__m4 m, sw__v4 a) {
    const uint32x4_t sign = vandq_u32(m, vdupq_n_u32(0x80000000u));
    return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), sign));
}
static inline sw__v4 sw__v4_sign_of(sw__v4 a) {
    /* Sign bit from a, the other bits from 1.0f. */
    return vbslq_f32(vdupq_n_u32(0x80000000u), a, vdupq_n_f32(1.0f));
}
static inline sw__v4 sw__v4_xor_sign(sw__v4 a, sw__v4 s) {
    const uint32x4_t sign = vandq_u32(vreinterpretq_u32_f32(s), vdupq_n_u32(0x80000000u));
    return vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(a), sign));
}

static inline sw__m4 sw__m4_and(sw__m4 a, sw__m4 b) {
    return vandq_u32(a, b);
}
static inline sw__m4 sw__m4_or(sw__m4 a, sw__m4 b) {
    return vorrq_u32(a, b);
}
static inline sw__m4 sw__m4_andnot(sw__m4 a, sw__m4 b) {
    return vbicq_u32(a, b);
}
static inline int sw__m4_bits(sw__m4 m) {
    /* Each lane's top bit moved to bit i, then summed across lanes. */
    static const int32_t shift[4] = {0, 1, 2, 3};
    const uint32x4_t top = vshrq_n_u32(m, 31);
    return (int)vaddvq_u32(vshlq_u32(top, vld1q_s32(shift)));
}

static inline float sw__v4_lane0(sw__v4 v) {
    return vgetq_lane_f32(v, 0);
}
static inline sw__v4 sw__v4_splat0(sw__v4 v) {
    return vdupq_laneq_f32(v, 0);
}
static inline sw__v4 sw__v4_splat1(sw__v4 v) {
    return vdupq_laneq_f32(v, 1);
}
static inline sw__v4 sw__v4_splat2(sw__v4 v) {
    return vdupq_laneq_f32(v, 2);
}
static inline sw__v4 sw__v4_splat3(sw__v4 v) {
    return vdupq_laneq_f32(v, 3);
}

/* (a1, a2, a0, a3): EXT gives a1 a2 a3 a0, then lanes 2 and 3 are copied in. */
static inline sw__v4 sw__v4_yzx(sw__v4 a) {
    const float32x4_t t = vextq_f32(a, a, 1);
    return vcopyq_laneq_f32(vcopyq_laneq_f32(t, 2, a, 0), 3, a, 3);
}
static inline sw__v4 sw__v4_wzyx(sw__v4 a) {
    return vrev64q_f32(vextq_f32(a, a, 2));
}
static inline sw__v4 sw__v4_zwxy(sw__v4 a) {
    return vextq_f32(a, a, 2);
}
static inline sw__v4 sw__v4_yxwz(sw__v4 a) {
    return vrev64q_f32(a);
}
static inline sw__v4 sw__v4_xyz_w(sw__v4 a, sw__v4 b) {
    return vcopyq_laneq_f32(a, 3, b, 3);
}

/* FRINTM: round towards minus infinity, exact for every float. */
static inline sw__v4 sw__v4_floor(sw__v4 a) {
    return vrndmq_f32(a);
}

/* 2x2 transposes of floats (TRN1/TRN2), then of 64-bit pairs. */
#define SW__V4_TRANSPOSE(a, b, c, d)                                                               \
    do {                                                                                           \
        const float32x4_t sw__t0 = vtrn1q_f32((a), (b)); /* a0 b0 a2 b2 */                         \
        const float32x4_t sw__t1 = vtrn2q_f32((a), (b)); /* a1 b1 a3 b3 */                         \
        const float32x4_t sw__t2 = vtrn1q_f32((c), (d)); /* c0 d0 c2 d2 */                         \
        const float32x4_t sw__t3 = vtrn2q_f32((c), (d)); /* c1 d1 c3 d3 */                         \
        (a) = vreinterpretq_f32_f64(                                                               \
            vtrn1q_f64(vreinterpretq_f64_f32(sw__t0), vreinterpretq_f64_f32(sw__t2)));             \
        (b) = vreinterpretq_f32_f64(                                                               \
            vtrn1q_f64(vreinterpretq_f64_f32(sw__t1), vreinterpretq_f64_f32(sw__t3)));             \
        (c) = vreinterpretq_f32_f64(                                                               \
            vtrn2q_f64(vreinterpretq_f64_f32(sw__t0), vreinterpretq_f64_f32(sw__t2)));             \
        (d) = vreinterpretq_f32_f64(                                                               \
            vtrn2q_f64(vreinterpretq_f64_f32(sw__t1), vreinterpretq_f64_f32(sw__t3)));             \
    } while (0)

/* The float mode is left as it is (FPCR.FZ is not set: not measured on AArch64). */
typedef int sw__fp_mode;
static inline sw__fp_mode sw__fp_flush_begin(void) {
    return 0;
}
static inline void sw__fp_flush_end(sw__fp_mode mode) {
    (void)mode;
}

#endif
