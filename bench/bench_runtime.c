/* bench_runtime: per-frame kernel-level runtime cost, per kernel path.
 *
 *     bench_runtime [FILE ...] [--runs N] [--callgrind blend|l2m|floor|quantized PATH]
 *
 * FILE: any file sw_asset_open reads (default: the 31-joint CMU 01_01.bvh,
 * and $SINEW_ASSETS/RobotExpressive.glb when SINEW_ASSETS is set). Layer A
 * samples the first clip (glTF: "Walking" when present), layer B the second
 * (glTF: "Running"), both at different times per character.
 * Stages: sampling (sequential playback with a cache, and random seeks),
 * a 2-layer blend and local-to-model, for 8 and for 1000 characters (each
 * with its own cache and poses). Times are this thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID), so time spent descheduled on a busy machine
 * does not count (cache pollution by other processes still does). Every
 * figure is the median over N runs
 * (default 15) of the mean time per character; printed as ns per character
 * and ns per joint. Blend and local-to-model run on every kernel path this
 * CPU supports (sw__soa_paths), in one process, with the ratio to scalar.
 * --callgrind runs only that stage on that path, 1000 frames of 8
 * characters, for `valgrind --tool=callgrind --toggle-collect=<job>_run_with`
 * instruction counts; "quantized" is sequential playback of the first clip
 * compressed as `sinew bench` compresses it (1 mm at 0.1 m; the path is
 * unused: --toggle-collect=sw_sample_job_run); "floor" is local-to-model's
 * floor (below; --toggle-collect=bench_l2m_floor or bench_l2m_floor_avx2).
 * The floor rows time the dependent parent-times-local products alone
 * (l2m_floor.h: the blended pose's local matrices made beforehand, no
 * conversion, no job checks) on the same chains, baseline and avx2. Not a
 * test: it reports, it does not gate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "l2m_floor.h"
#include "runtime/core/internal.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/readers/asset.h"

#define BATCH 1000u
#define MAX_RUNS 101

typedef struct bench {
    const sw_skeleton* skel;
    const sw_clip* clip;   /* layer A, sampled by the sampling stages */
    const sw_clip* clip_b; /* layer B */
    uint32_t characters;
    sw_xform4* poses_a; /* characters * packets */
    sw_xform4* poses_b;
    sw_xform4* blended;
    sw_mat4* model; /* characters * joints */
    sw_mat4* local; /* characters * joints: the blended pose's local matrices (floor) */
    void (*floor)(const sw_mat4* local, const int16_t* parents, uint32_t n, sw_mat4* out);
    uint32_t* cursors; /* characters * sw_sample_cache_size(clip) */
    sw_sample_cache* caches;
    float* times; /* per character */
    uint32_t rng;
} bench;

static float next_rand(bench* b) {
    b->rng ^= b->rng << 13;
    b->rng ^= b->rng >> 17;
    b->rng ^= b->rng << 5;
    return (float)(b->rng >> 8) / 16777216.0f;
}

typedef enum stage { STAGE_SEQUENTIAL, STAGE_SEEK, STAGE_BLEND, STAGE_L2M, STAGE_FLOOR } stage;

