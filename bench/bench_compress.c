/* bench_compress: decoding a compressed clip against sampling the raw one.
 *
 *     bench_compress [FILE.bvh] [--runs N] [--precision P] [--shell D]
 *
 * Compresses the clip (default: CMU 01_01, precision 0.01, shell 3 in file
 * units), then times the sampling job on the raw and on the compressed clip
 * in one process: forward playback at 60 Hz with a cache, and random seeks
 * without one. One character, poses kept warm in cache (the same buffers
 * every call). Each figure is the median over N runs (default 51) of the
 * mean over 2000 poses (short runs, so that the median drops the ones a
 * busy machine preempted), in ns per pose and ns per joint, timed with
 * the thread's CPU clock (time spent preempted is not counted). Not a test: it
 * reports, it does not gate. */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/readers/bvh.h"

#define POSES 2000
#define MAX_RUNS 101

typedef struct run_ctx {
    const sw_skeleton* skel;
    const sw_clip* clip;
    sw_xform4* pose;
    sw_sample_cache* cache;
    float* seeks; /* POSES random times */
    double sink;
} run_ctx;

/* Mean ns per pose over POSES poses. */
static double run_once(run_ctx* c, bool forward) {
    const float dt = 1.0f / 60.0f;
    float t = 0.0f;
    const double t0 = bench_thread_ns();
    for (int i = 0; i < POSES; ++i) {
        if (forward) {
            t += dt;
            if (t > c->clip->duration) t = 0.0f;
        } else {
            t = c->seeks[i];
        }
        const sw_sample_job job = {.clip = c->clip,
                                   .skeleton = c->skel,
                                   .time = t,
                                   .cache = forward ? c->cache : NULL,
                                   .out = c->pose,
                                   .out_count = c->skel->packets_count};
        if (sw_sample_job_run(&job) != SW_RESULT_OK) {
            fprintf(stderr, "bench_compress: sampling failed\n");
            exit(1);
        }
        c->sink += (double)c->pose[0].rx[0];
    }
    return (bench_thread_ns() - t0) / POSES;
}

static double measure(run_ctx* c, bool forward, int runs) {
    double v[MAX_RUNS];
    run_once(c, forward); /* warm up */
    for (int r = 0; r < runs; ++r)
        v[r] = run_once(c, forward);
    return bench_median(v, runs);
}

int main(int argc, char** argv) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    int runs = 51;
    float precision = 0.01f, shell = 3.0f;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
            if (runs < 1) runs = 1;
            if (runs > MAX_RUNS) runs = MAX_RUNS;
        } else if (strcmp(argv[i], "--precision") == 0 && i + 1 < argc) {
            precision = strtof(argv[++i], NULL);
        } else if (strcmp(argv[i], "--shell") == 0 && i + 1 < argc) {
            shell = strtof(argv[++i], NULL);
        } else {
            path = argv[i];
        }
    }
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_compress: cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char* text = (char*)malloc((size_t)n);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        fprintf(stderr, "bench_compress: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    sw_bvh_result bvh;
    sw_error err;
    if (sw_bvh_read(text, (size_t)n, NULL, NULL, &bvh, &err) != SW_RESULT_OK) {
        fprintf(stderr, "bench_compress: %s: %s\n", path, err.check);
        return 1;
    }
    free(text);
    sw_compress_options o = {.precision = precision, .shell = shell};
    sw_compress_stats st;
    const sw_clip* packed = NULL;
    if (sw_compress_clip(bvh.skeleton, bvh.clip, &o, NULL, &packed, &st, &err) != SW_RESULT_OK) {
        fprintf(stderr, "bench_compress: compress: %s\n", err.check);
        return 1;
    }
    const uint32_t joints = bvh.skeleton->joints_count;
    printf("%s: %u joints, %u samples; %llu -> %llu bytes (ratio %.2f), max error %.5f, "
           "compressed in %.2f s\n",
           path, joints, st.samples_count, (unsigned long long)st.raw_bytes,
           (unsigned long long)st.compressed_bytes, st.ratio, (double)st.error.max, st.seconds);

    sw_xform4* pose =
        (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * bvh.skeleton->packets_count);
    uint32_t* cursors = (uint32_t*)calloc(bvh.clip->tracks_count + 1u, sizeof(uint32_t));
    float* seeks = (float*)malloc(sizeof(float) * POSES);
    if (!pose || !cursors || !seeks) return 1;
    uint32_t rng = 12345u;
    for (int i = 0; i < POSES; ++i) {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        seeks[i] = (float)(rng >> 8) / 16777216.0f * bvh.clip->duration;
    }
    sw_sample_cache cache;
    printf("%-34s %12s %12s\n", "sampling (median of runs)", "ns/pose", "ns/joint");
    double figures[4];
    const sw_clip* clips[2] = {bvh.clip, packed};
    const char* names[2] = {"raw", "compressed"};
    for (int c = 0; c < 2; ++c) {
        sw_sample_cache_init(&cache, cursors, clips[c]->tracks_count + 1u);
        run_ctx ctx = {bvh.skeleton, clips[c], pose, &cache, seeks, 0.0};
        figures[2 * c] = measure(&ctx, true, runs);
        figures[2 * c + 1] = measure(&ctx, false, runs);
        char label[64];
        snprintf(label, sizeof label, "%s, forward 60 Hz (cache)", names[c]);
        printf("%-34s %12.1f %12.2f\n", label, figures[2 * c], figures[2 * c] / joints);
        snprintf(label, sizeof label, "%s, random seek", names[c]);
        printf("%-34s %12.1f %12.2f\n", label, figures[2 * c + 1], figures[2 * c + 1] / joints);
        if (ctx.sink == 12345.678) printf("\n");
    }
    printf("compressed / raw: forward %.3f, seek %.3f\n", figures[2] / figures[0],
           figures[3] / figures[1]);
    free(pose);
    free(cursors);
    free(seeks);
    sw_clip_destroy(packed, NULL);
    sw_bvh_result_free(&bvh, NULL);
    return 0;
}
