/* Get-up clips of the default humanoid: from lying on the back (face up) or
 * on the belly (face down) to standing idle.
 *
 * Each clip is a few keyframed poses, written as angles in the sagittal
 * plane (every bend is about the character's X axis, so the angles of a
 * chain add up), ending in the idle clip's first pose. Per key:
 * - each pose is built by forward kinematics from the angles, then moved
 *   along Z so that an anchor holds (the ankles over z = 0, where the idle
 *   pose stands; the hands, the hips or the toes where the next key has
 *   them) and along Y so that its lowest joint, less the
 *   body's thickness there, touches the ground (y = 0);
 * - between keys every local rotation is slerped and the Hips translation
 *   lerped with a smoothstep weight, so each key is passed at rest and the
 *   last one, the idle pose, is reached with zero velocity; where both keys
 *   have their feet down, two-bone IK holds the ankles on the line between
 *   the keys' ankles (feet flat stay flat); elsewhere toes down at both
 *   keys hold (the foot rolls about them), a foot covering ground steps
 *   (raised 0.3 times the distance at the middle, over the line joining
 *   the keys' ankles) and the body is lifted where a joint would dip into
 *   the ground.
 * Keys are written at 30 Hz (linear: rotations slerp between them). */
#include <string.h>

#include "showcase/characters/internal.h"
#include "sinew/tools/builders/clip_recorder.h"

#define SW__GETUP_RATE 30.0f
#define SW__GETUP_MAX_KEYS 6u
/* Between keys that do not hold the feet down, a foot covering ground is
 * raised at least this times the distance its ankle moves between the keys
 * above the line joining the keys' ankles, at the middle (a step). */
#define SW__GETUP_STEP_LIFT 0.3f

typedef enum sw__anchor {
    SW__ANCHOR_ANKLES = 0, /* mean ankle z = 0 (over the idle pose's feet) */
    SW__ANCHOR_NEXT_HANDS, /* mean hand z as in the next key */
    SW__ANCHOR_NEXT_HIPS,  /* Hips z as in the next key */
    SW__ANCHOR_NEXT_TOES   /* mean toe z as in the next key (toes tucked roll onto the sole) */
} sw__anchor;

/* One key. Angles in radians about the character's X axis. */
typedef struct sw__getup_key {
    float time; /* seconds */
    sw__anchor anchor;
    float pitch;              /* Hips: + leans forward (pi/2: lying on the belly) */
    float spine, chest, neck; /* + bends forward */
    float hip, knee;          /* hip + lifts the thigh forward; knee + folds the shin back */
    float foot;               /* 0: ankle straight, 1: foot flat on the ground */
    float arm_fwd;            /* arm raised forward from hanging (+) or back (-) */
    float arm_down;           /* arm lowered from the T-pose (1.57: along the body) */
    float elbow;              /* elbow bend (+ forward) */
    float foot_angle;         /* with foot = 1: the foot's angle to the ground (0: flat; 1.4: toes
                                 tucked under, sole backward; 2.39: pointing backward, instep down) */
} sw__getup_key;

typedef struct sw__getup_def {
    const char* name;
    uint32_t keys_count; /* the last key is the idle pose (its angles are unused) */
    sw__getup_key keys[SW__GETUP_MAX_KEYS];
} sw__getup_def;

