/* The built-in default characters: skeletons, skinned meshes and the
 * procedural locomotion clips (looping, no foot sliding, events, speeds),
 * and a glTF round trip. */
#include "test_util.h"

#include "sinew/showcase/character.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/gltf_export.h"

#define RATE 30.0f
#define ANKLE_REST 0.07f /* ankle height above the ground when standing (the foot's height) */

/* The expected humanoid joints (CMU/Mixamo names) and their parents. */
static const char* const humanoid_names[][2] = {
    {"Hips", NULL},
    {"Spine", "Hips"},
    {"Spine1", "Spine"},
    {"Neck", "Spine1"},
    {"Head", "Neck"},
    {"LeftShoulder", "Spine1"},
    {"LeftArm", "LeftShoulder"},
    {"LeftForeArm", "LeftArm"},
    {"LeftHand", "LeftForeArm"},
    {"RightShoulder", "Spine1"},
    {"RightArm", "RightShoulder"},
    {"RightForeArm", "RightArm"},
    {"RightHand", "RightForeArm"},
    {"LeftUpLeg", "Hips"},
    {"LeftLeg", "LeftUpLeg"},
    {"LeftFoot", "LeftLeg"},
    {"LeftToeBase", "LeftFoot"},
    {"RightUpLeg", "Hips"},
    {"RightLeg", "RightUpLeg"},
    {"RightFoot", "RightLeg"},
    {"RightToeBase", "RightFoot"},
};
#define HUMANOID_JOINTS (sizeof humanoid_names / sizeof humanoid_names[0])

typedef struct posed {
    _Alignas(16) sw_xform4 local[16];
    sw_mat4 model[64];
} posed;

