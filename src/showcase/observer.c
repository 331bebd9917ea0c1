/* The outside observer's figures of a recorded run (sinew/showcase/observer.h). */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/showcase/observer.h"
#include "sinew/sinew.h"

/* Whether `name` holds `word`, ignoring case. */
static bool sw__obs_has(const char* name, const char* word) {
    const size_t n = strlen(word);
    for (const char* p = name; *p; ++p) {
        size_t k = 0;
        while (k < n && p[k] && tolower((unsigned char)p[k]) == word[k])
            ++k;
        if (k == n) return true;
    }
    return false;
}

/* 1: an ankle joint, 2: a ball joint, 0: neither (observer.h's names). */
static int sw__obs_foot_kind(const char* name) {
    const bool end = sw__obs_has(name, "end") || sw__obs_has(name, "tip");
    if ((sw__obs_has(name, "toe") || sw__obs_has(name, "ball")) && !end) return 2;
    if ((sw__obs_has(name, "foot") || sw__obs_has(name, "ankle")) && !end &&
        !sw__obs_has(name, "index") && !sw__obs_has(name, "thumb"))
        return 1;
    return 0;
}

static int sw__obs_cmp(const void* a, const void* b) {
    const float x = *(const float*)a, y = *(const float*)b;
    return (x > y) - (x < y);
}

/* Planted spans of one joint's track (x, y, z per frame); `slides` holds
 * room for a slide per span. */
static void sw__obs_spans(const float* track, uint32_t frames, double fps, float* slides,
                          sw_showcase_observer_foot* foot) {
    float low = track[1];
    for (uint32_t f = 1; f < frames; ++f)
        low = fminf(low, track[3u * f + 1u]);
    uint32_t start = UINT32_MAX;
    for (uint32_t f = 0; f <= frames; ++f) {
        const bool planted = f < frames && track[3u * f + 1u] <= low + SW_SHOWCASE_OBSERVER_PLANTED;
        if (planted && start == UINT32_MAX) start = f;
        if (planted || start == UINT32_MAX) continue;
        if (f - start >= 2u) {
            float slide = 0.0f;
            for (uint32_t k = start; k < f; ++k)
                slide = fmaxf(slide, hypotf(track[3u * k] - track[3u * start],
                                            track[3u * k + 2u] - track[3u * start + 2u]));
            if (slide > foot->slide_max || foot->spans == 0) {
                foot->slide_max = slide;
                foot->worst_from = (float)((double)start / fps);
                foot->worst_to = (float)((double)(f - 1u) / fps);
            }
            slides[foot->spans++] = slide;
        }
        start = UINT32_MAX;
    }
    if (foot->spans == 0) return;
    qsort(slides, foot->spans, sizeof(float), sw__obs_cmp);
    const uint32_t h = foot->spans / 2u;
    foot->slide_median = foot->spans % 2u ? slides[h] : 0.5f * (slides[h - 1u] + slides[h]);
}

/* Actor i's frames: lowest joint and the tracks of its feet (from foot
 * `first` on, tracks[k] holding 3 floats per frame). */
static sw_result sw__obs_actor(const sw_showcase* scene, const sw_showcase_recording* rec,
                               uint32_t i, uint32_t first, double fps, sw_mat4* model,
                               float* const* tracks, sw_showcase_observer* out) {
    const sw_skeleton* s = sw_showcase_get_actor(scene, i).skeleton;
    out->lowest[i] = INFINITY;
    for (uint32_t f = 0; f < out->frames; ++f) {
        sw_xform world;
        const sw_xform4* local = NULL;
        sw_result r = sw_showcase_recording_pose(rec, i, f, &world, &local);
        const sw_mat4 root = sw_mat4_from_xform(world);
        const sw_local_to_model_job job = {.skeleton = s,
                                           .local = local,
                                           .local_count = s->packets_count,
                                           .root_transform = &root,
                                           .out = model,
                                           .out_count = s->joints_count};
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&job);
        if (r != SW_RESULT_OK) return r;
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const float y = model[j].m[13];
            if (y < out->lowest[i]) {
                out->lowest[i] = y;
                out->lowest_joint[i] = j;
                out->lowest_time[i] = (float)((double)f / fps);
            }
        }
        for (uint32_t k = first; k < out->feet_count && out->feet[k].actor == i; ++k) {
            const float* m = model[out->feet[k].joint].m;
            memcpy(tracks[k] + 3u * f, m + 12, 3 * sizeof(float));
        }
    }
    return SW_RESULT_OK;
}

sw_result sw_showcase_observe(const sw_showcase* scene, const sw_showcase_recording* rec,
                              double fps, const sw_allocator* alloc, sw_showcase_observer* out) {
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    const uint32_t frames = sw_showcase_recording_frames(rec);
    if (!scene || !rec || !isfinite(fps) || !(fps > 0.0) || frames == 0)
        return SW_RESULT_INVALID_ARGUMENT;
    out->frames = frames;
    out->actors_count = sw_showcase_actors_count(scene);
    uint32_t joints_max = 0;
    for (uint32_t i = 0; i < out->actors_count; ++i) {
        const sw_skeleton* s = sw_showcase_get_actor(scene, i).skeleton;
        joints_max = joints_max > s->joints_count ? joints_max : s->joints_count;
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const int kind = sw__obs_foot_kind(sw_skeleton_joint_name(s, j));
            if (kind == 0 || out->feet_count == SW_SHOWCASE_OBSERVER_MAX_FEET) continue;
            out->feet[out->feet_count++] =
                (sw_showcase_observer_foot){.actor = i, .joint = j, .ball = kind == 2};
        }
    }
    const size_t model_bytes = joints_max * sizeof(sw_mat4);
    const size_t track_bytes = (size_t)frames * 3u * sizeof(float);
    const size_t tracks_bytes = (size_t)out->feet_count * track_bytes;
    sw_mat4* model = (sw_mat4*)sw_alloc(alloc, model_bytes, 16);
    float* track_mem = tracks_bytes ? (float*)sw_alloc(alloc, tracks_bytes, 16) : NULL;
    float* slides = (float*)sw_alloc(alloc, (size_t)frames * sizeof(float), 16);
    float* tracks[SW_SHOWCASE_OBSERVER_MAX_FEET];
    for (uint32_t k = 0; k < out->feet_count && track_mem; ++k)
        tracks[k] = track_mem + (size_t)k * frames * 3u;
    sw_result r = SW_RESULT_OUT_OF_MEMORY;
    if (model && slides && (track_mem || !tracks_bytes)) {
        r = SW_RESULT_OK;
        uint32_t first = 0;
        for (uint32_t i = 0; i < out->actors_count && r == SW_RESULT_OK; ++i) {
            r = sw__obs_actor(scene, rec, i, first, fps, model, tracks, out);
            while (first < out->feet_count && out->feet[first].actor == i)
                ++first;
        }
        for (uint32_t k = 0; k < out->feet_count && r == SW_RESULT_OK; ++k)
            sw__obs_spans(tracks[k], frames, fps, slides, &out->feet[k]);
    }
    sw_free(alloc, model, model_bytes);
    sw_free(alloc, track_mem, tracks_bytes);
    sw_free(alloc, slides, (size_t)frames * sizeof(float));
    return r;
}
