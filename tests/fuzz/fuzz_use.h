/* What the fuzz targets do with whatever a reader accepted, the way a game
 * would: each clip sampled at a few times (float tracks too, with a forward
 * cache), sent through local-to-model, and each mesh's palette skinned from
 * those model matrices, every vertex, index and palette entry read. Results
 * go to a volatile so nothing is optimised away; ASan/UBSan catch any read
 * the validation let through, abort() any broken promise (a valid job that
 * fails, an index out of range). Header-only: each target is one program. */
#ifndef SINEW_FUZZ_USE_H
#define SINEW_FUZZ_USE_H

#include <stdint.h>
#include <stdlib.h>

#include "sinew/sinew.h"

static volatile float g_fuzz_sink;

/* Skins mesh m's palette from model matrices (when m belongs to s) and
 * reads every vertex, index and palette entry. */
static void fuzz_use_mesh(const sw_skeleton* s, const sw_mesh* m, const sw_mat4* model) {
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
    }
    sw_mat4* skin = (sw_mat4*)sw_alloc(NULL, (m->palette_count + 1u) * sizeof(sw_mat4), 16);
    if (skin && model && m->palette_count > 0) {
        sw_skinning_job job = {.model = model,
                               .model_count = s->joints_count,
                               .joints = pal,
                               .inverse_bind = sw_mesh_inverse_binds(m),
                               .count = m->palette_count,
                               .out = skin,
                               .out_count = m->palette_count};
        if (sw_skinning_job_run(&job) != SW_RESULT_OK) abort(); /* a loaded mesh skins */
        for (uint32_t k = 0; k < m->palette_count; ++k)
            sum += skin[k].m[0] + skin[k].m[15];
    }
    sw_free(NULL, skin, (m->palette_count + 1u) * sizeof(sw_mat4));
    g_fuzz_sink += sum;
}

/* Samples clip c (of skeleton s) at five times, local-to-model each pose,
 * and skins the meshes with the last one. */
static void fuzz_use_clip(const sw_skeleton* s, const sw_clip* c, const sw_mesh* const* meshes,
                          uint32_t meshes_count) {
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
                                .cache = (i & 1) ? NULL : &cache,
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
            g_fuzz_sink += sum;
        }
        for (uint32_t m = 0; m < meshes_count; ++m)
            fuzz_use_mesh(s, meshes[m], model);
    }
    free(floats);
    free(cursors);
    sw_free(NULL, model, s->joints_count * sizeof(sw_mat4));
    sw_free(NULL, local, s->packets_count * sizeof(sw_xform4));
}

/* Everything of one skeleton: every clip (skinning every mesh), and the
 * meshes once more without a pose when there is no clip. */
static void fuzz_use_all(const sw_skeleton* s, const sw_clip* const* clips, uint32_t clips_count,
                         const sw_mesh* const* meshes, uint32_t meshes_count) {
    for (uint32_t c = 0; c < clips_count; ++c) {
        if (clips[c]->joints_count != s->joints_count) abort();
        fuzz_use_clip(s, clips[c], meshes, meshes_count);
    }
    if (clips_count == 0) {
        for (uint32_t m = 0; m < meshes_count; ++m)
            fuzz_use_mesh(s, meshes[m], NULL);
    }
}

#endif