static void pose_clip(const sw_scene* s, const sw_clip* c, float t, posed* p) {
    const sw_sample_job sample = {
        .clip = c, .skeleton = s->skeleton, .time = t, .out = p->local, .out_count = 16};
    assert_int_equal(sw_sample_job_run(&sample), SW_RESULT_OK);
    const sw_local_to_model_job l2m = {.skeleton = s->skeleton,
                                       .local = p->local,
                                       .local_count = 16,
                                       .out = p->model,
                                       .out_count = 64};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

static sw_vec3 joint_pos(const posed* p, int32_t j) {
    return sw_vec3_make(p->model[j].m[12], p->model[j].m[13], p->model[j].m[14]);
}

static sw_vec3 rest_pos(const sw_skeleton* s, int32_t j) {
    const int16_t* parents = sw_skeleton_parents(s);
    sw_vec3 p = sw_vec3_make(0, 0, 0);
    for (int32_t k = j; k >= 0; k = parents[k]) /* rest rotations checked identity */
        p = sw_vec3_add(p, sw_pose_get(sw_skeleton_rest_pose(s), (uint32_t)k).t);
    return p;
}

static float seg_distance(sw_vec3 p, sw_vec3 a, sw_vec3 b) {
    const sw_vec3 ab = sw_vec3_sub(b, a);
    const float l2 = sw_vec3_dot(ab, ab);
    float t = l2 > 0.0f ? sw_vec3_dot(sw_vec3_sub(p, a), ab) / l2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return sw_vec3_length(sw_vec3_sub(p, sw_vec3_add(a, sw_vec3_scale(ab, t))));
}

/* Checks a skinned mesh: weights, normals, palette, inverse binds, and that
 * every vertex lies within `radius(joint)` of its main joint's bones (the
 * segments to its children, or the joint itself for a leaf). Returns the
 * largest distance found. */
static float check_mesh(const sw_skeleton* s, const sw_mesh* m,
                        float (*radius)(const sw_skeleton*, uint32_t)) {
    const uint32_t J = s->joints_count;
    assert_int_equal(m->palette_count, J);
    assert_int_equal(m->skeleton_joints_count, J);
    assert_true(m->vertices_count >= 500u && m->vertices_count <= 20000u);
    assert_int_equal(m->indices_count % 3u, 0u);
    assert_true(sw_mesh_normals(m) != NULL);
    const sw_mat4* inv = sw_mesh_inverse_binds(m);
    for (uint32_t i = 0; i < J; ++i) {
        assert_int_equal(sw_mesh_palette(m)[i], i);
        /* inverse bind * rest model = identity (rest rotations are identity) */
        const sw_vec3 p = rest_pos(s, (int32_t)i);
        const sw_vec3 back = sw_mat4_point(&inv[i], p);
        sw_test_vec3_near(back, sw_vec3_make(0, 0, 0), 1e-5f);
    }
    const int16_t* parents = sw_skeleton_parents(s);
    float worst = 0.0f;
    for (uint32_t v = 0; v < m->vertices_count; ++v) {
        const float* w = &sw_mesh_weights(m)[4u * v];
        const uint16_t* jv = &sw_mesh_joints(m)[4u * v];
        float sum = 0.0f, best = -1.0f;
        uint32_t main = 0;
        for (int k = 0; k < 4; ++k) {
            assert_true(w[k] >= 0.0f);
            sum += w[k];
            if (w[k] > best) best = w[k], main = sw_mesh_palette(m)[jv[k]];
        }
        assert_near(sum, 1.0f, 1e-5);
        const float* n = &sw_mesh_normals(m)[3u * v];
        assert_near(sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0f, 1e-4);
        const float* pp = &sw_mesh_positions(m)[3u * v];
        const sw_vec3 p = sw_vec3_make(pp[0], pp[1], pp[2]);
        const sw_vec3 a = rest_pos(s, (int32_t)main);
        float d = sw_vec3_length(sw_vec3_sub(p, a));
        for (uint32_t c = 0; c < J; ++c)
            if (parents[c] == (int16_t)main) {
                const float dc = seg_distance(p, a, rest_pos(s, (int32_t)c));
                if (dc < d) d = dc;
            }
        if (d > radius(s, main))
            fail_msg("vertex %u of joint %s is %.3f m from its bones (limit %.3f)", v,
                     sw_skeleton_joint_name(s, main), (double)d, (double)radius(s, main));
        if (d > worst) worst = d;
    }
    for (uint32_t i = 0; i < m->indices_count; ++i)
        assert_true(sw_mesh_indices(m)[i] < m->vertices_count);
    return worst;
}

/* Limb radii of a 1.75 m person, generous: torso 0.2 m, head (a leaf,
 * measured from the head joint) 0.25, hands (leaves) 0.2, feet 0.12, other
 * limbs 0.09. */
static float humanoid_radius(const sw_skeleton* s, uint32_t j) {
    const char* n = sw_skeleton_joint_name(s, j);
    if (strcmp(n, "Head") == 0) return 0.25f;
    if (strstr(n, "Hand")) return 0.2f;
    if (strstr(n, "Foot") || strstr(n, "Toe")) return 0.12f;
    if (strcmp(n, "Hips") == 0 || strncmp(n, "Spine", 5) == 0) return 0.2f;
    return 0.09f;
}

static void test_humanoid_skeleton(void** state) {
    (void)state;
    sw_scene s;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &s, speeds, NULL), SW_RESULT_OK);
    assert_int_equal(s.skeleton->joints_count, HUMANOID_JOINTS);
    for (uint32_t i = 0; i < HUMANOID_JOINTS; ++i) {
        const int32_t j = sw_skeleton_find_joint(s.skeleton, humanoid_names[i][0]);
        assert_true(j >= 0);
        const int16_t parent = sw_skeleton_parents(s.skeleton)[j];
        if (!humanoid_names[i][1]) {
            assert_int_equal(parent, -1);
        } else {
            assert_int_equal(parent, sw_skeleton_find_joint(s.skeleton, humanoid_names[i][1]));
        }
        const sw_xform r = sw_pose_get(sw_skeleton_rest_pose(s.skeleton), (uint32_t)j);
        sw_test_quat_near(r.r, sw_quat_identity(), 1e-6f);
    }
    /* proportions: a standing person about 1.75 m tall facing +Z, left on +X */
    const sw_vec3 head = rest_pos(s.skeleton, sw_skeleton_find_joint(s.skeleton, "Head"));
    const sw_vec3 lfoot = rest_pos(s.skeleton, sw_skeleton_find_joint(s.skeleton, "LeftFoot"));
    const sw_vec3 ltoe = rest_pos(s.skeleton, sw_skeleton_find_joint(s.skeleton, "LeftToeBase"));
    const sw_vec3 lhand = rest_pos(s.skeleton, sw_skeleton_find_joint(s.skeleton, "LeftHand"));
    const sw_vec3 rhand = rest_pos(s.skeleton, sw_skeleton_find_joint(s.skeleton, "RightHand"));
    assert_true(head.y > 1.45f && head.y < 1.65f);
    assert_near(lfoot.y, ANKLE_REST, 1e-6);
    assert_true(ltoe.z > lfoot.z && lfoot.x > 0.0f && lhand.x > 0.5f && rhand.x < -0.5f);
    /* the mesh spans ground to 1.75 m */
    const sw_mesh* m = s.meshes[0];
    float lo = 1e9f, hi = -1e9f;
    for (uint32_t v = 0; v < m->vertices_count; ++v) {
        const float y = sw_mesh_positions(m)[3u * v + 1u];
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    print_message("humanoid: %u joints, mesh %u vertices %u triangles, height %.3f m, lowest "
                  "%.4f m\n",
                  s.skeleton->joints_count, m->vertices_count, m->indices_count / 3u, (double)hi,
                  (double)lo);
    assert_true(hi > 1.70f && hi < 1.80f);
    assert_true(lo > -0.005f && lo < 0.01f);
    sw_scene_free(&s, NULL);
}

