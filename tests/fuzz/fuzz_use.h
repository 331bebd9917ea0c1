/* What the fuzz targets do with whatever a reader accepted, the way a game
 * would: each clip sampled at a few times (float tracks too, with a forward
 * cache), sent through local-to-model, and each mesh's palette skinned from
 * those model matrices, every vertex, index and palette entry read, its
 * vertices morphed (weights from the clip's weight tracks) and skinned on
 * the CPU, linear blend and dual quaternion. Results
 * go to a volatile so nothing is optimised away; ASan/UBSan catch any read
 * the validation let through, abort() any broken promise (a valid job that
 * fails, an index out of range). Header-only: each target is one program. */
#ifndef SINEW_FUZZ_USE_H
#define SINEW_FUZZ_USE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"

static volatile float g_fuzz_sink;

/* Deforms mesh m on the CPU as a renderer would: morph targets weighted
 * from clip c's weight tracks (`floats`, as sampled; no clip: weights 0),
 * then linear blend skinning with `skin` (palette matrices from `model`)
 * and dual quaternion skinning with the DQ palette of the same matrices.
 * A job fails only on what it documents: morphing on a non-finite weight,
 * LBS on a palette matrix that is not finite and affine (a product of a
 * far pose and an inverse bind may overflow); a palette LBS accepts makes a
 * DQ palette the DQ skin job accepts. */
static void fuzz_deform(const sw_mesh* m, const sw_mat4* model, uint32_t model_count,
                        const sw_mat4* skin, const sw_clip* c, const float* floats,
                        uint32_t floats_count) {
    const uint32_t v = m->vertices_count, t = m->morph_targets_count;
    const bool normals = sw_mesh_normals(m) != NULL;
    float* buf = (float*)malloc((12u * (size_t)v + t + 1u) * sizeof(float));
    int32_t* tracks = (int32_t*)malloc((t + 1u) * sizeof(int32_t));
    sw_dq_transform* dq =
        (sw_dq_transform*)sw_alloc(NULL, (m->palette_count + 1u) * sizeof(sw_dq_transform), 16);
    if (buf && tracks && dq) {
        float *pos = buf, *nrm = buf + 3u * v, *out = buf + 6u * v, *out_n = buf + 9u * v;
        float* weights = buf + 12u * v;
        bool finite = true;
        memset(tracks, 0xff, (t + 1u) * sizeof(int32_t)); /* -1: no track */
        sw_morph_tracks(m, c, tracks, t);
        sw_morph_weights_gather(tracks, t, floats, floats_count, weights);
        for (uint32_t k = 0; k < t; ++k)
            finite = finite && isfinite(weights[k]);
        const sw_morph_job mj = {.mesh = m,
                                 .weights = weights,
                                 .weights_count = t,
                                 .out_positions = pos,
                                 .out_normals = normals ? nrm : NULL,
                                 .out_count = v};
        const bool morphed = sw_morph_job_run(&mj) == SW_RESULT_OK;
        if (!morphed && finite) abort(); /* finite weights morph */
        sw_skin_job sj = {.mesh = m,
                          .palette = skin,
                          .palette_count = m->palette_count,
                          .positions = morphed ? pos : NULL,
                          .normals = morphed && normals ? nrm : NULL,
                          .normals_mode = SW_SKIN_NORMALS_COFACTOR,
                          .out_positions = out,
                          .out_normals = normals ? out_n : NULL,
                          .out_count = v};
        if (sw_skin_job_run(&sj) == SW_RESULT_OK) {
            const sw_dq_palette_job dj = {.model = model,
                                          .model_count = model_count,
                                          .joints = sw_mesh_palette(m),
                                          .inverse_bind = sw_mesh_inverse_binds(m),
                                          .count = m->palette_count,
                                          .out = dq,
                                          .out_count = m->palette_count};
            if (sw_dq_palette_job_run(&dj) != SW_RESULT_OK) abort();
            sj.palette = NULL;
            sj.dq_palette = dq;
            sj.normals_mode = SW_SKIN_NORMALS_MATRIX;
            if (sw_skin_job_run(&sj) != SW_RESULT_OK) abort();
            if (v > 0) g_fuzz_sink += out[0] + out[3u * v - 1u] + (normals ? out_n[2] : 0.0f);
        }
    }
    sw_free(NULL, dq, (m->palette_count + 1u) * sizeof(sw_dq_transform));
    free(tracks);
    free(buf);
}

/* Skins mesh m's palette from model matrices (when m belongs to s), reads
 * every vertex, index and palette entry, and deforms its vertices
 * (fuzz_deform; clip c and its sampled floats give the morph weights). */
static void fuzz_use_mesh(const sw_skeleton* s, const sw_mesh* m, const sw_mat4* model,
                          const sw_clip* c, const float* floats, uint32_t floats_count) {
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
        fuzz_deform(m, model, s->joints_count, skin, c, floats, floats_count);
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
            fuzz_use_mesh(s, meshes[m], model, c, floats, c->float_tracks_count);
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
            fuzz_use_mesh(s, meshes[m], NULL, NULL, NULL, 0);
    }
}

#endif
