/* Offline retargeting: a clip of the source skeleton baked for the target. */
#include <string.h>

#include "sinew/local_to_model.h"
#include "sinew/sample.h"
#include "sinew/tools/retarget_map.h"

typedef struct sw__rt_bake {
    const sw_allocator* alloc;
    void* blocks[8];
    size_t sizes[8];
    uint32_t count;
} sw__rt_bake;

static void* sw__rt_bake_alloc(sw__rt_bake* b, size_t size) {
    if (b->count >= 8 || size == 0) return NULL;
    void* p = sw_alloc(b->alloc, size, 16);
    if (!p) return NULL;
    memset(p, 0, size);
    b->blocks[b->count] = p;
    b->sizes[b->count++] = size;
    return p;
}

static void sw__rt_bake_free(sw__rt_bake* b) {
    for (uint32_t i = 0; i < b->count; ++i)
        sw_free(b->alloc, b->blocks[i], b->sizes[i]);
    b->count = 0;
}

static sw_result sw__rt_fail(sw_error* err, sw_result r, const char* check) {
    if (err) *err = (sw_error){r, check, 0, -1};
    return r;
}

/* Highest uniform key rate among the clip's joint tracks, or 0. */
static float sw__rt_clip_rate(const sw_clip* clip) {
    float rate = 0.0f;
    const sw_clip_track* tracks = sw_clip_tracks(clip);
    const uint32_t joint_tracks = clip->tracks_count - clip->float_tracks_count;
    for (uint32_t i = 0; i < joint_tracks; ++i)
        if (tracks[i].uniform && tracks[i].keys_count > 1 && tracks[i].rate > rate)
            rate = tracks[i].rate;
    return rate;
}