static void test_humanoid_mesh(void** state) {
    (void)state;
    sw_scene s;
    assert_int_equal(sw_showcase_humanoid(NULL, &s, NULL, NULL), SW_RESULT_OK);
    assert_int_equal(s.meshes_count, 1u);
    const float worst = check_mesh(s.skeleton, s.meshes[0], humanoid_radius);
    print_message("humanoid mesh: farthest vertex %.3f m from its bones\n", (double)worst);
    /* every joint but the toes' own ends moves some vertex */
    uint32_t used[HUMANOID_JOINTS] = {0};
    const sw_mesh* m = s.meshes[0];
    for (uint32_t v = 0; v < 4u * m->vertices_count; ++v)
        if (sw_mesh_weights(m)[v] > 0.0f) used[sw_mesh_joints(m)[v]]++;
    for (uint32_t j = 0; j < HUMANOID_JOINTS; ++j)
        assert_true(used[j] > 0u);
    sw_scene_free(&s, NULL);
}

static void test_clip_names_and_loop(void** state) {
    (void)state;
    sw_scene s;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &s, speeds, NULL), SW_RESULT_OK);
    static const char* const names[] = {"idle", "walk", "jog", "run"};
    static const float nominal[] = {0.0f, 1.4f, 3.0f, 5.0f};
    assert_int_equal(s.clips_count, 4u);
    posed* a = malloc(sizeof *a);
    posed* b = malloc(sizeof *b);
    for (uint32_t c = 0; c < 4u; ++c) {
        const sw_clip* clip = s.clips[c];
        assert_string_equal(sw_clip_name(clip), names[c]);
        assert_near(speeds[c], nominal[c], 0.01 * nominal[c] + 1e-6);
        pose_clip(&s, clip, 0.0f, a);
        pose_clip(&s, clip, clip->duration, b);
        for (uint32_t j = 0; j < s.skeleton->joints_count; ++j) {
            const sw_xform x0 = sw_pose_get(a->local, j), x1 = sw_pose_get(b->local, j);
            sw_test_quat_near(x0.r, x1.r, 1e-5f);
            sw_vec3 expect = x0.t;
            if (j == 0) expect.z += speeds[c] * clip->duration; /* root motion: one stride */
            sw_test_vec3_near(x1.t, expect, 1e-5f);
        }
        /* a whole number of 30 Hz frames per cycle */
        const float frames = clip->duration * RATE;
        assert_near(frames, roundf(frames), 1e-3);
        print_message("%-4s: %.3f s cycle, %.2f m/s, stride %.3f m\n", names[c],
                      (double)clip->duration, (double)speeds[c],
                      (double)(speeds[c] * clip->duration));
    }
    free(a);
    free(b);
    sw_scene_free(&s, NULL);
}

/* Feet stay planted: between a foot's "<Side>FootDown" and "<Side>FootUp"
 * events its ankle must not move (< 1 mm per step at the keys; < 1 cm,
 * the target, sampled at 240 Hz in between) and rest on the
 * ground. Also: feet never below the ground, the events sit at real plants
 * (in the air just before the down, just after the up), speeds from the
 * hips. */
static float event_time(const sw_clip* clip, const char* name) {
    for (uint32_t k = 0; k < clip->events_count; ++k)
        if (strcmp(sw_clip_event_name(clip, k), name) == 0) return sw_clip_events(clip)[k].time;
    fail_msg("no event %s in %s", name, sw_clip_name(clip));
    return -1.0f;
}

