/* The clip recorder and the animator bake: a recorded clip sampled at frame
 * times gives the appended poses back; rotations are kept on one hemisphere
 * (so the middle of two keys given on opposite hemispheres is the short way
 * round); rest and constant tracks fold as asked; name, duration, events and
 * float tracks reach the clip; root motion is summed into the root's
 * placement as computed by hand; argument checks. */
#include "test_util.h"

#include "sinew/tools/builders/animator_bake.h"
#include "sinew/tools/builders/clip_recorder.h"

#define PI_F 3.14159265358979f

/* root (rest at (0, 1, 0)) -> arm (rest at (0.5, 0, 0), turned 30 degrees about z) -> hand */
static const sw_skeleton* make_skeleton(void) {
    sw_skeleton_joint joints[3] = {
        {"root", -1, sw_xform_identity()},
        {"arm", 0, sw_xform_identity()},
        {"hand", 1, sw_xform_identity()},
    };
    joints[0].rest.t = sw_vec3_make(0.0f, 1.0f, 0.0f);
    joints[1].rest.t = sw_vec3_make(0.5f, 0.0f, 0.0f);
    joints[1].rest.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 0.0f, 1.0f), PI_F / 6.0f);
    joints[2].rest.t = sw_vec3_make(0.25f, 0.0f, 0.0f);
    const sw_skeleton_desc d = {joints, 3};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&d, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

/* The rest pose of s, copied into pose (s->packets_count packets). */
static void rest_pose(const sw_skeleton* s, sw_xform4* pose) {
    memcpy(pose, sw_skeleton_rest_pose(s), sizeof(sw_xform4) * s->packets_count);
}

static sw_xform sample_joint(const sw_skeleton* s, const sw_clip* c, float t, uint32_t joint) {
    sw_xform4 out[4];
    assert_true(s->packets_count <= 4u);
    const sw_sample_job job = {
        .clip = c, .skeleton = s, .time = t, .out = out, .out_count = s->packets_count};
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
    return sw_pose_get(out, joint);
}

static const sw_clip_track* find_track(const sw_clip* c, uint32_t joint, sw_track_kind kind) {
    const sw_clip_track* t = sw_clip_tracks(c);
    for (uint32_t i = 0; i < c->tracks_count - c->float_tracks_count; ++i) {
        if (t[i].target == joint && t[i].kind == (uint32_t)kind) return &t[i];
    }
    return NULL;
}

/* Frame f of the test motion: the root moves along x and turns about y, the
 * arm bends about z, the hand scales up; all at 20 frames per second. */
static void motion_pose(const sw_skeleton* s, uint32_t f, sw_xform4* pose) {
    rest_pose(s, pose);
    sw_xform root = sw_pose_get(pose, 0);
    root.t.x = 0.1f * (float)f;
    root.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 1.0f, 0.0f), 0.05f * (float)f);
    sw_pose_set(pose, 0, root);
    sw_xform arm = sw_pose_get(pose, 1);
    arm.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 0.0f, 1.0f), 0.5f - 0.04f * (float)f);
    sw_pose_set(pose, 1, arm);
    sw_xform hand = sw_pose_get(pose, 2);
    hand.s = sw_vec3_make(1.0f + 0.01f * (float)f, 1.0f, 1.0f);
    sw_pose_set(pose, 2, hand);
}

