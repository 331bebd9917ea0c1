/* Offline retargeting: a clip of the source skeleton baked for the target. */
#include <string.h>

#include "retarget_internal.h"
#include "shared/fail.h"
#include "sinew/core/local_to_model.h"
#include "sinew/core/sample.h"
#include "sinew/ik/ik.h"
#include "sinew/tools/builders/clip_recorder.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"

typedef struct sw__rt_bake {
    const sw_allocator* alloc;
    void* blocks[16];
    size_t sizes[16];
    uint32_t count;
} sw__rt_bake;

static void* sw__rt_bake_alloc(sw__rt_bake* b, size_t size) {
    if (b->count >= 16 || size == 0) return NULL;
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
    sw__fail(err, r, check, 0, -1);
    return r;
}

sw_result sw_retarget_find_planted(const sw_vec3* positions, uint32_t count, float rate,
                                   float speed, float height, uint8_t* planted) {
    if (!positions || !planted || count == 0 || !(rate > 0.0f) || !isfinite(rate) ||
        !(speed > 0.0f) || !isfinite(speed) || !(height > 0.0f) || !isfinite(height))
        return SW_RESULT_INVALID_ARGUMENT;
    float low = INFINITY;
    for (uint32_t f = 0; f < count; ++f)
        if (positions[f].y < low) low = positions[f].y;
    for (uint32_t f = 0; f < count; ++f) {
        planted[f] = 0;
        if (count < 2) continue;
        const uint32_t a = f > 0 ? f - 1 : 0, b = f > 0 ? f : 1;
        const float v = sw_vec3_length(sw_vec3_sub(positions[b], positions[a])) * rate;
        if (v < speed && positions[f].y < low + height) planted[f] = 1;
    }
    return SW_RESULT_OK;
}

/* Model transform of joint j from a local pose (identity above the root). */
static sw_xform sw__rt_model_of(const sw_skeleton* s, const sw_xform4* pose, int32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    sw_xform m = sw_xform_identity();
    for (int32_t a = j; a >= 0; a = parents[a])
        m = sw_xform_mul(sw_pose_get(pose, (uint32_t)a), m);
    m.r = sw_quat_normalize(m.r);
    return m;
}

static sw_vec3 sw__rt_mat_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* The feet the lock holds: per side the target foot (canonical, mapped) and
 * the limb of the map ending there (-1: none). */
typedef struct sw__rt_feet {
    int32_t foot[2];
    int32_t limb[2];
} sw__rt_feet;

static sw__rt_feet sw__rt_find_feet(const sw_retarget_map* map, const sw_skeleton* target) {
    sw__rt_feet f = {{-1, -1}, {-1, -1}};
    int32_t bones[SW_RETARGET_BONE_COUNT];
    sw__rt_bones(target, bones);
    const int32_t ends[2] = {bones[SW_RETARGET_BONE_LEFT_FOOT], bones[SW_RETARGET_BONE_RIGHT_FOOT]};
    for (int side = 0; side < 2; ++side)
        if (ends[side] >= 0 && map->source_of[ends[side]] >= 0) f.foot[side] = ends[side];
    for (int side = 0; side < 2; ++side)
        for (uint32_t i = 0; i < map->limbs_count && f.foot[side] >= 0; ++i)
            if ((int32_t)map->limbs[i].end == f.foot[side] && f.limb[side] < 0)
                f.limb[side] = (int32_t)i;
    return f;
}

/* Moves the target pose's feet onto their lock goals (key k): lowers the
 * root where a limb's goal is out of reach, then two-bone IK per limb (the
 * foot keeping its model rotation), or a placed foot moved there. */
