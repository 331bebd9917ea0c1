/* Procedural locomotion clips of the default humanoid.
 *
 * Each clip is exactly one gait cycle of N frames at 30 Hz (N + 1 keys, the
 * last equal to the first with the root advanced by one stride). Per foot,
 * a planted phase of P frames holds the ankle at a fixed world position
 * under the hips' path while the hips move forward at constant speed (root
 * motion: the Hips translation along +Z); the swing phase carries it to the
 * next plant along an arc with zero velocity at both ends. The right foot
 * runs half a cycle after the left. The pelvis bobs, sways, turns and rolls;
 * the spine counter-turns; the arms swing against the legs; the head is
 * steadied by a rotation spring; then two-bone IK places each ankle exactly
 * on its target with the foot's orientation. The hip height is lowered
 * where needed so that every planted ankle is within 98% of the leg's
 * reach, so the IK always reaches. */
#include <string.h>

#include "showcase/characters/internal.h"
#include "sinew/tools/builders/clip_recorder.h"

#define SW__RATE 30.0f
#define SW__REACH 0.98f      /* planted targets within this fraction of the leg */
#define SW__WARMUP_CYCLES 4u /* cycles run before recording (the head spring settles) */
#define SW__HEAD_HALF_LIFE 0.12f
#define SW__THIGH 0.42f /* hip joint to knee, as in skeletons.c */
#define SW__SHIN 0.40f  /* knee to ankle */

typedef struct sw__gait {
    const char* name;
    float speed;       /* m/s along +Z */
    uint32_t frames;   /* N: frames per cycle (even) */
    uint32_t planted;  /* P: frames each foot is planted (0: both always planted, idle) */
    float hips_height; /* nominal Hips height (m), lowered for reach */
    float foot_x;      /* lateral position of the ankles (m) */
    float lift;        /* swing arc height (m) */
    float bob;         /* pelvis bob (m): > 0 highest at mid-stance (walk), < 0 lowest */
    float sway;        /* pelvis sway towards the planted foot (m) */
    float yaw;         /* pelvis turn (rad) */
    float roll;        /* pelvis roll (rad) */
    float lean;        /* forward lean (rad) */
    float arm;         /* arm swing (rad) */
    float elbow;       /* elbow bend (rad) */
    float pitch;       /* foot pitch in swing (rad) */
    float breath;      /* chest breathing (rad), idle */
} sw__gait;

static const sw__gait sw__gaits[SW_SHOWCASE_HUMANOID_CLIPS] = {
    {"idle", 0.0f, 90, 0, 0.93f, 0.11f, 0.0f, 0.004f, 0.022f, 0.03f, 0.02f, 0.02f, 0.04f, 0.15f,
     0.0f, 0.025f},
    {"walk", 1.4f, 34, 10, 0.95f, 0.10f, 0.09f, 0.018f, 0.022f, 0.08f, 0.04f, 0.05f, 0.35f, 0.35f,
     0.35f, 0.0f},
    {"jog", 3.0f, 24, 6, 0.93f, 0.085f, 0.16f, -0.025f, 0.015f, 0.10f, 0.03f, 0.12f, 0.5f, 1.2f,
     0.6f, 0.0f},
    {"run", 5.0f, 20, 4, 0.92f, 0.075f, 0.24f, -0.035f, 0.01f, 0.12f, 0.03f, 0.18f, 0.7f, 1.5f,
     0.8f, 0.0f},
};

static const float sw__two_pi = 6.283185307179586f;

static sw_quat sw__rot(float x, float y, float z, float angle) {
    return sw_quat_from_axis_angle(sw_vec3_make(x, y, z), angle);
}

/* Foot target of one foot at time t (seconds, any sign): ankle position and
 * model-space rotation. `offset` is the time its first plant starts. */
typedef struct sw__foot {
    sw_vec3 ankle;
    sw_quat rotation;
    bool planted;
} sw__foot;