/* Runs one stage for every character `frames` times; returns ns per character per frame. */
static double run_stage(bench* b, stage s, const sw__soa_ops* ops, int frames) {
    const uint32_t packets = b->skel->packets_count;
    const uint32_t joints = b->skel->joints_count;
    const float duration = b->clip->duration;
    double t0 = bench_thread_ns();
    for (int f = 0; f < frames; ++f) {
        for (uint32_t c = 0; c < b->characters; ++c) {
            sw_result r = SW_RESULT_OK;
            if (s == STAGE_SEQUENTIAL || s == STAGE_SEEK) {
                float t;
                if (s == STAGE_SEQUENTIAL) {
                    t = b->times[c] + 1.0f / 60.0f;
                    if (t > duration) t = 0.0f;
                    b->times[c] = t;
                } else {
                    t = next_rand(b) * duration;
                }
                const sw_sample_job job = {.clip = b->clip,
                                           .skeleton = b->skel,
                                           .time = t,
                                           .cache = s == STAGE_SEQUENTIAL ? &b->caches[c] : NULL,
                                           .out = b->poses_a + (size_t)c * packets,
                                           .out_count = packets};
                r = sw_sample_job_run(&job);
            } else if (s == STAGE_BLEND) {
                const float w = (float)(c % 17u) / 16.0f;
                const sw_blend_layer layers[2] = {
                    {.pose = b->poses_a + (size_t)c * packets, .weight = 1.0f - w},
                    {.pose = b->poses_b + (size_t)c * packets, .weight = w}};
                const sw_blend_job job = {.layers = layers,
                                          .layers_count = 2,
                                          .rest_pose = sw_skeleton_rest_pose(b->skel),
                                          .packets_count = packets,
                                          .out = b->blended + (size_t)c * packets,
                                          .out_count = packets};
                r = sw__blend_job_run_with(&job, ops);
            } else if (s == STAGE_FLOOR) {
                b->floor(b->local + (size_t)c * joints, sw_skeleton_parents(b->skel), joints,
                         b->model + (size_t)c * joints);
            } else {
                const sw_local_to_model_job job = {.skeleton = b->skel,
                                                   .local = b->blended + (size_t)c * packets,
                                                   .local_count = packets,
                                                   .out = b->model + (size_t)c * joints,
                                                   .out_count = joints};
                r = sw__local_to_model_job_run_with(&job, ops);
            }
            if (r != SW_RESULT_OK) {
                fprintf(stderr, "bench: job failed: %s\n", sw_result_str(r));
                exit(1);
            }
        }
    }
    return (bench_thread_ns() - t0) / ((double)frames * (double)b->characters);
}

static double measure(bench* b, stage s, const sw__soa_ops* ops, int runs) {
    double v[MAX_RUNS];
    /* About 2 million joint evaluations per run, whatever the batch size. */
    int frames = (int)(64000u / b->characters);
    if (frames < 1) frames = 1;
    run_stage(b, s, ops, frames); /* warm up */
    for (int i = 0; i < runs; ++i)
        v[i] = run_stage(b, s, ops, frames);
    return bench_median(v, runs);
}

static void setup(bench* b, const sw_skeleton* skel, const sw_clip* clip, const sw_clip* clip_b,
                  uint32_t characters) {
    memset(b, 0, sizeof *b);
    b->skel = skel;
    b->clip = clip;
    b->clip_b = clip_b;
    b->characters = characters;
    b->rng = 0x9E3779B9u;
    const size_t packets = (size_t)skel->packets_count * characters;
    b->poses_a = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->poses_b = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->blended = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->model = aligned_alloc(16, (size_t)skel->joints_count * characters * sizeof(sw_mat4));
    b->local = aligned_alloc(16, (size_t)skel->joints_count * characters * sizeof(sw_mat4));
    const uint32_t per = sw_sample_cache_size(clip);
    b->cursors = calloc((size_t)per * characters + 1u, sizeof(uint32_t));
    b->caches = calloc(characters, sizeof(sw_sample_cache));
    b->times = calloc(characters, sizeof(float));
    if (!b->poses_a || !b->poses_b || !b->blended || !b->model || !b->local || !b->cursors ||
        !b->caches || !b->times) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (uint32_t c = 0; c < characters; ++c) {
        sw_sample_cache_init(&b->caches[c], b->cursors + (size_t)c * per, per);
        b->times[c] = next_rand(b) * clip->duration;
        /* Fill both layers with real poses at different times. */
        const sw_sample_job ja = {.clip = clip,
                                  .skeleton = skel,
                                  .time = b->times[c],
                                  .out = b->poses_a + (size_t)c * skel->packets_count,
                                  .out_count = skel->packets_count};
        const sw_sample_job jb = {.clip = clip_b,
                                  .skeleton = skel,
                                  .time = next_rand(b) * clip_b->duration,
                                  .out = b->poses_b + (size_t)c * skel->packets_count,
                                  .out_count = skel->packets_count};
        if (sw_sample_job_run(&ja) != SW_RESULT_OK || sw_sample_job_run(&jb) != SW_RESULT_OK) {
            fprintf(stderr, "bench: sampling failed\n");
            exit(1);
        }
    }
}

