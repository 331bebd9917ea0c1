/* The ozz-animation side of `sinew bench` (issue #16): ozz 0.16.0's runtime
 * jobs on the same work as sinew's rows, behind a C interface. Compiled
 * (ozz_side.cc, C++, one module per ozz build) only when scripts/anchors
 * has built ozz into the build folder. Model space is ozz's: the
 * skeleton's root is the skin's root joint, below the armature, so points
 * given here are in the armature's space (the caller converts). */
#ifndef SINEW_BENCH_OZZ_SIDE_H
#define SINEW_BENCH_OZZ_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The rows both sides run (the same order as sinew's). */
enum {
    BENCH_STAGE_SEQUENTIAL,  /* sample clip 0, playing forward with a cache/context */
    BENCH_STAGE_SEEK,        /* sample clip 0 at a random time, fresh cache/context */
    BENCH_STAGE_BLEND,       /* blend the two sampled poses, 2 layers */
    BENCH_STAGE_BLEND_FLOOR, /* sinew: the blend's memory floor; ozz: its blend again */
    BENCH_STAGE_L2M,         /* local-to-model of the blended pose */
    BENCH_STAGE_IK,          /* two-bone IK per solve, written into the local pose */
    BENCH_STAGE_FRAME,       /* 2 samples, blend, l2m, 2 x (IK, write, partial l2m) */
    BENCH_STAGES
};

typedef struct bench_ozz bench_ozz;         /* a skeleton and two animations */
typedef struct bench_ozz_set bench_ozz_set; /* per-character state */

/* The functions of one ozz build, from the module built for it (dlopen'ed
 * by bench_ozz_open in ozz.c): each module links its own ozz build (SSE2 or
 * AVX2), whose symbols stay inside it. */
typedef struct bench_ozz_api {
    const char* simd; /* "sse2" or "avx2": the instruction set ozz was built for */
    /* Loads dir/skeleton.ozz and dir/<clip>.ozz for both clips; finds the
     * chains' joints by name. NULL on failure, with a message in err (cap
     * bytes). The caller frees it with free_ozz. */
    bench_ozz* (*load)(const char* dir, const char* const clips[2], const char* const chains[2][3],
                       char* err, size_t cap);
    void (*free_ozz)(bench_ozz* oz);
    /* Joints of the ozz skeleton; bytes of both animations (Animation::size). */
    uint32_t (*joints)(const bench_ozz* oz);
    uint64_t (*bytes)(const bench_ozz* oz);
    const char* (*joint_name)(const bench_ozz* oz, uint32_t joint);
    /* Seconds of clip i (0 or 1). */
    float (*duration)(const bench_ozz* oz, int clip);
    /* Model matrices (column-major, 16 floats per joint, ozz model space) of
     * clip i sampled at `time` seconds, written to out (joints * 16 floats);
     * false when a job failed. */
    bool (*model_at)(const bench_ozz* oz, int clip, float time, float* out);
    /* Per-character state of `chars` characters: clip times (chars * 2,
     * seconds), layer-1 blend weights (chars), IK targets and pole points
     * (chars * 2 * 3 floats, ozz model space); the seek times (seek_count
     * fractions of the clip in [0, 1)) are read in turn. Poses are sampled,
     * blended and converted once. Arrays are copied. NULL on failure. */
    bench_ozz_set* (*set_create)(const bench_ozz* oz, uint32_t chars, const float* times,
                                 const float* weights, const float* targets, const float* poles,
                                 const float* seeks, uint32_t seek_count);
    void (*set_free)(bench_ozz_set* s);
    /* Runs a stage `frames` times over every character; returns ns per
     * character per frame (IK: per solve) of this thread's CPU time, or -1
     * when a job failed. */
    double (*stage_run)(bench_ozz_set* s, int stage, uint32_t frames);
    /* After a full frame: the chains whose IK reported reaching the target,
     * and the largest distance from such an end joint to its target divided
     * by the chain's length. */
    void (*ik_check)(const bench_ozz_set* s, uint32_t* reached, double* worst);
} bench_ozz_api;

/* The one symbol a module exports. */
typedef const bench_ozz_api* (*bench_ozz_api_get_fn)(void);
#define BENCH_OZZ_API_GET "bench_ozz_api_get"

#ifdef __cplusplus
}
#endif

#endif