static sw__foot sw__foot_at(const sw__gait* g, float side, float offset, float t) {
    sw__foot f;
    f.rotation = sw_quat_identity();
    const float x = side * g->foot_x;
    if (g->planted == 0u) {
        f.ankle = sw_vec3_make(x, SW__ANKLE_HEIGHT, 0.0f);
        f.planted = true;
        return f;
    }
    const float T = (float)g->frames / SW__RATE;
    const float plant = (float)g->planted / SW__RATE;
    const float stride = g->speed * T;
    const float cycles = floorf((t - offset) / T);
    const float tau = (t - offset) - cycles * T; /* time since this cycle's plant */
    /* the plant of cycle c sits under the hips at mid-stance */
    const float z0 = g->speed * (offset + plant * 0.5f) + cycles * stride;
    if (tau <= plant) {
        f.ankle = sw_vec3_make(x, SW__ANKLE_HEIGHT, z0);
        f.planted = true;
        return f;
    }
    const float u = (tau - plant) / (T - plant);
    const float ease = u - sinf(sw__two_pi * u) / sw__two_pi; /* zero speed at both ends */
    /* sin^3: zero speed and acceleration at lift-off and touch-down */
    const float su = sinf(0.5f * sw__two_pi * u);
    const float rise = g->lift * su * su * su;
    f.ankle = sw_vec3_make(x, SW__ANKLE_HEIGHT + rise, z0 + stride * ease);
    f.planted = false;
    /* toes down after lift-off, up before the heel strikes, limited so the
     * toes (0.13 m ahead) and the heel (0.05 m behind) stay above the ground */
    float pitch = g->pitch * sinf(sw__two_pi * u);
    const float toe_limit = rise / 0.14f, heel_limit = rise / 0.06f;
    if (pitch > toe_limit) pitch = toe_limit;
    if (pitch < -heel_limit) pitch = -heel_limit;
    f.rotation = sw__rot(1, 0, 0, pitch);
    return f;
}

/* Pelvis at time t, without its height: x sway, z root motion, rotation. */
static void sw__pelvis_at(const sw__gait* g, float t, sw_vec3* pos, sw_quat* rot, float* bob) {
    const float T = (float)g->frames / SW__RATE;
    const float mid = g->planted == 0u ? 0.0f : (float)g->planted / SW__RATE * 0.5f;
    const float w = sw__two_pi / T;
    if (g->planted == 0u) {
        /* idle: the weight shifts from foot to foot once per cycle */
        pos->x = g->sway * sinf(w * t);
        pos->z = 0.0f;
        *bob = g->bob * cosf(2.0f * w * t);
        const sw_quat yaw = sw__rot(0, 1, 0, g->yaw * sinf(w * t));
        const sw_quat roll = sw__rot(0, 0, 1, g->roll * sinf(w * t));
        *rot = sw_quat_mul(yaw, sw_quat_mul(sw__rot(1, 0, 0, g->lean), roll));
        pos->y = 0.0f;
        return;
    }
    pos->x = g->sway * cosf(w * (t - mid));
    pos->y = 0.0f;
    pos->z = g->speed * t;
    *bob = g->bob * cosf(2.0f * w * (t - mid));
    /* the left hip forward when the left foot lands (t = 0); the swing
     * side drops */
    const sw_quat yaw = sw__rot(0, 1, 0, -g->yaw * cosf(w * t));
    const sw_quat roll = sw__rot(0, 0, 1, g->roll * cosf(w * (t - mid)));
    *rot = sw_quat_mul(yaw, sw_quat_mul(sw__rot(1, 0, 0, g->lean * 0.4f), roll));
}

/* Highest Hips height (bob removed) that keeps every planted ankle of the
 * cycle within reach. */