static void teardown(bench* b) {
    free(b->poses_a);
    free(b->poses_b);
    free(b->blended);
    free(b->model);
    free(b->local);
    free(b->cursors);
    free(b->caches);
    free(b->times);
}

/* The floor's input: every character's blended pose as local matrices
 * (the scalar path with every joint a root). */
static void floor_prepare(bench* b, const sw__soa_ops* scalar) {
    const uint32_t joints = b->skel->joints_count, packets = b->skel->packets_count;
    int16_t roots[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < joints; ++j)
        roots[j] = -1;
    run_stage(b, STAGE_BLEND, scalar, 1);
    for (uint32_t c = 0; c < b->characters; ++c)
        scalar->local_to_model(b->blended + (size_t)c * packets, NULL, roots, joints, 0, NULL, NULL,
                               b->local + (size_t)c * joints);
}

/* The floor built for path `name`: avx2 when this CPU runs sinew's avx2
 * path, else the baseline. */
static void floor_pick(bench* b, const char* name) {
    b->floor = bench_l2m_floor;
#if defined(BENCH_L2M_FLOOR_AVX2)
    if (strcmp(name, "avx2") == 0) b->floor = bench_l2m_floor_avx2;
#else
    (void)name;
#endif
}

static void row(const char* name, double ns, uint32_t joints) {
    printf("  %-34s %9.1f ns/character %7.2f ns/joint\n", name, ns, ns / joints);
}

/* Index of the clip named `name`, else `fallback` (when it exists), else 0. */
static uint32_t pick_clip(const sw_asset* a, const char* name, uint32_t fallback) {
    int32_t i = sw_asset_find_clip(a, name);
    if (i >= 0) return (uint32_t)i;
    return fallback < a->clips_count ? fallback : 0u;
}