static void test_frames_come_back(void** state) {
    (void)state;
    const sw_skeleton* s = make_skeleton();
    sw_clip_recorder* rec = NULL;
    assert_int_equal(sw_clip_recorder_create(s, 20.0f, NULL, NULL, &rec, NULL), SW_RESULT_OK);
    sw_xform4 pose[1];
    for (uint32_t f = 0; f < 100; ++f) { /* past the first capacity of 64 frames */
        motion_pose(s, f, pose);
        assert_int_equal(sw_clip_recorder_append(rec, pose, 1, NULL), SW_RESULT_OK);
    }
    assert_int_equal(sw_clip_recorder_frames(rec), 100);
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c, NULL), SW_RESULT_OK);
    /* nothing folded: T, R, S for every joint, a key per frame at 20 Hz */
    assert_int_equal(c->tracks_count, 9);
    assert_near(c->duration, 99.0f / 20.0f, 1e-6f);
    for (uint32_t i = 0; i < c->tracks_count; ++i) {
        assert_int_equal(sw_clip_tracks(c)[i].keys_count, 100);
        assert_near(sw_clip_tracks(c)[i].rate, 20.0f, 0.0f);
    }
    for (uint32_t f = 0; f < 100; f += 7) {
        motion_pose(s, f, pose);
        for (uint32_t j = 0; j < 3; ++j) {
            const sw_xform want = sw_pose_get(pose, j);
            const sw_xform got = sample_joint(s, c, (float)f / 20.0f, j);
            sw_test_vec3_near(got.t, want.t, 1e-5f);
            sw_test_quat_near(got.r, want.r, 1e-6f);
            sw_test_vec3_near(got.s, want.s, 1e-6f);
        }
    }
    sw_clip_destroy(c, NULL);
    sw_clip_recorder_destroy(rec);
    sw_skeleton_destroy(s, NULL);
}

static void test_hemisphere(void** state) {
    (void)state;
    /* keys given as rotations of 170 and -170 degrees about z: the short way
     * between them passes 180 degrees, the long way 0 */
    float keys[12];
    const sw_vec3 z = sw_vec3_make(0.0f, 0.0f, 1.0f);
    const float deg = PI_F / 180.0f;
    const sw_quat q[3] = {sw_quat_from_axis_angle(z, 170.0f * deg),
                          sw_quat_from_axis_angle(z, -170.0f * deg),
                          sw_quat_from_axis_angle(z, 170.0f * deg)};
    for (uint32_t k = 0; k < 3; ++k)
        memcpy(&keys[4u * k], &q[k], sizeof q[k]);
    sw_rotation_keys_continuous(keys, 3);
    /* key 1 negated, key 2 kept (it agrees with key 1 as negated) */
    assert_near(keys[0 + 2], q[0].z, 0.0f);
    assert_near(keys[4 + 2], -q[1].z, 0.0f);
    assert_near(keys[4 + 3], -q[1].w, 0.0f);
    assert_near(keys[8 + 2], q[2].z, 0.0f);
    assert_near(keys[8 + 3], q[2].w, 0.0f);

    /* the recorder does the same to every rotation track */
    const sw_skeleton* s = make_skeleton();
    sw_clip_recorder* rec = NULL;
    assert_int_equal(sw_clip_recorder_create(s, 10.0f, NULL, NULL, &rec, NULL), SW_RESULT_OK);
    sw_xform4 pose[1];
    for (uint32_t f = 0; f < 3; ++f) {
        rest_pose(s, pose);
        sw_xform x = sw_pose_get(pose, 2);
        x.r = q[f];
        sw_pose_set(pose, 2, x);
        assert_int_equal(sw_clip_recorder_append(rec, pose, 1, NULL), SW_RESULT_OK);
    }
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c, NULL), SW_RESULT_OK);
    const sw_xform mid = sample_joint(s, c, 0.05f, 2);
    sw_test_quat_near(mid.r, sw_quat_make(0.0f, 0.0f, 1.0f, 0.0f), 1e-5f);
    const sw_clip_track* t = find_track(c, 2, SW_TRACK_KIND_ROTATION);
    assert_non_null(t);
    const float* v = sw_clip_track_values(c, t);
    for (uint32_t k = 1; k < 3; ++k) {
        const float d = v[4 * k] * v[4 * k - 4] + v[4 * k + 1] * v[4 * k - 3] +
                        v[4 * k + 2] * v[4 * k - 2] + v[4 * k + 3] * v[4 * k - 1];
        assert_true(d >= 0.0f);
    }
    sw_clip_destroy(c, NULL);
    sw_clip_recorder_destroy(rec);
    sw_skeleton_destroy(s, NULL);
}

