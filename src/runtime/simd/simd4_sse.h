/* simd4.h on x86: SSE2 baseline. A translation unit compiled with -msse4.1
 * gets SSE4.1 blends and rounding, one compiled with -mavx2 -mfma gets fused
 * multiply-adds. Include simd4.h, not this file. */
#ifndef SINEW_RUNTIME_SIMD4_SSE_H
#define SINEW_RUNTIME_SIMD4_SSE_H

#include <emmintrin.h>
#if defined(__SSE4_1__)
#include <smmintrin.h>
#endif
#if defined(__FMA__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#if defined(__AVX2__)
#define SW__SIMD4_NAME "avx2"
#elif defined(__SSE4_1__)
#define SW__SIMD4_NAME "sse41"
#else
#define SW__SIMD4_NAME "sse2"
#endif

typedef __m128 sw__v4;
typedef __m128 sw__m4;

static inline sw__v4 sw__v4_load(const float* p) {
    return _mm_load_ps(p);
}
static inline sw__v4 sw__v4_loadu(const float* p) {
    return _mm_loadu_ps(p);
}
static inline void sw__v4_store(float* p, sw__v4 v) {
    _mm_store_ps(p, v);
}
static inline void sw__v4_storeu(float* p, sw__v4 v) {
    _mm_storeu_ps(p, v);
}
static inline sw__v4 sw__v4_set1(float x) {
    return _mm_set1_ps(x);
}
static inline sw__v4 sw__v4_set(float l0, float l1, float l2, float l3) {
    return _mm_setr_ps(l0, l1, l2, l3);
}
static inline sw__v4 sw__v4_zero(void) {
    return _mm_setzero_ps();
}

static inline sw__v4 sw__v4_add(sw__v4 a, sw__v4 b) {
    return _mm_add_ps(a, b);
}
static inline sw__v4 sw__v4_sub(sw__v4 a, sw__v4 b) {
    return _mm_sub_ps(a, b);
}
static inline sw__v4 sw__v4_mul(sw__v4 a, sw__v4 b) {
    return _mm_mul_ps(a, b);
}
static inline sw__v4 sw__v4_div(sw__v4 a, sw__v4 b) {
    return _mm_div_ps(a, b);
}
static inline sw__v4 sw__v4_min(sw__v4 a, sw__v4 b) {
    return _mm_min_ps(a, b);
}
static inline sw__v4 sw__v4_max(sw__v4 a, sw__v4 b) {
    return _mm_max_ps(a, b);
}
static inline sw__v4 sw__v4_neg(sw__v4 a) {
    return _mm_xor_ps(a, _mm_set1_ps(-0.0f));
}
static inline sw__v4 sw__v4_abs(sw__v4 a) {
    return _mm_andnot_ps(_mm_set1_ps(-0.0f), a);
}

static inline sw__v4 sw__v4_madd(sw__v4 a, sw__v4 b, sw__v4 c) {
#if defined(__FMA__)
    return _mm_fmadd_ps(a, b, c);
#else
    return _mm_add_ps(_mm_mul_ps(a, b), c);
#endif
}
static inline sw__v4 sw__v4_nmadd(sw__v4 a, sw__v4 b, sw__v4 c) {
#if defined(__FMA__)
    return _mm_fnmadd_ps(a, b, c);
#else
    return _mm_sub_ps(c, _mm_mul_ps(a, b));
#endif
}

static inline sw__v4 sw__v4_sqrt(sw__v4 a) {
    return _mm_sqrt_ps(a);
}
/* x86 computes 1 / sqrt(a) with two correctly rounded operations (relative
 * error <= 1.2e-7, the same bits as the scalar reference's 1.0f / sqrtf). */
static inline sw__v4 sw__v4_rsqrt(sw__v4 a) {
    return _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(a));
}
/* The estimate (relative error <= 1.5 * 2^-12 on Intel; 2.6e-4 measured on
 * AMD EPYC) and one Newton step y * (3 - a * y * y) / 2, no divider:
 * relative error measured over every float in [1, 4) on AMD EPYC 2.2e-7
 * (sse2) / 2.1e-7 (fma); Intel's bound gives <= 3.5e-7. The result is > 0
 * exactly where a is a normal float: rsqrtps takes a denormal as 0, so zero
 * and denormal lanes give NaN or -infinity, infinite and NaN lanes NaN.
 * Written as (-y / 2) * (a * y * y - 3), the same bits: sse2 subtracts the
 * constant in place of copying it. */
#define SW__V4_HAS_RSQRT_FAST 1
static inline sw__v4 sw__v4_rsqrt_fast(sw__v4 a) {
    const __m128 y = _mm_rsqrt_ps(a);
    const __m128 nhy = _mm_mul_ps(_mm_set1_ps(-0.5f), y);
#if defined(__FMA__)
    return _mm_mul_ps(nhy, _mm_fmsub_ps(_mm_mul_ps(a, y), y, _mm_set1_ps(3.0f)));
#else
    return _mm_mul_ps(nhy, _mm_sub_ps(_mm_mul_ps(_mm_mul_ps(a, y), y), _mm_set1_ps(3.0f)));
#endif
}

static inline sw__m4 sw__v4_cmplt(sw__v4 a, sw__v4 b) {
    return _mm_cmplt_ps(a, b);
}
static inline sw__m4 sw__v4_cmple(sw__v4 a, sw__v4 b) {
    return _mm_cmple_ps(a, b);
}
static inline sw__m4 sw__v4_cmpgt(sw__v4 a, sw__v4 b) {
    return _mm_cmpgt_ps(a, b);
}
static inline sw__m4 sw__v4_cmpge(sw__v4 a, sw__v4 b) {
    return _mm_cmpge_ps(a, b);
}
static inline sw__m4 sw__v4_cmpeq(sw__v4 a, sw__v4 b) {
    return _mm_cmpeq_ps(a, b);
}

