/* bench_runtime: per-frame runtime cost on the 31-joint CMU skeleton.
 *
 *     bench_runtime [FILE.bvh] [--runs N]
 *
 * Stages: sampling (sequential playback with a cache, and random seeks),
 * a 2-layer blend, local-to-model, for one character and for a batch of
 * 1000 characters at different times (each with its own cache and poses).
 * Every figure is the median over N runs (default 15) of the mean time per
 * character; printed as ns per character and ns per joint. Blend and
 * local-to-model run on each kernel path compiled in, and the
 * scalar-to-SSE2 ratio is measured in the same process. Not a test: it
 * reports, it does not gate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/internal.h"
#include "sinew/tools/bvh.h"

#define BATCH 1000u
#define MAX_RUNS 101

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void* a, const void* b) {
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double median(double* v, int n) {
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct bench {
    const sw_skeleton* skel;
    const sw_clip* clip;
    uint32_t characters;
    sw_xform4* poses_a;  /* characters * packets */
    sw_xform4* poses_b;
    sw_xform4* blended;
    sw_mat4* model;      /* characters * joints */
    uint32_t* cursors;   /* characters * tracks */
    sw_sample_cache* caches;
    float* times;        /* per character */
    uint32_t rng;
} bench;

static float next_rand(bench* b) {
    b->rng ^= b->rng << 13;
    b->rng ^= b->rng >> 17;
    b->rng ^= b->rng << 5;
    return (float)(b->rng >> 8) / 16777216.0f;
}

typedef enum stage { STAGE_SEQUENTIAL, STAGE_SEEK, STAGE_BLEND, STAGE_L2M } stage;

/* Runs one stage for every character `frames` times; returns ns per character per frame. */
static double run_stage(bench* b, stage s, const sw__soa_ops* ops, int frames) {
    const uint32_t packets = b->skel->packets_count;
    const uint32_t joints = b->skel->joints_count;
    const float duration = b->clip->duration;
    double t0 = now_ns();
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
                const sw_sample_job job = {
                    .clip = b->clip, .skeleton = b->skel, .time = t,
                    .cache = s == STAGE_SEQUENTIAL ? &b->caches[c] : NULL,
                    .out = b->poses_a + (size_t)c * packets, .out_count = packets};
                r = sw_sample_job_run(&job);
            } else if (s == STAGE_BLEND) {
                const float w = (float)(c % 17u) / 16.0f;
                const sw_blend_layer layers[2] = {
                    {.pose = b->poses_a + (size_t)c * packets, .weight = 1.0f - w},
                    {.pose = b->poses_b + (size_t)c * packets, .weight = w}};
                const sw_blend_job job = {.layers = layers, .layers_count = 2,
                                          .rest_pose = sw_skeleton_rest_pose(b->skel),
                                          .packets_count = packets,
                                          .out = b->blended + (size_t)c * packets,
                                          .out_count = packets};
                r = sw__blend_job_run_with(&job, ops);
            } else {
                const sw_local_to_model_job job = {
                    .skeleton = b->skel, .local = b->blended + (size_t)c * packets,
                    .local_count = packets, .out = b->model + (size_t)c * joints,
                    .out_count = joints};
                r = sw__local_to_model_job_run_with(&job, ops);
            }
            if (r != SW_RESULT_OK) {
                fprintf(stderr, "bench: job failed: %s\n", sw_result_str(r));
                exit(1);
            }
        }
    }
    return (now_ns() - t0) / ((double)frames * (double)b->characters);
}

static double measure(bench* b, stage s, const sw__soa_ops* ops, int runs) {
    double v[MAX_RUNS];
    /* About 2 million joint evaluations per run, whatever the batch size. */
    int frames = (int)(64000u / b->characters);
    if (frames < 1) frames = 1;
    run_stage(b, s, ops, frames); /* warm up */
    for (int i = 0; i < runs; ++i) v[i] = run_stage(b, s, ops, frames);
    return median(v, runs);
}