/* Records 5 frames: the root's translation moves (x = f / 10), the arm's
 * rotation is constant away from rest (0.2 rad about z), the hand's scale
 * is within 1e-8 of rest at odd frames; all else at rest. */
static const sw_clip* record_folded(const sw_skeleton* s, sw_clip_recorder_fold fold, float tol) {
    const sw_clip_recorder_options o = {.fold = fold, .tolerance = tol};
    sw_clip_recorder* rec = NULL;
    assert_int_equal(sw_clip_recorder_create(s, 10.0f, &o, NULL, &rec, NULL), SW_RESULT_OK);
    sw_xform4 pose[1];
    for (uint32_t f = 0; f < 5; ++f) {
        rest_pose(s, pose);
        sw_xform x = sw_pose_get(pose, 0);
        x.t.x = 0.1f * (float)f;
        sw_pose_set(pose, 0, x);
        x = sw_pose_get(pose, 1);
        x.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 0.0f, 1.0f), 0.2f);
        sw_pose_set(pose, 1, x);
        x = sw_pose_get(pose, 2);
        x.s.y = (f & 1u) ? 1.0f + 1e-8f * 64.0f : 1.0f; /* 64e-8 off rest */
        sw_pose_set(pose, 2, x);
        assert_int_equal(sw_clip_recorder_append(rec, pose, 1, NULL), SW_RESULT_OK);
    }
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c, NULL), SW_RESULT_OK);
    sw_clip_recorder_destroy(rec);
    return c;
}

static void test_folding(void** state) {
    (void)state;
    const sw_skeleton* s = make_skeleton();
    /* rest, exact: root T, arm R, hand S (off by 64e-8 at odd frames) */
    const sw_clip* c = record_folded(s, SW_CLIP_RECORDER_FOLD_REST, 0.0f);
    assert_int_equal(c->tracks_count, 3);
    assert_non_null(find_track(c, 0, SW_TRACK_KIND_TRANSLATION));
    assert_non_null(find_track(c, 1, SW_TRACK_KIND_ROTATION));
    assert_non_null(find_track(c, 2, SW_TRACK_KIND_SCALE));
    /* untracked joints hold rest: the arm's translation is its rest value */
    sw_test_vec3_near(sample_joint(s, c, 0.2f, 1).t, sw_vec3_make(0.5f, 0.0f, 0.0f), 0.0f);
    sw_clip_destroy(c, NULL);
    /* rest within 1e-6: the hand's scale folds too */
    c = record_folded(s, SW_CLIP_RECORDER_FOLD_REST, 1e-6f);
    assert_int_equal(c->tracks_count, 2);
    assert_null(find_track(c, 2, SW_TRACK_KIND_SCALE));
    sw_clip_destroy(c, NULL);
    /* constant: every track stays, the ones that never change with one key */
    c = record_folded(s, SW_CLIP_RECORDER_FOLD_CONSTANT, 0.0f);
    assert_int_equal(c->tracks_count, 9);
    assert_int_equal(find_track(c, 0, SW_TRACK_KIND_TRANSLATION)->keys_count, 5);
    assert_int_equal(find_track(c, 0, SW_TRACK_KIND_ROTATION)->keys_count, 1);
    assert_int_equal(find_track(c, 1, SW_TRACK_KIND_ROTATION)->keys_count, 1);
    assert_int_equal(find_track(c, 2, SW_TRACK_KIND_SCALE)->keys_count, 5);
    const sw_xform arm = sample_joint(s, c, 0.33f, 1);
    sw_test_quat_near(arm.r, sw_quat_from_axis_angle(sw_vec3_make(0.0f, 0.0f, 1.0f), 0.2f), 1e-6f);
    sw_test_vec3_near(sample_joint(s, c, 0.25f, 0).t, sw_vec3_make(0.25f, 1.0f, 0.0f), 1e-6f);
    sw_clip_destroy(c, NULL);
    /* none: 3 tracks per joint, 5 keys each */
    c = record_folded(s, SW_CLIP_RECORDER_FOLD_NONE, 0.0f);
    assert_int_equal(c->tracks_count, 9);
    for (uint32_t i = 0; i < 9; ++i)
        assert_int_equal(sw_clip_tracks(c)[i].keys_count, 5);
    sw_clip_destroy(c, NULL);
    sw_skeleton_destroy(s, NULL);
}

