/* Clip recorder: local poses appended frame by frame (T, R, S per joint,
 * frame after frame), turned into one track per joint and kind at build. */
#include <math.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/clip_recorder.h"

/* Floats per joint and frame: translation 3, rotation 4, scale 3. */
#define SW__REC_FLOATS 10u

struct sw_clip_recorder {
    sw_allocator alloc;
    const sw_skeleton* skeleton;
    float rate;
    sw_clip_recorder_options options;
    float* frames; /* frames_count * joints * SW__REC_FLOATS */
    uint32_t frames_count, frames_cap;
};

void sw_rotation_keys_continuous(float* keys, uint32_t count) {
    for (uint32_t k = 1; k < count; ++k) {
        const float* p = &keys[4u * (k - 1u)];
        float* q = &keys[4u * k];
        const sw_quat prev = sw_quat_make(p[0], p[1], p[2], p[3]);
        const sw_quat cur = sw_quat_make(q[0], q[1], q[2], q[3]);
        if (sw_quat_dot(prev, cur) < 0.0f) {
            for (uint32_t c = 0; c < 4u; ++c)
                q[c] = -q[c];
        }
    }
}

sw_result sw_clip_recorder_create(const sw_skeleton* skeleton, float rate,
                                  const sw_clip_recorder_options* options,
                                  const sw_allocator* alloc, sw_clip_recorder** out,
                                  sw_error* err) {
    if (out) *out = NULL;
    if (!skeleton || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!isfinite(rate) || !(rate > 0.0f)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "rate finite and > 0", 0, -1);
    }
    const sw_clip_recorder_options opt = options ? *options : (sw_clip_recorder_options){0};
    if ((uint32_t)opt.fold > (uint32_t)SW_CLIP_RECORDER_FOLD_CONSTANT) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "fold", 0, -1);
    }
    if (!isfinite(opt.tolerance) || opt.tolerance < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "tolerance finite and >= 0", 0, -1);
    }
    sw_clip_recorder* r = (sw_clip_recorder*)sw_alloc(alloc, sizeof *r, 16);
    if (!r) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "recorder", 0, -1);
    memset(r, 0, sizeof *r);
    if (alloc) r->alloc = *alloc;
    r->skeleton = skeleton;
    r->rate = rate;
    r->options = opt;
    *out = r;
    return SW_RESULT_OK;
}

sw_result sw_clip_recorder_append(sw_clip_recorder* recorder, const sw_xform4* pose,
                                  uint32_t pose_count, sw_error* err) {
    if (!recorder || !pose) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const sw_skeleton* s = recorder->skeleton;
    if (pose_count < s->packets_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "pose_count >= packets", 0, -1);
    }
    const size_t per_frame = (size_t)s->joints_count * SW__REC_FLOATS;
    if (recorder->frames_count == recorder->frames_cap) {
        if (recorder->frames_cap >= SW_CLIP_MAX_KEYS) {
            return sw__fail(err, SW_RESULT_LIMIT, "frames <= SW_CLIP_MAX_KEYS", 0, -1);
        }
        uint32_t grown = recorder->frames_cap < 64u ? 64u : recorder->frames_cap * 2u;
        if (grown > SW_CLIP_MAX_KEYS) grown = SW_CLIP_MAX_KEYS;
        float* p = (float*)sw_alloc(&recorder->alloc, sizeof(float) * per_frame * grown, 16);
        if (!p) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "frames", 0, -1);
        const size_t used = sizeof(float) * per_frame * recorder->frames_count;
        if (used > 0) memcpy(p, recorder->frames, used);
        sw_free(&recorder->alloc, recorder->frames,
                sizeof(float) * per_frame * recorder->frames_cap);
        recorder->frames = p;
        recorder->frames_cap = grown;
    }
    float* f = &recorder->frames[per_frame * recorder->frames_count++];
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_xform x = sw_pose_get(pose, j);
        float* d = &f[SW__REC_FLOATS * j];
        d[0] = x.t.x, d[1] = x.t.y, d[2] = x.t.z;
        d[3] = x.r.x, d[4] = x.r.y, d[5] = x.r.z, d[6] = x.r.w;
        d[7] = x.s.x, d[8] = x.s.y, d[9] = x.s.z;
    }
    return SW_RESULT_OK;
}

uint32_t sw_clip_recorder_frames(const sw_clip_recorder* recorder) {
    return recorder ? recorder->frames_count : 0u;
}

/* Keys one track keeps after folding: frames, 1 (constant) or 0 (at rest).
 * `v` holds the track's frames (comps floats each), `rest` its rest value. */