static float sw__hips_base(const sw__gait* g, float leg) {
    float base = g->hips_height;
    const float T = (float)g->frames / SW__RATE;
    const float reach = SW__REACH * leg;
    for (uint32_t k = 0; k < g->frames; ++k) {
        const float t = (float)k / SW__RATE;
        sw_vec3 pos;
        sw_quat rot;
        float bob;
        sw__pelvis_at(g, t, &pos, &rot, &bob);
        for (int side = 0; side < 2; ++side) {
            const float sx = side == 0 ? 1.0f : -1.0f;
            const sw__foot f = sw__foot_at(g, sx, side == 0 ? 0.0f : 0.5f * T, t);
            if (!f.planted) continue;
            const sw_vec3 off = sw_quat_rotate(rot, sw_vec3_make(sx * 0.09f, -0.06f, 0.0f));
            const float dx = pos.x + off.x - f.ankle.x, dz = pos.z + off.z - f.ankle.z;
            const float dh2 = dx * dx + dz * dz;
            const float h = f.ankle.y + sqrtf(reach * reach - dh2) - off.y - bob;
            if (h < base) base = h;
        }
    }
    return base;
}

typedef struct sw__gait_work {
    const sw_skeleton* skel;
    sw_xform4* pose;  /* packets */
    sw_mat4* models;  /* joints */
    float* hips_t;    /* 3 * (N + 1) */
    float* rotations; /* joints * 4 * (N + 1), joint-major */
} sw__gait_work;

static sw_result sw__models(sw__gait_work* w) {
    const sw_local_to_model_job job = {
        .skeleton = w->skel,
        .local = w->pose,
        .local_count = w->skel->packets_count,
        .out = w->models,
        .out_count = w->skel->joints_count,
    };
    return sw_local_to_model_job_run(&job);
}

static sw_quat sw__model_rotation(const sw_mat4* m) {
    return sw_quat_from_mat4(m);
}

static void sw__set_rotation(sw_xform4* pose, uint32_t joint, sw_quat r) {
    sw_xform x = sw_pose_get(pose, joint);
    x.r = sw_quat_normalize(r);
    sw_pose_set(pose, joint, x);
}

/* A swing target past the planted limit (SW__REACH of the leg, measured
 * from the hip joint `hip`) is drawn in along the hip-target line so that
 * its distance eases from there towards, but never reaches, 99.5% of the
 * leg: continuous with the planted targets (slope 1 at the limit) and
 * never straight, so the knee never flips through straight between keys. */
static sw_vec3 sw__soft_reach(const sw_mat4* hip, sw_vec3 target) {
    const float leg = SW__THIGH + SW__SHIN;
    const float d0 = SW__REACH * leg, span = (0.995f - SW__REACH) * leg;
    const sw_vec3 h = sw_vec3_make(hip->m[12], hip->m[13], hip->m[14]);
    const sw_vec3 v = sw_vec3_sub(target, h);
    const float d = sw_vec3_length(v);
    if (d <= d0) return target;
    const float eased = d0 + span * (1.0f - expf(-(d - d0) / span));
    return sw_vec3_add(h, sw_vec3_scale(v, eased / d));
}

/* Poses frame at time t into w->pose (and its model matrices); the head
 * spring advances by dt. */
