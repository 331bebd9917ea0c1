/* The memory floor of the blend row (blend_floor.h): every float of both
 * layers loaded once, weighted, summed and stored once, in packet order.
 * Compiled once for the baseline (4 lanes: SSE2, NEON) and, through
 * blend_floor_avx2.c, with -mavx2 -mfma on x86 (8 lanes, sinew's avx2
 * path's instruction set). */
#include "blend_floor.h"

#include <stddef.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#else
#include "runtime/simd/simd4.h"
#endif

#ifndef BENCH_BLEND_FLOOR_NAME
#define BENCH_BLEND_FLOOR_NAME bench_blend_floor
#endif

#define BENCH_FLOOR_FLOATS (sizeof(sw_xform4) / sizeof(float)) /* 40 per packet */

void BENCH_BLEND_FLOOR_NAME(const sw_xform4* a, const sw_xform4* b, float wa, float wb,
                            sw_xform4* out, uint32_t n) {
    const float* x = a->tx;
    const float* y = b->tx;
    float* o = out->tx;
    const size_t count = (size_t)n * BENCH_FLOOR_FLOATS;
#if defined(__AVX2__) && defined(__FMA__)
    const __m256 va = _mm256_set1_ps(wa), vb = _mm256_set1_ps(wb);
    for (size_t i = 0; i < count; i += 8)
        _mm256_storeu_ps(o + i, _mm256_fmadd_ps(vb, _mm256_loadu_ps(y + i),
                                                _mm256_mul_ps(va, _mm256_loadu_ps(x + i))));
#elif SW__SIMD4_AVAILABLE
    const sw__v4 va = sw__v4_set1(wa), vb = sw__v4_set1(wb);
    for (size_t i = 0; i < count; i += 4)
        sw__v4_store(o + i,
                     sw__v4_madd(vb, sw__v4_load(y + i), sw__v4_mul(va, sw__v4_load(x + i))));
#else
    for (size_t i = 0; i < count; ++i)
        o[i] = wb * y[i] + wa * x[i];
#endif
}