static void setup(bench* b, const sw_skeleton* skel, const sw_clip* clip, uint32_t characters) {
    memset(b, 0, sizeof *b);
    b->skel = skel;
    b->clip = clip;
    b->characters = characters;
    b->rng = 0x9E3779B9u;
    const size_t packets = (size_t)skel->packets_count * characters;
    b->poses_a = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->poses_b = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->blended = aligned_alloc(16, packets * sizeof(sw_xform4));
    b->model = aligned_alloc(16, (size_t)skel->joints_count * characters * sizeof(sw_mat4));
    b->cursors = calloc((size_t)clip->tracks_count * characters + 1u, sizeof(uint32_t));
    b->caches = calloc(characters, sizeof(sw_sample_cache));
    b->times = calloc(characters, sizeof(float));
    if (!b->poses_a || !b->poses_b || !b->blended || !b->model || !b->cursors || !b->caches ||
        !b->times) {
        fprintf(stderr, "bench: out of memory\n");
        exit(1);
    }
    for (uint32_t c = 0; c < characters; ++c) {
        sw_sample_cache_init(&b->caches[c], b->cursors + (size_t)c * clip->tracks_count,
                             clip->tracks_count);
        b->times[c] = next_rand(b) * clip->duration;
        /* Fill both layers with real poses at different times. */
        const sw_sample_job ja = {.clip = clip, .skeleton = skel, .time = b->times[c],
                                  .out = b->poses_a + (size_t)c * skel->packets_count,
                                  .out_count = skel->packets_count};
        const sw_sample_job jb = {.clip = clip, .skeleton = skel,
                                  .time = next_rand(b) * clip->duration,
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
    free(b->cursors);
    free(b->caches);
    free(b->times);
}

static void row(const char* name, double ns, uint32_t joints) {
    printf("  %-34s %9.1f ns/character %7.2f ns/joint\n", name, ns, ns / joints);
}

int main(int argc, char** argv) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    int runs = 15;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else {
            path = argv[i];
        }
    }
    if (runs < 1 || runs > MAX_RUNS) runs = 15;

    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench: cannot open %s (install assimp-testmodels)\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char* text = n > 0 ? malloc((size_t)n) : NULL;
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        fprintf(stderr, "bench: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    sw_bvh_result bvh = {0};
    sw_error err = {0};
    if (sw_bvh_read(text, (size_t)n, NULL, NULL, &bvh, &err) != SW_RESULT_OK) {
        fprintf(stderr, "bench: %s: %s\n", path, err.check ? err.check : "read failed");
        return 1;
    }
    free(text);

    const uint32_t joints = bvh.skeleton->joints_count;
    printf("sinew runtime benchmark: %s, %u joints, %u tracks, %u frames\n", path, joints,
           bvh.clip->tracks_count, bvh.frames_read);
    printf("median of %d runs; ns per character per frame and per joint\n", runs);

    const sw__soa_ops* paths[2] = {&sw__soa_scalar, NULL};
#if SINEW_HAS_SSE2
    paths[1] = &sw__soa_sse2;
#endif
    const uint32_t sizes[2] = {1, BATCH};
    for (int si = 0; si < 2; ++si) {
        bench b;
        setup(&b, bvh.skeleton, bvh.clip, sizes[si]);
        printf("\n%u character%s:\n", sizes[si], sizes[si] > 1 ? "s at different times" : "");
        row("sample, sequential (cache)", measure(&b, STAGE_SEQUENTIAL, NULL, runs), joints);
        row("sample, random seek", measure(&b, STAGE_SEEK, NULL, runs), joints);
        double blend[2] = {0, 0}, l2m[2] = {0, 0};
        for (int p = 0; p < 2; ++p) {
            if (!paths[p]) continue;
            char name[64];
            blend[p] = measure(&b, STAGE_BLEND, paths[p], runs);
            snprintf(name, sizeof name, "blend 2 layers (%s)", paths[p]->name);
            row(name, blend[p], joints);
            l2m[p] = measure(&b, STAGE_L2M, paths[p], runs);
            snprintf(name, sizeof name, "local-to-model (%s)", paths[p]->name);
            row(name, l2m[p], joints);
        }
        if (paths[1]) {
            printf("  scalar/sse2 ratio: blend %.2fx, local-to-model %.2fx\n", blend[0] / blend[1],
                   l2m[0] / l2m[1]);
        }
        teardown(&b);
    }
    sw_bvh_result_free(&bvh, NULL);
    return 0;
}