static sw_result sw__pose_at(const sw__gait* g, float t, float base, sw_spring_quat* head, float dt,
                             sw__gait_work* w) {
    const float T = (float)g->frames / SW__RATE;
    const float ph = sw__two_pi * t / T;
    const sw_xform4* rest = sw_skeleton_rest_pose(w->skel);
    memcpy(w->pose, rest, sizeof(sw_xform4) * w->skel->packets_count);
    sw_vec3 pos;
    sw_quat rot;
    float bob;
    sw__pelvis_at(g, t, &pos, &rot, &bob);
    sw_xform hips = sw_pose_get(w->pose, SW__HIPS);
    hips.t = sw_vec3_make(pos.x, base + bob, pos.z);
    hips.r = rot;
    sw_pose_set(w->pose, SW__HIPS, hips);
    /* spine: counter-turn and lean; idle breathes */
    const float yaw = g->planted == 0u ? g->yaw * sinf(ph) : -g->yaw * cosf(ph);
    const float breath = g->breath * sinf(ph);
    sw__set_rotation(w->pose, SW__SPINE,
                     sw_quat_mul(sw__rot(0, 1, 0, -0.6f * yaw), sw__rot(1, 0, 0, 0.4f * g->lean)));
    sw__set_rotation(
        w->pose, SW__SPINE1,
        sw_quat_mul(sw__rot(0, 1, 0, -0.6f * yaw), sw__rot(1, 0, 0, 0.2f * g->lean - breath)));
    sw__set_rotation(w->pose, SW__L_SHOULDER, sw__rot(0, 0, 1, 0.5f * breath));
    sw__set_rotation(w->pose, SW__R_SHOULDER, sw__rot(0, 0, 1, -0.5f * breath));
    /* a slight knee bend so each leg has a bend plane before the IK */
    sw__set_rotation(w->pose, SW__L_UPLEG, sw__rot(1, 0, 0, -0.1f));
    sw__set_rotation(w->pose, SW__L_LEG, sw__rot(1, 0, 0, 0.2f));
    sw__set_rotation(w->pose, SW__R_UPLEG, sw__rot(1, 0, 0, -0.1f));
    sw__set_rotation(w->pose, SW__R_LEG, sw__rot(1, 0, 0, 0.2f));
    sw_result r = sw__models(w);
    if (r != SW_RESULT_OK) return r;
    /* head: a spring follows a goal between the torso's turn and level */
    const sw_quat chest = sw__model_rotation(&w->models[SW__NECK]);
    const sw_quat goal = sw_quat_slerp(chest, sw__rot(1, 0, 0, 0.3f * g->lean), 0.7f);
    sw_spring_quat_update(head, goal, SW__HEAD_HALF_LIFE, dt);
    sw__set_rotation(w->pose, SW__HEAD, sw_quat_mul(sw_quat_conjugate(chest), head->value));
    /* arms: hanging 75 degrees down from the T-pose, swinging against the
     * legs (left arm back when the left foot lands), elbows bent */
    for (int side = 0; side < 2; ++side) {
        const float sx = side == 0 ? 1.0f : -1.0f;
        const uint32_t sh = side == 0 ? SW__L_SHOULDER : SW__R_SHOULDER;
        const float swing =
            g->planted == 0u ? sx * g->arm * sinf(ph) * 0.3f : sx * g->arm * cosf(ph) - 0.05f;
        const float flex = g->elbow - 0.3f * swing;
        const sw_quat down = sw__rot(0, 0, 1, -sx * 1.3f);
        const sw_quat arm = sw_quat_mul(sw__rot(1, 0, 0, swing), down);
        const sw_quat fore = sw_quat_mul(sw__rot(1, 0, 0, swing - flex), down);
        const sw_quat shoulder = sw__model_rotation(&w->models[sh]);
        sw__set_rotation(w->pose, sh + 1u, sw_quat_mul(sw_quat_conjugate(shoulder), arm));
        sw__set_rotation(w->pose, sh + 2u, sw_quat_mul(sw_quat_conjugate(arm), fore));
        sw__set_rotation(w->pose, sh + 3u, sw_quat_identity());
    }
    /* legs: two-bone IK onto the foot targets, knees forward */
    const sw_vec3 knee_dir = sw_quat_rotate(rot, sw_vec3_make(0, 0, 1));
    for (int side = 0; side < 2; ++side) {
        const float sx = side == 0 ? 1.0f : -1.0f;
        const uint32_t up = side == 0 ? SW__L_UPLEG : SW__R_UPLEG;
        sw__foot f = sw__foot_at(g, sx, side == 0 ? 0.0f : 0.5f * T, t);
        if (!f.planted) f.ankle = sw__soft_reach(&w->models[up], f.ankle);
        const sw_ik_two_bone_job leg = {
            .skeleton = w->skel,
            .model = w->models,
            .model_count = w->skel->joints_count,
            .start_joint = up,
            .mid_joint = up + 1u,
            .end_joint = up + 2u,
            .target = f.ankle,
            .pole_mode = SW_IK_POLE_MODE_DIRECTION,
            .pole = knee_dir,
            .weight = 1.0f,
            .end_rotation = f.rotation,
            .end_rotation_weight = 1.0f,
            .pose = w->pose,
            .pose_count = w->skel->packets_count,
        };
        r = sw_ik_two_bone_job_run(&leg);
        if (r != SW_RESULT_OK) return r;
    }
    return sw__models(w);
}