static inline sw__v4 sw__v4_select(sw__m4 m, sw__v4 a, sw__v4 b) {
#if defined(__SSE4_1__)
    return _mm_blendv_ps(b, a, m);
#else
    return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
#endif
}
static inline sw__v4 sw__v4_negate_where(sw__m4 m, sw__v4 a) {
    return _mm_xor_ps(a, _mm_and_ps(m, _mm_set1_ps(-0.0f)));
}
static inline sw__v4 sw__v4_sign_of(sw__v4 a) {
    return _mm_or_ps(_mm_and_ps(a, _mm_set1_ps(-0.0f)), _mm_set1_ps(1.0f));
}
static inline sw__v4 sw__v4_xor_sign(sw__v4 a, sw__v4 s) {
    return _mm_xor_ps(a, _mm_and_ps(s, _mm_set1_ps(-0.0f)));
}

static inline sw__m4 sw__m4_and(sw__m4 a, sw__m4 b) {
    return _mm_and_ps(a, b);
}
static inline sw__m4 sw__m4_or(sw__m4 a, sw__m4 b) {
    return _mm_or_ps(a, b);
}
static inline sw__m4 sw__m4_andnot(sw__m4 a, sw__m4 b) {
    return _mm_andnot_ps(b, a);
}
static inline int sw__m4_bits(sw__m4 m) {
    return _mm_movemask_ps(m);
}

static inline float sw__v4_lane0(sw__v4 v) {
    return _mm_cvtss_f32(v);
}
#if defined(__AVX__)
static inline sw__v4 sw__v4_splat0(sw__v4 v) {
    return _mm_shuffle_ps(v, v, 0x00);
}
static inline sw__v4 sw__v4_splat1(sw__v4 v) {
    return _mm_shuffle_ps(v, v, 0x55);
}
static inline sw__v4 sw__v4_splat2(sw__v4 v) {
    return _mm_shuffle_ps(v, v, 0xAA);
}
static inline sw__v4 sw__v4_splat3(sw__v4 v) {
    return _mm_shuffle_ps(v, v, 0xFF);
}
#else
/* pshufd: non-destructive, and folds a load (one instruction from memory). */
static inline sw__v4 sw__v4_splat0(sw__v4 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0x00));
}
static inline sw__v4 sw__v4_splat1(sw__v4 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0x55));
}
static inline sw__v4 sw__v4_splat2(sw__v4 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0xAA));
}
static inline sw__v4 sw__v4_splat3(sw__v4 v) {
    return _mm_castsi128_ps(_mm_shuffle_epi32(_mm_castps_si128(v), 0xFF));
}
#endif

/* (a1, a2, a0, a3): the rotation of xyz used by cross products. */
static inline sw__v4 sw__v4_yzx(sw__v4 a) {
    return _mm_shuffle_ps(a, a, _MM_SHUFFLE(3, 0, 2, 1));
}
/* (a3, a2, a1, a0), (a2, a3, a0, a1), (a1, a0, a3, a2): the lane orders of a
 * quaternion product's terms. */
static inline sw__v4 sw__v4_wzyx(sw__v4 a) {
    return _mm_shuffle_ps(a, a, _MM_SHUFFLE(0, 1, 2, 3));
}
static inline sw__v4 sw__v4_zwxy(sw__v4 a) {
    return _mm_shuffle_ps(a, a, _MM_SHUFFLE(1, 0, 3, 2));
}
static inline sw__v4 sw__v4_yxwz(sw__v4 a) {
    return _mm_shuffle_ps(a, a, _MM_SHUFFLE(2, 3, 0, 1));
}
/* (a0, a1, a2, b3) */
static inline sw__v4 sw__v4_xyz_w(sw__v4 a, sw__v4 b) {
#if defined(__SSE4_1__)
    return _mm_blend_ps(a, b, 8);
#else
    return _mm_shuffle_ps(a, _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 3, 2, 2)),
                          _MM_SHUFFLE(2, 0, 1, 0));
#endif
}

static inline sw__v4 sw__v4_floor(sw__v4 a) {
#if defined(__SSE4_1__)
    return _mm_floor_ps(a);
#else
    /* Truncate, then step down where that rounded up (negative fractions);
     * lanes with |a| >= 2^23 are already integers and pass through. */
    sw__v4 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(a));
    t = _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, a), _mm_set1_ps(1.0f)));
    return sw__v4_select(_mm_cmplt_ps(sw__v4_abs(a), _mm_set1_ps(8388608.0f)), t, a);
#endif
}

#define SW__V4_TRANSPOSE(a, b, c, d) _MM_TRANSPOSE4_PS(a, b, c, d)

/* MXCSR, written only when FTZ (bit 15) or DAZ (bit 6) is off. */
typedef unsigned int sw__fp_mode;
#define SW__MXCSR_FLUSH 0x8040u
static inline sw__fp_mode sw__fp_flush_begin(void) {
    const sw__fp_mode mode = _mm_getcsr();
    if ((mode & SW__MXCSR_FLUSH) != SW__MXCSR_FLUSH) _mm_setcsr(mode | SW__MXCSR_FLUSH);
    return mode;
}
static inline void sw__fp_flush_end(sw__fp_mode mode) {
    if ((mode & SW__MXCSR_FLUSH) != SW__MXCSR_FLUSH) _mm_setcsr(mode);
}

#endif