static void test_feet_do_not_slide(void** state) {
    (void)state;
    sw_scene s;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &s, speeds, NULL), SW_RESULT_OK);
    const int32_t feet[2] = {sw_skeleton_find_joint(s.skeleton, "LeftFoot"),
                             sw_skeleton_find_joint(s.skeleton, "RightFoot")};
    static const char* const downs[2] = {"LeftFootDown", "RightFootDown"};
    static const char* const ups[2] = {"LeftFootUp", "RightFootUp"};
    posed* p = malloc(sizeof *p);
    for (uint32_t c = 1; c < 4u; ++c) {
        const sw_clip* clip = s.clips[c];
        const float T = clip->duration;
        assert_int_equal(clip->events_count, 4u);
        assert_near(event_time(clip, downs[1]) - event_time(clip, downs[0]), 0.5f * T, 1e-5);
        float slide_keys = 0.0f, slide_fine = 0.0f;
        for (int f = 0; f < 2; ++f) {
            const float t0 = event_time(clip, downs[f]), t1 = event_time(clip, ups[f]);
            assert_true(t1 - t0 >= 0.09f && t1 - t0 < 0.5f * T); /* a real stance */
            pose_clip(&s, clip, t0, p);
            const sw_vec3 plant = joint_pos(p, feet[f]);
            assert_near(plant.y, ANKLE_REST, 1e-4); /* on the ground at the event */
            /* one frame before the down and one after the up the foot is
             * moving: away from its plant (the root advances one stride per
             * cycle, so the frame before t = 0 is the cycle's last one
             * moved back by a stride) */
            float before = t0 - 1.0f / RATE, back = 0.0f;
            if (before < 0.0f) before += T, back = speeds[c] * T;
            pose_clip(&s, clip, before, p);
            sw_vec3 q = joint_pos(p, feet[f]);
            q.z -= back;
            assert_true(sw_vec3_length(sw_vec3_sub(q, plant)) > 5e-4f);
            assert_true(q.y > ANKLE_REST);
            pose_clip(&s, clip, t1 + 1.0f / RATE, p);
            q = joint_pos(p, feet[f]);
            assert_true(sw_vec3_length(sw_vec3_sub(q, plant)) > 5e-4f);
            assert_true(q.y > ANKLE_REST);
            for (int pass = 0; pass < 2; ++pass) {
                const uint32_t steps = pass == 0 ? 1u : 8u; /* per 30 Hz frame */
                const uint32_t n = (uint32_t)lroundf((t1 - t0) * RATE) * steps;
                float slide = 0.0f;
                for (uint32_t i = 0; i <= n; ++i) {
                    pose_clip(&s, clip, t0 + (t1 - t0) * (float)i / (float)n, p);
                    const float d = sw_vec3_length(sw_vec3_sub(joint_pos(p, feet[f]), plant));
                    slide = d > slide ? d : slide;
                }
                if (pass == 0)
                    slide_keys = slide > slide_keys ? slide : slide_keys;
                else
                    slide_fine = slide > slide_fine ? slide : slide_fine;
            }
        }
        print_message("%-4s: planted-foot sliding %.4f cm per step at the keys, %.4f cm "
                      "sampled at 240 Hz\n",
                      sw_clip_name(clip), (double)(100.0f * slide_keys),
                      (double)(100.0f * slide_fine));
        assert_true(slide_keys < 1e-3f);
        assert_true(slide_fine < 1e-2f);
        /* the hips' measured speed */
        pose_clip(&s, clip, 0.0f, p);
        const float z0 = joint_pos(p, 0).z;
        pose_clip(&s, clip, T, p);
        const float v = (joint_pos(p, 0).z - z0) / T;
        assert_near(v, speeds[c], 0.01 * speeds[c]);
    }
    /* the ground: ankles never below the foot's height, in every clip: exactly
     * at the keys, within 0.5 mm (the cubic interpolation's error) between */
    for (uint32_t c = 0; c < 4u; ++c) {
        float lowest_keys = 1e9f, lowest = 1e9f;
        const uint32_t n = (uint32_t)lroundf(s.clips[c]->duration * 240.0f);
        for (uint32_t i = 0; i <= n; ++i) {
            pose_clip(&s, s.clips[c], (float)i / 240.0f, p);
            for (int f = 0; f < 2; ++f) {
                const float y = joint_pos(p, feet[f]).y - ANKLE_REST;
                lowest = y < lowest ? y : lowest;
                if (i % 8u == 0u) lowest_keys = y < lowest_keys ? y : lowest_keys;
            }
        }
        print_message("%-4s: lowest ankle %.4f cm above standing height at the keys, %.4f cm "
                      "at 240 Hz\n",
                      sw_clip_name(s.clips[c]), (double)(100.0f * lowest_keys),
                      (double)(100.0f * lowest));
        assert_true(lowest_keys >= -1e-5f);
        assert_true(lowest >= -5e-4f);
    }
    free(p);
    sw_scene_free(&s, NULL);
}

/* Idle: no root motion, no events, the feet do not move at all. */
static void test_idle_feet_still(void** state) {
    (void)state;
    sw_scene s;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &s, speeds, NULL), SW_RESULT_OK);
    const sw_clip* idle = s.clips[0];
    assert_int_equal(idle->events_count, 0u);
    assert_true(speeds[0] == 0.0f);
    posed* p = malloc(sizeof *p);
    const int32_t feet[2] = {sw_skeleton_find_joint(s.skeleton, "LeftFoot"),
                             sw_skeleton_find_joint(s.skeleton, "RightFoot")};
    sw_vec3 start[2];
    pose_clip(&s, idle, 0.0f, p);
    start[0] = joint_pos(p, feet[0]);
    start[1] = joint_pos(p, feet[1]);
    float hips_lo = 1e9f, hips_hi = -1e9f, hips_x = 0.0f;
    for (float t = 0.0f; t <= idle->duration; t += 1.0f / 240.0f) {
        pose_clip(&s, idle, t, p);
        for (int f = 0; f < 2; ++f)
            assert_true(sw_vec3_length(sw_vec3_sub(joint_pos(p, feet[f]), start[f])) < 1e-3f);
        const sw_vec3 h = joint_pos(p, 0);
        hips_lo = h.y < hips_lo ? h.y : hips_lo;
        hips_hi = h.y > hips_hi ? h.y : hips_hi;
        hips_x = fabsf(h.x) > hips_x ? fabsf(h.x) : hips_x;
        assert_near(h.z, 0.0f, 1e-6);
    }
    /* it does move: the weight shifts sideways */
    assert_true(hips_x > 0.01f);
    free(p);
    sw_scene_free(&s, NULL);
}