static void sw__record(const sw__gait_work* w, uint32_t key, uint32_t keys) {
    const sw_xform hips = sw_pose_get(w->pose, SW__HIPS);
    w->hips_t[3u * key + 0u] = hips.t.x;
    w->hips_t[3u * key + 1u] = hips.t.y;
    w->hips_t[3u * key + 2u] = hips.t.z;
    for (uint32_t j = 0; j < w->skel->joints_count; ++j) {
        const sw_quat q = sw_pose_get(w->pose, j).r;
        float* dst = &w->rotations[4u * ((size_t)j * keys + key)];
        dst[0] = q.x, dst[1] = q.y, dst[2] = q.z, dst[3] = q.w;
        /* keep neighbouring keys on one hemisphere */
        if (key > 0u) sw_rotation_keys_continuous(dst - 4, 2);
    }
}

/* Tangent of the pose at key `key` from poses at t - eps and t + eps:
 * writes d/dt of the Hips translation and of every local rotation (each
 * neighbour brought onto the hemisphere of the stored key first). */
static void sw__tangent(const sw__gait_work* w, const float* minus, const float* plus, float eps,
                        uint32_t key, uint32_t keys, float* tan_t, float* tan_r) {
    const float inv = 0.5f / eps;
    for (uint32_t c = 0; c < 3u; ++c)
        tan_t[3u * key + c] = (plus[c] - minus[c]) * inv;
    for (uint32_t j = 0; j < w->skel->joints_count; ++j) {
        const float* q = &w->rotations[4u * ((size_t)j * keys + key)];
        const float* p = &plus[3u + 4u * j];
        const float* m = &minus[3u + 4u * j];
        const float sp =
            (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3]) < 0.0f ? -1.0f : 1.0f;
        const float sm =
            (m[0] * q[0] + m[1] * q[1] + m[2] * q[2] + m[3] * q[3]) < 0.0f ? -1.0f : 1.0f;
        for (uint32_t c = 0; c < 4u; ++c)
            tan_r[4u * ((size_t)j * keys + key) + c] = (sp * p[c] - sm * m[c]) * inv;
    }
}

/* Hips translation and local rotations of the current pose into frame[3 + 4 * joints]. */
static void sw__capture(const sw__gait_work* w, float* frame) {
    const sw_xform hips = sw_pose_get(w->pose, SW__HIPS);
    frame[0] = hips.t.x, frame[1] = hips.t.y, frame[2] = hips.t.z;
    for (uint32_t j = 0; j < w->skel->joints_count; ++j) {
        const sw_quat q = sw_pose_get(w->pose, j).r;
        float* d = &frame[3u + 4u * j];
        d[0] = q.x, d[1] = q.y, d[2] = q.z, d[3] = q.w;
    }
}

/* glTF cubic keys (in-tangent, value, out-tangent) from values and tangents. */
static void sw__cubic_keys(const float* values, const float* tangents, uint32_t keys,
                           uint32_t comps, float* out) {
    for (uint32_t k = 0; k < keys; ++k) {
        float* o = &out[3u * comps * k];
        for (uint32_t c = 0; c < comps; ++c) {
            o[c] = tangents[comps * k + c];
            o[comps + c] = values[comps * k + c];
            o[2u * comps + c] = tangents[comps * k + c];
        }
    }
}

