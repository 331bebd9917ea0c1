/* Offline retargeting: a clip of the source skeleton baked for the target. */
#include <string.h>

#include "sinew/core/local_to_model.h"
#include "sinew/core/sample.h"
#include "sinew/ik/ik.h"
#include "sinew/tools/builders/clip_recorder.h"
#include "sinew/tools/builders/retarget_map.h"

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
    for (uint32_t t = 0; t < target->joints_count; ++t) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(sw_skeleton_joint_name(target, t));
        const int side = b == SW_RETARGET_BONE_LEFT_FOOT    ? 0
                         : b == SW_RETARGET_BONE_RIGHT_FOOT ? 1
                                                            : -1;
        if (side >= 0 && f.foot[side] < 0 && map->source_of[t] >= 0) f.foot[side] = (int32_t)t;
    }
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
        !(opt.ik_weight <= 1.0f) || !(opt.lock_speed >= 0.0f) || !isfinite(opt.lock_speed) ||
        !(opt.lock_height >= 0.0f) || !isfinite(opt.lock_height) || !(opt.lock_blend >= 0.0f) ||
        !isfinite(opt.lock_blend))
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
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw__rt_bake_alloc(
        &b,
        (clip->float_tracks_count ? clip->float_tracks_count : 1u) * sizeof(sw_clip_track_desc));
    sw_clip_event_desc* events = (sw_clip_event_desc*)sw__rt_bake_alloc(
        &b, (clip->events_count ? clip->events_count : 1u) * sizeof(sw_clip_event_desc));
    uint32_t* cursors = (uint32_t*)sw__rt_bake_alloc(
        &b, (clip->tracks_count ? clip->tracks_count : 1u) * sizeof(uint32_t));
    if (!spose || !tpose || !scratch || !tracks || !events || !cursors) {
        sw__rt_bake_free(&b);
        return sw__rt_fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    }
    const sw__rt_feet feet = sw__rt_find_feet(map, target);
    const bool lock = opt.foot_lock && (feet.foot[0] >= 0 || feet.foot[1] >= 0);
    sw_mat4* mats = NULL;
    sw_vec3* goal = NULL; /* per side [keys]: the foot's goal */
    float* weight = NULL; /* per side [keys]: the lock's weight, 0 = free */
    uint8_t* planted = NULL;
    if (lock) {
        mats = (sw_mat4*)sw__rt_bake_alloc(&b, (sn > tn ? sn : tn) * sizeof(sw_mat4));
        goal = (sw_vec3*)sw__rt_bake_alloc(&b, (size_t)keys * 4u * sizeof(sw_vec3));
        weight = (float*)sw__rt_bake_alloc(&b, (size_t)keys * 2u * sizeof(float));
        planted = (uint8_t*)sw__rt_bake_alloc(&b, (size_t)keys);
        if (!mats || !goal || !weight || !planted) {
            sw__rt_bake_free(&b);
            return sw__rt_fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
        }
    }
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, clip->tracks_count);
    const sw__rt_key_ctx ctx = {map,   source, clip,    target,       opt.ik_weight, &cache,
                                spose, tpose,  scratch, scratch_size, keys,          key_rate};
    if (lock) {
        /* pass 1: source feet (goal[2 * keys..]) and free target feet (goal[0..]) */
        sw_vec3* src_feet = goal + (size_t)keys * 2u;
        for (uint32_t k = 0; k < keys; ++k) {
            sw_result r = sw__rt_key(&ctx, k);
            sw_local_to_model_job l2m = {
                .skeleton = source,
                .local = spose,
                .local_count = source->packets_count,
                .out = mats,
                .out_count = sn,
            };
            if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
            for (int side = 0; side < 2 && r == SW_RESULT_OK; ++side)
                if (feet.foot[side] >= 0)
                    src_feet[(size_t)side * keys + k] =
                        sw__rt_mat_pos(&mats[map->source_of[feet.foot[side]]]);
            l2m.skeleton = target, l2m.local = tpose, l2m.local_count = target->packets_count;
            l2m.out_count = tn;
            if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
            for (int side = 0; side < 2 && r == SW_RESULT_OK; ++side)
                if (feet.foot[side] >= 0)
                    goal[(size_t)side * keys + k] = sw__rt_mat_pos(&mats[feet.foot[side]]);
            if (r != SW_RESULT_OK) {
                sw__rt_bake_free(&b);
                return sw__rt_fail(err, r, "sample and retarget");
            }
        }
        /* planted runs: goals pulled to the run's middle position, faded in and out */
        const float speed = opt.lock_speed > 0.0f ? opt.lock_speed : SW_RETARGET_PLANT_SPEED;
        const float height = opt.lock_height > 0.0f ? opt.lock_height : SW_RETARGET_PLANT_HEIGHT;
        const float blend_s = opt.lock_blend > 0.0f ? opt.lock_blend : SW_RETARGET_LOCK_BLEND;
        const double blend_keys = floor((double)blend_s * (double)key_rate + 0.5);
        const int64_t fade = blend_keys > (double)keys ? (int64_t)keys : (int64_t)blend_keys;
        for (int side = 0; side < 2; ++side) {
            float* w = weight + (size_t)side * keys;
            sw_vec3* g = goal + (size_t)side * keys;
            for (uint32_t k = 0; k < keys; ++k)
                w[k] = 0.0f;
            if (feet.foot[side] < 0 || keys < 2) continue;
            const sw_result r = sw_retarget_find_planted(src_feet + (size_t)side * keys, keys,
                                                         key_rate, speed, height, planted);
            if (r != SW_RESULT_OK) {
                sw__rt_bake_free(&b);
                return sw__rt_fail(err, r, "planted feet");
            }
            for (uint32_t k0 = 0; k0 < keys;) {
                if (!planted[k0]) {
                    ++k0;
                    continue;
                }
                /* the run, merged with the next ones that start within 2 fades */
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
                /* held where the foot is at the middle of the run, across the
                 * ground: the height stays as animated (heel and toe roll) */
                const int64_t lo = (int64_t)k0 - fade, hi = (int64_t)k1 + fade;
                const sw_vec3 held = g[k0 + (k1 - k0) / 2u];
                for (int64_t k = lo < 0 ? 0 : lo; k <= hi && k < (int64_t)keys; ++k) {
                    float x = 1.0f;
                    if (k < (int64_t)k0) x = 1.0f - (float)((int64_t)k0 - k) / (float)(fade + 1);
                    if (k > (int64_t)k1) x = 1.0f - (float)(k - (int64_t)k1) / (float)(fade + 1);
                    const float s = x * x * (3.0f - 2.0f * x);
                    g[k].x += (held.x - g[k].x) * s;
                    g[k].z += (held.z - g[k].z) * s;
                    if (s > w[k]) w[k] = s;
                }
                k0 = k1 + 1;
            }
        }
    }
    /* Tracks where the pose leaves the rest value (within 1e-7). */
    const sw_clip_recorder_options ro = {.fold = SW_CLIP_RECORDER_FOLD_REST, .tolerance = 1e-7f};
    sw_clip_recorder* rec = NULL;
    sw_result rr = sw_clip_recorder_create(target, key_rate, &ro, alloc, &rec, err);
    for (uint32_t k = 0; k < keys && rr == SW_RESULT_OK; ++k) {
        rr = sw__rt_key(&ctx, k);
        if (rr == SW_RESULT_OK && lock) {
            const sw_vec3 gk[2] = {goal[k], goal[(size_t)keys + k]};
            const float wk[2] = {weight[k], weight[(size_t)keys + k]};
            rr = sw__rt_lock_pose(map, target, &feet, gk, wk, tpose, mats);
        }
        if (rr != SW_RESULT_OK) {
            sw__rt_fail(err, rr, "sample and retarget");
            break;
        }
        rr = sw_clip_recorder_append(rec, tpose, target->packets_count, err);
    }
    if (rr != SW_RESULT_OK) {
        sw_clip_recorder_destroy(rec);
        sw__rt_bake_free(&b);
        return rr;
    }
    /* Float tracks and events as they are. */
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
        .duration = duration,
        .events = events,
        .events_count = clip->events_count,
        .float_tracks = tracks,
        .float_tracks_count = clip->float_tracks_count,
    };
    const sw_result r = sw_clip_recorder_build(rec, &desc, alloc, out, err);
    sw_clip_recorder_destroy(rec);
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