/* Knees bend forward all the time: the knee sits at least 1 cm ahead (along
 * the hips' forward axis) of the line from the hip joint to the ankle, in
 * every clip at 240 Hz (a leg driven straight would flip between keys). */
static void test_knees_bend_forward(void** state) {
    (void)state;
    sw_scene s;
    assert_int_equal(sw_showcase_humanoid(NULL, &s, NULL, NULL), SW_RESULT_OK);
    posed* p = malloc(sizeof *p);
    const int32_t hips[2] = {sw_skeleton_find_joint(s.skeleton, "LeftUpLeg"),
                             sw_skeleton_find_joint(s.skeleton, "RightUpLeg")};
    for (uint32_t c = 0; c < s.clips_count; ++c) {
        float least = 1e9f;
        const uint32_t n = (uint32_t)lroundf(s.clips[c]->duration * 240.0f);
        for (uint32_t i = 0; i <= n; ++i) {
            pose_clip(&s, s.clips[c], (float)i / 240.0f, p);
            const sw_vec3 fwd = sw_quat_rotate(sw_pose_get(p->local, 0).r, sw_vec3_make(0, 0, 1));
            for (int f = 0; f < 2; ++f) {
                const int32_t knee = sw_skeleton_find_joint(
                    s.skeleton, sw_skeleton_joint_name(s.skeleton, (uint32_t)hips[f] + 1u));
                const int32_t ankle =
                    sw_skeleton_parents(s.skeleton)[knee + 1] == knee ? knee + 1 : -1;
                assert_true(ankle > 0);
                const sw_vec3 a = joint_pos(p, hips[f]), k = joint_pos(p, knee),
                              e = joint_pos(p, ankle);
                const sw_vec3 axis = sw_vec3_normalize(sw_vec3_sub(e, a));
                sw_vec3 off = sw_vec3_sub(k, a);
                off = sw_vec3_sub(off, sw_vec3_scale(axis, sw_vec3_dot(off, axis)));
                const float ahead = sw_vec3_dot(off, fwd);
                least = ahead < least ? ahead : least;
            }
        }
        print_message("%-4s: knees at least %.1f cm ahead of the hip-ankle line\n",
                      sw_clip_name(s.clips[c]), (double)(100.0f * least));
        assert_true(least > 0.01f);
    }
    free(p);
    sw_scene_free(&s, NULL);
}

/* The loop is smooth, not only continuous: every joint's velocity at the
 * end of the clip equals its velocity at the start (second-order one-sided
 * differences over 1/4000 s: rotations within 0.05 rad/s, the Hips
 * translation within 5 mm/s). */
static sw_vec3 rot_vec(sw_quat ref, sw_quat q) { /* small rotation from ref to q */
    sw_quat d = sw_quat_mul(sw_quat_conjugate(ref), q);
    if (d.w < 0.0f) d = sw_quat_negate(d);
    return sw_vec3_make(2.0f * d.x, 2.0f * d.y, 2.0f * d.z);
}

