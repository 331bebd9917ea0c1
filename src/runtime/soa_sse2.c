/* SSE2 SoA kernels: one register holds one component of the 4 lanes of a
 * packet. Same expressions, in the same order, as the scalar reference in
 * soa_scalar.c; per-lane choices are masks (no branches), divisions and
 * square roots are exact (_mm_div_ps, _mm_sqrt_ps), so both paths agree to
 * rounding. SSE2 only. */
#include "internal.h"

#if SINEW_HAS_SSE2

#include <emmintrin.h>
#include <math.h>

#define SW__SPLAT(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))

/* Lanes where `mask` is set take a, the others b. */
static inline __m128 sw__select(__m128 mask, __m128 a, __m128 b) {
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

/* -v in lanes where a < 0, v elsewhere (flips the sign bit by mask). */
static inline __m128 sw__negate_where_negative(__m128 a, __m128 v) {
    __m128 sign = _mm_and_ps(_mm_cmplt_ps(a, _mm_setzero_ps()), _mm_set1_ps(-0.0f));
    return _mm_xor_ps(v, sign);
}

static inline __m128 sw__dot4(__m128 ax, __m128 ay, __m128 az, __m128 aw, __m128 bx, __m128 by,
                              __m128 bz, __m128 bw) {
    return _mm_add_ps(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(ax, bx), _mm_mul_ps(ay, by)), _mm_mul_ps(az, bz)),
        _mm_mul_ps(aw, bw));
}

/* Normalizes (x, y, z, w) per lane; identity where len2 is 0 or not finite. */
static inline void sw__normalize4(__m128* x, __m128* y, __m128* z, __m128* w) {
    __m128 len2 = sw__dot4(*x, *y, *z, *w, *x, *y, *z, *w);
    __m128 ok =
        _mm_and_ps(_mm_cmpgt_ps(len2, _mm_setzero_ps()), _mm_cmplt_ps(len2, _mm_set1_ps(INFINITY)));
    __m128 inv = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(len2));
    *x = _mm_and_ps(ok, _mm_mul_ps(*x, inv));
    *y = _mm_and_ps(ok, _mm_mul_ps(*y, inv));
    *z = _mm_and_ps(ok, _mm_mul_ps(*z, inv));
    *w = sw__select(ok, _mm_mul_ps(*w, inv), _mm_set1_ps(1.0f));
}

/* Transposes 4 registers and stores row l at dst[l] + offset. */
static inline void sw__store_transposed(__m128 r0, __m128 r1, __m128 r2, __m128 r3, sw_mat4 out[4],
                                        int offset) {
    __m128 t0 = _mm_unpacklo_ps(r0, r1);
    __m128 t1 = _mm_unpacklo_ps(r2, r3);
    __m128 t2 = _mm_unpackhi_ps(r0, r1);
    __m128 t3 = _mm_unpackhi_ps(r2, r3);
    _mm_storeu_ps(out[0].m + offset, _mm_movelh_ps(t0, t1));
    _mm_storeu_ps(out[1].m + offset, _mm_movehl_ps(t1, t0));
    _mm_storeu_ps(out[2].m + offset, _mm_movelh_ps(t2, t3));
    _mm_storeu_ps(out[3].m + offset, _mm_movehl_ps(t3, t2));
}

