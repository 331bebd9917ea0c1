/* 60_crowd: a crowd of 400 characters on a worker pool, with LOD.
 *
 *     example_60_crowd [A.bvh] [B.bvh]
 *
 * Defaults: Debian's CMU walks 01_01.bvh and 01_03.bvh (same skeleton). Each character plays
 * a 1D blend space between the two clips at its own blend and phase; they
 * stand on a 20 x 20 grid 1.5 m apart, and the viewpoint walks across it.
 * LOD: full detail within 8 m, every 2nd frame from 8 m, every 4th frame
 * with leaf joints at rest from 16 m. A 2 ms budget is set; a program feeds
 * it the measured update time, this one a fixed 1 ms so that its two runs
 * can be compared (the crowd never reads a clock). The same frames are run on a
 * 2-thread pool and without a pool: the outputs must be byte-identical (exit
 * code 1 otherwise). Prints per-level counts, evaluations and timings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sinew/scale/crowd.h"
#include "sinew/tools/readers/asset.h"

/* Opens a BVH file (CMU units to metres) with its first clip; 1 on failure. */
static int open_bvh(const char* path, sw_asset* out) {
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    opt.scale = 0.056444f;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_asset_open(path, &opt, out, &err);
    if (r != SW_RESULT_OK || out->clips_count == 0) {
        fprintf(stderr, "%s: %s (%s)\n", path, sw_result_str(r), err.check ? err.check : "no clip");
        if (r == SW_RESULT_OK) sw_asset_free(out);
        return 1;
    }
    return 0;
}

static double seconds(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

enum { SIDE = 20, COUNT = SIDE * SIDE, FRAMES = 90 };

/* Runs FRAMES frames of a fresh crowd; returns the update seconds in total
 * and keeps the model matrices of the last frame in `models`. */
static int run(const sw_animator_bound* bound, sw_pool* pool, sw_mat4* models, double* total) {
    const sw_crowd_level levels[] = {{0.0f, 1, 0}, {8.0f, 2, 0}, {16.0f, 4, 1}};
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = bound;
    d.characters_count = COUNT;
    d.threads = 2;
    d.levels = levels;
    d.levels_count = 3;
    d.budget = 0.002f;
    sw_crowd* crowd = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_crowd_create(&d, NULL, &crowd, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "crowd: %s (%s)\n", sw_result_str(r), err.check);
        return 1;
    }
    for (uint32_t i = 0; i < COUNT; ++i) {
        sw_crowd_set_position(crowd, i,
                              (sw_vec3){1.5f * (float)(i % SIDE), 0.0f, 1.5f * (float)(i / SIDE)});
        sw_crowd_params(crowd, i)[0] = (float)(i % 7u) / 6.0f; /* blend */
        uint32_t events = 0;                                   /* spread the phases */
        sw_animator_update(sw_crowd_instance(crowd, i), bound, sw_crowd_params(crowd, i), 1,
                           0.0311f * (float)(i % 37u), NULL, 0, &events, NULL);
    }
    *total = 0.0;
    const sw_skeleton* sk = sw_animator_bound_skeleton(bound);
    for (int f = 0; f < FRAMES; ++f) {
        const sw_vec3 eye = {0.3f * (float)f, 1.7f, 15.0f};
        const double t0 = seconds();
        r = sw_crowd_update(crowd, 1.0f / 60.0f, eye, pool);
        const double t = seconds() - t0;
        if (r != SW_RESULT_OK) {
            fprintf(stderr, "update: %s\n", sw_result_str(r));
            sw_crowd_destroy(crowd);
            return 1;
        }
        *total += t;
        /* a program would feed t here */
        sw_crowd_feed_time(crowd, 0.001f);
        if (f % 30 == 29) {
            sw_crowd_stats st;
            sw_crowd_get_stats(crowd, &st);
            printf("  frame %2d: levels %3u %3u %3u, %3u evaluated, %3u interpolated, %.2f ms\n", f,
                   st.per_level[0], st.per_level[1], st.per_level[2], st.evaluations,
                   st.interpolated, t * 1e3);
        }
    }
    for (uint32_t i = 0; i < COUNT; ++i)
        memcpy(models + (size_t)i * sk->joints_count, sw_crowd_model(crowd, i),
               sizeof(sw_mat4) * sk->joints_count);
    sw_crowd_destroy(crowd);
    return 0;
}