/* Closes the cycle: key N (of keys = N + 1) is key 0 with the Hips moved
 * `stride` along +Z, each rotation (and its tangent) on the hemisphere of
 * key N - 1. */
static void sw__close_cycle(const sw__gait_work* w, uint32_t N, uint32_t keys, float stride,
                            float* tan_t, float* tan_r) {
    w->hips_t[3u * N + 0u] = w->hips_t[0];
    w->hips_t[3u * N + 1u] = w->hips_t[1];
    w->hips_t[3u * N + 2u] = w->hips_t[2] + stride;
    for (uint32_t j = 0; j < w->skel->joints_count; ++j) {
        float* row = &w->rotations[4u * (size_t)j * keys];
        float s = 1.0f; /* same hemisphere as key N - 1 */
        if (row[0] * row[4u * (N - 1u)] + row[1] * row[4u * (N - 1u) + 1u] +
                row[2] * row[4u * (N - 1u) + 2u] + row[3] * row[4u * (N - 1u) + 3u] <
            0.0f)
            s = -1.0f;
        float* trow = &tan_r[4u * (size_t)j * keys];
        for (uint32_t c = 0; c < 4u; ++c)
            row[4u * N + c] = s * row[c];
        for (uint32_t c = 0; c < 4u; ++c)
            trow[4u * N + c] = s * trow[c];
    }
    for (uint32_t c = 0; c < 3u; ++c)
        tan_t[3u * N + c] = tan_t[c];
}