sw_result sw_retarget_bake(const sw_retarget_map* map, const sw_skeleton* source,
                           const sw_clip* clip, const sw_skeleton* target,
                           const sw_retarget_bake_options* options, const sw_allocator* alloc,
                           const sw_clip** out, sw_error* err) {
    if (!map || !source || !clip || !target || !out)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments");
    if (source->joints_count != map->source_joints_count ||
        target->joints_count != map->target_joints_count ||
        clip->joints_count != source->joints_count)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "joint counts match the map");
    if (clip->flags & SW_CLIP_FLAG_ADDITIVE)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "clip not additive");
    const sw_retarget_bake_options opt = options ? *options : (sw_retarget_bake_options){0};
    if (!(opt.rate >= 0.0f) || !isfinite(opt.rate) || !(opt.ik_weight >= 0.0f) ||
        !(opt.ik_weight <= 1.0f))
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "options");
    float rate = opt.rate > 0.0f ? opt.rate : sw__rt_clip_rate(clip);
    if (!(rate > 0.0f)) rate = 30.0f;
    const float duration = clip->duration;
    const double steps = ceil((double)duration * (double)rate - 1e-3);
    if (steps + 1.0 > (double)SW_CLIP_MAX_KEYS)
        return sw__rt_fail(err, SW_RESULT_LIMIT, "keys <= SW_CLIP_MAX_KEYS");
    const uint32_t keys = duration > 0.0f ? (uint32_t)(steps < 1.0 ? 1.0 : steps) + 1u : 1u;
    const float key_rate = keys > 1 ? (float)(keys - 1) / duration : 1.0f;

    const uint32_t sn = source->joints_count, tn = target->joints_count;
    sw__rt_bake b = {.alloc = alloc};
    sw_xform4* spose = (sw_xform4*)sw__rt_bake_alloc(&b, source->packets_count * sizeof(sw_xform4));
    sw_xform4* tpose = (sw_xform4*)sw__rt_bake_alloc(&b, target->packets_count * sizeof(sw_xform4));
    const size_t scratch_size = sw_retarget_scratch_size(map);
    void* scratch = sw__rt_bake_alloc(&b, scratch_size);
    float* values = (float*)sw__rt_bake_alloc(&b, (size_t)keys * tn * 10u * sizeof(float));
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw__rt_bake_alloc(
        &b, (tn * 3u + clip->float_tracks_count) * sizeof(sw_clip_track_desc));
    sw_clip_event_desc* events = (sw_clip_event_desc*)sw__rt_bake_alloc(
        &b, (clip->events_count ? clip->events_count : 1u) * sizeof(sw_clip_event_desc));
    uint32_t* cursors = (uint32_t*)sw__rt_bake_alloc(
        &b, (clip->tracks_count ? clip->tracks_count : 1u) * sizeof(uint32_t));
    if (!spose || !tpose || !scratch || !values || !tracks || !events || !cursors) {
        sw__rt_bake_free(&b);
        return sw__rt_fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    }
    (void)sn;
    /* values layout: per joint, T [keys * 3], R [keys * 4], S [keys * 3] */
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, clip->tracks_count);
    for (uint32_t k = 0; k < keys; ++k) {
        float time = keys > 1 ? (float)k / key_rate : 0.0f;
        if (k + 1 == keys || time > duration) time = duration;
        const sw_sample_job sample = {
            .clip = clip,
            .skeleton = source,
            .time = time,
            .cache = &cache,
            .out = spose,
            .out_count = source->packets_count,
        };
        sw_result r = sw_sample_job_run(&sample);
        const sw_retarget_job job = {
            .map = map,
            .source = source,
            .target = target,
            .source_pose = spose,
            .source_pose_count = source->packets_count,
            .ik_weight = opt.ik_weight,
            .scratch = scratch,
            .scratch_size = scratch_size,
            .out = tpose,
            .out_count = target->packets_count,
        };
        if (r == SW_RESULT_OK) r = sw_retarget_job_run(&job);
        if (r != SW_RESULT_OK) {
            sw__rt_bake_free(&b);
            return sw__rt_fail(err, r, r == SW_RESULT_OK ? "" : "sample and retarget");
        }
        for (uint32_t j = 0; j < tn; ++j) {
            float* v = values + (size_t)j * keys * 10u;
            const sw_xform x = sw_pose_get(tpose, j);
            sw_quat q = x.r;
            if (k > 0) {
                const float* prev = v + (size_t)keys * 3u + (size_t)(k - 1) * 4u;
                if (q.x * prev[0] + q.y * prev[1] + q.z * prev[2] + q.w * prev[3] < 0.0f)
                    q = sw_quat_negate(q);
            }
            float* t = v + (size_t)k * 3u;
            float* rr = v + (size_t)keys * 3u + (size_t)k * 4u;
            float* s = v + (size_t)keys * 7u + (size_t)k * 3u;
            t[0] = x.t.x, t[1] = x.t.y, t[2] = x.t.z;
            rr[0] = q.x, rr[1] = q.y, rr[2] = q.z, rr[3] = q.w;
            s[0] = x.s.x, s[1] = x.s.y, s[2] = x.s.z;
        }
    }
    /* Tracks where the pose leaves the rest value. */
    const sw_xform4* rest = sw_skeleton_rest_pose(target);
    uint32_t tc = 0;
    for (uint32_t j = 0; j < tn; ++j) {
        const sw_xform r0 = sw_pose_get(rest, j);
        const float* v = values + (size_t)j * keys * 10u;
        const float rt[3] = {r0.t.x, r0.t.y, r0.t.z}, rs[3] = {r0.s.x, r0.s.y, r0.s.z};
        bool moves_t = false, moves_r = false, moves_s = false;
        for (uint32_t k = 0; k < keys; ++k) {
            for (int c = 0; c < 3; ++c) {
                moves_t |= fabsf(v[k * 3u + (uint32_t)c] - rt[c]) > 1e-7f;
                moves_s |= fabsf(v[(size_t)keys * 7u + k * 3u + (uint32_t)c] - rs[c]) > 1e-7f;
            }
            const float* q = v + (size_t)keys * 3u + k * 4u;
            const float d = q[0] * r0.r.x + q[1] * r0.r.y + q[2] * r0.r.z + q[3] * r0.r.w;
            moves_r |= fabsf(d) < 1.0f - 1e-7f;
        }
        const sw_track_kind kinds[3] = {SW_TRACK_KIND_TRANSLATION, SW_TRACK_KIND_ROTATION,
                                        SW_TRACK_KIND_SCALE};
        const bool moves[3] = {moves_t, moves_r, moves_s};
        const size_t offsets[3] = {0, (size_t)keys * 3u, (size_t)keys * 7u};
        for (int c = 0; c < 3; ++c) {
            if (!moves[c]) continue;
            tracks[tc++] = (sw_clip_track_desc){
                .kind = kinds[c],
                .joint = j,
                .interp = SW_INTERP_LINEAR,
                .keys_count = keys,
                .start = 0.0f,
                .rate = key_rate,
                .values = v + offsets[c],
            };
        }
    }
    /* Float tracks as they are. */
    const sw_clip_track* src_tracks = sw_clip_tracks(clip);
    for (uint32_t f = 0; f < clip->float_tracks_count; ++f) {
        const sw_clip_track* t = &src_tracks[clip->tracks_count - clip->float_tracks_count + f];
        tracks[tc++] = (sw_clip_track_desc){
            .kind = SW_TRACK_KIND_FLOAT,
            .name = sw_clip_float_track_name(clip, f),
            .interp = (sw_interp)t->interp,
            .keys_count = t->keys_count,
            .times = t->uniform ? NULL
                                : (const float*)(const void*)((const char*)clip + t->times_offset),
            .start = t->start,
            .rate = t->rate,
            .values = sw_clip_track_values(clip, t),
        };
    }
    for (uint32_t e = 0; e < clip->events_count; ++e)
        events[e] = (sw_clip_event_desc){sw_clip_events(clip)[e].time, sw_clip_event_name(clip, e)};
    const sw_clip_desc desc = {
        .name = sw_clip_name(clip),
        .duration = duration,
        .joints_count = tn,
        .tracks = tracks,
        .tracks_count = tc,
        .events = events,
        .events_count = clip->events_count,
    };
    const sw_result r = sw_clip_create(&desc, alloc, out, err);
    sw__rt_bake_free(&b);
    return r;
}