static void test_loop_velocity(void** state) {
    (void)state;
    sw_scene s;
    assert_int_equal(sw_showcase_humanoid(NULL, &s, NULL, NULL), SW_RESULT_OK);
    posed* p[6];
    for (int i = 0; i < 6; ++i)
        p[i] = malloc(sizeof *p[i]);
    const float d = 1.0f / 4000.0f;
    for (uint32_t c = 0; c < s.clips_count; ++c) {
        const sw_clip* clip = s.clips[c];
        const float T = clip->duration;
        const float times[6] = {0.0f, d, 2.0f * d, T - 2.0f * d, T - d, T};
        for (int i = 0; i < 6; ++i)
            pose_clip(&s, clip, times[i], p[i]);
        float worst_r = 0.0f, worst_t = 0.0f;
        for (uint32_t j = 0; j < s.skeleton->joints_count; ++j) {
            sw_xform x[6];
            for (int i = 0; i < 6; ++i)
                x[i] = sw_pose_get(p[i]->local, j);
            /* rotations as small rotation vectors from the pose at 0 (= at T) */
            const sw_quat ref = x[0].r;
            const sw_vec3 s1 = rot_vec(ref, x[1].r), s2 = rot_vec(ref, x[2].r);
            const sw_vec3 e2 = rot_vec(ref, x[3].r), e1 = rot_vec(ref, x[4].r);
            const sw_vec3 eT = rot_vec(ref, x[5].r);
            /* start: (-3 f(0) + 4 f(d) - f(2d)) / 2d; end: (3 f(T) - 4 f(T-d) + f(T-2d)) / 2d */
            const sw_vec3 vs = sw_vec3_scale(sw_vec3_sub(sw_vec3_scale(s1, 4.0f), s2), 0.5f / d);
            const sw_vec3 ve = sw_vec3_scale(
                sw_vec3_add(sw_vec3_sub(sw_vec3_scale(eT, 3.0f), sw_vec3_scale(e1, 4.0f)), e2),
                0.5f / d);
            const float dr = sw_vec3_length(sw_vec3_sub(vs, ve));
            worst_r = dr > worst_r ? dr : worst_r;
            const sw_vec3 ts = sw_vec3_scale(
                sw_vec3_sub(sw_vec3_add(sw_vec3_scale(x[0].t, -3.0f), sw_vec3_scale(x[1].t, 4.0f)),
                            x[2].t),
                0.5f / d);
            const sw_vec3 te = sw_vec3_scale(
                sw_vec3_add(sw_vec3_sub(sw_vec3_scale(x[5].t, 3.0f), sw_vec3_scale(x[4].t, 4.0f)),
                            x[3].t),
                0.5f / d);
            const float dt = sw_vec3_length(sw_vec3_sub(ts, te));
            worst_t = dt > worst_t ? dt : worst_t;
        }
        print_message("%-4s: velocity jump across the loop %.4f rad/s, %.5f m/s\n",
                      sw_clip_name(clip), (double)worst_r, (double)worst_t);
        assert_true(worst_r < 0.05f);
        assert_true(worst_t < 5e-3f);
    }
    for (int i = 0; i < 6; ++i)
        free(p[i]);
    sw_scene_free(&s, NULL);
}

static float spider_radius(const sw_skeleton* s, uint32_t j) {
    return strcmp(sw_skeleton_joint_name(s, j), "Body") == 0 ? 0.12f : 0.03f;
}

static void test_spider(void** state) {
    (void)state;
    sw_scene s;
    assert_int_equal(sw_showcase_spider(NULL, &s, NULL), SW_RESULT_OK);
    assert_int_equal(s.skeleton->joints_count, 33u);
    assert_int_equal(s.clips_count, 0u);
    assert_int_equal(s.meshes_count, 1u);
    assert_int_equal(sw_skeleton_find_joint(s.skeleton, "Body"), 0);
    float span = 0.0f;
    for (int leg = 0; leg < 8; ++leg) {
        static const char* const seg[4] = {"Coxa", "Femur", "Tibia", "Tip"};
        int32_t prev = 0;
        for (int k = 0; k < 4; ++k) {
            char name[32];
            snprintf(name, sizeof name, "Leg%d_%s", leg, seg[k]);
            const int32_t j = sw_skeleton_find_joint(s.skeleton, name);
            assert_true(j > 0);
            assert_int_equal(sw_skeleton_parents(s.skeleton)[j], prev);
            prev = j;
        }
        const sw_vec3 tip = rest_pos(s.skeleton, prev);
        assert_near(tip.y, 0.0f, 1e-5);                           /* on the ground at rest */
        assert_true(leg % 2 == 0 ? tip.x > 0.1f : tip.x < -0.1f); /* even legs on the left */
        const float r = sqrtf(tip.x * tip.x + tip.z * tip.z);
        span = 2.0f * r > span ? 2.0f * r : span;
    }
    assert_true(span > 0.5f && span < 0.7f);
    assert_true(rest_pos(s.skeleton, 0).y > 0.03f); /* the body off the ground */
    const float worst = check_mesh(s.skeleton, s.meshes[0], spider_radius);
    print_message("spider: span %.3f m, mesh %u vertices, farthest vertex %.3f m\n", (double)span,
                  s.meshes[0]->vertices_count, (double)worst);
    sw_scene_free(&s, NULL);
}

