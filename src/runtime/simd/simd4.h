/* Portable 4-wide float SIMD for the runtime's SoA kernels.
 *
 * Includes exactly one ISA header; each defines the same static inline API
 * (names sw__v4_*, sw__m4_*) and SW__SIMD4_NAME:
 *   simd4_sse.h   x86 SSE2 (SSE4.1 / FMA instructions when the translation
 *                 unit is compiled with -msse4.1 / -mavx2 -mfma)
 *   simd4_neon.h  __ARM_NEON on AArch64 (32-bit ARM: scalar)
 *   simd4_wasm.h  __wasm_simd128__
 * SW__SIMD4_AVAILABLE is 1 when one was included, 0 otherwise (SINEW_NO_SIMD
 * or an unknown target); the scalar kernels never need this header.
 *
 * API (every header):
 *   types  sw__v4 (4 floats), sw__m4 (per lane all ones or all zeros)
 *   sw__v4_load(p) (16-byte aligned), sw__v4_loadu(p), sw__v4_store(p, v)
 *     (aligned), sw__v4_storeu(p, v), sw__v4_set1(x), sw__v4_set(l0..l3),
 *     sw__v4_zero()
 *   sw__v4_add/sub/mul/div/min/max(a, b), sw__v4_neg(a), sw__v4_abs(a)
 *     (min/max of a NaN lane is unspecified)
 *   sw__v4_madd(a, b, c) = a*b + c, fused where the ISA has FMA;
 *   sw__v4_nmadd(a, b, c) = c - a*b (same)
 *   sw__v4_sqrt(a); sw__v4_rsqrt(a) = 1/sqrt(a), relative error <= 2e-7
 *   sw__v4_rsqrt_fast(a) = 1/sqrt(a) for normal positive a, relative error
 *     <= 4e-7 (a header defining SW__V4_HAS_RSQRT_FAST has a cheaper form,
 *     > 0 exactly in those lanes; else it is sw__v4_rsqrt); zero and
 *     denormal lanes are otherwise unspecified
 *   sw__v4_cmplt/cmple/cmpgt/cmpge/cmpeq(a, b) -> sw__m4
 *   sw__v4_select(m, a, b) = m ? a : b per lane
 *   sw__v4_negate_where(m, a): flips a's sign bit where m
 *   sw__v4_sign_of(a): +-1.0f with a's sign bit (-0.0f -> -1.0f)
 *   sw__v4_xor_sign(a, s): a with its sign bit xored by s's sign bit
 *   sw__m4_and/or/andnot(a, b) (andnot = a & ~b), sw__m4_bits(m): bit i = lane i
 *   sw__v4_lane0(v), sw__v4_splat0/1/2/3(v), sw__v4_floor(a) (exact for
 *     |a| < 2^23)
 *   sw__v4_yzx(a) = (a1, a2, a0, a3)
 *   sw__v4_wzyx(a) = (a3, a2, a1, a0), sw__v4_zwxy(a) = (a2, a3, a0, a1),
 *   sw__v4_yxwz(a) = (a1, a0, a3, a2)
 *   sw__v4_xyz_w(a, b) = (a0, a1, a2, b3)
 *   SW__V4_TRANSPOSE(a, b, c, d): transposes 4 sw__v4 lvalues in place
 *   sw__fp_flush_begin() -> sw__fp_mode: this thread's float results below
 *     FLT_MIN become 0 and such inputs read as 0 until sw__fp_flush_end(mode)
 *     puts the previous mode back (x86: MXCSR FTZ and DAZ, where a subnormal
 *     result or operand costs a microcode assist of about 100 cycles per
 *     instruction; elsewhere a no-op). For kernels that only multiply and
 *     add, never around a test of a length against 0. */
#ifndef SINEW_RUNTIME_SIMD4_H
#define SINEW_RUNTIME_SIMD4_H

#if defined(SINEW_NO_SIMD)
#define SW__SIMD4_AVAILABLE 0
#elif defined(__SSE2__) || defined(_M_X64)
#include "simd4_sse.h"
#define SW__SIMD4_AVAILABLE 1
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include "simd4_neon.h"
#define SW__SIMD4_AVAILABLE 1
#elif defined(__wasm_simd128__)
#include "simd4_wasm.h"
#define SW__SIMD4_AVAILABLE 1
#else
#define SW__SIMD4_AVAILABLE 0
#endif

#if SW__SIMD4_AVAILABLE && !defined(SW__V4_HAS_RSQRT_FAST)
static inline sw__v4 sw__v4_rsqrt_fast(sw__v4 a) {
    return sw__v4_rsqrt(a);
}
#endif

#endif
