/* simd4.h on WebAssembly SIMD128 (translation units compiled with
 * -msimd128, e.g. the viewer's runtime): no fused multiply-add and no
 * reciprocal square root estimate in the base proposal, so madd is a
 * multiply then an add and rsqrt is 1 / sqrt. Include simd4.h, not this
 * file. */
#ifndef SINEW_RUNTIME_SIMD4_WASM_H
#define SINEW_RUNTIME_SIMD4_WASM_H

#include <wasm_simd128.h>

#define SW__SIMD4_NAME "wasm128"

typedef v128_t sw__v4;
typedef v128_t sw__m4;

static inline sw__v4 sw__v4_load(const float* p) {
    return wasm_v128_load(p);
}
static inline sw__v4 sw__v4_loadu(const float* p) {
    return wasm_v128_load(p);
}
static inline void sw__v4_store(float* p, sw__v4 v) {
    wasm_v128_store(p, v);
}
static inline void sw__v4_storeu(float* p, sw__v4 v) {
    wasm_v128_store(p, v);
}
static inline sw__v4 sw__v4_set1(float x) {
    return wasm_f32x4_splat(x);
}
static inline sw__v4 sw__v4_set(float l0, float l1, float l2, float l3) {
    return wasm_f32x4_make(l0, l1, l2, l3);
}
static inline sw__v4 sw__v4_zero(void) {
    return wasm_f32x4_splat(0.0f);
}

static inline sw__v4 sw__v4_add(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_add(a, b);
}
static inline sw__v4 sw__v4_sub(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_sub(a, b);
}
static inline sw__v4 sw__v4_mul(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_mul(a, b);
}
static inline sw__v4 sw__v4_div(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_div(a, b);
}
/* pmin/pmax (b < a ? b : a) lower to one minps/maxps on x86 engines,
 * unlike min/max, which must propagate NaN and order signed zeros. */
static inline sw__v4 sw__v4_min(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_pmin(a, b);
}
static inline sw__v4 sw__v4_max(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_pmax(a, b);
}
static inline sw__v4 sw__v4_neg(sw__v4 a) {
    return wasm_f32x4_neg(a);
}
static inline sw__v4 sw__v4_abs(sw__v4 a) {
    return wasm_f32x4_abs(a);
}

/* Unfused: SIMD128 has no fused multiply-add. */
static inline sw__v4 sw__v4_madd(sw__v4 a, sw__v4 b, sw__v4 c) {
    return wasm_f32x4_add(wasm_f32x4_mul(a, b), c);
}
static inline sw__v4 sw__v4_nmadd(sw__v4 a, sw__v4 b, sw__v4 c) {
    return wasm_f32x4_sub(c, wasm_f32x4_mul(a, b));
}

static inline sw__v4 sw__v4_sqrt(sw__v4 a) {
    return wasm_f32x4_sqrt(a);
}
/* Two correctly rounded operations (relative error <= 1.2e-7, the scalar
 * reference's 1.0f / sqrtf bit for bit). */
static inline sw__v4 sw__v4_rsqrt(sw__v4 a) {
    return wasm_f32x4_div(wasm_f32x4_splat(1.0f), wasm_f32x4_sqrt(a));
}

static inline sw__m4 sw__v4_cmplt(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_lt(a, b);
}
static inline sw__m4 sw__v4_cmple(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_le(a, b);
}
static inline sw__m4 sw__v4_cmpgt(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_gt(a, b);
}
static inline sw__m4 sw__v4_cmpge(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_ge(a, b);
}
static inline sw__m4 sw__v4_cmpeq(sw__v4 a, sw__v4 b) {
    return wasm_f32x4_eq(a, b);
}

static inline sw__v4 sw__v4_select(sw__m4 m, sw__v4 a, sw__v4 b) {
    return wasm_v128_bitselect(a, b, m);
}
static inline sw__v4 sw__v4_negate_where(sw__m4 m, sw__v4 a) {
    return wasm_v128_xor(a, wasm_v128_and(m, wasm_f32x4_splat(-0.0f)));
}
static inline sw__v4 sw__v4_sign_of(sw__v4 a) {
    return wasm_v128_or(wasm_v128_and(a, wasm_f32x4_splat(-0.0f)), wasm_f32x4_splat(1.0f));
}
static inline sw__v4 sw__v4_xor_sign(sw__v4 a, sw__v4 s) {
    return wasm_v128_xor(a, wasm_v128_and(s, wasm_f32x4_splat(-0.0f)));
}