static void test_gltf_round_trip(void** state) {
    (void)state;
    for (int which = 0; which < 2; ++which) {
        sw_scene s;
        sw_error err;
        assert_int_equal(which == 0 ? sw_showcase_humanoid(NULL, &s, NULL, &err)
                                    : sw_showcase_spider(NULL, &s, &err),
                         SW_RESULT_OK);
        char path[64];
        snprintf(path, sizeof path, "test_showcase_character_%d.glb", which);
        assert_int_equal(sw_gltf_export_file(&s, NULL, path, &err), SW_RESULT_OK);
        sw_scene back;
        const sw_result r = sw_gltf_read_file(path, NULL, NULL, &back, &err);
        if (r != SW_RESULT_OK) fail_msg("read back: %s (%s)", sw_result_str(r), err.check);
        assert_int_equal(back.skeleton->joints_count, s.skeleton->joints_count);
        for (uint32_t j = 0; j < s.skeleton->joints_count; ++j)
            assert_true(
                sw_skeleton_find_joint(back.skeleton, sw_skeleton_joint_name(s.skeleton, j)) >= 0);
        assert_int_equal(back.clips_count, s.clips_count);
        for (uint32_t c = 0; c < s.clips_count; ++c) {
            assert_string_equal(sw_clip_name(back.clips[c]), sw_clip_name(s.clips[c]));
            assert_near(back.clips[c]->duration, s.clips[c]->duration, 1e-5);
        }
        assert_int_equal(back.meshes_count, 1u);
        assert_int_equal(back.meshes[0]->vertices_count, s.meshes[0]->vertices_count);
        assert_int_equal(back.meshes[0]->indices_count, s.meshes[0]->indices_count);
        sw_scene_free(&back, NULL);
        sw_scene_free(&s, NULL);
        remove(path);
    }
}

/* Allocation failures at every index fail cleanly with nothing left over,
 * and every free receives the size that was allocated (blocks and bytes
 * both balance). */
typedef struct counting {
    int64_t fail_at, calls, live, live_bytes;
} counting;
static void* count_alloc(void* user, size_t size, size_t align) {
    counting* c = (counting*)user;
    if (c->calls++ == c->fail_at) return NULL;
    void* p = aligned_alloc(align, (size + align - 1) / align * align);
    if (p) {
        c->live++;
        c->live_bytes += (int64_t)size;
    }
    return p;
}
static void count_free(void* user, void* ptr, size_t size) {
    counting* c = (counting*)user;
    if (ptr) {
        c->live--;
        c->live_bytes -= (int64_t)size;
    }
    free(ptr);
}

