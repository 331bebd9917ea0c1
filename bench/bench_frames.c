/* bench_frames: sampling cost per character, raw vs frames codec, on
 * RobotExpressive (issue #9's reference rig: Walking and Running).
 *
 *     bench_frames [FILE.glb] [--runs N] [--frames F] [--characters A,B]
 *
 * FILE defaults to $SINEW_ASSETS/RobotExpressive.glb (else
 * ../shared/assets/RobotExpressive.glb).
 *
 * N characters (default 8 and 1000), each with its own clip (Walking and
 * Running alternately), time, cache and output pose, sample one clip per
 * frame: sequential playback (1/60 s steps from different phases, wrapping)
 * and random seeks. Each figure is the median over N runs (default 15) of
 * the mean thread CPU ns per character per frame. Also prints clip sizes. Not a test:
 * it reports, it does not gate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "runtime/core/internal.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/readers/gltf.h"

#define MAX_RUNS 101

static uint32_t g_rng = 0x9e3779b9u;
static float next_rand(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 17;
    g_rng ^= g_rng << 5;
    return (float)(g_rng >> 8) / 16777216.0f;
}

static volatile float g_sink;

/* ns per character per frame for `chars` characters over `frames` frames. */
static double run(const sw_skeleton* skel, const sw_clip* const clips[2], uint32_t chars, bool seek,
                  int frames, sw_xform4* poses, uint32_t* cursors, sw_sample_cache* caches,
                  float* times, uint32_t tracks) {
    const uint32_t P = skel->packets_count;
    for (uint32_t c = 0; c < chars; ++c) {
        sw_sample_cache_init(&caches[c], cursors + (size_t)c * tracks, tracks);
        times[c] = next_rand() * clips[c & 1u]->duration;
    }
    const double t0 = bench_thread_ns();
    for (int f = 0; f < frames; ++f) {
        for (uint32_t c = 0; c < chars; ++c) {
            const sw_clip* clip = clips[c & 1u];
            float t;
            if (seek) {
                t = next_rand() * clip->duration;
            } else {
                t = times[c] + 1.0f / 60.0f;
                if (t > clip->duration) t -= clip->duration;
                times[c] = t;
            }
            const sw_sample_job job = {.clip = clip,
                                       .skeleton = skel,
                                       .time = t,
                                       .cache = &caches[c],
                                       .out = poses + (size_t)c * P,
                                       .out_count = P};
            if (sw_sample_job_run(&job) != SW_RESULT_OK) abort();
        }
    }
    const double ns = (bench_thread_ns() - t0) / ((double)frames * chars);
    g_sink = poses[0].rx[1];
    return ns;
}

int main(int argc, char** argv) {
    /* Default: $SINEW_ASSETS/RobotExpressive.glb, else ../shared/assets. */
    char def[1024];
    const char* dir = getenv("SINEW_ASSETS");
    snprintf(def, sizeof def, "%s/RobotExpressive.glb", dir ? dir : "../shared/assets");
    const char* path = def;
    int runs = 15, frames = 0;
    uint32_t counts[2] = {8u, 1000u};
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--characters") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%u,%u", &counts[0], &counts[1]) != 2) return 2;
        } else {
            path = argv[i];
        }
    }
    if (runs < 1 || runs > MAX_RUNS) runs = 15;
    sw_scene scene;
    memset(&scene, 0, sizeof scene);
    sw_error err;
    if (sw_gltf_read_file(path, NULL, NULL, &scene, &err) != SW_RESULT_OK) {
        fprintf(stderr, "bench_frames: cannot read %s (%s)\n", path, err.check);
        return 1;
    }
    const sw_clip* raw[2] = {NULL, NULL};
    for (uint32_t i = 0; i < scene.clips_count; ++i) {
        if (strcmp(sw_clip_name(scene.clips[i]), "Walking") == 0) raw[0] = scene.clips[i];
        if (strcmp(sw_clip_name(scene.clips[i]), "Running") == 0) raw[1] = scene.clips[i];
    }
    if (!raw[0] || !raw[1]) {
        fprintf(stderr, "bench_frames: no Walking and Running clips in %s\n", path);
        return 1;
    }
    const sw_skeleton* skel = scene.skeleton;
    const sw_clip* fr[2] = {NULL, NULL};
    for (int k = 0; k < 2; ++k) {
        sw_frames_stats st;
        if (sw_frames_build(skel, raw[k], NULL, NULL, &fr[k], &st, &err) != SW_RESULT_OK) {
            fprintf(stderr, "bench_frames: frames build failed (%s)\n", err.check);
            return 1;
        }
        printf("%-8s raw %u bytes, frames %u bytes (%u frames at %g Hz, %u animated packets of "
               "%u), max error %.3g m at a 1 m shell\n",
               sw_clip_name(raw[k]), raw[k]->size, fr[k]->size, st.frames_count, (double)st.rate,
               st.animated_packets, skel->packets_count, (double)st.error.max);
    }
    printf("%u joints, %u packets, %s kernels\n", skel->joints_count, skel->packets_count,
           sw__soa_best()->name);
    const uint32_t most = counts[0] > counts[1] ? counts[0] : counts[1];
    uint32_t tracks =
        raw[0]->tracks_count > raw[1]->tracks_count ? raw[0]->tracks_count : raw[1]->tracks_count;
    sw_xform4* poses =
        (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * skel->packets_count * most);
    uint32_t* cursors = (uint32_t*)calloc((size_t)most * tracks, sizeof(uint32_t));
    sw_sample_cache* caches = (sw_sample_cache*)calloc(most, sizeof(sw_sample_cache));
    float* times = (float*)calloc(most, sizeof(float));
    if (!poses || !cursors || !caches || !times) return 1;
    static const char* names[2] = {"raw", "frames"};
    for (int codec = 0; codec < 2; ++codec) {
        const sw_clip* const* clips = codec ? fr : raw;
        for (int n = 0; n < 2; ++n) {
            for (int seek = 0; seek < 2; ++seek) {
                const uint32_t chars = counts[n];
                const int f = frames > 0 ? frames : (int)(8000u / chars + 1u);
                double v[MAX_RUNS];
                run(skel, clips, chars, seek != 0, 1, poses, cursors, caches, times, tracks);
                for (int r = 0; r < runs; ++r)
                    v[r] = run(skel, clips, chars, seek != 0, f, poses, cursors, caches, times,
                               tracks);
                printf("%-6s %4u characters %-10s %8.1f ns per character\n", names[codec], chars,
                       seek ? "seek" : "sequential", bench_median(v, runs));
            }
        }
    }
    free(poses);
    free(cursors);
    free(caches);
    free(times);
    sw_clip_destroy(fr[0], NULL);
    sw_clip_destroy(fr[1], NULL);
    sw_scene_free(&scene, NULL);
    return 0;
}
