/* What the fuzz targets do with an animator definition that bound, the way
 * a game drives a character: eight frames of update and evaluate with
 * parameters taken from the input bytes, a hit applied at frame 2 and a
 * steering input at frame 5 (sw_animator_apply_hit, sw_animator_apply_move),
 * each clip event's name read, and the morph weights of the character's
 * meshes read as the animator plays them; the instance keeps quantized
 * clips' keys when the first input byte is odd (sw_animator_keep), and the
 * bound object takes the clips' shared tables when its bit 1 is set
 * (sw_animator_bind_tables). Every
 * pose and every root motion must come out finite; valid calls that fail
 * abort(). Header-only: each target is one program. */
#ifndef SINEW_FUZZ_ANIMATOR_H
#define SINEW_FUZZ_ANIMATOR_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"

static volatile float g_fuzz_animator_sink;

/* Frame `frame`'s parameters: input bytes mapped to [-4, 12), then the hit
 * (frame 2) or the steering input (frame 5) written over them. */
static void fuzz_animator_params(const sw_animator* def, uint32_t frame, const uint8_t* bytes,
                                 size_t n, float* params, uint32_t params_count) {
    for (uint32_t p = 0; p < params_count && n > 0; ++p)
        params[p] = (float)((int)bytes[(frame * params_count + p) % n] - 64) / 16.0f;
    if (frame == 2) {
        const sw_animator_hit hit = {.direction =
                                         sw_vec3_make(params_count ? params[0] : 1.0f, -0.5f, 1.0f),
                                     .strength = 1.5f};
        (void)sw_animator_apply_hit(def, sw_quat_identity(), &hit, params, params_count);
    } else if (frame == 5) {
        const sw_animator_move move = {.speed = 1.25f, .strafe = -0.5f, .turn = 0.75f};
        (void)sw_animator_apply_move(def, &move, params, params_count);
    }
}

/* Runs bound definition b for eight frames (see the top); `meshes` are the
 * character's meshes (may be none). */
static void fuzz_animator_run(const sw_animator_bound* b, const uint8_t* bytes, size_t n,
                              const sw_mesh* const* meshes, uint32_t meshes_count) {
    const sw_animator* def = sw_animator_bound_definition(b);
    const sw_skeleton* s = sw_animator_bound_skeleton(b);
    const uint32_t params_count = sw_animator_params_count(def);
    const sw_animator_keep keep =
        n > 0 && (bytes[0] & 1u) ? SW_ANIMATOR_KEEP_KEYS : SW_ANIMATOR_KEEP_CURSORS;
    const size_t inst_size = sw_animator_instance_size_keeping(b, keep),
                 scratch_size = sw_animator_scratch_size(b);
    float* params = (float*)calloc(params_count + 1u, sizeof(float));
    void* inst_mem = aligned_alloc(16, (inst_size + 15u) & ~(size_t)15u);
    void* scratch = aligned_alloc(16, (scratch_size + 16u) & ~(size_t)15u);
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    float weights[64];
    sw_animator_instance* inst = NULL;
    if (params && inst_mem && scratch && pose &&
        sw_animator_params_reset(def, params, params_count) == SW_RESULT_OK &&
        sw_animator_instance_init_keeping(inst_mem, inst_size, b, keep, &inst) == SW_RESULT_OK) {
        for (uint32_t frame = 0; frame < 8; ++frame) {
            fuzz_animator_params(def, frame, bytes, n, params, params_count);
            sw_animator_event events[16];
            uint32_t events_count = 0;
            sw_animator_root_motion motion;
            if (sw_animator_update(inst, b, params, params_count,
                                   1.0f / 30.0f + 0.1f * (float)frame, events, 16, &events_count,
                                   &motion) != SW_RESULT_OK ||
                sw_animator_evaluate(inst, b, scratch, scratch_size, pose, s->packets_count) !=
                    SW_RESULT_OK) {
                abort(); /* valid arguments: update and evaluate run */
            }
            float sum = 0.0f;
            for (uint32_t e = 0; e < events_count && e < 16; ++e)
                sum += (float)strlen(events[e].name) + events[e].weight;
            for (uint32_t j = 0; j < s->joints_count; ++j) {
                sw_xform x = sw_pose_get(pose, j);
                if (!isfinite(x.t.x + x.t.y + x.t.z + x.r.x + x.r.y + x.r.z + x.r.w)) abort();
            }
            if (!isfinite(motion.translation.x + motion.translation.z + motion.yaw)) abort();
            for (uint32_t m = 0; m < meshes_count; ++m) {
                sw_animator_morph_weights(inst, b, meshes[m], weights, 64);
                for (uint32_t k = 0; k < 64 && k < meshes[m]->morph_targets_count; ++k)
                    sum += weights[k];
            }
            g_fuzz_animator_sink += sum;
        }
    }
    free(pose);
    free(scratch);
    free(inst_mem);
    free(params);
}

/* Each clip's shared table where it has one (sw_sample_table_init; NULL
 * elsewhere, or all when out of memory); free with fuzz_animator_tables_free. */
static uint32_t** fuzz_animator_tables(const sw_clip* const* clips, uint32_t count) {
    uint32_t** tables = (uint32_t**)calloc(count + 1u, sizeof *tables);
    for (uint32_t i = 0; tables && i < count; ++i) {
        const uint32_t words = sw_sample_table_size(clips[i]);
        if (words == 0) continue;
        tables[i] = (uint32_t*)aligned_alloc(16, ((size_t)words * 4u + 15u) & ~(size_t)15u);
        if (tables[i] && sw_sample_table_init(clips[i], tables[i], words) != SW_RESULT_OK)
            abort(); /* valid arguments: the table is made */
    }
    return tables;
}

static void fuzz_animator_tables_free(uint32_t** tables, uint32_t count) {
    for (uint32_t i = 0; tables && i < count; ++i)
        free(tables[i]);
    free(tables);
}

/* Binds definition def to skeleton s and `clips` as a game would (each slot
 * to the first clip of its name; with their tables when the first input
 * byte's bit 1 is set) and runs it when it binds (a definition naming clips
 * the character lacks does not bind: no failure). */
static void fuzz_animator_bind_run(const sw_animator* def, const sw_skeleton* s,
                                   const sw_clip* const* clips, uint32_t clips_count,
                                   const sw_mesh* const* meshes, uint32_t meshes_count,
                                   const uint8_t* bytes, size_t n) {
    const size_t bound_size = sw_animator_bound_size(def, s);
    void* mem = aligned_alloc(16, (bound_size + 16u) & ~(size_t)15u);
    uint32_t** tables = n > 0 && (bytes[0] & 2u) ? fuzz_animator_tables(clips, clips_count) : NULL;
    const sw_animator_bound* b = NULL;
    if (mem && sw_animator_bind_tables(def, s, clips, (const uint32_t* const*)tables, clips_count,
                                       mem, bound_size, &b, NULL) == SW_RESULT_OK) {
        fuzz_animator_run(b, bytes, n, meshes, meshes_count);
    }
    fuzz_animator_tables_free(tables, clips_count);
    free(mem);
}

#endif