sw_result sw_retarget_fit_ground(const sw_retarget_map* map, const sw_skeleton* source,
                                 const sw_clip* clip, const sw_skeleton* target,
                                 float* source_ground) {
    if (!map || !source || !clip || !target || !source_ground) return SW_RESULT_INVALID_ARGUMENT;
    if (source->joints_count != map->source_joints_count ||
        target->joints_count != map->target_joints_count ||
        clip->joints_count != source->joints_count || !(map->root_scale > 0.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    int32_t feet[2] = {-1, -1};
    for (uint32_t t = 0; t < target->joints_count; ++t) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(sw_skeleton_joint_name(target, t));
        const int side = b == SW_RETARGET_BONE_LEFT_FOOT    ? 0
                         : b == SW_RETARGET_BONE_RIGHT_FOOT ? 1
                                                            : -1;
        if (side >= 0 && feet[side] < 0 && map->source_of[t] >= 0) feet[side] = (int32_t)t;
    }
    if (feet[0] < 0 && feet[1] < 0) return SW_RESULT_NOT_FOUND;
    sw__rt_bake b = {.alloc = NULL};
    const uint32_t n =
        source->joints_count > target->joints_count ? source->joints_count : target->joints_count;
    sw_xform4* pose = (sw_xform4*)sw__rt_bake_alloc(
        &b, (source->packets_count > target->packets_count ? source->packets_count
                                                           : target->packets_count) *
                sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)sw__rt_bake_alloc(&b, n * sizeof(sw_mat4));
    if (!pose || !model) {
        sw__rt_bake_free(&b);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    /* the feet's rest heights in the target */
    memcpy(pose, sw_skeleton_rest_pose(target), target->packets_count * sizeof(sw_xform4));
    sw_local_to_model_job l2m = {
        .skeleton = target,
        .local = pose,
        .local_count = target->packets_count,
        .out = model,
        .out_count = target->joints_count,
    };
    sw_result r = sw_local_to_model_job_run(&l2m);
    float rest_h[2] = {0, 0};
    for (int k = 0; k < 2 && r == SW_RESULT_OK; ++k)
        if (feet[k] >= 0) rest_h[k] = model[feet[k]].m[13] - map->target_ground;
    float low[2] = {INFINITY, INFINITY};
    const uint32_t steps = (uint32_t)ceil((double)clip->duration * 60.0);
    l2m.skeleton = source;
    l2m.local_count = source->packets_count;
    l2m.out_count = source->joints_count;
    for (uint32_t k = 0; k <= steps && r == SW_RESULT_OK; ++k) {
        const float time = k == steps ? clip->duration : (float)k / 60.0f;
        const sw_sample_job sample = {
            .clip = clip,
            .skeleton = source,
            .time = time,
            .out = pose,
            .out_count = source->packets_count,
        };
        r = sw_sample_job_run(&sample);
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
        for (int f = 0; f < 2 && r == SW_RESULT_OK; ++f) {
            if (feet[f] < 0) continue;
            const float y = model[map->source_of[feet[f]]].m[13];
            if (y < low[f]) low[f] = y;
        }
    }
    sw__rt_bake_free(&b);
    if (r != SW_RESULT_OK) return r;
    float g = INFINITY;
    for (int f = 0; f < 2; ++f)
        if (feet[f] >= 0 && low[f] - rest_h[f] / map->root_scale < g)
            g = low[f] - rest_h[f] / map->root_scale;
    *source_ground = g;
    return SW_RESULT_OK;
}