static uint32_t sw__rec_keys(const sw_clip_recorder_options* o, const float* v, uint32_t frames,
                             uint32_t comps, const float* rest) {
    if (o->fold == SW_CLIP_RECORDER_FOLD_NONE) return frames;
    bool differs = false;
    for (uint32_t k = 0; k < frames && !differs; ++k) {
        const float* x = &v[(size_t)comps * k];
        if (o->fold == SW_CLIP_RECORDER_FOLD_CONSTANT) {
            for (uint32_t c = 0; c < comps; ++c)
                differs |= x[c] != v[c];
        } else if (comps == 4u) {
            const float d = x[0] * rest[0] + x[1] * rest[1] + x[2] * rest[2] + x[3] * rest[3];
            differs |= fabsf(d) < 1.0f - o->tolerance;
        } else {
            for (uint32_t c = 0; c < comps; ++c)
                differs |= fabsf(x[c] - rest[c]) > o->tolerance;
        }
    }
    if (o->fold == SW_CLIP_RECORDER_FOLD_CONSTANT) return differs ? frames : 1u;
    return differs ? frames : 0u;
}

sw_result sw_clip_recorder_build(const sw_clip_recorder* recorder,
                                 const sw_clip_recorder_clip* clip, const sw_allocator* alloc,
                                 const sw_clip** out, sw_error* err) {
    if (out) *out = NULL;
    if (!recorder || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const uint32_t F = recorder->frames_count, J = recorder->skeleton->joints_count;
    if (F == 0) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "frames recorded", 0, -1);
    const sw_clip_recorder_clip c = clip ? *clip : (sw_clip_recorder_clip){0};
    if (c.float_tracks_count > 0 && !c.float_tracks) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "float tracks not NULL", 0, -1);
    }
    /* values per joint: T [F * 3], R [F * 4], S [F * 3] */
    const size_t values_bytes = sizeof(float) * SW__REC_FLOATS * F * J;
    const size_t tracks_count = 3u * (size_t)J + c.float_tracks_count;
    const size_t tracks_bytes = sizeof(sw_clip_track_desc) * tracks_count;
    float* values = (float*)sw_alloc(&recorder->alloc, values_bytes, 16);
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw_alloc(&recorder->alloc, tracks_bytes, 16);
    if (!values || !tracks) {
        sw_free(&recorder->alloc, values, values_bytes);
        sw_free(&recorder->alloc, tracks, tracks_bytes);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "tracks", 0, -1);
    }
    static const sw_track_kind kinds[3] = {SW_TRACK_KIND_TRANSLATION, SW_TRACK_KIND_ROTATION,
                                           SW_TRACK_KIND_SCALE};
    static const uint32_t comps[3] = {3u, 4u, 3u}, offs[3] = {0u, 3u, 7u};
    const sw_xform4* rest_pose = sw_skeleton_rest_pose(recorder->skeleton);
    uint32_t tc = 0;
    for (uint32_t j = 0; j < J; ++j) {
        const sw_xform r0 = sw_pose_get(rest_pose, j);
        const float rest[10] = {r0.t.x, r0.t.y, r0.t.z, r0.r.x, r0.r.y,
                                r0.r.z, r0.r.w, r0.s.x, r0.s.y, r0.s.z};
        float* v = &values[(size_t)SW__REC_FLOATS * F * j];
        for (uint32_t k = 0; k < 3u; ++k) {
            float* dst = v + (size_t)offs[k] * F;
            for (uint32_t f = 0; f < F; ++f) {
                const float* src =
                    &recorder->frames[((size_t)f * J + j) * SW__REC_FLOATS + offs[k]];
                memcpy(&dst[(size_t)comps[k] * f], src, sizeof(float) * comps[k]);
            }
            if (kinds[k] == SW_TRACK_KIND_ROTATION) sw_rotation_keys_continuous(dst, F);
            const uint32_t keys =
                sw__rec_keys(&recorder->options, dst, F, comps[k], &rest[offs[k]]);
            if (keys == 0) continue;
            tracks[tc++] = (sw_clip_track_desc){.kind = kinds[k],
                                                .joint = j,
                                                .interp = SW_INTERP_LINEAR,
                                                .keys_count = keys,
                                                .start = 0.0f,
                                                .rate = recorder->rate,
                                                .values = dst};
        }
    }
    for (uint32_t i = 0; i < c.float_tracks_count; ++i)
        tracks[tc++] = c.float_tracks[i];
    const sw_clip_desc desc = {
        .name = c.name,
        .duration =
            c.duration > 0.0f ? c.duration : (float)((double)(F - 1u) / (double)recorder->rate),
        .joints_count = J,
        .tracks = tracks,
        .tracks_count = tc,
        .events = c.events,
        .events_count = c.events_count,
    };
    const sw_result r = sw_clip_create(&desc, alloc, out, err);
    sw_free(&recorder->alloc, values, values_bytes);
    sw_free(&recorder->alloc, tracks, tracks_bytes);
    return r;
}

void sw_clip_recorder_destroy(sw_clip_recorder* recorder) {
    if (!recorder) return;
    const sw_allocator alloc = recorder->alloc;
    const size_t per_frame = (size_t)recorder->skeleton->joints_count * SW__REC_FLOATS;
    sw_free(&alloc, recorder->frames, sizeof(float) * per_frame * recorder->frames_cap);
    sw_free(&alloc, recorder, sizeof *recorder);
}