static void sw__sse2_to_mat4(const sw_xform4* in, sw_mat4 out[4]) {
    const __m128 one = _mm_set1_ps(1.0f), two = _mm_set1_ps(2.0f), zero = _mm_setzero_ps();
    __m128 qx = _mm_load_ps(in->rx), qy = _mm_load_ps(in->ry);
    __m128 qz = _mm_load_ps(in->rz), qw = _mm_load_ps(in->rw);
    __m128 xx = _mm_mul_ps(qx, qx), yy = _mm_mul_ps(qy, qy), zz = _mm_mul_ps(qz, qz);
    __m128 xy = _mm_mul_ps(qx, qy), xz = _mm_mul_ps(qx, qz), yz = _mm_mul_ps(qy, qz);
    __m128 wx = _mm_mul_ps(qw, qx), wy = _mm_mul_ps(qw, qy), wz = _mm_mul_ps(qw, qz);
    __m128 sx = _mm_load_ps(in->sx), sy = _mm_load_ps(in->sy), sz = _mm_load_ps(in->sz);

    __m128 m0 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(yy, zz))), sx);
    __m128 m1 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xy, wz)), sx);
    __m128 m2 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xz, wy)), sx);
    __m128 m4 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(xy, wz)), sy);
    __m128 m5 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, zz))), sy);
    __m128 m6 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(yz, wx)), sy);
    __m128 m8 = _mm_mul_ps(_mm_mul_ps(two, _mm_add_ps(xz, wy)), sz);
    __m128 m9 = _mm_mul_ps(_mm_mul_ps(two, _mm_sub_ps(yz, wx)), sz);
    __m128 m10 = _mm_mul_ps(_mm_sub_ps(one, _mm_mul_ps(two, _mm_add_ps(xx, yy))), sz);

    sw__store_transposed(m0, m1, m2, zero, out, 0);
    sw__store_transposed(m4, m5, m6, zero, out, 4);
    sw__store_transposed(m8, m9, m10, zero, out, 8);
    sw__store_transposed(_mm_load_ps(in->tx), _mm_load_ps(in->ty), _mm_load_ps(in->tz), one, out,
                         12);
}

static void sw__sse2_mat4_mul(const sw_mat4* a, const sw_mat4* b, sw_mat4* out) {
    __m128 a0 = _mm_loadu_ps(a->m), a1 = _mm_loadu_ps(a->m + 4);
    __m128 a2 = _mm_loadu_ps(a->m + 8), a3 = _mm_loadu_ps(a->m + 12);
    for (int c = 0; c < 4; ++c) {
        __m128 bc = _mm_loadu_ps(b->m + c * 4);
        __m128 r = _mm_add_ps(_mm_mul_ps(a0, SW__SPLAT(bc, 0)), _mm_mul_ps(a1, SW__SPLAT(bc, 1)));
        r = _mm_add_ps(r, _mm_mul_ps(a2, SW__SPLAT(bc, 2)));
        r = _mm_add_ps(r, _mm_mul_ps(a3, SW__SPLAT(bc, 3)));
        _mm_storeu_ps(out->m + c * 4, r);
    }
}

/* acc[f] += w * in[f] for one component. */
#define SW__MADD(acc, in, f, w)                                                                    \
    _mm_store_ps((acc)->f, _mm_add_ps(_mm_load_ps((acc)->f), _mm_mul_ps((w), _mm_load_ps((in)->f))))

static void sw__sse2_blend_add(sw_xform4* acc, const sw_xform4* in, const float w[4]) {
    __m128 wl = _mm_loadu_ps(w);
    __m128 d = sw__dot4(_mm_load_ps(acc->rx), _mm_load_ps(acc->ry), _mm_load_ps(acc->rz),
                        _mm_load_ps(acc->rw), _mm_load_ps(in->rx), _mm_load_ps(in->ry),
                        _mm_load_ps(in->rz), _mm_load_ps(in->rw));
    __m128 wr = sw__negate_where_negative(d, wl);
    SW__MADD(acc, in, tx, wl);
    SW__MADD(acc, in, ty, wl);
    SW__MADD(acc, in, tz, wl);
    SW__MADD(acc, in, rx, wr);
    SW__MADD(acc, in, ry, wr);
    SW__MADD(acc, in, rz, wr);
    SW__MADD(acc, in, rw, wr);
    SW__MADD(acc, in, sx, wl);
    SW__MADD(acc, in, sy, wl);
    SW__MADD(acc, in, sz, wl);
}

/* acc[f] = (acc[f] + fill * rest[f]) / denom for one component. */
#define SW__FINISH(acc, rest, f, fill, denom)                                                      \
    _mm_store_ps((acc)->f, _mm_div_ps(_mm_add_ps(_mm_load_ps((acc)->f),                            \
                                                 _mm_mul_ps((fill), _mm_load_ps((rest)->f))),      \
                                      (denom)))