static void test_clip_extras(void** state) {
    (void)state;
    const sw_skeleton* s = make_skeleton();
    sw_clip_recorder* rec = NULL;
    assert_int_equal(sw_clip_recorder_create(s, 4.0f, NULL, NULL, &rec, NULL), SW_RESULT_OK);
    sw_xform4 pose[1];
    for (uint32_t f = 0; f < 3; ++f) {
        motion_pose(s, f, pose);
        assert_int_equal(sw_clip_recorder_append(rec, pose, 1, NULL), SW_RESULT_OK);
    }
    const float curve[2] = {2.0f, 4.0f};
    const sw_clip_track_desc ft = {.kind = SW_TRACK_KIND_FLOAT,
                                   .name = "curve",
                                   .keys_count = 2,
                                   .rate = 1.0f,
                                   .values = curve};
    const sw_clip_event_desc ev[2] = {{0.5f, "late"}, {0.25f, "early"}};
    const sw_clip_recorder_clip cd = {.name = "recorded",
                                      .duration = 1.0f,
                                      .events = ev,
                                      .events_count = 2,
                                      .float_tracks = &ft,
                                      .float_tracks_count = 1};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, &cd, NULL, &c, NULL), SW_RESULT_OK);
    assert_string_equal(sw_clip_name(c), "recorded");
    assert_near(c->duration, 1.0f, 0.0f);
    assert_int_equal(c->float_tracks_count, 1);
    assert_string_equal(sw_clip_float_track_name(c, 0), "curve");
    assert_int_equal(c->events_count, 2);
    assert_string_equal(sw_clip_event_name(c, 0), "early");
    /* recording goes on after a build */
    motion_pose(s, 3, pose);
    assert_int_equal(sw_clip_recorder_append(rec, pose, 1, NULL), SW_RESULT_OK);
    const sw_clip* c2 = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c2, NULL), SW_RESULT_OK);
    assert_near(c2->duration, 0.75f, 0.0f);
    assert_string_equal(sw_clip_name(c2), "");
    sw_clip_destroy(c2, NULL);
    sw_clip_destroy(c, NULL);
    sw_clip_recorder_destroy(rec);
    sw_skeleton_destroy(s, NULL);
}

