/* fuzz_seeds OUT_DIR MAX_BYTES SOURCE[=ANIMATOR.json]...: seed archives for
 * fuzz_archive written by the tools, the way `sinew convert` and `sinew
 * compress` write them. Each SOURCE (any file sw_asset_open reads natively:
 * glTF, BVH) gives three archives in OUT_DIR, <stem>_raw.sinew,
 * <stem>_quantized.sinew (every clip through sw_compress_clip) and
 * <stem>_frames.sinew (sw_frames_build): its skeleton, clips, meshes (skins,
 * morph targets and the clips' weight tracks as the reader made them) and
 * an animator definition, read from ANIMATOR.json when given, otherwise
 * made for the source's clips and joints (blend spaces, a state machine
 * with triggers, inertialization, time windows, an additive masked layer,
 * root motion, hits). A missing source is skipped with a message (shared
 * assets may be absent); an archive over MAX_BYTES (the fuzz runs' longest
 * input) is not written, so that no seed is cut short. Exit status 1 when
 * a source that exists cannot be read or written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/readers/animator_json.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/archive_writer.h"

#define SEEDS_MAX_CLIPS 64u

/* JSON text of a definition over clips a, b, c (c plays once) and joints
 * root and child; *n receives its length. */
static const char* seeds_animator_text(const char* a, const char* b, const char* c,
                                       const char* root, const char* child, char* out, size_t size,
                                       size_t* n) {
    int len = snprintf(
        out, size,
        "{\"params\": [{\"name\": \"speed\"}, {\"name\": \"go\", \"type\": \"trigger\"},"
        " {\"name\": \"on\", \"type\": \"bool\", \"default\": true}, {\"name\": \"steps\","
        " \"type\": \"int\"}, {\"name\": \"hx\"}, {\"name\": \"hy\"}, {\"name\": \"hs\"}],\n"
        " \"blend_spaces\": [{\"name\": \"line\", \"x\": \"speed\", \"members\": [{\"clip\":"
        " \"%s\", \"x\": 0}, {\"clip\": \"%s\", \"x\": 2}]},\n"
        "  {\"name\": \"plane\", \"x\": \"hx\", \"y\": \"hy\", \"directional\": true,"
        " \"members\": [{\"clip\": \"%s\", \"x\": 0, \"y\": 1}, {\"clip\": \"%s\", \"x\": 1,"
        " \"y\": 0}, {\"clip\": \"%s\", \"x\": 0, \"y\": -1}, {\"clip\": \"%s\", \"x\": -1,"
        " \"y\": 0}]}],\n"
        " \"machines\": [{\"name\": \"Base\", \"entry\": \"Move\", \"states\": [{\"name\":"
        " \"Move\", \"blend_space\": \"line\"}, {\"name\": \"Once\", \"clip\": \"%s\", \"once\":"
        " true, \"speed_param\": \"speed\"}, {\"name\": \"Hit\", \"blend_space\": \"plane\","
        " \"once\": true}],\n"
        "   \"transitions\": [{\"from\": \"*\", \"to\": \"Hit\", \"conditions\": [{\"param\":"
        " \"go\", \"op\": \"trigger\"}], \"mode\": \"inertialize\", \"duration\": 0.2,"
        " \"to_self\": true},\n"
        "    {\"from\": \"Move\", \"to\": \"Once\", \"conditions\": [{\"param\": \"on\", \"op\":"
        " \"false\"}, {\"param\": \"steps\", \"op\": \">\", \"value\": 1}], \"time_window\":"
        " [0.1, 0.6], \"offset\": 0.05, \"duration\": 0.15, \"interrupt\": \"next\"},\n"
        "    {\"from\": \"Once\", \"to\": \"Move\", \"exit_time\": 0.9, \"duration\": 0.25,"
        " \"interrupt\": \"current\"},\n"
        "    {\"from\": \"Hit\", \"to\": \"Move\", \"exit_time\": 1.0, \"duration\": 0.1}]},\n"
        "  {\"name\": \"Top\", \"states\": [{\"name\": \"Pose\", \"clip\": \"%s\", \"speed\":"
        " 0.5}]}],\n"
        " \"layers\": [{\"name\": \"base\", \"machine\": \"Base\"}, {\"name\": \"top\","
        " \"machine\": \"Top\", \"mode\": \"additive\", \"weight_param\": \"speed\","
        " \"reference\": \"first_frame\", \"mask\": [{\"joint\": \"%s\", \"weight\": 0.5}]}],\n"
        " \"root_motion_joint\": \"%s\", \"event_weight_threshold\": 0.1,\n"
        " \"hit\": {\"x\": \"hx\", \"y\": \"hy\", \"strength\": \"hs\", \"trigger\": \"go\"},"
        " \"move\": {\"speed\": \"speed\"}}\n",
        a, b, a, b, c, b, c, a, child, root);
    if (len < 0 || (size_t)len >= size) return NULL;
    *n = (size_t)len;
    return out;
}

/* The definition for asset a: the JSON file `json` when given, else made
 * for a's clips. */