static void sw__sse2_blend_finish(sw_xform4* acc, const float wsum[4], const sw_xform4* rest,
                                  float threshold) {
    __m128 wl = _mm_loadu_ps(wsum);
    __m128 thr = _mm_set1_ps(threshold);
    __m128 fill = _mm_max_ps(_mm_sub_ps(thr, wl), _mm_setzero_ps());
    __m128 denom = _mm_max_ps(wl, thr);
    SW__FINISH(acc, rest, tx, fill, denom);
    SW__FINISH(acc, rest, ty, fill, denom);
    SW__FINISH(acc, rest, tz, fill, denom);
    SW__FINISH(acc, rest, sx, fill, denom);
    SW__FINISH(acc, rest, sy, fill, denom);
    SW__FINISH(acc, rest, sz, fill, denom);
    __m128 ax = _mm_load_ps(acc->rx), ay = _mm_load_ps(acc->ry);
    __m128 az = _mm_load_ps(acc->rz), aw = _mm_load_ps(acc->rw);
    __m128 bx = _mm_load_ps(rest->rx), by = _mm_load_ps(rest->ry);
    __m128 bz = _mm_load_ps(rest->rz), bw = _mm_load_ps(rest->rw);
    __m128 fr = sw__negate_where_negative(sw__dot4(ax, ay, az, aw, bx, by, bz, bw), fill);
    __m128 x = _mm_add_ps(ax, _mm_mul_ps(fr, bx));
    __m128 y = _mm_add_ps(ay, _mm_mul_ps(fr, by));
    __m128 z = _mm_add_ps(az, _mm_mul_ps(fr, bz));
    __m128 w = _mm_add_ps(aw, _mm_mul_ps(fr, bw));
    sw__normalize4(&x, &y, &z, &w);
    _mm_store_ps(acc->rx, x);
    _mm_store_ps(acc->ry, y);
    _mm_store_ps(acc->rz, z);
    _mm_store_ps(acc->rw, w);
}

/* Hamilton product a * b per lane, in sw_quat_mul's order of operations. */
static inline void sw__quat_mul4(__m128 ax, __m128 ay, __m128 az, __m128 aw, __m128 bx, __m128 by,
                                 __m128 bz, __m128 bw, __m128* x, __m128* y, __m128* z, __m128* w) {
    *x = _mm_sub_ps(
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(aw, bx), _mm_mul_ps(ax, bw)), _mm_mul_ps(ay, bz)),
        _mm_mul_ps(az, by));
    *y = _mm_add_ps(
        _mm_add_ps(_mm_sub_ps(_mm_mul_ps(aw, by), _mm_mul_ps(ax, bz)), _mm_mul_ps(ay, bw)),
        _mm_mul_ps(az, bx));
    *z = _mm_add_ps(
        _mm_sub_ps(_mm_add_ps(_mm_mul_ps(aw, bz), _mm_mul_ps(ax, by)), _mm_mul_ps(ay, bx)),
        _mm_mul_ps(az, bw));
    *w = _mm_sub_ps(
        _mm_sub_ps(_mm_sub_ps(_mm_mul_ps(aw, bw), _mm_mul_ps(ax, bx)), _mm_mul_ps(ay, by)),
        _mm_mul_ps(az, bz));
}

/* io[f] *= 1 + w * (delta[f] - 1) for one scale component. */
#define SW__SCALE_APPLY(io, delta, f, w)                                                           \
    _mm_store_ps((io)->f,                                                                          \
                 _mm_mul_ps(_mm_load_ps((io)->f),                                                  \
                            _mm_add_ps(_mm_set1_ps(1.0f),                                          \
                                       _mm_mul_ps((w), _mm_sub_ps(_mm_load_ps((delta)->f),         \
                                                                  _mm_set1_ps(1.0f))))))