static const sw__getup_def sw__getups[SW_SHOWCASE_GETUP_CLIPS] = {
    /* Face up (head toward -Z): draw the knees up, sit up leaning on the
     * hands behind the hips, rock forward into a squat over the feet,
     * stand. */
    {"getup_face_up",
     5u,
     {
         {0.0f, SW__ANCHOR_NEXT_HIPS, -1.5708f, 0, 0, 0, 0.05f, 0.1f, 0, 0, 0.45f, 0.25f, 0},
         {0.5f, SW__ANCHOR_ANKLES, -1.45f, 0.1f, 0.1f, 0.2f, 1.35f, 2.2f, 1, -0.4f, 1.2f, 0.3f, 0},
         {1.0f, SW__ANCHOR_ANKLES, -0.6f, 0.3f, 0.2f, 0.2f, 1.76f, 2.4f, 1, -0.6f, 1.3f, 0.1f, 0},
         {1.6f, SW__ANCHOR_ANKLES, 0.7f, 0.2f, 0.1f, -0.4f, 2.0f, 1.8f, 1, 0.9f, 1.3f, 0.4f, 0},
         {2.3f, SW__ANCHOR_ANKLES, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     }},
    /* Face down (head toward +Z): push up on the arms, come onto hands and
     * knees with the toes tucked, push back into a squat over the feet,
     * stand. */
    {"getup_face_down",
     5u,
     {
         {0.0f, SW__ANCHOR_NEXT_HIPS, 1.5708f, 0, 0, 0, 0, 0.1f, 1, 0, 0.5f, 0.3f, 2.39f},
         {0.5f, SW__ANCHOR_NEXT_HANDS, 1.25f, -0.3f, -0.3f, -0.3f, 0, 0.2f, 1, 0.65f, 1.45f, 0.1f,
          2.39f},
         {1.1f, SW__ANCHOR_NEXT_TOES, 1.3f, 0, 0, -0.6f, 1.3f, 1.57f, 1, 1.3f, 1.45f, 0.05f, 1.4f},
         {1.8f, SW__ANCHOR_ANKLES, 0.7f, 0.2f, 0.1f, -0.4f, 2.0f, 1.8f, 1, 0.9f, 1.3f, 0.4f, 0},
         {2.5f, SW__ANCHOR_ANKLES, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
     }},
};

/* How far each joint's surface lies below the joint (m): the ground fit
 * keeps every joint at least this high. */
static const float sw__clearance[SW__HUMANOID_JOINTS] = {
    0.10f,  0.10f, 0.11f,
    0.06f,  0.09f, /* Hips, Spine, Spine1, Neck, Head */
    0.06f,  0.05f, 0.045f,
    0.035f, /* left shoulder, arm, forearm, hand */
    0.06f,  0.05f, 0.045f,
    0.035f, /* right */
    0.08f,  0.06f, SW__ANKLE_HEIGHT,
    0.02f, /* left up leg, leg, foot, toe */
    0.08f,  0.06f, SW__ANKLE_HEIGHT,
    0.02f, /* right */
};

static sw_quat sw__rot_x(float angle) {
    return sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), angle);
}

static sw_quat sw__rot_z(float angle) {
    return sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), angle);
}

static sw_result sw__getup_models(const sw_skeleton* skel, const sw_xform4* pose, sw_mat4* models) {
    const sw_local_to_model_job job = {
        .skeleton = skel,
        .local = pose,
        .local_count = skel->packets_count,
        .out = models,
        .out_count = skel->joints_count,
    };
    return sw_local_to_model_job_run(&job);
}

static float sw__mean_z(const sw_mat4* models, uint32_t left, uint32_t right) {
    return 0.5f * (models[left].m[14] + models[right].m[14]);
}

/* Local pose of key k (not the last) with Hips at (0, 0, 0): the rest pose
 * with the key's rotations. */