static inline sw__m4 sw__m4_and(sw__m4 a, sw__m4 b) {
    return wasm_v128_and(a, b);
}
static inline sw__m4 sw__m4_or(sw__m4 a, sw__m4 b) {
    return wasm_v128_or(a, b);
}
static inline sw__m4 sw__m4_andnot(sw__m4 a, sw__m4 b) {
    return wasm_v128_andnot(a, b);
}
static inline int sw__m4_bits(sw__m4 m) {
    return (int)wasm_i32x4_bitmask(m);
}

static inline float sw__v4_lane0(sw__v4 v) {
    return wasm_f32x4_extract_lane(v, 0);
}
static inline sw__v4 sw__v4_splat0(sw__v4 v) {
    return wasm_i32x4_shuffle(v, v, 0, 0, 0, 0);
}
static inline sw__v4 sw__v4_splat1(sw__v4 v) {
    return wasm_i32x4_shuffle(v, v, 1, 1, 1, 1);
}
static inline sw__v4 sw__v4_splat2(sw__v4 v) {
    return wasm_i32x4_shuffle(v, v, 2, 2, 2, 2);
}
static inline sw__v4 sw__v4_splat3(sw__v4 v) {
    return wasm_i32x4_shuffle(v, v, 3, 3, 3, 3);
}

/* (a1, a2, a0, a3): the rotation of xyz used by cross products. */
static inline sw__v4 sw__v4_yzx(sw__v4 a) {
    return wasm_i32x4_shuffle(a, a, 1, 2, 0, 3);
}
static inline sw__v4 sw__v4_wzyx(sw__v4 a) {
    return wasm_i32x4_shuffle(a, a, 3, 2, 1, 0);
}
static inline sw__v4 sw__v4_zwxy(sw__v4 a) {
    return wasm_i32x4_shuffle(a, a, 2, 3, 0, 1);
}
static inline sw__v4 sw__v4_yxwz(sw__v4 a) {
    return wasm_i32x4_shuffle(a, a, 1, 0, 3, 2);
}
static inline sw__v4 sw__v4_xyz_w(sw__v4 a, sw__v4 b) {
    return wasm_i32x4_shuffle(a, b, 0, 1, 2, 7);
}

static inline sw__v4 sw__v4_floor(sw__v4 a) {
    return wasm_f32x4_floor(a);
}

/* Interleave pairs of rows, then pick 64-bit halves. */
#define SW__V4_TRANSPOSE(a, b, c, d)                                                               \
    do {                                                                                           \
        const v128_t sw__t0 = wasm_i32x4_shuffle((a), (b), 0, 4, 1, 5); /* a0 b0 a1 b1 */          \
        const v128_t sw__t1 = wasm_i32x4_shuffle((a), (b), 2, 6, 3, 7); /* a2 b2 a3 b3 */          \
        const v128_t sw__t2 = wasm_i32x4_shuffle((c), (d), 0, 4, 1, 5); /* c0 d0 c1 d1 */          \
        const v128_t sw__t3 = wasm_i32x4_shuffle((c), (d), 2, 6, 3, 7); /* c2 d2 c3 d3 */          \
        (a) = wasm_i32x4_shuffle(sw__t0, sw__t2, 0, 1, 4, 5);                                      \
        (b) = wasm_i32x4_shuffle(sw__t0, sw__t2, 2, 3, 6, 7);                                      \
        (c) = wasm_i32x4_shuffle(sw__t1, sw__t3, 0, 1, 4, 5);                                      \
        (d) = wasm_i32x4_shuffle(sw__t1, sw__t3, 2, 3, 6, 7);                                      \
    } while (0)

/* The float mode is left as it is (wasm has no control over it). */
typedef int sw__fp_mode;
static inline sw__fp_mode sw__fp_flush_begin(void) {
    return 0;
}
static inline void sw__fp_flush_end(sw__fp_mode mode) {
    (void)mode;
}

#endif