static sw_result sw__rt_lock_pose(const sw_retarget_map* map, const sw_skeleton* tgt,
                                  const sw__rt_feet* feet, const sw_vec3 goal[2],
                                  const float weight[2], sw_xform4* pose, sw_mat4* mats) {
    const sw_local_to_model_job l2m = {
        .skeleton = tgt,
        .local = pose,
        .local_count = tgt->packets_count,
        .out = mats,
        .out_count = tgt->joints_count,
    };
    sw_result r = sw_local_to_model_job_run(&l2m);
    if (r != SW_RESULT_OK) return r;
    const int16_t* parents = sw_skeleton_parents(tgt);
    float drop = 0.0f;
    for (int side = 0; side < 2; ++side) {
        if (feet->limb[side] < 0 || !(weight[side] > 0.0f)) continue;
        const sw_retarget_limb l = map->limbs[feet->limb[side]];
        const sw_vec3 a = sw__rt_mat_pos(&mats[l.start]), b = sw__rt_mat_pos(&mats[l.mid]),
                      c = sw__rt_mat_pos(&mats[l.end]);
        const float reach =
            0.999f * (sw_vec3_length(sw_vec3_sub(b, a)) + sw_vec3_length(sw_vec3_sub(c, b)));
        const sw_vec3 g = goal[side];
        const float hx = g.x - a.x, hz = g.z - a.z, h2 = hx * hx + hz * hz;
        if (!(h2 < reach * reach)) continue;
        const float need = a.y - g.y - sqrtf(reach * reach - h2);
        if (need > drop) drop = need;
    }
    /* where the root drops, every limb is solved (a free foot to where it was) */
    sw_vec3 free_pos[2] = {{0, 0, 0}, {0, 0, 0}};
    for (int side = 0; side < 2; ++side)
        if (feet->foot[side] >= 0) free_pos[side] = sw__rt_mat_pos(&mats[feet->foot[side]]);
    if (drop > 0.0f && map->root_target >= 0) {
        const uint32_t root = (uint32_t)map->root_target;
        sw_xform x = sw_pose_get(pose, root);
        sw_vec3 down = sw_vec3_make(0.0f, -drop, 0.0f);
        if (parents[root] >= 0) {
            const sw_xform pm = sw__rt_model_of(tgt, pose, parents[root]);
            down = sw_vec3_scale(sw_quat_rotate(sw_quat_conjugate(pm.r), down), 1.0f / pm.s.x);
        }
        x.t = sw_vec3_add(x.t, down);
        sw_pose_set(pose, root, x);
    } else {
        drop = 0.0f;
    }
    for (int side = 0; side < 2; ++side) {
        const int32_t foot = feet->foot[side];
        if (foot < 0) continue;
        if (feet->limb[side] >= 0) {
            if (!(weight[side] > 0.0f) && drop == 0.0f) continue;
            const sw_retarget_limb l = map->limbs[feet->limb[side]];
            const sw_quat keep = sw__rt_model_of(tgt, pose, foot).r;
            r = sw_local_to_model_job_run(&l2m);
            if (r != SW_RESULT_OK) return r;
            const sw_ik_two_bone_job leg = {
                .skeleton = tgt,
                .model = mats,
                .model_count = tgt->joints_count,
                .start_joint = l.start,
                .mid_joint = l.mid,
                .end_joint = l.end,
                .target = weight[side] > 0.0f ? goal[side] : free_pos[side],
                .pole_mode = SW_IK_POLE_MODE_NONE,
                .weight = 1.0f,
                .pose = pose,
                .pose_count = tgt->packets_count,
            };
            /* a limb the solver refuses (a bone of zero length) keeps its pose */
            if (sw_ik_two_bone_job_run(&leg) != SW_RESULT_OK) continue;
            sw_xform end = sw_pose_get(pose, l.end);
            const sw_quat pr = sw__rt_model_of(tgt, pose, parents[l.end]).r;
            end.r = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(pr), keep));
            sw_pose_set(pose, l.end, end);
        } else if (map->placed[foot] && weight[side] > 0.0f) {
            sw_xform x = sw_pose_get(pose, (uint32_t)foot);
            x.t = parents[foot] < 0
                      ? goal[side]
                      : sw_xform_point(sw_xform_inverse(sw__rt_model_of(tgt, pose, parents[foot])),
                                       goal[side]);
            sw_pose_set(pose, (uint32_t)foot, x);
        }
    }
    return SW_RESULT_OK;
}