static void test_recorder_arguments(void** state) {
    (void)state;
    const sw_skeleton* s = make_skeleton();
    sw_clip_recorder* rec = NULL;
    sw_error err = {0};
    assert_int_equal(sw_clip_recorder_create(NULL, 30.0f, NULL, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_recorder_create(s, 0.0f, NULL, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_recorder_create(s, NAN, NULL, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_clip_recorder_options o = {.fold = (sw_clip_recorder_fold)7};
    assert_int_equal(sw_clip_recorder_create(s, 30.0f, &o, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    o = (sw_clip_recorder_options){.fold = SW_CLIP_RECORDER_FOLD_REST, .tolerance = -1.0f};
    assert_int_equal(sw_clip_recorder_create(s, 30.0f, &o, NULL, &rec, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_null(rec);
    assert_int_equal(sw_clip_recorder_create(s, 30.0f, NULL, NULL, &rec, &err), SW_RESULT_OK);
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(err.check, "frames recorded");
    sw_xform4 pose[1];
    rest_pose(s, pose);
    assert_int_equal(sw_clip_recorder_append(rec, pose, 0, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_recorder_append(rec, NULL, 1, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_clip_recorder_frames(rec), 0);
    assert_int_equal(sw_clip_recorder_frames(NULL), 0);
    /* a non-finite pose is refused by the clip builder */
    sw_xform x = sw_pose_get(pose, 1);
    x.t.y = NAN;
    sw_pose_set(pose, 1, x);
    assert_int_equal(sw_clip_recorder_append(rec, pose, 1, &err), SW_RESULT_OK);
    assert_int_equal(sw_clip_recorder_build(rec, NULL, NULL, &c, &err), SW_RESULT_BAD_DATA);
    assert_null(c);
    sw_clip_recorder_destroy(rec);
    sw_clip_recorder_destroy(NULL);
    sw_skeleton_destroy(s, NULL);
}

/* Root motion: frame 0 turns the character 90 degrees left (about +Y),
 * frames 1 and 2 each step 1 m forward (+z in the character's frame) and
 * frame 2 turns it 90 degrees more. By hand: after frame 1 the character
 * stands at x = 1 (forward turned by 90 degrees: +z -> +x), after frame 2
 * at x = 2, facing 180 degrees. */
static void test_animator_bake(void** state) {
    (void)state;
    const sw_skeleton* s = make_skeleton();
    sw_animator_bake* bake = NULL;
    assert_int_equal(sw_animator_bake_create(s, 25.0, NULL, &bake, NULL), SW_RESULT_OK);
    const sw_animator_root_motion rm[3] = {
        {{0.0f, 0.0f, 0.0f}, PI_F / 2.0f},
        {{0.0f, 0.0f, 1.0f}, 0.0f},
        {{0.0f, 0.0f, 1.0f}, PI_F / 2.0f},
    };
    sw_xform4 pose[1];
    rest_pose(s, pose);
    for (uint32_t f = 0; f < 3; ++f)
        assert_int_equal(sw_animator_bake_append(bake, pose, 1, &rm[f], NULL), SW_RESULT_OK);
    const sw_clip* c = NULL;
    assert_int_equal(sw_animator_bake_build(bake, NULL, &c, NULL), SW_RESULT_OK);
    assert_string_equal(sw_clip_name(c), "baked");
    assert_near(c->duration, 2.0f / 25.0f, 1e-7f);
    const sw_vec3 y = sw_vec3_make(0.0f, 1.0f, 0.0f);
    const float want_x[3] = {0.0f, 1.0f, 2.0f}, want_yaw[3] = {PI_F / 2.0f, PI_F / 2.0f, PI_F};
    for (uint32_t f = 0; f < 3; ++f) {
        const sw_xform root = sample_joint(s, c, (float)f / 25.0f, 0);
        /* the placement applied to the root's rest (0, 1, 0): height kept */
        sw_test_vec3_near(root.t, sw_vec3_make(want_x[f], 1.0f, 0.0f), 1e-5f);
        sw_test_quat_near(root.r, sw_quat_from_axis_angle(y, want_yaw[f]), 1e-6f);
        /* other joints as given */
        sw_test_quat_near(sample_joint(s, c, (float)f / 25.0f, 1).r,
                          sw_quat_from_axis_angle(sw_vec3_make(0.0f, 0.0f, 1.0f), PI_F / 6.0f),
                          1e-6f);
    }
    /* the caller's pose is not changed */
    sw_test_vec3_near(sw_pose_get(pose, 0).t, sw_vec3_make(0.0f, 1.0f, 0.0f), 0.0f);
    sw_clip_destroy(c, NULL);
    sw_error err = {0};
    assert_int_equal(sw_animator_bake_append(bake, pose, 1, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_animator_bake_destroy(bake);
    assert_int_equal(sw_animator_bake_create(s, 0.0, NULL, &bake, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_animator_bake_create(s, 1e300, NULL, &bake, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_null(bake);
    sw_animator_bake_destroy(NULL);
    sw_skeleton_destroy(s, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_come_back),
        cmocka_unit_test(test_hemisphere),
        cmocka_unit_test(test_folding),
        cmocka_unit_test(test_clip_extras),
        cmocka_unit_test(test_recorder_arguments),
        cmocka_unit_test(test_animator_bake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