int main(int argc, char** argv) {
    const char* pa = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
    const char* pb = argc > 2 ? argv[2] : "/usr/share/assimp/models/BVH/01_03.bvh";
    sw_asset a, b;
    if (open_bvh(pa, &a)) return 1;
    if (open_bvh(pb, &b)) {
        sw_asset_free(&a);
        return 1;
    }
    const sw_clip* clips[2] = {a.clips[0], b.clips[0]};
    const sw_animator_param_desc params[] = {{"blend", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f}};
    const sw_animator_member_desc members[] = {{sw_clip_name(clips[0]), 0.0f, 0.0f},
                                               {sw_clip_name(clips[1]), 1.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"mix", "blend", NULL, members, 2, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Mix", SW_ANIMATOR_MOTION_BLEND_SPACE, "mix", false, 0.0f, NULL}};
    const sw_animator_machine_desc machines[] = {{"Main", states, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 1,
                                   .blend_spaces = spaces,
                                   .blend_spaces_count = 1,
                                   .machines = machines,
                                   .machines_count = 1,
                                   .layers = layers,
                                   .layers_count = 1,
                                   .root_motion_joint = "Hips"};
    const sw_animator* def = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    if (sw_animator_create(&desc, NULL, &def, &err) != SW_RESULT_OK) return 1;
    const sw_skeleton* skel = a.skeleton;
    const size_t bound_size = sw_animator_bound_size(def, skel);
    void* bound_mem = sw_alloc(NULL, bound_size, 16);
    const sw_animator_bound* bound = NULL;
    if (sw_animator_bind(def, skel, clips, 2, bound_mem, bound_size, &bound, &err) != SW_RESULT_OK)
        return 1;

    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    const uint32_t leaves = sw_crowd_joint_detail(skel, 0.0f, detail, SW_SKELETON_MAX_JOINTS);
    printf("%u characters, %u joints, %u leaf joints at rest beyond 16 m:", COUNT,
           skel->joints_count, leaves);
    for (uint32_t j = 0; j < skel->joints_count; ++j)
        if (detail[j]) printf(" %s", sw_skeleton_joint_name(skel, j));
    printf("\n");

    const size_t models_bytes = sizeof(sw_mat4) * skel->joints_count * COUNT;
    sw_mat4* m1 = (sw_mat4*)malloc(models_bytes);
    sw_mat4* m2 = (sw_mat4*)malloc(models_bytes);
    sw_pool* pool = NULL;
    int status = 0;
    double t1 = 0.0, t2 = 0.0;
    if (!m1 || !m2 || sw_pool_create(2, NULL, &pool) != SW_RESULT_OK) {
        status = 1;
    } else {
        printf("without a pool:\n");
        status |= run(bound, NULL, m1, &t1);
        printf("on a pool of 2 threads:\n");
        status |= run(bound, pool, m2, &t2);
    }
    if (status == 0) {
        const bool same = memcmp(m1, m2, models_bytes) == 0;
        printf("model matrices after %d frames: %s\n", FRAMES,
               same ? "byte-identical with and without the pool" : "DIFFER");
        printf("update time: %.2f ms per frame alone, %.2f ms on 2 threads (ratio %.2f; "
               "timings vary with the machine's load)\n",
               t1 * 1e3 / FRAMES, t2 * 1e3 / FRAMES, t1 / t2);
        status = same ? 0 : 1;
    }
    sw_pool_destroy(pool);
    free(m1);
    free(m2);
    sw_free(NULL, bound_mem, bound_size);
    sw_animator_destroy(def, NULL);
    sw_asset_free(&a);
    sw_asset_free(&b);
    return status;
}
