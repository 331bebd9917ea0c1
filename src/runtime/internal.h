/* Internal declarations shared by the runtime's .c files and its tests.
 * Not installed; names use the sw__ prefix. */
#ifndef SINEW_RUNTIME_INTERNAL_H
#define SINEW_RUNTIME_INTERNAL_H

#include "sinew/sinew.h"

#if !defined(SINEW_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define SINEW_HAS_SSE2 1
#else
#define SINEW_HAS_SSE2 0
#endif

/* Kernels over SoA packets. Every path (scalar reference, SSE2) implements
 * the same contract; tests run both and require agreement within 1e-6. */
typedef struct sw__soa_ops {
    const char* name; /* "scalar", "sse2" */
    /* The 4 lanes of `in` as column-major matrices (t + r * (s * p)). */
    void (*to_mat4)(const sw_xform4* in, sw_mat4 out[4]);
    /* out = a * b. out may not alias a or b. */
    void (*mat4_mul)(const sw_mat4* a, const sw_mat4* b, sw_mat4* out);
    /* acc += w * in per lane; the rotation of `in` is negated in lanes where
     * dot(acc.r, in.r) < 0 before being added. */
    void (*blend_add)(sw_xform4* acc, const sw_xform4* in, const float w[4]);
    /* Finishes a normal blend: per lane, with W = wsum[lane] and
     * fill = max(0, threshold - W), result = (acc + fill * rest) / max(W, threshold)
     * for translation and scale; rotation = normalize(acc.r + fill * rest.r
     * with rest.r brought to acc.r's hemisphere). threshold > 0. */
    void (*blend_finish)(sw_xform4* acc, const float wsum[4], const sw_xform4* rest,
                         float threshold);
    /* io = io with delta applied at weight w per lane:
     * t += w * dt; r = normalize(r * nlerp(identity, dr, w)) with dr taken on
     * the hemisphere w >= 0; s *= 1 + w * (ds - 1). */
    void (*additive_apply)(sw_xform4* io, const sw_xform4* delta, const float w[4]);
    /* out = delta of pose against ref: t = pose.t - ref.t,
     * r = conj(ref.r) * pose.r, s = pose.s / ref.s (1 where ref.s == 0). */
    void (*additive_make)(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out);
} sw__soa_ops;

extern const sw__soa_ops sw__soa_scalar;
#if SINEW_HAS_SSE2
extern const sw__soa_ops sw__soa_sse2;
#endif
/* The fastest path compiled in (SSE2 where available, else scalar). */
const sw__soa_ops* sw__soa_best(void);

/* Job runners with an explicit kernel path, for tests and benchmarks. The
 * public _run functions call these with sw__soa_best(). */
sw_result sw__blend_job_run_with(const sw_blend_job* job, const sw__soa_ops* ops);
sw_result sw__local_to_model_job_run_with(const sw_local_to_model_job* job,
                                          const sw__soa_ops* ops);
sw_result sw__make_additive_job_run_with(const sw_make_additive_job* job,
                                         const sw__soa_ops* ops);
sw_result sw__apply_additive_job_run_with(const sw_apply_additive_job* job,
                                          const sw__soa_ops* ops);

/* True when [a, a + an) and [b, b + bn) share a byte. */
static inline bool sw__overlaps(const void* a, size_t an, const void* b, size_t bn) {
    const char* pa = (const char*)a;
    const char* pb = (const char*)b;
    if (!a || !b || an == 0 || bn == 0) return false;
    return pa < pb + bn && pb < pa + an;
}

static inline bool sw__aligned16(const void* p) {
    return ((uintptr_t)p & 15u) == 0;
}

/* Finds the first i such that name(ctx, i) equals an earlier name; -1 when
 * all `count` names are distinct. count <= 1024 (a stack hash table of twice
 * that many slots). Defined in skeleton.c, used for joint and float track
 * names. */
int64_t sw__first_duplicate_name(const char* (*name)(const void* ctx, uint32_t i), const void* ctx,
                                 uint32_t count);

/* Fills err (when not NULL) and returns r. */
static inline sw_result sw__fail(sw_error* err, sw_result r, const char* check, uint64_t offset,
                                 int64_t index) {
    if (err) {
        err->result = r;
        err->check = check;
        err->offset = offset;
        err->index = index;
    }
    return r;
}

#endif
