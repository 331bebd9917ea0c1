/* libFuzzer target: the glTF reader on arbitrary bytes (as .glb or .gltf
 * text, no resolver, so external URIs are refused). What it accepts is
 * sampled at a few times per clip (float tracks included), sent through
 * local-to-model, and every mesh vertex, index and palette entry is read,
 * so the jobs run on everything the reader lets through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/gltf.h"

static volatile float g_sink;

static void fuzz_gltf_clip(const sw_skeleton* s, const sw_clip* c) {
    sw_xform4* local = (sw_xform4*)sw_alloc(NULL, s->packets_count * sizeof(sw_xform4), 16);
    sw_mat4* model = (sw_mat4*)sw_alloc(NULL, s->joints_count * sizeof(sw_mat4), 16);
    uint32_t* cursors = (uint32_t*)malloc((c->tracks_count + 1u) * sizeof(uint32_t));
    float* floats = (float*)malloc((c->float_tracks_count + 1u) * sizeof(float));
    if (local && model && cursors && floats) {
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
                                .out_count = s->packets_count,
                                .floats = floats,
                                .floats_count = c->float_tracks_count};
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
            for (uint32_t f = 0; f < c->float_tracks_count; ++f)
                sum += floats[f];
            g_sink += sum;
        }
    }
    free(floats);
    free(cursors);
    sw_free(NULL, model, s->joints_count * sizeof(sw_mat4));
    sw_free(NULL, local, s->packets_count * sizeof(sw_xform4));
}

static void fuzz_gltf_mesh(const sw_skeleton* s, const sw_mesh* m) {
    const float* p = sw_mesh_positions(m);
    const float* w = sw_mesh_weights(m);
    const uint16_t* j = sw_mesh_joints(m);
    const uint32_t* idx = sw_mesh_indices(m);
    const uint16_t* pal = sw_mesh_palette(m);
    float sum = 0.0f;
    if (m->skeleton_joints_count != s->joints_count) abort();
    for (uint32_t v = 0; v < m->vertices_count; ++v) {
        sum += p[3u * v] + p[3u * v + 1u] + p[3u * v + 2u];
        for (uint32_t k = 0; k < 4; ++k) {
            if (w[4u * v + k] > 0.0f && j[4u * v + k] >= m->palette_count) abort();
            sum += w[4u * v + k];
        }
    }
    for (uint32_t i = 0; i < m->indices_count; ++i) {
        if (idx[i] >= m->vertices_count) abort();
    }
    for (uint32_t k = 0; k < m->palette_count; ++k) {
        if (pal[k] >= s->joints_count) abort();
        sum += sw_mesh_inverse_binds(m)[k].m[0];
    }
    g_sink += sum;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* An exact-size copy, so any read past the end is caught. */
    uint8_t* copy = (uint8_t*)malloc(size ? size : 1u);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    sw_scene scene;
    sw_error err;
    sw_result r = sw_gltf_read(copy, size, NULL, NULL, &scene, &err);
    if (r == SW_RESULT_OK) {
        const sw_skeleton* s = scene.skeleton;
        if (!s) abort();
        for (uint32_t c = 0; c < scene.clips_count; ++c) {
            if (scene.clips[c]->joints_count != s->joints_count) abort();
            fuzz_gltf_clip(s, scene.clips[c]);
        }
        for (uint32_t m = 0; m < scene.meshes_count; ++m)
            fuzz_gltf_mesh(s, scene.meshes[m]);
        sw_scene_free(&scene, NULL);
    } else if (!err.check || err.result != r || scene.skeleton || scene.clips_count) {
        abort(); /* every failure names its check and leaves nothing behind */
    }
    free(copy);
    return 0;
}
