/* libFuzzer target: the BVH reader on arbitrary bytes, with and without End
 * Sites; what it accepts is sampled at a few times and sent through
 * local-to-model, so the jobs run on everything the reader lets through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

static volatile float g_sink;

static void fuzz_bvh_run(const sw_bvh_result* r) {
    const sw_skeleton* s = r->skeleton;
    const sw_clip* c = r->clip;
    sw_xform4* local = (sw_xform4*)sw_alloc(NULL, s->packets_count * sizeof(sw_xform4), 16);
    sw_mat4* model = (sw_mat4*)sw_alloc(NULL, s->joints_count * sizeof(sw_mat4), 16);
    uint32_t* cursors = (uint32_t*)malloc((c->tracks_count + 1u) * sizeof(uint32_t));
    if (local && model && cursors) {
        sw_sample_cache cache;
        sw_sample_cache_init(&cache, cursors, c->tracks_count);
        const float times[5] = {0.0f, c->duration * 0.37f, c->duration * 0.5f, c->duration,
                                c->duration + 1.0f};
        for (int i = 0; i < 5; ++i) {
            sw_sample_job sj = {.clip = c,
                                .skeleton = s,
                                .time = times[i],
                                .cache = &cache,
                                .out = local,
                                .out_count = s->packets_count};
            if (sw_sample_job_run(&sj) != SW_RESULT_OK) abort(); /* a valid job must run */
            sw_local_to_model_job lj = {.skeleton = s,
                                        .local = local,
                                        .local_count = s->packets_count,
                                        .out = model,
                                        .out_count = s->joints_count};
            if (sw_local_to_model_job_run(&lj) != SW_RESULT_OK) abort();
            float sum = 0.0f;
            for (uint32_t j = 0; j < s->joints_count; ++j) {
                sw_xform x = sw_pose_get(local, j);
                sum += x.r.w + x.t.x + model[j].m[12];
            }
            g_sink += sum;
        }
    }
    free(cursors);
    sw_free(NULL, model, s->joints_count * sizeof(sw_mat4));
    sw_free(NULL, local, s->packets_count * sizeof(sw_xform4));
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* An exact-size copy, so any read past the end is caught. */
    char* text = (char*)malloc(size ? size : 1u);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    for (int pass = 0; pass < 2; ++pass) {
        sw_bvh_options opt = {pass ? 0.01f : 0.0f, pass == 1, NULL};
        sw_bvh_result r;
        sw_error err;
        sw_result res = sw_bvh_read(text, size, &opt, NULL, &r, &err);
        if (res == SW_RESULT_OK) {
            if (!r.skeleton || !r.clip || r.clip->joints_count != r.skeleton->joints_count) abort();
            fuzz_bvh_run(&r);
            sw_bvh_result_free(&r, NULL);
        } else if (!err.check || err.result != res) {
            abort(); /* every failure names its check */
        }
    }
    free(text);
    return 0;
}
