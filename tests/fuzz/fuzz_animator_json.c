/* libFuzzer target: animator JSON definitions, read, bound and run. A
 * definition that reads is bound to a fixed seven-joint skeleton ("root",
 * "hips", "spine", "chest", "head", "arm_l", "arm_r") and one small clip per
 * clip slot (named after the slot, events "L" and "R" as sync markers), then
 * run as fuzz_animator.h describes (parameters from the input bytes, a hit,
 * a steering input): every pose must come out finite. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_animator.h"
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
    fuzz_animator_bind_run(def, skel, clips, made, NULL, 0, data, size);
    for (uint32_t i = 0; i < made; ++i)
        sw_clip_destroy(clips[i], NULL);
    sw_animator_json_free(&aj, NULL);
    free(text);
    return 0;
}