static void sw__key_pose(const sw_skeleton* skel, const sw__getup_key* k, sw_xform4* pose) {
    memcpy(pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * skel->packets_count);
    sw_xform x = sw_pose_get(pose, SW__HIPS);
    x.t = sw_vec3_make(0, 0, 0);
    x.r = sw__rot_x(k->pitch);
    sw_pose_set(pose, SW__HIPS, x);
    const uint32_t trunk[3] = {SW__SPINE, SW__SPINE1, SW__NECK};
    const float bend[3] = {k->spine, k->chest, k->neck};
    for (uint32_t i = 0; i < 3u; ++i) {
        x = sw_pose_get(pose, trunk[i]);
        x.r = sw__rot_x(bend[i]);
        sw_pose_set(pose, trunk[i], x);
    }
    for (int side = 0; side < 2; ++side) {
        const float sx = side == 0 ? 1.0f : -1.0f;
        const uint32_t up = side == 0 ? SW__L_UPLEG : SW__R_UPLEG;
        const uint32_t arm = side == 0 ? SW__L_ARM : SW__R_ARM;
        /* legs: the angles add up along the chain, so the foot's angle to
         * the ground is pitch - hip + knee + its own */
        x = sw_pose_get(pose, up);
        x.r = sw__rot_x(-k->hip);
        sw_pose_set(pose, up, x);
        x = sw_pose_get(pose, up + 1u);
        x.r = sw__rot_x(k->knee);
        sw_pose_set(pose, up + 1u, x);
        x = sw_pose_get(pose, up + 2u);
        x.r = sw__rot_x(k->foot * (k->foot_angle - (k->pitch - k->hip + k->knee)));
        sw_pose_set(pose, up + 2u, x);
        /* arms: lowered from the T-pose, then swung about X (as gait.c) */
        const sw_quat down = sw__rot_z(-sx * k->arm_down);
        const sw_quat upper = sw_quat_mul(sw__rot_x(-k->arm_fwd), down);
        const sw_quat fore = sw_quat_mul(sw__rot_x(-k->arm_fwd - k->elbow), down);
        x = sw_pose_get(pose, arm);
        x.r = upper;
        sw_pose_set(pose, arm, x);
        x = sw_pose_get(pose, arm + 1u);
        x.r = sw_quat_normalize(sw_quat_mul(sw_quat_conjugate(upper), fore));
        sw_pose_set(pose, arm + 1u, x);
    }
}

/* Height above the ground of the lowest body surface (joint minus clearance). */
static float sw__lowest(const sw_mat4* models, uint32_t joints) {
    float low = INFINITY;
    for (uint32_t j = 0; j < joints; ++j) {
        const float y = models[j].m[13] - sw__clearance[j];
        if (y < low) low = y;
    }
    return low;
}

/* Hips translation of key k's pose so that its anchor holds (against the
 * next key's models `next`) and its lowest joint touches the ground. */
static sw_vec3 sw__key_place(const sw__getup_key* k, const sw_mat4* models, const sw_mat4* next,
                             uint32_t joints) {
    float z = 0.0f;
    switch (k->anchor) {
    case SW__ANCHOR_ANKLES:
        z = -sw__mean_z(models, SW__L_FOOT, SW__R_FOOT);
        break;
    case SW__ANCHOR_NEXT_HANDS:
        z = sw__mean_z(next, SW__L_HAND, SW__R_HAND) - sw__mean_z(models, SW__L_HAND, SW__R_HAND);
        break;
    case SW__ANCHOR_NEXT_HIPS:
        z = next[SW__HIPS].m[14];
        break;
    case SW__ANCHOR_NEXT_TOES:
        z = sw__mean_z(next, SW__L_TOE, SW__R_TOE) - sw__mean_z(models, SW__L_TOE, SW__R_TOE);
        break;
    }
    return sw_vec3_make(0.0f, -sw__lowest(models, joints), z);
}

static void sw__feet(const sw_mat4* models, sw_vec3 ankle[2], sw_quat foot[2], sw_vec3 toe[2]) {
    const uint32_t joint[2] = {SW__L_FOOT, SW__R_FOOT}, tip[2] = {SW__L_TOE, SW__R_TOE};
    for (uint32_t side = 0; side < 2u; ++side) {
        const sw_mat4* m = &models[joint[side]];
        ankle[side] = sw_vec3_make(m->m[12], m->m[13], m->m[14]);
        foot[side] = sw_quat_from_mat4(m);
        const sw_mat4* t = &models[tip[side]];
        toe[side] = sw_vec3_make(t->m[12], t->m[13], t->m[14]);
    }
}

static float sw__smoothstep(float u) {
    return u * u * (3.0f - 2.0f * u);
}

/* Per key and foot: the ankle's model position and rotation. */
typedef struct sw__getup_feet {
    sw_vec3 ankle[SW__GETUP_MAX_KEYS][2];
    sw_quat foot[SW__GETUP_MAX_KEYS][2];
    sw_vec3 toe[SW__GETUP_MAX_KEYS][2];
} sw__getup_feet;

