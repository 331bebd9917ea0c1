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

/* The feet the lock holds: per side the target foot (canonical, mapped),
 * its toes (canonical, a child of the foot, mapped; -1: none) and the limb
 * of the map ending at the foot (-1: none). */
typedef struct sw__rt_feet {
    int32_t foot[2];
    int32_t toe[2];
    int32_t limb[2];
} sw__rt_feet;

static sw__rt_feet sw__rt_find_feet(const sw_retarget_map* map, const sw_skeleton* target) {
    sw__rt_feet f = {{-1, -1}, {-1, -1}, {-1, -1}};
    int32_t bones[SW_RETARGET_BONE_COUNT];
    sw__rt_bones(target, bones);
    const int32_t ends[2] = {bones[SW_RETARGET_BONE_LEFT_FOOT], bones[SW_RETARGET_BONE_RIGHT_FOOT]};
    const int32_t toes[2] = {bones[SW_RETARGET_BONE_LEFT_TOES], bones[SW_RETARGET_BONE_RIGHT_TOES]};
    const int16_t* parents = sw_skeleton_parents(target);
    for (int side = 0; side < 2; ++side)
        if (ends[side] >= 0 && map->source_of[ends[side]] >= 0) f.foot[side] = ends[side];
    for (int side = 0; side < 2; ++side)
        if (f.foot[side] >= 0 && toes[side] >= 0 && parents[toes[side]] == f.foot[side] &&
            map->source_of[toes[side]] >= 0)
            f.toe[side] = toes[side];
    for (int side = 0; side < 2; ++side)
        for (uint32_t i = 0; i < map->limbs_count && f.foot[side] >= 0; ++i)
            if ((int32_t)map->limbs[i].end == f.foot[side] && f.limb[side] < 0)
                f.limb[side] = (int32_t)i;
    return f;
}

/* A foot's toes at rest, for keeping them off the ground: the toes joint's
 * model rotation, the foot's direction across the ground (unit, model), the
 * ball's height and the length of the toes past the ball (half the foot). */
typedef struct sw__rt_toe {
    sw_quat rest;
    sw_vec3 forward;
    float ball_y;
    float tip;
} sw__rt_toe;

/* The local rotation that gives joint j of `pose` the model rotation m. */
static void sw__rt_set_model_rotation(const sw_skeleton* s, sw_xform4* pose, uint32_t j,
                                      sw_quat m) {
    const int16_t parent = sw_skeleton_parents(s)[j];
    sw_xform x = sw_pose_get(pose, j);
    const sw_quat pr = parent < 0 ? sw_quat_identity() : sw__rt_model_of(s, pose, parent).r;
    x.r = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(pr), m));
    sw_pose_set(pose, j, x);
}

/* Lowers the root of `pose` (model matrices `mats`) by the most any limb
 * ending at a foot needs to reach its goal. */
