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

/* One packet per outer step, its 40 floats unrolled (no loop overhead
 * within a packet: 6 instructions per 4 lanes on SSE2, 4 per 8 on avx2). */
void BENCH_BLEND_FLOOR_NAME(const sw_xform4* a, const sw_xform4* b, float wa, float wb,
                            sw_xform4* out, uint32_t n) {
#if defined(__AVX2__) && defined(__FMA__)
    const __m256 va = _mm256_set1_ps(wa), vb = _mm256_set1_ps(wb);
#elif SW__SIMD4_AVAILABLE
    const sw__v4 va = sw__v4_set1(wa), vb = sw__v4_set1(wb);
#endif
    for (uint32_t p = 0; p < n; ++p) {
        const float* x = a[p].tx;
        const float* y = b[p].tx;
        float* o = out[p].tx;
#if defined(__AVX2__) && defined(__FMA__)
#pragma GCC unroll 8
        for (size_t i = 0; i < BENCH_FLOOR_FLOATS; i += 8)
            _mm256_storeu_ps(o + i, _mm256_fmadd_ps(vb, _mm256_loadu_ps(y + i),
                                                    _mm256_mul_ps(va, _mm256_loadu_ps(x + i))));
#elif SW__SIMD4_AVAILABLE
#pragma GCC unroll 16
        for (size_t i = 0; i < BENCH_FLOOR_FLOATS; i += 4)
            sw__v4_store(o + i,
                         sw__v4_madd(vb, sw__v4_load(y + i), sw__v4_mul(va, sw__v4_load(x + i))));
#else
        for (size_t i = 0; i < BENCH_FLOOR_FLOATS; ++i)
            o[i] = wb * y[i] + wa * x[i];
#endif
    }
}
