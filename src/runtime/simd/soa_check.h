/* Agreement of a SoA kernel path (src/runtime/core/internal.h, sw__soa_ops) with
 * the scalar reference: the comparison and its tolerances, shared by
 * tests/unit/test_soa.c (every native path: sse2, sse41, avx2, neon) and the
 * viewer's self-check (viewer/main.c viewer_simd_check: the wasm128 path in
 * the browser), so both hold a path to the same limits. A checking utility
 * over the runtime's private kernel table, in its own private library
 * (sinew_soa_check, not installed, not part of the runtime library); no
 * allocation, no globals. This header needs only public headers: a path is
 * named by its kernel table (struct sw__soa_ops, runtime/core/internal.h,
 * for the tests) or is the fastest one (sw_soa_check_best, for the
 * viewer). */
#ifndef SINEW_RUNTIME_SIMD_SOA_CHECK_H
#define SINEW_RUNTIME_SIMD_SOA_CHECK_H

#include <stdint.h>

#include "sinew/core/math.h"

struct sw__soa_ops; /* a kernel path (runtime/core/internal.h) */

/* Per value of a pose: |path - scalar| <= SW_SOA_PATH_TOL * max(1, |scalar|). */
#define SW_SOA_PATH_TOL 1e-6
/* Per value of a model matrix of a joint `depth` parents below its root:
 * |path - scalar| <= tol * max(1, largest |scalar| of that column) with
 * tol = SW_SOA_PATH_TOL * (depth + 2) (fused multiply-adds and sums of terms
 * much larger than their result make the error track the terms). */
#define SW_SOA_L2M_TOL(depth) (SW_SOA_PATH_TOL * ((double)(depth) + 2.0))
/* Skinning matrices from factors with entries in [-5, 5]: 4 terms of up to 25. */
#define SW_SOA_SKINNING_TOL (4.0 * SW_SOA_PATH_TOL * 25.0)

/* Per value of a skinned vertex (position or normal; random affine palettes
 * with translations up to 5 and scales up to 2): |path - scalar| <= tol *
 * max(1, largest |scalar| of the vertex's 3 values); fused multiply-adds
 * over 4 influences, a normalization, and DQ's rotation of the blended
 * point. */
#define SW_SOA_SKIN_TOL (16.0 * SW_SOA_PATH_TOL)
/* Per value of a morphed vertex with t targets: the same rule with tol =
 * SW_SOA_MORPH_TOL(t). */
#define SW_SOA_MORPH_TOL(t) (SW_SOA_PATH_TOL * ((double)(t) + 1.0))

/* Differences seen so far (zero-initialize, then pass to every comparison). */
typedef struct sw_soa_diff {
    double worst;   /* largest |v - r| / limit (> 1: beyond the tolerance;
                       infinity where one side is NaN and the other not) */
    double max_abs; /* largest |v - r| */
    float worst_v;  /* the values at `worst` */
    float worst_r;
    uint64_t values; /* values compared */
    uint64_t exact;  /* of which bit-identical */
} sw_soa_diff;

/* Compares the 40 * n floats of n packets v (path) and r (scalar) with
 * limit tol * max(1, |r|) per value, folding into *d. Returns the largest
 * |v - r| / limit of this call. */
double sw_soa_packets_diff(const sw_xform4* v, const sw_xform4* r, uint32_t n, double tol,
                           sw_soa_diff* d);

/* Compares n matrices with limit tol * max(1, largest |r| of the column) per
 * value, folding into *d. Returns the largest |v - r| / limit of this call. */
double sw_soa_mats_diff(const sw_mat4* v, const sw_mat4* r, uint32_t n, double tol, sw_soa_diff* d);

enum {
    SW_SOA_CHECK_BLEND,
    SW_SOA_CHECK_ADDITIVE_MAKE,
    SW_SOA_CHECK_ADDITIVE_APPLY,
    SW_SOA_CHECK_INTERP,
    SW_SOA_CHECK_LOCAL_TO_MODEL,
    SW_SOA_CHECK_SKINNING,
    SW_SOA_CHECK_SKIN_LBS,
    SW_SOA_CHECK_SKIN_DQ,
    SW_SOA_CHECK_MORPH,
    SW_SOA_CHECK_KERNELS
};

/* Compares n vertices of 3 floats with limit tol * max(1, largest |r| of
 * the vertex) per value, folding into *d. Returns the largest |v - r| /
 * limit of this call. */
double sw_soa_vec3_diff(const float* v, const float* r, uint32_t n, double tol, sw_soa_diff* d);

/* Kernel name of check index k ("blend", ...), "?" when out of range. */
const char* sw_soa_check_kernel_name(int k);

/* The self-check: runs every kernel of `path` and of sw__soa_scalar on the
 * same random inputs (`rounds` rounds from `seed`: 64 joints of poses with
 * either rotation sign, layer and joint weights outside [0, 1], a random
 * parent-first tree with sub-tree updates, skinning through a joint table,
 * vertex skinning (linear and dual quaternion, 1 to 4 influences, unused
 * slots holding indices past the palette, both normal modes, scaled and
 * rigid palettes) and morph targets) and compares them with the tolerances
 * above, one sw_soa_diff per kernel in out[SW_SOA_CHECK_KERNELS]. Uses
 * about 48 KB of stack. Returns the largest
 * `worst` (<= 1: the path agrees). */
double sw_soa_check(const struct sw__soa_ops* path, uint32_t seed, uint32_t rounds,
                    sw_soa_diff out[SW_SOA_CHECK_KERNELS]);

/* sw_soa_check on the fastest path this build and machine run (the one the
 * runtime's jobs use); *path_name (when not NULL) receives its name
 * ("sse2", "avx2", "neon", "wasm128", ...; static). */
double sw_soa_check_best(uint32_t seed, uint32_t rounds, sw_soa_diff out[SW_SOA_CHECK_KERNELS],
                         const char** path_name);

#endif