/* The key poses of `def` into keys (the last one idle's first pose) and
 * their feet; models: scratch for 2 * joints matrices. */
static sw_result sw__getup_keys(const sw_skeleton* skel, const sw_clip* idle,
                                const sw__getup_def* def, sw_xform4* keys, sw_mat4* models,
                                sw__getup_feet* feet) {
    const uint32_t nkeys = def->keys_count, joints = skel->joints_count;
    const uint32_t packets = skel->packets_count;
    /* the last key: the idle clip's first pose */
    sw_xform4* last = &keys[(size_t)packets * (nkeys - 1u)];
    const sw_sample_job sample = {
        .clip = idle, .skeleton = skel, .time = 0.0f, .out = last, .out_count = packets};
    sw_result r = sw_sample_job_run(&sample);
    sw_mat4* next = &models[joints];
    if (r == SW_RESULT_OK) r = sw__getup_models(skel, last, next);
    if (r == SW_RESULT_OK)
        sw__feet(next, feet->ankle[nkeys - 1u], feet->foot[nkeys - 1u], feet->toe[nkeys - 1u]);
    /* the others from last to first: anchors refer to the next key */
    for (uint32_t k = nkeys - 1u; k-- > 0u && r == SW_RESULT_OK;) {
        sw_xform4* key = &keys[(size_t)packets * k];
        sw__key_pose(skel, &def->keys[k], key);
        r = sw__getup_models(skel, key, models);
        if (r != SW_RESULT_OK) break;
        sw_xform hips = sw_pose_get(key, SW__HIPS);
        hips.t = sw__key_place(&def->keys[k], models, next, joints);
        sw_pose_set(key, SW__HIPS, hips);
        r = sw__getup_models(skel, key, next);
        if (r == SW_RESULT_OK) sw__feet(next, feet->ankle[k], feet->foot[k], feet->toe[k]);
    }
    return r;
}

/* Raises each foot of the pose between keys k and k + 1 (v: the raw
 * progress, u: its smoothstep) to at least its step height over the line
 * joining the keys' ankles (two-bone IK, the foot keeping its rotation), so
 * a foot that covers ground steps over it instead of dragging along it;
 * models: scratch. Fails: the model and IK jobs' results. */
static sw_result sw__getup_step(const sw_skeleton* skel, const sw__getup_feet* feet, uint32_t k,
                                float v, float u, sw_xform4* pose, sw_mat4* models) {
    const float bump = 16.0f * v * v * (1.0f - v) * (1.0f - v);
    sw_result r = SW_RESULT_OK;
    for (uint32_t side = 0; side < 2u && r == SW_RESULT_OK; ++side) {
        const sw_vec3 a = feet->ankle[k][side], b = feet->ankle[k + 1u][side];
        const float dx = b.x - a.x, dz = b.z - a.z;
        const float want =
            a.y + (b.y - a.y) * u + SW__GETUP_STEP_LIFT * sqrtf(dx * dx + dz * dz) * bump;
        const uint32_t up = side == 0u ? SW__L_UPLEG : SW__R_UPLEG;
        r = sw__getup_models(skel, pose, models);
        const sw_mat4* m = &models[up + 2u];
        if (r != SW_RESULT_OK) break;
        sw_vec3 target = sw_vec3_make(m->m[12], want, m->m[14]);
        /* toes down at both keys (tucked, rolling onto the sole): they
         * hold, the ankle turning about them */
        const sw_vec3 ta = feet->toe[k][side], tb = feet->toe[k + 1u][side];
        const float down = sw__clearance[SW__L_TOE] + 0.01f;
        if (ta.y <= down && tb.y <= down) {
            const sw_mat4* t = &models[up + 3u];
            const sw_vec3 hold = sw_vec3_lerp(ta, tb, u);
            target =
                sw_vec3_make(m->m[12] + hold.x - t->m[12], m->m[13], m->m[14] + hold.z - t->m[14]);
        } else if (!(want > m->m[13])) {
            continue;
        }
        const sw_ik_two_bone_job leg = {
            .skeleton = skel,
            .model = models,
            .model_count = skel->joints_count,
            .start_joint = up,
            .mid_joint = up + 1u,
            .end_joint = up + 2u,
            .target = target,
            .weight = 1.0f,
            .end_rotation = sw_quat_from_mat4(m),
            .end_rotation_weight = 1.0f,
            .pose = pose,
            .pose_count = skel->packets_count,
        };
        r = sw_ik_two_bone_job_run(&leg);
    }
    return r;
}

