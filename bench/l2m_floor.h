/* The floor of local-to-model for bench_runtime (l2m_floor.c). */
#ifndef SINEW_BENCH_L2M_FLOOR_H
#define SINEW_BENCH_L2M_FLOOR_H

#include <stdint.h>

#include "sinew/core/math.h"

/* out[j] = out[parents[j]] * local[j] (local[j] for a root) for j < n, in
 * joint order: the dependent products of local-to-model alone, from affine
 * local matrices already in sw_mat4 form (no SoA conversion, no job
 * checks). Subnormals flushed for the call, as the SIMD kernels do. The
 * baseline instruction set; bench_l2m_floor_avx2 (x86 builds with
 * BENCH_L2M_FLOOR_AVX2 defined) the same with AVX2 and fused multiply-adds,
 * only for a CPU that has them. */
void bench_l2m_floor(const sw_mat4* local, const int16_t* parents, uint32_t n, sw_mat4* out);
void bench_l2m_floor_avx2(const sw_mat4* local, const int16_t* parents, uint32_t n, sw_mat4* out);

#endif