static void test_allocation_failures(void** state) {
    (void)state;
    for (int which = 0; which < 2; ++which) {
        counting c = {-1, 0, 0, 0};
        const sw_allocator a = {count_alloc, count_free, &c};
        sw_scene s;
        assert_int_equal(which == 0 ? sw_showcase_humanoid(&a, &s, NULL, NULL)
                                    : sw_showcase_spider(&a, &s, NULL),
                         SW_RESULT_OK);
        sw_scene_free(&s, &a);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.live_bytes, 0);
        const int64_t total = c.calls;
        for (int64_t i = 0; i < total; ++i) {
            counting f = {i, 0, 0, 0};
            const sw_allocator fa = {count_alloc, count_free, &f};
            sw_error err;
            const sw_result r = which == 0 ? sw_showcase_humanoid(&fa, &s, NULL, &err)
                                           : sw_showcase_spider(&fa, &s, &err);
            assert_int_equal(r, SW_RESULT_OUT_OF_MEMORY);
            assert_int_equal(err.result, SW_RESULT_OUT_OF_MEMORY);
            assert_null(s.skeleton);
            assert_int_equal(f.live, 0);
            assert_int_equal(f.live_bytes, 0);
        }
    }
    assert_int_equal(sw_showcase_humanoid(NULL, NULL, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_showcase_spider(NULL, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
}

/* Component-wise minimum and maximum. */
static sw_vec3 vmin(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(fminf(a.x, b.x), fminf(a.y, b.y), fminf(a.z, b.z));
}
static sw_vec3 vmax(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_make(fmaxf(a.x, b.x), fmaxf(a.y, b.y), fmaxf(a.z, b.z));
}

/* Distance from p to the segment a-b. */
static float segment_distance(sw_vec3 p, sw_vec3 a, sw_vec3 b) {
    const sw_vec3 ab = sw_vec3_sub(b, a);
    const float len2 = sw_vec3_dot(ab, ab);
    float t = len2 > 0.0f ? sw_vec3_dot(sw_vec3_sub(p, a), ab) / len2 : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    return sw_vec3_length(sw_vec3_sub(p, sw_vec3_add(a, sw_vec3_scale(ab, t))));
}

/* A skeleton without a mesh drawn as its bones (issue #17), on CMU 01_01 (a
 * BVH in its own units, about 1/18 m) and on the same skeleton scaled to
 * metres: a capsule per bone of the rest pose (counted here from the rest
 * offsets), every vertex bound to one joint with weight 1 and within the
 * capsule radius (at most 2% of the extent) of a bone starting at that
 * joint; the mesh's bounds hold every joint and stay within 2% of the extent
 * of them. The figure scales with the file's units. */
static void test_bones_mesh(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    float heights[2];
    for (int pass = 0; pass < 2; ++pass) {
        const sw_bvh_options opt = {.scale = pass == 0 ? 1.0f : 0.056444f};
        sw_bvh_result bvh;
        assert_int_equal(sw_bvh_read_file(path, &opt, NULL, &bvh, NULL), SW_RESULT_OK);
        const sw_skeleton* s = bvh.skeleton;
        const uint32_t n = s->joints_count;
        sw_mat4* model = (sw_mat4*)malloc(sizeof(sw_mat4) * n);
        assert_non_null(model);
        const sw_local_to_model_job lj = {.skeleton = s,
                                          .local = sw_skeleton_rest_pose(s),
                                          .local_count = s->packets_count,
                                          .out = model,
                                          .out_count = n};
        assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
        sw_vec3 lo = sw_vec3_make(INFINITY, INFINITY, INFINITY), hi = sw_vec3_scale(lo, -1.0f);
        for (uint32_t j = 0; j < n; ++j) {
            lo = vmin(lo, sw_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]));
            hi = vmax(hi, sw_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]));
        }
        const sw_vec3 size = sw_vec3_sub(hi, lo);
        const float extent = fmaxf(size.x, fmaxf(size.y, size.z));
        const int16_t* parents = sw_skeleton_parents(s);
        uint32_t expected_bones = 0;
        for (uint32_t j = 0; j < n; ++j)
            if (parents[j] >= 0 &&
                sw_vec3_length(sw_pose_get(sw_skeleton_rest_pose(s), j).t) > 1e-3f * extent)
                ++expected_bones;
        const sw_mesh* m = NULL;
        uint32_t bones = 0;
        assert_int_equal(sw_showcase_bones_mesh(s, NULL, &m, &bones, NULL), SW_RESULT_OK);
        assert_int_equal(bones, expected_bones);
        assert_true(bones >= 20u);
        assert_int_equal(m->palette_count, n);
        assert_int_equal(m->skeleton_joints_count, n);
        const float* pos = sw_mesh_positions(m);
        const uint16_t* jv = sw_mesh_joints(m);
        const float* wv = sw_mesh_weights(m);
        sw_vec3 mlo = sw_vec3_make(INFINITY, INFINITY, INFINITY), mhi = sw_vec3_scale(mlo, -1.0f);
        for (uint32_t v = 0; v < m->vertices_count; ++v) {
            assert_float_equal(wv[4 * v], 1.0f, 0.0f);
            const uint32_t j = sw_mesh_palette(m)[jv[4 * v]];
            const sw_vec3 p = sw_vec3_make(pos[3 * v], pos[3 * v + 1], pos[3 * v + 2]);
            mlo = vmin(mlo, p);
            mhi = vmax(mhi, p);
            float nearest = INFINITY;
            const sw_vec3 a = sw_vec3_make(model[j].m[12], model[j].m[13], model[j].m[14]);
            for (uint32_t c = 0; c < n; ++c)
                if (parents[c] == (int16_t)j)
                    nearest =
                        fminf(nearest, segment_distance(p, a,
                                                        sw_vec3_make(model[c].m[12], model[c].m[13],
                                                                     model[c].m[14])));
            assert_true(nearest <= 0.02f * extent * 1.0001f);
        }
        const float slack = 0.02f * extent * 1.0001f;
        assert_true(mlo.x <= lo.x && mlo.y <= lo.y && mlo.z <= lo.z);
        assert_true(mhi.x >= hi.x && mhi.y >= hi.y && mhi.z >= hi.z);
        assert_true(mlo.x >= lo.x - slack && mlo.y >= lo.y - slack && mlo.z >= lo.z - slack);
        assert_true(mhi.x <= hi.x + slack && mhi.y <= hi.y + slack && mhi.z <= hi.z + slack);
        heights[pass] = mhi.y - mlo.y;
        sw_mesh_destroy(m, NULL);
        free(model);
        sw_bvh_result_free(&bvh, NULL);
    }
    /* the same figure in both units */
    assert_float_equal(heights[1] / heights[0], 0.056444f, 1e-4f);
    /* no bone: a single joint, refused */
    const sw_skeleton_joint one = {.name = "Root", .parent = -1, .rest = sw_xform_identity()};
    const sw_skeleton* single = NULL;
    assert_int_equal(sw_skeleton_create(&(sw_skeleton_desc){.joints = &one, .joints_count = 1},
                                        NULL, &single, NULL),
                     SW_RESULT_OK);
    const sw_mesh* m = (const sw_mesh*)(uintptr_t)1;
    uint32_t bones = 7;
    assert_int_equal(sw_showcase_bones_mesh(single, NULL, &m, &bones, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_null(m);
    assert_int_equal(bones, 0);
    sw_skeleton_destroy(single, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_humanoid_skeleton),   cmocka_unit_test(test_humanoid_mesh),
        cmocka_unit_test(test_clip_names_and_loop), cmocka_unit_test(test_feet_do_not_slide),
        cmocka_unit_test(test_idle_feet_still),     cmocka_unit_test(test_knees_bend_forward),
        cmocka_unit_test(test_loop_velocity),       cmocka_unit_test(test_spider),
        cmocka_unit_test(test_gltf_round_trip),     cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_bones_mesh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