/* Frame f's pose (of `frames`): the surrounding keys' rotations slerped
 * and Hips translations lerped by a smoothstep weight, then the feet held
 * down or the body lifted (see the top of the file); models: scratch. */
static sw_result sw__getup_frame(const sw_skeleton* skel, const sw__getup_def* def,
                                 const sw_xform4* keys, const sw__getup_feet* feet, uint32_t f,
                                 uint32_t frames, sw_xform4* pose, sw_mat4* models) {
    const uint32_t nkeys = def->keys_count, joints = skel->joints_count;
    const uint32_t packets = skel->packets_count;
    const float t = (float)f / SW__GETUP_RATE;
    uint32_t k = 0;
    while (k + 2u < nkeys && t >= def->keys[k + 1u].time)
        ++k;
    const float t0 = def->keys[k].time, t1 = def->keys[k + 1u].time;
    float v = (t - t0) / (t1 - t0);
    v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    const float u = sw__smoothstep(v);
    const sw_xform4* a = &keys[(size_t)packets * k];
    const sw_xform4* b = &keys[(size_t)packets * (k + 1u)];
    for (uint32_t j = 0; j < joints; ++j) {
        sw_xform x = sw_pose_get(a, j);
        x.r = sw_quat_slerp(x.r, sw_pose_get(b, j).r, u);
        if (j == SW__HIPS) x.t = sw_vec3_lerp(x.t, sw_pose_get(b, j).t, u);
        sw_pose_set(pose, j, x);
    }
    /* feet down at both keys: they stay down in between (two-bone
     * IK onto the interpolated ankles, keeping each knee's plane) */
    if (def->keys[k].anchor == SW__ANCHOR_ANKLES && f + 1u < frames) {
        sw_result r = sw__getup_models(skel, pose, models);
        for (uint32_t side = 0; side < 2u && r == SW_RESULT_OK; ++side) {
            const uint32_t up = side == 0u ? SW__L_UPLEG : SW__R_UPLEG;
            const sw_ik_two_bone_job leg = {
                .skeleton = skel,
                .model = models,
                .model_count = joints,
                .start_joint = up,
                .mid_joint = up + 1u,
                .end_joint = up + 2u,
                .target = sw_vec3_lerp(feet->ankle[k][side], feet->ankle[k + 1u][side], u),
                .weight = 1.0f,
                .end_rotation = sw_quat_slerp(feet->foot[k][side], feet->foot[k + 1u][side], u),
                .end_rotation_weight = 1.0f,
                .pose = pose,
                .pose_count = packets,
            };
            r = sw_ik_two_bone_job_run(&leg);
        }
        if (r != SW_RESULT_OK) return r;
    } else if (f + 1u < frames) {
        /* elsewhere the feet step, and the body is lifted where a joint
         * would dip into the ground between the keys */
        sw_result r = sw__getup_step(skel, feet, k, v, u, pose, models);
        if (r == SW_RESULT_OK) r = sw__getup_models(skel, pose, models);
        if (r != SW_RESULT_OK) return r;
        const float lift = sw__lowest(models, joints);
        if (lift < 0.0f) {
            sw_xform hips = sw_pose_get(pose, SW__HIPS);
            hips.t.y -= lift;
            sw_pose_set(pose, SW__HIPS, hips);
        }
    }
    return SW_RESULT_OK;
}