/* What the bake needs to sample and retarget key k. */
typedef struct sw__rt_key_ctx {
    const sw_retarget_map* map;
    const sw_skeleton* source;
    const sw_clip* clip;
    const sw_skeleton* target;
    float ik_weight;
    sw_sample_cache* cache;
    sw_xform4* spose;
    sw_xform4* tpose;
    void* scratch;
    size_t scratch_size;
    uint32_t keys;
    float key_rate;
} sw__rt_key_ctx;

/* Samples the source at key k into c->spose and retargets it into c->tpose. */
static sw_result sw__rt_key(const sw__rt_key_ctx* c, uint32_t k) {
    const float duration = c->clip->duration;
    float time = c->keys > 1 ? (float)k / c->key_rate : 0.0f;
    if (k + 1 == c->keys || time > duration) time = duration;
    const sw_sample_job sample = {
        .clip = c->clip,
        .skeleton = c->source,
        .time = time,
        .cache = c->cache,
        .out = c->spose,
        .out_count = c->source->packets_count,
    };
    sw_result r = sw_sample_job_run(&sample);
    const sw_retarget_job job = {
        .map = c->map,
        .source = c->source,
        .target = c->target,
        .source_pose = c->spose,
        .source_pose_count = c->source->packets_count,
        .ik_weight = c->ik_weight,
        .scratch = c->scratch,
        .scratch_size = c->scratch_size,
        .out = c->tpose,
        .out_count = c->target->packets_count,
    };
    if (r == SW_RESULT_OK) r = sw_retarget_job_run(&job);
    return r;
}

/* Pass 1 of the lock: per side the source foot (src[side * keys + k]) and
 * the free target foot (goal[side * keys + k]) at every key. */
