/* The floor of local-to-model (l2m_floor.h): the same parent-first chains
 * as the runtime's kernels, with their register reuse (a joint that follows
 * its parent reads the parent's columns from registers), 12 multiply-adds
 * per joint on 4-lane columns, each local element broadcast from memory.
 * Compiled once for the baseline and, through l2m_floor_avx2.c, with -mavx2
 * -mfma on x86 (the instruction set of sinew's avx2 path). */
#include "l2m_floor.h"

#include "runtime/simd/simd4.h"

#ifndef BENCH_L2M_FLOOR_NAME
#define BENCH_L2M_FLOOR_NAME bench_l2m_floor
#endif

#if SW__SIMD4_AVAILABLE
void BENCH_L2M_FLOOR_NAME(const sw_mat4* local, const int16_t* parents, uint32_t n, sw_mat4* out) {
    const sw__fp_mode mode = sw__fp_flush_begin();
    sw__v4 c0 = sw__v4_zero(), c1 = c0, c2 = c0, c3 = c0;
    int32_t last = -2; /* no joint */
    for (uint32_t j = 0; j < n; ++j) {
        const float* l = local[j].m;
        const int32_t parent = parents[j];
        if (parent < 0) {
            c0 = sw__v4_loadu(l);
            c1 = sw__v4_loadu(l + 4);
            c2 = sw__v4_loadu(l + 8);
            c3 = sw__v4_loadu(l + 12);
        } else {
            if (parent != last) {
                const float* pm = out[parent].m;
                c0 = sw__v4_loadu(pm);
                c1 = sw__v4_loadu(pm + 4);
                c2 = sw__v4_loadu(pm + 8);
                c3 = sw__v4_loadu(pm + 12);
            }
/* Column k of the product: the parent's columns times column k of l. */
#define SW__COL(k, first)                                                                          \
    sw__v4_madd(c2, sw__v4_set1(l[4 * (k) + 2]),                                                   \
                sw__v4_madd(c1, sw__v4_set1(l[4 * (k) + 1]), (first)))
            const sw__v4 r0 = SW__COL(0, sw__v4_mul(c0, sw__v4_set1(l[0])));
            const sw__v4 r1 = SW__COL(1, sw__v4_mul(c0, sw__v4_set1(l[4])));
            const sw__v4 r2 = SW__COL(2, sw__v4_mul(c0, sw__v4_set1(l[8])));
            c3 = SW__COL(3, sw__v4_madd(c0, sw__v4_set1(l[12]), c3));
#undef SW__COL
            c0 = r0;
            c1 = r1;
            c2 = r2;
        }
        float* o = out[j].m;
        sw__v4_storeu(o, c0);
        sw__v4_storeu(o + 4, c1);
        sw__v4_storeu(o + 8, c2);
        sw__v4_storeu(o + 12, c3);
        last = (int32_t)j;
    }
    sw__fp_flush_end(mode);
}
#else
/* No SIMD: the same products in scalar code. */
void BENCH_L2M_FLOOR_NAME(const sw_mat4* local, const int16_t* parents, uint32_t n, sw_mat4* out) {
    for (uint32_t j = 0; j < n; ++j) {
        if (parents[j] < 0) {
            out[j] = local[j];
            continue;
        }
        const float* p = out[parents[j]].m;
        const float* l = local[j].m;
        for (int k = 0; k < 4; ++k)
            for (int r = 0; r < 4; ++r)
                out[j].m[4 * k + r] = p[r] * l[4 * k] + p[4 + r] * l[4 * k + 1] +
                                      p[8 + r] * l[4 * k + 2] + p[12 + r] * l[4 * k + 3];
    }
}
#endif