static int bench_file(const char* path, int runs, const char* cg_stage, const char* cg_path) {
    sw_asset asset;
    sw_error err = {0};
    if (sw_asset_open(path, NULL, &asset, &err) != SW_RESULT_OK || asset.clips_count == 0) {
        fprintf(stderr, "bench: %s: %s\n", path, err.check ? err.check : "no clip");
        return 1;
    }
    const sw_skeleton* skel = asset.skeleton;
    const sw_clip* ca = asset.clips[pick_clip(&asset, "Walking", 0)];
    const sw_clip* cb = asset.clips[pick_clip(&asset, "Running", 1)];
    const uint32_t joints = skel->joints_count;
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);

    if (cg_stage) {
        const sw__soa_ops* ops = NULL;
        for (uint32_t p = 0; p < paths_count; ++p)
            if (strcmp(paths[p]->name, cg_path) == 0) ops = paths[p];
        if (!ops) {
            fprintf(stderr, "bench: no path %s on this CPU\n", cg_path);
            sw_asset_free(&asset);
            return 1;
        }
        const bool quantized = strcmp(cg_stage, "quantized") == 0;
        const sw_clip* qa = NULL;
        const sw_compress_options copt = {.precision = 0.001f, .shell = 0.1f};
        if (quantized && sw_compress_clip(skel, ca, &copt, NULL, &qa, NULL, &err) != SW_RESULT_OK) {
            fprintf(stderr, "bench: compressing: %s\n", err.check ? err.check : "?");
            sw_asset_free(&asset);
            return 1;
        }
        bench b;
        setup(&b, skel, quantized ? qa : ca, cb, 8);
        const bool floor = strcmp(cg_stage, "floor") == 0;
        if (floor) {
            floor_prepare(&b, paths[0]);
            floor_pick(&b, ops->name);
        }
        run_stage(&b, STAGE_BLEND, ops, 1); /* the blended pose l2m reads */
        run_stage(&b,
                  quantized                        ? STAGE_SEQUENTIAL
                  : strcmp(cg_stage, "blend") == 0 ? STAGE_BLEND
                  : floor                          ? STAGE_FLOOR
                                                   : STAGE_L2M,
                  ops, 1000);
        printf("%s %s on %s: 8000 runs, %u packets each\n", cg_stage, ops->name, path,
               skel->packets_count);
        teardown(&b);
        if (qa) sw_clip_destroy(qa, NULL);
        sw_asset_free(&asset);
        return 0;
    }

    printf("\n%s: %u joints (%u packets), clips \"%s\" and \"%s\"\n", path, joints,
           skel->packets_count, sw_clip_name(ca), sw_clip_name(cb));
    printf("median of %d runs; ns per character per frame and per joint\n", runs);
    const uint32_t sizes[2] = {8, BATCH};
    for (int si = 0; si < 2; ++si) {
        bench b;
        setup(&b, skel, ca, cb, sizes[si]);
        printf("%u characters at different times:\n", sizes[si]);
        row("sample, sequential (cache)", measure(&b, STAGE_SEQUENTIAL, NULL, runs), joints);
        row("sample, random seek", measure(&b, STAGE_SEEK, NULL, runs), joints);
        double blend[8] = {0}, l2m[8] = {0};
        for (uint32_t p = 0; p < paths_count && p < 8; ++p) {
            char name[64];
            blend[p] = measure(&b, STAGE_BLEND, paths[p], runs);
            snprintf(name, sizeof name, "blend 2 layers (%s)", paths[p]->name);
            row(name, blend[p], joints);
        }
        for (uint32_t p = 0; p < paths_count && p < 8; ++p) {
            char name[64];
            l2m[p] = measure(&b, STAGE_L2M, paths[p], runs);
            snprintf(name, sizeof name, "local-to-model (%s)", paths[p]->name);
            row(name, l2m[p], joints);
        }
        for (uint32_t p = 1; p < paths_count && p < 8; ++p)
            printf("  scalar/%s ratio: blend %.2fx, local-to-model %.2fx\n", paths[p]->name,
                   blend[0] / blend[p], l2m[0] / l2m[p]);
        floor_prepare(&b, paths[0]);
        for (uint32_t p = 1; p < paths_count && p < 8; ++p) {
            if (p != 1 && strcmp(paths[p]->name, "avx2") != 0) continue; /* baseline, avx2 */
            char name[64];
            floor_pick(&b, paths[p]->name);
            const double ns = measure(&b, STAGE_FLOOR, NULL, runs);
            snprintf(name, sizeof name, "local-to-model floor (%s)", paths[p]->name);
            row(name, ns, joints);
            printf("  local-to-model (%s) / its floor: %.2fx\n", paths[p]->name, l2m[p] / ns);
        }
        teardown(&b);
    }
    sw_asset_free(&asset);
    return 0;
}

int main(int argc, char** argv) {
    const char* files[16];
    int files_count = 0, runs = 15;
    const char* cg_stage = NULL;
    const char* cg_path = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--callgrind") == 0 && i + 2 < argc) {
            cg_stage = argv[++i];
            cg_path = argv[++i];
        } else if (files_count < 16) {
            files[files_count++] = argv[i];
        }
    }
    if (runs < 1 || runs > MAX_RUNS) runs = 15;
    static char robot[4096];
    if (files_count == 0) {
        files[files_count++] = "/usr/share/assimp/models/BVH/01_01.bvh";
        const char* assets = getenv("SINEW_ASSETS");
        if (assets && *assets) {
            snprintf(robot, sizeof robot, "%s/RobotExpressive.glb", assets);
            files[files_count++] = robot;
        }
    }
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    if (!cg_stage) {
        printf("sinew runtime benchmark; kernel paths on this CPU:");
        for (uint32_t p = 0; p < paths_count; ++p)
            printf(" %s", paths[p]->name);
        printf("\n");
    }
    int rc = 0;
    for (int f = 0; f < files_count; ++f)
        rc |= bench_file(files[f], runs, cg_stage, cg_path);
    return rc;
}