sw_result sw__humanoid_clip(const sw_skeleton* skel, uint32_t index, const sw_allocator* alloc,
                            const sw_clip** out, float* speed, sw_error* err) {
    const sw__gait* g = &sw__gaits[index];
    const uint32_t N = g->frames, keys = N + 1u, joints = skel->joints_count;
    const float T = (float)N / SW__RATE;
    sw__gait_work w = {.skel = skel};
    const size_t bytes_pose = sizeof(sw_xform4) * skel->packets_count;
    const size_t bytes_models = sizeof(sw_mat4) * joints;
    const size_t bytes_t = sizeof(float) * 3u * keys;
    const size_t bytes_r = sizeof(float) * 4u * keys * joints;
    const size_t bytes_tracks = sizeof(sw_clip_track_desc) * (1u + joints);
    const size_t bytes_ct = 3u * bytes_t, bytes_cr = 3u * bytes_r;
    float* cubic_t = (float*)sw_alloc(alloc, bytes_ct, 16);
    float* cubic_r = (float*)sw_alloc(alloc, bytes_cr, 16);
    /* tangents, and the poses around a key (Hips translation + rotations) */
    const size_t bytes_frame = sizeof(float) * (3u + 4u * joints);
    float* tan_t = (float*)sw_alloc(alloc, bytes_t, 16);
    float* tan_r = (float*)sw_alloc(alloc, bytes_r, 16);
    float* plus = (float*)sw_alloc(alloc, bytes_frame, 16);
    float* minus = (float*)sw_alloc(alloc, bytes_frame, 16);
    w.pose = (sw_xform4*)sw_alloc(alloc, bytes_pose, 16);
    w.models = (sw_mat4*)sw_alloc(alloc, bytes_models, 16);
    w.hips_t = (float*)sw_alloc(alloc, bytes_t, 16);
    w.rotations = (float*)sw_alloc(alloc, bytes_r, 16);
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw_alloc(alloc, bytes_tracks, 16);
    sw_result r = SW_RESULT_OUT_OF_MEMORY;
    if (w.pose && w.models && w.hips_t && w.rotations && tracks && cubic_t && cubic_r && tan_t &&
        tan_r && plus && minus) {
        const float base = sw__hips_base(g, SW__THIGH + SW__SHIN);
        sw_spring_quat head = {.value = sw_quat_identity()};
        r = SW_RESULT_OK;
        /* warm-up cycles settle the spring; then one recorded cycle */
        const int32_t first = -(int32_t)(SW__WARMUP_CYCLES * N);
        /* exact tangents: cubic keys need them for the feet to stay put
         * between keys (central differences over a key interval leave
         * millimetres of sliding at a run) */
        const float eps = 1.0f / 600.0f, dt = 1.0f / SW__RATE;
        for (int32_t k = first; k < (int32_t)N && r == SW_RESULT_OK; ++k) {
            const float t = (float)k / SW__RATE;
            const sw_spring_quat before = head;
            r = sw__pose_at(g, t, base, &head, dt, &w);
            if (r != SW_RESULT_OK || k < 0) continue;
            sw__record(&w, (uint32_t)k, keys);
            sw_spring_quat around = head;
            r = sw__pose_at(g, t + eps, base, &around, eps, &w);
            if (r != SW_RESULT_OK) continue;
            sw__capture(&w, plus);
            around = before;
            r = sw__pose_at(g, t - eps, base, &around, dt - eps, &w);
            if (r != SW_RESULT_OK) continue;
            sw__capture(&w, minus);
            sw__tangent(&w, minus, plus, eps, (uint32_t)k, keys, tan_t, tan_r);
        }
        if (r == SW_RESULT_OK) {
            /* the last key is the first, one stride further */
            const float stride = g->speed * T;
            sw__close_cycle(&w, N, keys, stride, tan_t, tan_r);
            sw__cubic_keys(w.hips_t, tan_t, keys, 3u, cubic_t);
            tracks[0] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                             .joint = SW__HIPS,
                                             .interp = SW_INTERP_CUBIC,
                                             .keys_count = keys,
                                             .rate = SW__RATE,
                                             .values = cubic_t};
            for (uint32_t j = 0; j < joints; ++j) {
                float* cr = &cubic_r[12u * (size_t)j * keys];
                sw__cubic_keys(&w.rotations[4u * (size_t)j * keys], &tan_r[4u * (size_t)j * keys],
                               keys, 4u, cr);
                tracks[1u + j] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                                      .joint = j,
                                                      .interp = SW_INTERP_CUBIC,
                                                      .keys_count = keys,
                                                      .rate = SW__RATE,
                                                      .values = cr};
            }
            const float plant = (float)g->planted / SW__RATE;
            const sw_clip_event_desc events[4] = {
                {0.0f, "LeftFootDown"},
                {plant, "LeftFootUp"},
                {0.5f * T, "RightFootDown"},
                {0.5f * T + plant, "RightFootUp"},
            };
            const sw_clip_desc desc = {
                .name = g->name,
                .duration = T,
                .joints_count = joints,
                .tracks = tracks,
                .tracks_count = 1u + joints,
                .events = events,
                .events_count = g->planted > 0u ? 4u : 0u,
            };
            r = sw_clip_create(&desc, alloc, out, err);
            if (r == SW_RESULT_OK && speed) *speed = stride / T;
        } else if (err) {
            err->result = r;
            err->check = "gait pose job";
        }
    }
    sw_free(alloc, w.pose, bytes_pose);
    sw_free(alloc, w.models, bytes_models);
    sw_free(alloc, w.hips_t, bytes_t);
    sw_free(alloc, w.rotations, bytes_r);
    sw_free(alloc, tracks, bytes_tracks);
    sw_free(alloc, cubic_t, bytes_ct);
    sw_free(alloc, cubic_r, bytes_cr);
    sw_free(alloc, tan_t, bytes_t);
    sw_free(alloc, tan_r, bytes_r);
    sw_free(alloc, plus, bytes_frame);
    sw_free(alloc, minus, bytes_frame);
    return r;
}