static void sw__sse2_additive_apply(sw_xform4* io, const sw_xform4* delta, const float w[4]) {
    const __m128 one = _mm_set1_ps(1.0f);
    __m128 wl = _mm_loadu_ps(w);
    SW__MADD(io, delta, tx, wl);
    SW__MADD(io, delta, ty, wl);
    SW__MADD(io, delta, tz, wl);
    /* nlerp(identity, dr, w) before normalization, dr on w >= 0. */
    __m128 drw = _mm_load_ps(delta->rw);
    __m128 wr = sw__negate_where_negative(drw, wl);
    __m128 dx = _mm_mul_ps(wr, _mm_load_ps(delta->rx));
    __m128 dy = _mm_mul_ps(wr, _mm_load_ps(delta->ry));
    __m128 dz = _mm_mul_ps(wr, _mm_load_ps(delta->rz));
    __m128 dw = _mm_add_ps(_mm_sub_ps(one, wl), _mm_mul_ps(wr, drw));
    __m128 x, y, z, qw;
    sw__quat_mul4(_mm_load_ps(io->rx), _mm_load_ps(io->ry), _mm_load_ps(io->rz),
                  _mm_load_ps(io->rw), dx, dy, dz, dw, &x, &y, &z, &qw);
    sw__normalize4(&x, &y, &z, &qw);
    _mm_store_ps(io->rx, x);
    _mm_store_ps(io->ry, y);
    _mm_store_ps(io->rz, z);
    _mm_store_ps(io->rw, qw);
    SW__SCALE_APPLY(io, delta, sx, wl);
    SW__SCALE_APPLY(io, delta, sy, wl);
    SW__SCALE_APPLY(io, delta, sz, wl);
}

/* pose / ref per lane, 1 where ref is 0. */
static inline __m128 sw__ratio_or_one4(__m128 a, __m128 b) {
    __m128 zero = _mm_cmpeq_ps(b, _mm_setzero_ps());
    return sw__select(zero, _mm_set1_ps(1.0f), _mm_div_ps(a, b));
}

static void sw__sse2_additive_make(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out) {
    const __m128 sign = _mm_set1_ps(-0.0f);
    _mm_store_ps(out->tx, _mm_sub_ps(_mm_load_ps(pose->tx), _mm_load_ps(ref->tx)));
    _mm_store_ps(out->ty, _mm_sub_ps(_mm_load_ps(pose->ty), _mm_load_ps(ref->ty)));
    _mm_store_ps(out->tz, _mm_sub_ps(_mm_load_ps(pose->tz), _mm_load_ps(ref->tz)));
    __m128 x, y, z, w;
    sw__quat_mul4(_mm_xor_ps(_mm_load_ps(ref->rx), sign), _mm_xor_ps(_mm_load_ps(ref->ry), sign),
                  _mm_xor_ps(_mm_load_ps(ref->rz), sign), _mm_load_ps(ref->rw),
                  _mm_load_ps(pose->rx), _mm_load_ps(pose->ry), _mm_load_ps(pose->rz),
                  _mm_load_ps(pose->rw), &x, &y, &z, &w);
    _mm_store_ps(out->rx, x);
    _mm_store_ps(out->ry, y);
    _mm_store_ps(out->rz, z);
    _mm_store_ps(out->rw, w);
    _mm_store_ps(out->sx, sw__ratio_or_one4(_mm_load_ps(pose->sx), _mm_load_ps(ref->sx)));
    _mm_store_ps(out->sy, sw__ratio_or_one4(_mm_load_ps(pose->sy), _mm_load_ps(ref->sy)));
    _mm_store_ps(out->sz, sw__ratio_or_one4(_mm_load_ps(pose->sz), _mm_load_ps(ref->sz)));
}

const sw__soa_ops sw__soa_sse2 = {
    "sse2",
    sw__sse2_to_mat4,
    sw__sse2_mat4_mul,
    sw__sse2_blend_add,
    sw__sse2_blend_finish,
    sw__sse2_additive_apply,
    sw__sse2_additive_make,
};

#else

/* ISO C forbids an empty translation unit. */
typedef int sw__soa_sse2_disabled;

#endif