static sw_result seeds_animator(const sw_asset* a, const char* json, sw_animator_json* out,
                                sw_error* err) {
    if (json) return sw_animator_json_read_file(json, NULL, out, err);
    const uint32_t n = a->clips_count;
    const char* c0 = sw_clip_name(a->clips[0]);
    const char* c1 = sw_clip_name(a->clips[n > 1 ? 1 : 0]);
    const char* c2 = sw_clip_name(a->clips[n - 1]);
    const sw_skeleton* s = a->skeleton;
    char text[4096];
    size_t len = 0;
    if (!seeds_animator_text(c0, c1, c2, sw_skeleton_joint_name(s, 0),
                             sw_skeleton_joint_name(s, s->joints_count > 1 ? 1 : 0), text,
                             sizeof text, &len)) {
        return SW_RESULT_LIMIT;
    }
    return sw_animator_json_read(text, len, NULL, out, err);
}

/* Writes the asset's objects with `clips` in their place as dir/stem_codec.sinew. */
static sw_result seeds_write(const sw_asset* a, const sw_clip* const* clips, const sw_animator* def,
                             const char* dir, const char* stem, const char* codec, size_t max_bytes,
                             sw_error* err) {
    const sw_archive_contents k = {.skeletons = &a->skeleton,
                                   .skeletons_count = 1,
                                   .clips = clips,
                                   .clips_count = a->clips_count,
                                   .meshes = a->meshes,
                                   .meshes_count = a->meshes_count,
                                   .animators = &def,
                                   .animators_count = 1};
    void* data = NULL;
    size_t size = 0;
    sw_result r = sw_archive_write(&k, NULL, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    sw_free(NULL, data, size);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s_%s.sinew", dir, stem, codec);
    if (size > max_bytes) {
        printf("fuzz_seeds: %s not written: %zu bytes, over %zu\n", path, size, max_bytes);
        return SW_RESULT_OK;
    }
    return sw_archive_write_file(&k, path, err);
}

/* The raw, quantized and frames archives of one opened source. */
static sw_result seeds_codecs(const sw_asset* a, const sw_animator* def, const char* dir,
                              const char* stem, size_t max_bytes, sw_error* err) {
    const sw_clip* made[SEEDS_MAX_CLIPS] = {NULL};
    const uint32_t n = a->clips_count;
    sw_result r = seeds_write(a, a->clips, def, dir, stem, "raw", max_bytes, err);
    for (uint32_t c = 0; c < n && r == SW_RESULT_OK; ++c) {
        const sw_compress_options o = {.precision = 0.0f}; /* 0.01, as sinew compress */
        r = sw_compress_clip(a->skeleton, a->clips[c], &o, NULL, &made[c], NULL, err);
    }
    if (r == SW_RESULT_OK) r = seeds_write(a, made, def, dir, stem, "quantized", max_bytes, err);
    for (uint32_t c = 0; c < n; ++c) {
        if (made[c]) sw_clip_destroy(made[c], NULL);
        made[c] = NULL;
    }
    for (uint32_t c = 0; c < n && r == SW_RESULT_OK; ++c) {
        const sw_frames_options o = {.rate = 0.0f};
        r = sw_frames_build(a->skeleton, a->clips[c], &o, NULL, &made[c], NULL, err);
    }
    if (r == SW_RESULT_OK) r = seeds_write(a, made, def, dir, stem, "frames", max_bytes, err);
    for (uint32_t c = 0; c < n; ++c) {
        if (made[c]) sw_clip_destroy(made[c], NULL);
    }
    return r;
}

/* One argument SOURCE[=ANIMATOR.json]: 0 when written or skipped. */
static int seeds_source(const char* dir, size_t max_bytes, char* arg) {
    char* json = strchr(arg, '=');
    if (json) *json++ = '\0';
    FILE* f = fopen(arg, "rb");
    if (!f) {
        printf("fuzz_seeds: %s skipped (absent)\n", arg);
        return 0;
    }
    fclose(f);
    const char* base = strrchr(arg, '/');
    char stem[256];
    snprintf(stem, sizeof stem, "%s", base ? base + 1 : arg);
    char* dot = strrchr(stem, '.');
    if (dot) *dot = '\0';
    sw_asset a;
    sw_animator_json def = {0};
    sw_error err = SW_ERROR_INIT;
    sw_result r = sw_asset_open(arg, NULL, &a, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "fuzz_seeds: %s: %s (%s)\n", arg, sw_result_str(r), err.check);
        return 1;
    }
    if (a.clips_count == 0 || a.clips_count > SEEDS_MAX_CLIPS) {
        fprintf(stderr, "fuzz_seeds: %s: %u clips, need 1 to %u\n", arg, a.clips_count,
                SEEDS_MAX_CLIPS);
        r = SW_RESULT_LIMIT;
    }
    if (r == SW_RESULT_OK) r = seeds_animator(&a, json, &def, &err);
    if (r == SW_RESULT_OK) r = seeds_codecs(&a, def.animator, dir, stem, max_bytes, &err);
    if (r != SW_RESULT_OK)
        fprintf(stderr, "fuzz_seeds: %s: %s (%s)\n", arg, sw_result_str(r),
                err.check ? err.check : "clip count");
    sw_animator_json_free(&def, NULL);
    sw_asset_free(&a);
    return r == SW_RESULT_OK ? 0 : 1;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: fuzz_seeds OUT_DIR MAX_BYTES SOURCE[=ANIMATOR.json]...\n");
        return 2;
    }
    const size_t max_bytes = (size_t)strtoull(argv[2], NULL, 10);
    int status = 0;
    for (int i = 3; i < argc; ++i)
        status |= seeds_source(argv[1], max_bytes, argv[i]);
    return status;
}