static void sw__rt_drop_root(const sw_retarget_map* map, const sw_skeleton* tgt,
                             const sw__rt_feet* feet, const sw_vec3 goal[2], sw_xform4* pose,
                             const sw_mat4* mats) {
    float drop = 0.0f;
    for (int side = 0; side < 2; ++side) {
        if (feet->limb[side] < 0) continue;
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
    if (!(drop > 0.0f) || map->root_target < 0) return;
    const uint32_t root = (uint32_t)map->root_target;
    const int16_t parent = sw_skeleton_parents(tgt)[root];
    sw_xform x = sw_pose_get(pose, root);
    sw_vec3 down = sw_vec3_make(0.0f, -drop, 0.0f);
    if (parent >= 0) {
        const sw_xform pm = sw__rt_model_of(tgt, pose, parent);
        down = sw_vec3_scale(sw_quat_rotate(sw_quat_conjugate(pm.r), down), 1.0f / pm.s.x);
    }
    x.t = sw_vec3_add(x.t, down);
    sw_pose_set(pose, root, x);
}

/* Turns toes joint j of `pose` up about its ball where their tip (t's
 * length along the foot's rest direction, turned as the toes are) would be
 * under the ball's rest height: toes on the ground lie flat on it. */
static void sw__rt_toe_up(const sw_skeleton* tgt, const sw__rt_toe* t, uint32_t j,
                          sw_xform4* pose) {
    const sw_xform m = sw__rt_model_of(tgt, pose, (int32_t)j);
    const sw_vec3 fwd = sw_quat_rotate(sw_quat_mul(m.r, sw_quat_conjugate(t->rest)), t->forward);
    const float h = hypotf(fwd.x, fwd.z);
    if (!(m.t.y + fwd.y * t->tip < t->ball_y) || !(h > 0.0f)) return;
    const float dy = fminf(fmaxf((t->ball_y - m.t.y) / t->tip, -1.0f), 1.0f);
    const float across = sqrtf(1.0f - dy * dy) / h;
    const sw_vec3 up = sw_vec3_make(fwd.x * across, dy, fwd.z * across);
    sw__rt_set_model_rotation(tgt, pose, j, sw_quat_mul(sw_quat_from_to(fwd, up), m.r));
}

/* Moves the target pose's feet onto their goals (model space), each foot's
 * model rotation turned by turn[side] and its toes kept off the ground
 * (toe: per side): lowers the root where a limb's goal is out of reach,
 * then two-bone IK per limb, or a placed foot moved there. */
static sw_result sw__rt_lock_pose(const sw_retarget_map* map, const sw_skeleton* tgt,
                                  const sw__rt_feet* feet, const sw_vec3 goal[2],
                                  const sw_quat turn[2], const sw__rt_toe toe[2], sw_xform4* pose,
                                  sw_mat4* mats) {
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
    sw__rt_drop_root(map, tgt, feet, goal, pose, mats);
    for (int side = 0; side < 2; ++side) {
        const int32_t foot = feet->foot[side];
        if (foot < 0) continue;
        const sw_quat keep = sw_quat_mul(turn[side], sw__rt_model_of(tgt, pose, foot).r);
        if (feet->limb[side] >= 0) {
            const sw_retarget_limb l = map->limbs[feet->limb[side]];
            r = sw_local_to_model_job_run(&l2m);
            if (r != SW_RESULT_OK) return r;
            const sw_ik_two_bone_job leg = {
                .skeleton = tgt,
                .model = mats,
                .model_count = tgt->joints_count,
                .start_joint = l.start,
                .mid_joint = l.mid,
                .end_joint = l.end,
                .target = goal[side],
                .pole_mode = SW_IK_POLE_MODE_NONE,
                .weight = 1.0f,
                .pose = pose,
                .pose_count = tgt->packets_count,
            };
            /* a limb the solver refuses (a bone of zero length) keeps its pose */
            if (sw_ik_two_bone_job_run(&leg) != SW_RESULT_OK) continue;
        } else if (map->placed[foot]) {
            sw_xform x = sw_pose_get(pose, (uint32_t)foot);
            x.t = parents[foot] < 0
                      ? goal[side]
                      : sw_xform_point(sw_xform_inverse(sw__rt_model_of(tgt, pose, parents[foot])),
                                       goal[side]);
            sw_pose_set(pose, (uint32_t)foot, x);
        } else {
            continue;
        }
        sw__rt_set_model_rotation(tgt, pose, (uint32_t)foot, keep);
        if (feet->toe[side] >= 0) sw__rt_toe_up(tgt, &toe[side], (uint32_t)feet->toe[side], pose);
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

/* The foot lock's arrays (side-major). */
typedef struct sw__rt_lock {
    sw_vec3* path;   /* per side 4 * keys: source ankle, source ball, free ankle, free ball */
    sw_vec3* offset; /* per side keys: the ankle's goal minus its free position */
    sw_quat* turn;   /* per side keys: the turn of the foot's model rotation */
    uint8_t* on;     /* per side 2 * keys: heel, ball contacts */
    sw__rt_toe toe[2];
} sw__rt_lock;

/* Pass 1 of the lock: per side the source and the free target ankle and
 * ball (the ankle where a side has no ball) at every key. */
static sw_result sw__rt_feet_paths(const sw__rt_key_ctx* c, const sw__rt_feet* feet, sw_mat4* mats,
                                   sw_vec3* path) {
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
        for (int pass = 0; pass < 2 && r == SW_RESULT_OK; ++pass) {
            if (pass == 1)
                l2m.skeleton = c->target, l2m.local = c->tpose,
                l2m.local_count = c->target->packets_count, l2m.out_count = c->target->joints_count;
            r = sw_local_to_model_job_run(&l2m);
            for (int side = 0; side < 2 && r == SW_RESULT_OK; ++side) {
                const int32_t foot = feet->foot[side];
                if (foot < 0) continue;
                const int32_t ball = feet->toe[side] >= 0 ? feet->toe[side] : foot;
                const int32_t j[2] = {pass ? foot : c->map->source_of[foot],
                                      pass ? ball : c->map->source_of[ball]};
                for (int i = 0; i < 2; ++i)
                    path[((size_t)side * 4u + (size_t)pass * 2u + (size_t)i) * keys + k] =
                        sw__rt_mat_pos(&mats[j[i]]);
            }
        }
        if (r != SW_RESULT_OK) return r;
    }
    return SW_RESULT_OK;
}

/* Model transforms of the target's rest pose into mats (pose: scratch). */
static sw_result sw__rt_rest_model(const sw_skeleton* s, sw_xform4* pose, sw_mat4* model);

/* The lock's offsets and turns: contacts of each source heel and ball
 * (sw_retarget_find_contacts), planned on the target's standing heights
 * (its rest pose). */
static sw_result sw__rt_lock_goals(const sw__rt_key_ctx* c, const sw__rt_feet* feet,
                                   const sw_retarget_bake_options* opt, sw_mat4* mats,
                                   sw__rt_lock* lk, sw_error* err) {
    const uint32_t keys = c->keys;
    sw_result r = sw__rt_feet_paths(c, feet, mats, lk->path);
    if (r == SW_RESULT_OK) r = sw__rt_rest_model(c->target, c->tpose, mats);
    if (r != SW_RESULT_OK) return sw__rt_fail(err, r, "sample and retarget");
    const float speed = opt->lock_speed > 0.0f ? opt->lock_speed : SW_RETARGET_PLANT_SPEED;
    const float height = opt->lock_height > 0.0f ? opt->lock_height : SW_RETARGET_PLANT_HEIGHT;
    const float blend_s = opt->lock_blend > 0.0f ? opt->lock_blend : SW_RETARGET_LOCK_BLEND;
    const double blend_keys = floor((double)blend_s * (double)c->key_rate + 0.5);
    for (int side = 0; side < 2; ++side) {
        const int32_t foot = feet->foot[side], toe = feet->toe[side];
        const size_t o = (size_t)side * keys;
        if (foot < 0) continue;
        const sw_vec3* path = lk->path + o * 4u;
        uint8_t* on = lk->on + o * 2u;
        for (int i = 0; i < 2 && r == SW_RESULT_OK; ++i)
            r = sw_retarget_find_contacts(path + (size_t)i * keys, keys, c->key_rate, speed, height,
                                          on + (size_t)i * keys);
        if (r != SW_RESULT_OK) return sw__rt_fail(err, r, "foot contacts");
        if (toe >= 0) {
            const float touch = SW_RETARGET_CONTACT_TOUCH * height;
            sw__rt_widen_contacts(path, keys, touch, on, on + keys);
            sw__rt_widen_contacts(path + keys, keys, touch, on + keys, on);
        }
        const sw_vec3 ra = sw__rt_mat_pos(&mats[foot]);
        const sw_vec3 rb = toe >= 0 ? sw__rt_mat_pos(&mats[toe]) : ra;
        if (toe >= 0) {
            const sw_vec3 f = sw_vec3_make(rb.x - ra.x, 0.0f, rb.z - ra.z);
            sw_xform rest;
            sw_mat4_decompose(&mats[toe], &rest);
            lk->toe[side] = (sw__rt_toe){
                .rest = sw_quat_normalize(rest.r),
                .forward = sw_vec3_length(f) > 0.0f ? sw_vec3_normalize(f) : sw_vec3_make(0, 0, 1),
                .ball_y = rb.y,
                .tip = 0.5f * sw_vec3_length(sw_vec3_sub(rb, ra)),
            };
        }
        const sw__rt_contact_plan plan = {
            .ankle = path + 2u * keys,
            .ball = toe >= 0 ? path + 3u * keys : NULL,
            .heel_on = on,
            .ball_on = on + keys,
            .keys = keys,
            .fade = blend_keys > (double)keys ? keys : (uint32_t)blend_keys,
            .ankle_y = ra.y,
            .ball_y = rb.y,
            .length = sw_vec3_length(sw_vec3_sub(rb, ra)),
            .touch = SW_RETARGET_CONTACT_TOUCH * height * c->map->root_scale,
        };
        sw__rt_plan_contacts(&plan, lk->offset + o, lk->turn + o);
    }
    return SW_RESULT_OK;
}

/* Samples, retargets (and locks, with lk) every key into rec. */
static sw_result sw__rt_record(const sw__rt_key_ctx* c, const sw__rt_feet* feet,
                               const sw__rt_lock* lk, sw_mat4* mats, sw_clip_recorder* rec,
                               sw_error* err) {
    const uint32_t keys = c->keys;
    for (uint32_t k = 0; k < keys; ++k) {
        sw_result r = sw__rt_key(c, k);
        if (r == SW_RESULT_OK && lk) {
            sw_vec3 goal[2] = {{0, 0, 0}, {0, 0, 0}};
            sw_quat turn[2] = {sw_quat_identity(), sw_quat_identity()};
            for (size_t side = 0; side < 2; ++side) {
                if (feet->foot[side] < 0) continue;
                goal[side] =
                    sw_vec3_add(lk->path[(side * 4u + 2u) * keys + k], lk->offset[side * keys + k]);
                turn[side] = lk->turn[side * keys + k];
            }
            r = sw__rt_lock_pose(c->map, c->target, feet, goal, turn, lk->toe, c->tpose, mats);
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
    sw__rt_lock lk = {.path = NULL, .offset = NULL, .turn = NULL, .on = NULL};
    if (lock) {
        lk.path = (sw_vec3*)sw__rt_bake_alloc(&b, (size_t)keys * 10u * sizeof(sw_vec3));
        lk.offset = lk.path ? lk.path + (size_t)keys * 8u : NULL;
        lk.turn = (sw_quat*)sw__rt_bake_alloc(&b, (size_t)keys * 2u * sizeof(sw_quat));
        lk.on = (uint8_t*)sw__rt_bake_alloc(&b, (size_t)keys * 4u);
    }
    if (!spose || !tpose || !scratch || !tracks || !events || !cursors || !mats ||
        (lock && (!lk.path || !lk.turn || !lk.on))) {
        sw__rt_bake_free(&b);
        return sw__rt_fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation");
    }
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, clip->tracks_count);
    const sw__rt_key_ctx ctx = {map,   source, clip,    target,       opt.ik_weight, &cache,
                                spose, tpose,  scratch, scratch_size, keys,          key_rate};
    if (lock) r = sw__rt_lock_goals(&ctx, &feet, &opt, mats, &lk, err);
    /* tracks where the pose leaves the rest value (within 1e-7) */
    const sw_clip_recorder_options ro = {.fold = SW_CLIP_RECORDER_FOLD_REST, .tolerance = 1e-7f};
    sw_clip_recorder* rec = NULL;
    if (r == SW_RESULT_OK) r = sw_clip_recorder_create(target, key_rate, &ro, alloc, &rec, err);
    if (r == SW_RESULT_OK) r = sw__rt_record(&ctx, &feet, lock ? &lk : NULL, mats, rec, err);
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
