/* The memory floor of the blend row (blend_floor.c). */
#ifndef SINEW_BENCH_BLEND_FLOOR_H
#define SINEW_BENCH_BLEND_FLOOR_H

#include <stdint.h>

#include "sinew/core/math.h"

/* out[p] = wa a[p] + wb b[p] on every float of packets [0, n): the bytes a
 * 2-layer blend of whole poses reads and writes, with the least arithmetic
 * over them (no hemisphere test, no normalization, no checks): the
 * plainest loop over those bytes, about the least time a blend of the same
 * poses can take (measured, not proved). Not a blend: its rotations are
 * not unit. The baseline instruction set (4 lanes);
 * bench_blend_floor_avx2 (x86 builds with BENCH_BLEND_FLOOR_AVX2 defined)
 * 8 lanes with fused multiply-adds, only for a CPU that has them. */
void bench_blend_floor(const sw_xform4* a, const sw_xform4* b, float wa, float wb, sw_xform4* out,
                       uint32_t n);
#ifdef BENCH_BLEND_FLOOR_AVX2
void bench_blend_floor_avx2(const sw_xform4* a, const sw_xform4* b, float wa, float wb,
                            sw_xform4* out, uint32_t n);
#endif

#endif