static sw_result sw__rt_feet_paths(const sw__rt_key_ctx* c, const sw__rt_feet* feet, sw_mat4* mats,
                                   sw_vec3* goal, sw_vec3* src) {
    const uint32_t keys = c->keys;
    for (uint32_t k = 0; k < keys; ++k) {
        sw_result r = sw__rt_key(c, k);
        sw_local_to_model_job l2m = {
            .skeleton = c->source,
            .local = c->spose,
            .local_count = c->source->packets_count,
            .out = mats,
            .out_count = c->source->joints_count,
        };
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
        for (int side = 0; side < 2 && r == SW_RESULT_OK; ++side)
            if (feet->foot[side] >= 0)
                src[(size_t)side * keys + k] =
                    sw__rt_mat_pos(&mats[c->map->source_of[feet->foot[side]]]);
        l2m.skeleton = c->target, l2m.local = c->tpose, l2m.local_count = c->target->packets_count;
        l2m.out_count = c->target->joints_count;
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
        for (int side = 0; side < 2 && r == SW_RESULT_OK; ++side)
            if (feet->foot[side] >= 0)
                goal[(size_t)side * keys + k] = sw__rt_mat_pos(&mats[feet->foot[side]]);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

/* One foot's lock from its source path `src`: w[k] 0 except around planted
 * runs (merged when the next starts within 2 fades), the goals g pulled
 * across the ground to the run's middle position and faded in and out
 * (smoothstep over `fade` keys); the height stays as animated. */
static sw_result sw__rt_lock_side(const sw_vec3* src, uint32_t keys, float key_rate,
                                  const sw_retarget_bake_options* opt, uint8_t* planted, sw_vec3* g,
                                  float* w) {
    const float speed = opt->lock_speed > 0.0f ? opt->lock_speed : SW_RETARGET_PLANT_SPEED;
    const float height = opt->lock_height > 0.0f ? opt->lock_height : SW_RETARGET_PLANT_HEIGHT;
    const float blend_s = opt->lock_blend > 0.0f ? opt->lock_blend : SW_RETARGET_LOCK_BLEND;
    const double blend_keys = floor((double)blend_s * (double)key_rate + 0.5);
    const int64_t fade = blend_keys > (double)keys ? (int64_t)keys : (int64_t)blend_keys;
    const sw_result r = sw_retarget_find_planted(src, keys, key_rate, speed, height, planted);
    if (r != SW_RESULT_OK) return r;
    for (uint32_t k0 = 0; k0 < keys;) {
        if (!planted[k0]) {
            ++k0;
            continue;
        }
        uint32_t k1 = k0;
        for (;;) {
            while (k1 + 1 < keys && planted[k1 + 1])
                ++k1;
            uint32_t next = k1 + 1;
            while (next < keys && !planted[next] && (int64_t)(next - k1) <= 2 * fade + 1)
                ++next;
            if (next >= keys || !planted[next]) break;
            k1 = next;
        }
        const int64_t lo = (int64_t)k0 - fade, hi = (int64_t)k1 + fade;
        const sw_vec3 held = g[k0 + (k1 - k0) / 2u];
        for (int64_t k = lo < 0 ? 0 : lo; k <= hi && k < (int64_t)keys; ++k) {
            float x = 1.0f;
            if (k < (int64_t)k0) x = 1.0f - (float)((int64_t)k0 - k) / (float)(fade + 1);
            if (k > (int64_t)k1) x = 1.0f - (float)(k - (int64_t)k1) / (float)(fade + 1);
            const float sm = x * x * (3.0f - 2.0f * x);
            g[k].x += (held.x - g[k].x) * sm;
            g[k].z += (held.z - g[k].z) * sm;
            if (sm > w[k]) w[k] = sm;
        }
        k0 = k1 + 1;
    }
    return SW_RESULT_OK;
}

/* The lock's goals and weights (goal, weight: 2 * keys each, side-major). */
static sw_result sw__rt_lock_goals(const sw__rt_key_ctx* c, const sw__rt_feet* feet,
                                   const sw_retarget_bake_options* opt, sw_mat4* mats,
                                   sw_vec3* goal, sw_vec3* src, float* weight, uint8_t* planted,
                                   sw_error* err) {
    const uint32_t keys = c->keys;
    sw_result r = sw__rt_feet_paths(c, feet, mats, goal, src);
    if (r != SW_RESULT_OK) return sw__rt_fail(err, r, "sample and retarget");
    for (size_t k = 0; k < (size_t)keys * 2u; ++k)
        weight[k] = 0.0f;
    for (int side = 0; side < 2; ++side) {
        if (feet->foot[side] < 0 || keys < 2) continue;
        const size_t o = (size_t)side * keys;
        r = sw__rt_lock_side(src + o, keys, c->key_rate, opt, planted, goal + o, weight + o);
        if (r != SW_RESULT_OK) return sw__rt_fail(err, r, "planted feet");
    }
    return SW_RESULT_OK;
}

/* Samples, retargets (and locks, with goal) every key into rec. */
static sw_result sw__rt_record(const sw__rt_key_ctx* c, const sw__rt_feet* feet,
                               const sw_vec3* goal, const float* weight, sw_mat4* mats,
                               sw_clip_recorder* rec, sw_error* err) {
    const uint32_t keys = c->keys;
    for (uint32_t k = 0; k < keys; ++k) {
        sw_result r = sw__rt_key(c, k);
        if (r == SW_RESULT_OK && goal) {
            const sw_vec3 gk[2] = {goal[k], goal[(size_t)keys + k]};
            const float wk[2] = {weight[k], weight[(size_t)keys + k]};
            r = sw__rt_lock_pose(c->map, c->target, feet, gk, wk, c->tpose, mats);
        }
        if (r != SW_RESULT_OK) return sw__rt_fail(err, r, "sample and retarget");
        r = sw_clip_recorder_append(rec, c->tpose, c->target->packets_count, err);
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

/* The recorded clip with the source clip's name, duration, float tracks and
 * events (tracks, events: scratch of their counts). */
static sw_result sw__rt_build(sw_clip_recorder* rec, const sw_clip* clip,
                              sw_clip_track_desc* tracks, sw_clip_event_desc* events,
                              const sw_allocator* alloc, const sw_clip** out, sw_error* err) {
    const sw_clip_track* src_tracks = sw_clip_tracks(clip);
    for (uint32_t f = 0; f < clip->float_tracks_count; ++f) {
        const sw_clip_track* t = &src_tracks[clip->tracks_count - clip->float_tracks_count + f];
        tracks[f] = (sw_clip_track_desc){
            .kind = SW_TRACK_KIND_FLOAT,
            .name = sw_clip_float_track_name(clip, f),
            .interp = (sw_interp)t->interp,
            .keys_count = t->keys_count,
            .times = sw_clip_track_times(clip, t),
            .start = t->start,
            .rate = t->rate,
            .values = sw_clip_track_values(clip, t),
        };
    }
    for (uint32_t e = 0; e < clip->events_count; ++e)
        events[e] = (sw_clip_event_desc){sw_clip_events(clip)[e].time, sw_clip_event_name(clip, e)};
    const sw_clip_recorder_clip desc = {
        .name = sw_clip_name(clip),
        .duration = clip->duration,
        .events = events,
        .events_count = clip->events_count,
        .float_tracks = tracks,
        .float_tracks_count = clip->float_tracks_count,
    };
    return sw_clip_recorder_build(rec, &desc, alloc, out, err);
}

/* Checks the bake's arguments and options; computes its keys and key rate. */
static sw_result sw__rt_bake_check(const sw_retarget_map* map, const sw_skeleton* source,
                                   const sw_clip* clip, const sw_skeleton* target,
                                   const sw_retarget_bake_options* opt, uint32_t* keys,
                                   float* key_rate, sw_error* err) {
    if (source->joints_count != map->source_joints_count ||
        target->joints_count != map->target_joints_count ||
        clip->joints_count != source->joints_count)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "joint counts match the map");
    if (clip->flags & SW_CLIP_FLAG_ADDITIVE)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "clip not additive");
    if (!(opt->rate >= 0.0f) || !isfinite(opt->rate) || !(opt->ik_weight >= 0.0f) ||
        !(opt->ik_weight <= 1.0f) || !(opt->lock_speed >= 0.0f) || !isfinite(opt->lock_speed) ||
        !(opt->lock_height >= 0.0f) || !isfinite(opt->lock_height) || !(opt->lock_blend >= 0.0f) ||
        !isfinite(opt->lock_blend))
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "options");
    /* the source's own key times: their grid, else their highest rate */
    float rate = opt->rate > 0.0f ? opt->rate : sw_frames_grid_rate(clip);
    if (!(rate > 0.0f)) rate = sw_compress_sample_rate(clip);
    const float duration = clip->duration;
    const double steps = ceil((double)duration * (double)rate - 1e-3);
    if (steps + 1.0 > (double)SW_CLIP_MAX_KEYS)
        return sw__rt_fail(err, SW_RESULT_LIMIT, "keys <= SW_CLIP_MAX_KEYS");
    *keys = duration > 0.0f ? (uint32_t)(steps < 1.0 ? 1.0 : steps) + 1u : 1u;
    *key_rate = *keys > 1 ? (float)(*keys - 1) / duration : 1.0f;
    return SW_RESULT_OK;
}

sw_result sw_retarget_bake(const sw_retarget_map* map, const sw_skeleton* source,
                           const sw_clip* clip, const sw_skeleton* target,
                           const sw_retarget_bake_options* options, const sw_allocator* alloc,
                           const sw_clip** out, sw_error* err) {
    if (!map || !source || !clip || !target || !out)
        return sw__rt_fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments");
    const sw_retarget_bake_options opt = options ? *options : (sw_retarget_bake_options){0};
    uint32_t keys = 0;
    float key_rate = 0.0f;
    sw_result r = sw__rt_bake_check(map, source, clip, target, &opt, &keys, &key_rate, err);
    if (r != SW_RESULT_OK) return r;
    const uint32_t sn = source->joints_count, tn = target->joints_count;
    sw__rt_bake b = {.alloc = alloc};
    sw_xform4* spose = (sw_xform4*)sw__rt_bake_alloc(&b, source->packets_count * sizeof(sw_xform4));
    sw_xform4* tpose = (sw_xform4*)sw__rt_bake_alloc(&b, target->packets_count * sizeof(sw_xform4));
    const size_t scratch_size = sw_retarget_scratch_size(map);
    void* scratch = sw__rt_bake_alloc(&b, scratch_size);
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw__rt_bake_alloc(
        &b,
        (clip->float_tracks_count ? clip->float_tracks_count : 1u) * sizeof(sw_clip_track_desc));
    sw_clip_event_desc* events = (sw_clip_event_desc*)sw__rt_bake_alloc(
        &b, (clip->events_count ? clip->events_count : 1u) * sizeof(sw_clip_event_desc));
    uint32_t* cursors = (uint32_t*)sw__rt_bake_alloc(
        &b, (clip->tracks_count ? clip->tracks_count : 1u) * sizeof(uint32_t));
    const sw__rt_feet feet = sw__rt_find_feet(map, target);
    const bool lock = opt.foot_lock && (feet.foot[0] >= 0 || feet.foot[1] >= 0);
    sw_mat4* mats = (sw_mat4*)sw__rt_bake_alloc(&b, (sn > tn ? sn : tn) * sizeof(sw_mat4));
    sw_vec3* goal = NULL; /* per side [keys]: the foot's goal, then the source foot */
    float* weight = NULL; /* per side [keys]: the lock's weight, 0 = free */
    uint8_t* planted = NULL;
    if (lock) {
        goal = (sw_vec3*)sw__rt_bake_alloc(&b, (size_t)keys * 4u * sizeof(sw_vec3));
        weight = (float*)sw__rt_bake_alloc(&b, (size_t)keys * 2u * sizeof(float));
        planted = (uint8_t*)sw__rt_bake_alloc(&b, (size_t)keys);
    }
    if (!spose || !tpose || !scratch || !tracks || !events || !cursors || !mats ||
        (lock && (!goal || !weight || !planted))) {
        sw__rt_bake_free(&b);
        return sw__rt_fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    }
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, clip->tracks_count);
    const sw__rt_key_ctx ctx = {map,   source, clip,    target,       opt.ik_weight, &cache,
                                spose, tpose,  scratch, scratch_size, keys,          key_rate};
    if (lock)
        r = sw__rt_lock_goals(&ctx, &feet, &opt, mats, goal, goal + (size_t)keys * 2u, weight,
                              planted, err);
    /* tracks where the pose leaves the rest value (within 1e-7) */
    const sw_clip_recorder_options ro = {.fold = SW_CLIP_RECORDER_FOLD_REST, .tolerance = 1e-7f};
    sw_clip_recorder* rec = NULL;
    if (r == SW_RESULT_OK) r = sw_clip_recorder_create(target, key_rate, &ro, alloc, &rec, err);
    if (r == SW_RESULT_OK) r = sw__rt_record(&ctx, &feet, goal, weight, mats, rec, err);
    if (r == SW_RESULT_OK) r = sw__rt_build(rec, clip, tracks, events, alloc, out, err);
    sw_clip_recorder_destroy(rec);
    sw__rt_bake_free(&b);
    return r;
}

