/* libFuzzer target: animator JSON definitions, read, bound and run. A
 * definition that reads is bound to a fixed seven-joint skeleton ("root",
 * "hips", "spine", "chest", "head", "arm_l", "arm_r") and one small clip per
 * clip slot (named after the slot, events "L" and "R" as sync markers), then
 * updated and evaluated for a few frames with parameters set from the input
 * bytes: every pose must come out finite. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/animator_json.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

#define FUZZ_JOINTS 7u
#define FUZZ_MAX_SLOTS 64u

static const sw_skeleton* fuzz_skeleton(void) {
    static const char* const names[FUZZ_JOINTS] = {"root", "hips",  "spine", "chest",
                                                   "head", "arm_l", "arm_r"};
    static const int32_t parents[FUZZ_JOINTS] = {-1, 0, 1, 2, 3, 3, 3};
    sw_skeleton_joint j[FUZZ_JOINTS];
    for (uint32_t i = 0; i < FUZZ_JOINTS; ++i) {
        j[i].name = names[i];
        j[i].parent = parents[i];
        j[i].rest = sw_xform_identity();
        j[i].rest.t = sw_vec3_make(0.0f, i ? 0.2f : 0.0f, 0.0f);
    }
    const sw_skeleton_desc d = {j, FUZZ_JOINTS};
    const sw_skeleton* s = NULL;
    if (sw_skeleton_create(&d, NULL, &s, NULL) != SW_RESULT_OK) abort();
    return s;
}

/* A one-second clip named `name`: the root walks forward, the hips turn. */
static const sw_clip* fuzz_clip(const char* name, float seed) {
    static float t[2 * 3];
    static float r[2 * 4];
    const float tv[6] = {0, 0, 0, 0, 0, 1.0f + seed};
    const float rv[8] = {0, 0, 0, 1, 0, 0.38268343f, 0, 0.92387953f};
    memcpy(t, tv, sizeof t);
    memcpy(r, rv, sizeof r);
    const sw_clip_track_desc tracks[2] = {
        {.kind = SW_TRACK_KIND_TRANSLATION, .joint = 0, .keys_count = 2, .rate = 1.0f, .values = t},
        {.kind = SW_TRACK_KIND_ROTATION, .joint = 1, .keys_count = 2, .rate = 1.0f, .values = r}};
    const sw_clip_event_desc events[2] = {{0.25f, "L"}, {0.75f, "R"}};
    const sw_clip_desc d = {.name = name,
                            .duration = 1.0f,
                            .joints_count = FUZZ_JOINTS,
                            .tracks = tracks,
                            .tracks_count = 2,
                            .events = events,
                            .events_count = 2};
    const sw_clip* c = NULL;
    return sw_clip_create(&d, NULL, &c, NULL) == SW_RESULT_OK ? c : NULL;
}

/* Runs a bound definition for eight frames; parameters from `bytes`. */
static void fuzz_run(const sw_animator_bound* b, const sw_skeleton* s, const uint8_t* bytes,
                     size_t n) {
    const sw_animator* def = sw_animator_bound_definition(b);
    const uint32_t params_count = sw_animator_params_count(def);
    const size_t inst_size = sw_animator_instance_size(b),
                 scratch_size = sw_animator_scratch_size(b);
    float* params = (float*)calloc(params_count + 1u, sizeof(float));
    void* inst_mem = aligned_alloc(16, (inst_size + 15u) & ~(size_t)15u);
    void* scratch = aligned_alloc(16, (scratch_size + 16u) & ~(size_t)15u);
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    sw_animator_instance* inst = NULL;
    if (params && inst_mem && scratch && pose &&
        sw_animator_params_reset(def, params, params_count) == SW_RESULT_OK &&
        sw_animator_instance_init(inst_mem, inst_size, b, &inst) == SW_RESULT_OK) {
        for (uint32_t frame = 0; frame < 8; ++frame) {
            for (uint32_t p = 0; p < params_count && n > 0; ++p)
                params[p] = (float)((int)bytes[(frame * params_count + p) % n] - 64) / 16.0f;
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
            for (uint32_t j = 0; j < s->joints_count; ++j) {
                sw_xform x = sw_pose_get(pose, j);
                if (!isfinite(x.t.x + x.t.y + x.t.z + x.r.x + x.r.y + x.r.z + x.r.w)) abort();
            }
            if (!isfinite(motion.translation.x + motion.translation.z + motion.yaw)) abort();
        }
    }
    free(pose);
    free(scratch);
    free(inst_mem);
    free(params);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    char* text = (char*)malloc(size ? size : 1u); /* exact size: reads past the end are caught */
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    sw_animator_json aj;
    sw_error err;
    sw_result r = sw_animator_json_read(text, size, NULL, &aj, &err);
    if (r != SW_RESULT_OK) {
        if (!err.check || err.result != r) abort(); /* every failure names its check */
        free(text);
        return 0;
    }
    static const sw_skeleton* skel;
    if (!skel) skel = fuzz_skeleton();
    const sw_animator* def = aj.animator;
    uint32_t slots = sw_animator_clips_count(def);
    if (slots > FUZZ_MAX_SLOTS) slots = FUZZ_MAX_SLOTS;
    const sw_clip* clips[FUZZ_MAX_SLOTS];
    uint32_t made = 0;
    for (uint32_t i = 0; i < slots; ++i) {
        const sw_clip* c = fuzz_clip(sw_animator_clip_name(def, i), (float)i);
        if (c) clips[made++] = c;
    }
    const size_t bound_size = sw_animator_bound_size(def, skel);
    void* mem = aligned_alloc(16, (bound_size + 16u) & ~(size_t)15u);
    const sw_animator_bound* b = NULL;
    if (mem && sw_animator_bind(def, skel, clips, made, mem, bound_size, &b, &err) == SW_RESULT_OK)
        fuzz_run(b, skel, data, size);
    free(mem);
    for (uint32_t i = 0; i < made; ++i)
        sw_clip_destroy(clips[i], NULL);
    sw_animator_json_free(&aj, NULL);
    free(text);
    return 0;
}