sw_result sw__humanoid_getup_clip(const sw_skeleton* skel, const sw_clip* idle, uint32_t index,
                                  const sw_allocator* alloc, const sw_clip** out, sw_error* err) {
    const sw__getup_def* def = &sw__getups[index];
    const uint32_t nkeys = def->keys_count, joints = skel->joints_count;
    const uint32_t packets = skel->packets_count;
    const float duration = def->keys[nkeys - 1u].time;
    const uint32_t frames = (uint32_t)lrintf(duration * SW__GETUP_RATE) + 1u;
    const size_t bytes_keys = sizeof(sw_xform4) * packets * nkeys;
    const size_t bytes_models = sizeof(sw_mat4) * joints * 2u;
    const size_t bytes_pose = sizeof(sw_xform4) * packets;
    const size_t bytes_t = sizeof(float) * 3u * frames;
    const size_t bytes_r = sizeof(float) * 4u * frames * joints;
    const size_t bytes_tracks = sizeof(sw_clip_track_desc) * (1u + joints);
    sw_xform4* keys = (sw_xform4*)sw_alloc(alloc, bytes_keys, 16);
    sw_mat4* models = (sw_mat4*)sw_alloc(alloc, bytes_models, 16);
    sw_xform4* pose = (sw_xform4*)sw_alloc(alloc, bytes_pose, 16);
    float* values_t = (float*)sw_alloc(alloc, bytes_t, 16);
    float* values_r = (float*)sw_alloc(alloc, bytes_r, 16);
    sw_clip_track_desc* tracks = (sw_clip_track_desc*)sw_alloc(alloc, bytes_tracks, 16);
    sw_result r = SW_RESULT_OUT_OF_MEMORY;
    if (keys && models && pose && values_t && values_r && tracks) {
        sw__getup_feet feet;
        r = sw__getup_keys(skel, idle, def, keys, models, &feet);
        const sw_xform4* last = &keys[(size_t)packets * (nkeys - 1u)];
        for (uint32_t f = 0; f < frames && r == SW_RESULT_OK; ++f) {
            r = sw__getup_frame(skel, def, keys, &feet, f, frames, pose, models);
            if (r != SW_RESULT_OK) break;
            const sw_vec3 ht = sw_pose_get(pose, SW__HIPS).t;
            values_t[3u * f + 0u] = ht.x;
            values_t[3u * f + 1u] = ht.y;
            values_t[3u * f + 2u] = ht.z;
            for (uint32_t j = 0; j < joints; ++j) {
                sw_quat q = sw_pose_get(pose, j).r;
                if (f == frames - 1u) q = sw_pose_get(last, j).r; /* exactly the idle pose */
                float* dst = &values_r[4u * ((size_t)j * frames + f)];
                dst[0] = q.x, dst[1] = q.y, dst[2] = q.z, dst[3] = q.w;
            }
        }
        /* neighbouring keys on one hemisphere */
        for (uint32_t j = 0; j < joints && r == SW_RESULT_OK; ++j)
            sw_rotation_keys_continuous(&values_r[4u * (size_t)j * frames], frames);
        if (r == SW_RESULT_OK) {
            tracks[0] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                             .joint = SW__HIPS,
                                             .interp = SW_INTERP_LINEAR,
                                             .keys_count = frames,
                                             .rate = SW__GETUP_RATE,
                                             .values = values_t};
            for (uint32_t j = 0; j < joints; ++j)
                tracks[1u + j] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                                      .joint = j,
                                                      .interp = SW_INTERP_LINEAR,
                                                      .keys_count = frames,
                                                      .rate = SW__GETUP_RATE,
                                                      .values = &values_r[4u * (size_t)j * frames]};
            const sw_clip_desc desc = {
                .name = def->name,
                .duration = duration,
                .joints_count = joints,
                .tracks = tracks,
                .tracks_count = 1u + joints,
            };
            r = sw_clip_create(&desc, alloc, out, err);
        } else if (err) {
            err->result = r;
            err->check = "get-up pose job";
        }
    }
    sw_free(alloc, keys, bytes_keys);
    sw_free(alloc, models, bytes_models);
    sw_free(alloc, pose, bytes_pose);
    sw_free(alloc, values_t, bytes_t);
    sw_free(alloc, values_r, bytes_r);
    sw_free(alloc, tracks, bytes_tracks);
    return r;
}