/* Model rest transforms of `s` into model (pose: scratch of its packets). */
static sw_result sw__rt_rest_model(const sw_skeleton* s, sw_xform4* pose, sw_mat4* model) {
    memcpy(pose, sw_skeleton_rest_pose(s), s->packets_count * sizeof(sw_xform4));
    const sw_local_to_model_job l2m = {
        .skeleton = s,
        .local = pose,
        .local_count = s->packets_count,
        .out = model,
        .out_count = s->joints_count,
    };
    return sw_local_to_model_job_run(&l2m);
}

/* The lowest model y of each mapped source foot over the clip (60 Hz and
 * the duration) into low[2]. */
static sw_result sw__rt_lowest_feet(const sw_retarget_map* map, const sw_skeleton* source,
                                    const sw_clip* clip, const int32_t feet[2], sw_xform4* pose,
                                    sw_mat4* model, float low[2]) {
    const sw_local_to_model_job l2m = {
        .skeleton = source,
        .local = pose,
        .local_count = source->packets_count,
        .out = model,
        .out_count = source->joints_count,
    };
    low[0] = low[1] = INFINITY;
    const uint32_t steps = (uint32_t)ceil((double)clip->duration * 60.0);
    sw_result r = SW_RESULT_OK;
    for (uint32_t k = 0; k <= steps && r == SW_RESULT_OK; ++k) {
        const sw_sample_job sample = {
            .clip = clip,
            .skeleton = source,
            .time = k == steps ? clip->duration : (float)k / 60.0f,
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
    return r;
}

/* True when every mapped target joint stands at root_scale times its source
 * joint's model rest position (the source's own skeleton or a scaled copy),
 * within 1e-6 of the larger length. */
static bool sw__rt_same_rest(const sw_retarget_map* map, const sw_mat4* smodel,
                             const sw_mat4* tmodel) {
    for (uint32_t t = 0; t < map->target_joints_count; ++t) {
        if (map->source_of[t] < 0) continue;
        const sw_vec3 want =
            sw_vec3_scale(sw__rt_mat_pos(&smodel[map->source_of[t]]), map->root_scale);
        const sw_vec3 got = sw__rt_mat_pos(&tmodel[t]);
        const float tol = 1e-6f * fmaxf(1.0f, fmaxf(sw_vec3_length(want), sw_vec3_length(got)));
        if (!(sw_vec3_length(sw_vec3_sub(got, want)) <= tol)) return false;
    }
    return true;
}

sw_result sw_retarget_fit_ground(const sw_retarget_map* map, const sw_skeleton* source,
                                 const sw_clip* clip, const sw_skeleton* target,
                                 float* source_ground) {
    if (!map || !source || !clip || !target || !source_ground) return SW_RESULT_INVALID_ARGUMENT;
    if (source->joints_count != map->source_joints_count ||
        target->joints_count != map->target_joints_count ||
        clip->joints_count != source->joints_count || !(map->root_scale > 0.0f))
        return SW_RESULT_INVALID_ARGUMENT;
    const sw__rt_feet f = sw__rt_find_feet(map, target);
    const int32_t* feet = f.foot;
    if (feet[0] < 0 && feet[1] < 0) return SW_RESULT_NOT_FOUND;
    sw__rt_bake b = {.alloc = NULL};
    const uint32_t sp = source->packets_count, tp = target->packets_count;
    sw_xform4* pose = (sw_xform4*)sw__rt_bake_alloc(&b, (sp > tp ? sp : tp) * sizeof(sw_xform4));
    sw_mat4* smodel = (sw_mat4*)sw__rt_bake_alloc(&b, source->joints_count * sizeof(sw_mat4));
    sw_mat4* tmodel = (sw_mat4*)sw__rt_bake_alloc(&b, target->joints_count * sizeof(sw_mat4));
    if (!pose || !smodel || !tmodel) {
        sw__rt_bake_free(&b);
        return SW_RESULT_OUT_OF_MEMORY;
    }
    sw_result r = sw__rt_rest_model(target, pose, tmodel);
    if (r == SW_RESULT_OK) r = sw__rt_rest_model(source, pose, smodel);
    const bool same = r == SW_RESULT_OK && sw__rt_same_rest(map, smodel, tmodel);
    float low[2] = {0, 0};
    if (r == SW_RESULT_OK && !same)
        r = sw__rt_lowest_feet(map, source, clip, feet, pose, smodel, low);
    float g = INFINITY;
    for (int k = 0; k < 2 && r == SW_RESULT_OK; ++k)
        if (feet[k] >= 0) /* the foot's rest height above the target's ground, in source units */
            g = fminf(g, low[k] - (tmodel[feet[k]].m[13] - map->target_ground) / map->root_scale);
    sw__rt_bake_free(&b);
    if (r != SW_RESULT_OK) return r;
    /* the same skeleton: its ground maps onto the target's */
    *source_ground = same ? map->target_ground / map->root_scale : g;
    return SW_RESULT_OK;
}
