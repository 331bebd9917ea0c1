/* BVH reader (sinew/tools/readers/bvh.h) and the asset opener on BVH files
 * (sinew/tools/readers/asset.h): hand-made files for each feature, hostile inputs
 * (every prefix, bad numbers, limits, allocation failures) and the CMU files
 * against an independent parser and double-precision forward kinematics
 * (bvh_fk.h). */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "test_util.h"

#include <unistd.h>

#include "bvh_fk.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/writers/archive_writer.h"

/* ---- helpers ---- */

static sw_result read_str(const char* text, const sw_bvh_options* opt, sw_bvh_result* out,
                          sw_error* err) {
    return sw_bvh_read(text, strlen(text), opt, NULL, out, err);
}

/* Reads text that must be valid. */
static sw_bvh_result read_ok(const char* text, const sw_bvh_options* opt) {
    sw_bvh_result r;
    sw_error err = SW_ERROR_INIT;
    sw_result res = read_str(text, opt, &r, &err);
    if (res != SW_RESULT_OK) {
        fail_msg("sw_bvh_read: %s (check \"%s\", line %lld)", sw_result_str(res),
                 err.check ? err.check : "", (long long)err.index);
    }
    return r;
}

static const sw_clip_track* track_of(const sw_clip* c, uint32_t joint, int kind_index) {
    uint32_t t = sw_clip_joint_tracks(c, joint)[kind_index];
    return t == SW_CLIP_NO_TRACK ? NULL : &sw_clip_tracks(c)[t];
}

/* Product of axis quaternions in the listed order, in double. */
static sw_quat euler_ref(const int* axes, const double* deg, int n) {
    double q[4] = {0, 0, 0, 1};
    for (int i = 0; i < n; ++i) {
        double h = deg[i] * 3.14159265358979323846 / 360.0;
        double a[4] = {0, 0, 0, cos(h)};
        a[axes[i]] = sin(h);
        double r[4] = {q[3] * a[0] + q[0] * a[3] + q[1] * a[2] - q[2] * a[1],
                       q[3] * a[1] - q[0] * a[2] + q[1] * a[3] + q[2] * a[0],
                       q[3] * a[2] + q[0] * a[1] - q[1] * a[0] + q[2] * a[3],
                       q[3] * a[3] - q[0] * a[0] - q[1] * a[1] - q[2] * a[2]};
        memcpy(q, r, sizeof q);
    }
    return sw_quat_make((float)q[0], (float)q[1], (float)q[2], (float)q[3]);
}

static sw_quat key_quat(const sw_clip* c, const sw_clip_track* t, uint32_t k) {
    const float* v = sw_clip_track_values(c, t) + 4u * k;
    return sw_quat_make(v[0], v[1], v[2], v[3]);
}

static sw_vec3 key_vec3(const sw_clip* c, const sw_clip_track* t, uint32_t k) {
    const float* v = sw_clip_track_values(c, t) + 3u * k;
    return sw_vec3_make(v[0], v[1], v[2]);
}

/* ---- features ---- */

static void test_channel_orders(void** state) {
    (void)state;
    static const char* const axis_names = "XYZ";
    static const int orders[][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                    {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const double angle_of_axis[3] = {30.0, -50.0, 70.0};
    /* All six orders with three channels, then every order of two channels and single channels. */
    for (int n = 1; n <= 3; ++n) {
        for (int o = 0; o < 6; ++o) {
            const int* axes = orders[o];
            char text[512];
            int w =
                snprintf(text, sizeof text, "HIERARCHY\nROOT A\n{\n OFFSET 0 0 0\n CHANNELS %d", n);
            for (int i = 0; i < n; ++i) {
                w +=
                    snprintf(text + w, sizeof text - (size_t)w, " %crotation", axis_names[axes[i]]);
            }
            w += snprintf(text + w, sizeof text - (size_t)w,
                          "\n}\nMOTION\nFrames: 1\nFrame Time: 0.5\n");
            double deg[3];
            for (int i = 0; i < n; ++i) {
                deg[i] = angle_of_axis[axes[i]];
                w += snprintf(text + w, sizeof text - (size_t)w, "%s%g", i ? " " : "", deg[i]);
            }
            snprintf(text + w, sizeof text - (size_t)w, "\n");
            sw_bvh_result r = read_ok(text, NULL);
            const sw_clip_track* t = track_of(r.clip, 0, 1);
            assert_non_null(t);
            assert_int_equal(t->keys_count, 1);
            /* Tolerance: float evaluation of a product of three unit quaternions. */
            sw_test_quat_near(key_quat(r.clip, t, 0), euler_ref(axes, deg, n), 1e-6f);
            assert_int_equal(track_of(r.clip, 0, 0) == NULL, 1);
            sw_bvh_result_free(&r, NULL);
        }
    }
}

static const char* const k_two_joints =
    "HIERARCHY\n"
    "ROOT Hips\n"
    "{\n"
    "\tOFFSET 1 2 3\n"
    "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"
    "\tJOINT Spine\n"
    "\t{\n"
    "\t\tOFFSET 0 10 0\n"
    "\t\tCHANNELS 4 Yposition Xrotation Yrotation Zrotation\n"
    "\t\tJOINT Head\n"
    "\t\t{\n"
    "\t\t\tOFFSET 0 5 0.5\n"
    "\t\t\tCHANNELS 1 Zposition\n"
    "\t\t\tEnd Site\n"
    "\t\t\t{\n"
    "\t\t\t\tOFFSET 0 3 0\n"
    "\t\t\t}\n"
    "\t\t}\n"
    "\t}\n"
    "}\n"
    "MOTION\n"
    "Frames: 3\n"
    "Frame Time: 0.25\n"
    "10 20 30 0 0 0 11 0 0 0 0.5\n"
    "11 21 31 90 0 0 12 10 0 0 0.5\n"
    "12 22 32 180 0 0 13 20 0 0 0.5\n";

static void test_position_channels_any_joint(void** state) {
    (void)state;
    sw_bvh_result r = read_ok(k_two_joints, NULL);
    const sw_skeleton* s = r.skeleton;
    assert_int_equal(s->joints_count, 3);
    assert_string_equal(sw_skeleton_joint_name(s, 0), "Hips");
    assert_string_equal(sw_skeleton_joint_name(s, 1), "Spine");
    assert_string_equal(sw_skeleton_joint_name(s, 2), "Head");
    assert_int_equal(sw_skeleton_parents(s)[1], 0);
    assert_int_equal(sw_skeleton_parents(s)[2], 1);
    /* Rest: OFFSETs, identity rotation, unit scale. */
    sw_xform rest = sw_pose_get(sw_skeleton_rest_pose(s), 1);
    sw_test_vec3_near(rest.t, sw_vec3_make(0, 10, 0), 0.0f);
    sw_test_quat_near(rest.r, sw_quat_identity(), 0.0f);
    const sw_clip* c = r.clip;
    /* Root: positions replace the OFFSET entirely. */
    const sw_clip_track* t0 = track_of(c, 0, 0);
    assert_non_null(t0);
    sw_test_vec3_near(key_vec3(c, t0, 2), sw_vec3_make(12, 22, 32), 0.0f);
    /* Spine: Yposition replaces offset y, x and z stay from OFFSET. */
    const sw_clip_track* t1 = track_of(c, 1, 0);
    assert_non_null(t1);
    sw_test_vec3_near(key_vec3(c, t1, 0), sw_vec3_make(0, 11, 0), 0.0f);
    sw_test_vec3_near(key_vec3(c, t1, 2), sw_vec3_make(0, 13, 0), 0.0f);
    const sw_clip_track* r1 = track_of(c, 1, 1);
    assert_non_null(r1);
    const int xyz[3] = {0, 1, 2};
    const double d1[3] = {10, 0, 0};
    sw_test_quat_near(key_quat(c, r1, 1), euler_ref(xyz, d1, 3), 1e-6f);
    /* Head: Zposition constant 0.5 equals the OFFSET z: no track. */
    assert_null(track_of(c, 2, 0));
    assert_null(track_of(c, 2, 1));
    assert_null(track_of(c, 0, 2));
    /* Root rotation ZXY with Z = 0, 90, 180 degrees. */
    const sw_clip_track* r0 = track_of(c, 0, 1);
    assert_non_null(r0);
    const int zxy[3] = {2, 0, 1};
    const double d0[3] = {180, 0, 0};
    sw_test_quat_near(key_quat(c, r0, 2), euler_ref(zxy, d0, 3), 1e-6f);
    /* Timing: uniform keys at 1 / Frame Time, linear, duration (frames - 1) * time. */
    assert_int_equal(t0->uniform, 1);
    assert_int_equal(t0->interp, SW_INTERP_LINEAR);
    assert_near(t0->rate, 4.0, 0.0);
    assert_near(t0->start, 0.0, 0.0);
    assert_near(c->duration, 0.5, 1e-7);
    assert_string_equal(sw_clip_name(c), "motion");
    assert_int_equal(r.frames_declared, 3);
    assert_int_equal(r.frames_read, 3);
    assert_near(r.frame_time, 0.25, 0.0);
    assert_int_equal(r.warnings, 0);
    assert_string_equal(r.warning, "");
    sw_bvh_result_free(&r, NULL);
    assert_null(r.skeleton);
    assert_null(r.clip);
    sw_bvh_result_free(&r, NULL); /* zeroed: no-op */
}

static void test_end_sites(void** state) {
    (void)state;
    sw_bvh_options opt = {0.0f, true, "take"};
    sw_bvh_result r = read_ok(k_two_joints, &opt);
    assert_int_equal(r.skeleton->joints_count, 4);
    assert_string_equal(sw_skeleton_joint_name(r.skeleton, 3), "Head_end");
    assert_int_equal(sw_skeleton_parents(r.skeleton)[3], 2);
    sw_xform rest = sw_pose_get(sw_skeleton_rest_pose(r.skeleton), 3);
    sw_test_vec3_near(rest.t, sw_vec3_make(0, 3, 0), 0.0f);
    assert_int_equal(r.clip->joints_count, 4);
    assert_string_equal(sw_clip_name(r.clip), "take");
    assert_null(track_of(r.clip, 3, 0));
    assert_null(track_of(r.clip, 3, 1));
    sw_bvh_result_free(&r, NULL);

    /* Names are made unique: a joint already called "A_end" and two End Sites of A. */
    const char* text = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n"
                       "End Site\n{\nOFFSET 1 0 0\n}\n"
                       "JOINT A_end\n{\nOFFSET 0 1 0\n}\n"
                       "End Site\n{\nOFFSET 2 0 0\n}\n"
                       "}\nMOTION\nFrames: 1\nFrame Time: 1\n5\n";
    r = read_ok(text, &opt);
    assert_int_equal(r.skeleton->joints_count, 4);
    assert_string_equal(sw_skeleton_joint_name(r.skeleton, 1), "A_end2");
    assert_string_equal(sw_skeleton_joint_name(r.skeleton, 2), "A_end");
    assert_string_equal(sw_skeleton_joint_name(r.skeleton, 3), "A_end3");
    sw_bvh_result_free(&r, NULL);
    /* Without End Sites the same file has two joints. */
    r = read_ok(text, NULL);
    assert_int_equal(r.skeleton->joints_count, 2);
    sw_bvh_result_free(&r, NULL);
}

static void test_scale(void** state) {
    (void)state;
    sw_bvh_options opt = {0.01f, true, NULL};
    sw_bvh_result a = read_ok(k_two_joints, NULL);
    sw_bvh_result b = read_ok(k_two_joints, &opt);
    for (uint32_t j = 0; j < 3; ++j) {
        sw_xform ra = sw_pose_get(sw_skeleton_rest_pose(a.skeleton), j);
        sw_xform rb = sw_pose_get(sw_skeleton_rest_pose(b.skeleton), j);
        sw_test_vec3_near(rb.t, sw_vec3_scale(ra.t, 0.01f), 1e-7f);
    }
    sw_xform end = sw_pose_get(sw_skeleton_rest_pose(b.skeleton), 3);
    sw_test_vec3_near(end.t, sw_vec3_make(0, 0.03f, 0), 1e-7f);
    for (uint32_t k = 0; k < 3; ++k) {
        sw_test_vec3_near(key_vec3(b.clip, track_of(b.clip, 0, 0), k),
                          sw_vec3_scale(key_vec3(a.clip, track_of(a.clip, 0, 0), k), 0.01f), 1e-6f);
        /* Rotations do not scale. */
        sw_test_quat_near(key_quat(b.clip, track_of(b.clip, 1, 1), k),
                          key_quat(a.clip, track_of(a.clip, 1, 1), k), 0.0f);
    }
    sw_bvh_result_free(&a, NULL);
    sw_bvh_result_free(&b, NULL);
    /* Negative or non-finite scale is refused. */
    sw_bvh_result r;
    sw_error err;
    opt.scale = -1.0f;
    assert_int_equal(read_str(k_two_joints, &opt, &r, &err), SW_RESULT_INVALID_ARGUMENT);
    opt.scale = NAN;
    assert_int_equal(read_str(k_two_joints, &opt, &r, &err), SW_RESULT_INVALID_ARGUMENT);
}

/* Replaces every "\n" by `nl`. */
static char* with_newlines(const char* text, const char* nl) {
    size_t n = strlen(text), k = strlen(nl), lines = 0;
    for (size_t i = 0; i < n; ++i)
        lines += text[i] == '\n';
    char* out = (char*)malloc(n + lines * k + 1);
    char* w = out;
    for (size_t i = 0; i < n; ++i) {
        if (text[i] == '\n') {
            memcpy(w, nl, k);
            w += k;
        } else {
            *w++ = text[i];
        }
    }
    *w = '\0';
    return out;
}

static void test_line_endings(void** state) {
    (void)state;
    sw_bvh_result lf = read_ok(k_two_joints, NULL);
    const char* endings[2] = {"\r\n", "\r"};
    for (int e = 0; e < 2; ++e) {
        char* text = with_newlines(k_two_joints, endings[e]);
        sw_bvh_result r = read_ok(text, NULL);
        assert_int_equal(r.skeleton->size, lf.skeleton->size);
        assert_memory_equal(r.skeleton, lf.skeleton, lf.skeleton->size);
        assert_int_equal(r.clip->size, lf.clip->size);
        assert_memory_equal(r.clip, lf.clip, lf.clip->size);
        sw_bvh_result_free(&r, NULL);
        /* Lines are still counted right: break the second frame line (line 25). */
        char* bad = with_newlines(k_two_joints, endings[e]);
        char* p = strstr(bad, "11 21 31");
        p[2] = '\0';
        sw_error err;
        assert_int_equal(sw_bvh_read(bad, strlen(bad), NULL, NULL, &r, &err), SW_RESULT_PARSE);
        assert_int_equal(err.index, 25);
        free(bad);
        free(text);
    }
    sw_bvh_result_free(&lf, NULL);
}

static void test_frame_count_mismatch(void** state) {
    (void)state;
    const char* base = "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Zrotation\n}\n"
                       "MOTION\nFrames: %d\nFrame Time: 0.1\n1 2\n\n3 4\n   \n";
    char text[512];
    snprintf(text, sizeof text, base, 3);
    sw_bvh_result r = read_ok(text, NULL);
    assert_int_equal(r.frames_declared, 3);
    assert_int_equal(r.frames_read, 2);
    assert_int_equal(r.warnings, SW_BVH_WARNING_FRAME_COUNT);
    assert_string_equal(r.warning, "declared 3 frames, found 2");
    assert_int_equal(track_of(r.clip, 0, 0)->keys_count, 2);
    assert_near(r.clip->duration, 0.1, 1e-7);
    sw_bvh_result_free(&r, NULL);
    snprintf(text, sizeof text, base, 1);
    r = read_ok(text, NULL);
    assert_int_equal(r.frames_read, 2);
    assert_string_equal(r.warning, "declared 1 frames, found 2");
    sw_bvh_result_free(&r, NULL);
    snprintf(text, sizeof text, base, 2);
    r = read_ok(text, NULL);
    assert_int_equal(r.warnings, 0);
    sw_bvh_result_free(&r, NULL);
}

static void test_constant_tracks(void** state) {
    (void)state;
    const char* text =
        "HIERARCHY\nROOT A\n{\nOFFSET 1 2 3\nCHANNELS 3 Xposition Yposition Zposition\n"
        "JOINT B\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
        "JOINT C\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
        "JOINT D\n{\nOFFSET 0 1 0\nCHANNELS 2 Yposition Xrotation\n}\n}\n}\n}\n"
        "MOTION\nFrames: 2\nFrame Time: 0.1\n"
        "1 2 3 0 0 0 5 5 5 7 0\n"
        "1 2 3 0 0 0 5 5 5 7 0\n";
    sw_bvh_result r = read_ok(text, NULL);
    /* A: positions constant and equal to the OFFSET; B: rotation zero; C:
     * constant but not rest; D: position constant but not the OFFSET y,
     * rotation zero. */
    assert_null(track_of(r.clip, 0, 0));
    assert_null(track_of(r.clip, 1, 1));
    assert_non_null(track_of(r.clip, 2, 1));
    assert_non_null(track_of(r.clip, 3, 0));
    assert_null(track_of(r.clip, 3, 1));
    assert_int_equal(r.clip->tracks_count, 2);
    sw_bvh_result_free(&r, NULL);
}

static void test_sign_continuity(void** state) {
    (void)state;
    char text[1024];
    int w = snprintf(text, sizeof text,
                     "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation "
                     "Yrotation\n}\nMOTION\nFrames: 12\nFrame Time: 0.1\n");
    for (int f = 0; f < 12; ++f) {
        w += snprintf(text + w, sizeof text - (size_t)w, "%d 10 -20\n", f * 70 - 400);
    }
    sw_bvh_result r = read_ok(text, NULL);
    const sw_clip_track* t = track_of(r.clip, 0, 1);
    assert_non_null(t);
    const int zxy[3] = {2, 0, 1};
    for (uint32_t k = 0; k < 12; ++k) {
        const double deg[3] = {(double)k * 70 - 400, 10, -20};
        sw_test_quat_near(key_quat(r.clip, t, k), euler_ref(zxy, deg, 3), 1e-6f);
        if (k > 0) {
            assert_true(sw_quat_dot(key_quat(r.clip, t, k - 1), key_quat(r.clip, t, k)) >= 0.0f);
        }
    }
    sw_bvh_result_free(&r, NULL);
}

static void test_not_nul_terminated(void** state) {
    (void)state;
    /* An exact-size heap copy: reading past the end shows under ASan. */
    size_t n = strlen(k_two_joints);
    char* copy = (char*)malloc(n);
    memcpy(copy, k_two_joints, n);
    sw_bvh_result r;
    sw_error err;
    assert_int_equal(sw_bvh_read(copy, n, NULL, NULL, &r, &err), SW_RESULT_OK);
    assert_int_equal(r.frames_read, 3);
    sw_bvh_result_free(&r, NULL);
    /* Without the final line break the last frame still counts. */
    assert_int_equal(sw_bvh_read(copy, n - 1, NULL, NULL, &r, &err), SW_RESULT_OK);
    assert_int_equal(r.frames_read, 3);
    sw_bvh_result_free(&r, NULL);
    free(copy);
}

/* ---- hostile input ---- */

typedef struct bad_case {
    const char* text;
    sw_result result;
    const char* check; /* substring of err.check */
    int64_t line;
} bad_case;

#define HDR "HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xposition Zrotation\n}\n"
#define MOT "MOTION\nFrames: 1\nFrame Time: 0.1\n"

static void test_malformed(void** state) {
    (void)state;
    static const bad_case cases[] = {
        {"", SW_RESULT_PARSE, "HIERARCHY", 1},
        {"hierarchy\n", SW_RESULT_PARSE, "HIERARCHY", 1},
        {"HIERARCHY\n", SW_RESULT_PARSE, "ROOT", 2},
        {"HIERARCHY\nROOT\n{\n", SW_RESULT_PARSE, "joint name", 2},
        {"HIERARCHY\nROOT A\nOFFSET 0 0 0\n", SW_RESULT_PARSE, "'{'", 3},
        {"HIERARCHY\nROOT A\n{\nCHANNELS 1 Xrotation\n", SW_RESULT_PARSE, "OFFSET", 4},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0\n}\n", SW_RESULT_PARSE, "OFFSET x y z", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 1.2.3\n}\n", SW_RESULT_PARSE, "OFFSET x y z", 4},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 nan\n}\n", SW_RESULT_BAD_DATA, "finite", 4},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 -inf 0\n}\n", SW_RESULT_BAD_DATA, "finite", 4},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 1e999 0\n}\n", SW_RESULT_BAD_DATA, "finite", 4},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 7 Xrotation\n", SW_RESULT_LIMIT, "at most 6",
         5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS x\n", SW_RESULT_PARSE, "CHANNELS count", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 2 Xrotation Xrotation\n}\n" MOT "0 0\n",
         SW_RESULT_BAD_DATA, "once", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation\nJOINT B\n",
         SW_RESULT_PARSE, "channel name", 6},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nCHANNELS 1 Wrotation\n", SW_RESULT_PARSE,
         "channel name", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n" MOT "0\n", SW_RESULT_PARSE, "JOINT, End Site", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nEnd Site\n{\nOFFSET 0 0 0\n", SW_RESULT_PARSE,
         "closing End Site", 8},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nEnd Zone\n", SW_RESULT_PARSE, "Site", 5},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\nJOINT A\n{\nOFFSET 0 0 0\n}\n}\n" MOT "\n",
         SW_RESULT_BAD_DATA, "unique joint names", 5},
        {HDR, SW_RESULT_PARSE, "ROOT or MOTION", 7},
        {HDR "MOTION\n", SW_RESULT_PARSE, "Frames:", 8},
        {HDR "MOTION\nFrames: abc\n", SW_RESULT_PARSE, "Frames: count", 8},
        {HDR "MOTION\nFrames: -1\n", SW_RESULT_PARSE, "Frames: count", 8},
        {HDR "MOTION\nFrames: 99999999999\n", SW_RESULT_LIMIT, "SW_BVH_MAX_FRAMES", 8},
        {HDR "MOTION\nFrames: 1\nFrame\n", SW_RESULT_PARSE, "Frame Time", 10},
        {HDR "MOTION\nFrames: 1\nFrame Time: 0\n1 2\n", SW_RESULT_BAD_DATA, "Frame Time > 0", 9},
        {HDR "MOTION\nFrames: 1\nFrame Time: -0.5\n1 2\n", SW_RESULT_BAD_DATA, "Frame Time > 0", 9},
        {HDR "MOTION\nFrames: 1\nFrame Time: 1e-300\n1 2\n", SW_RESULT_BAD_DATA, "Frame Time > 0",
         9},
        {HDR "MOTION\nFrames: 1\nFrame Time: NaN\n1 2\n", SW_RESULT_BAD_DATA, "finite", 9},
        {HDR "MOTION\nFrames: 1\nFrame Time: 0.1 1 2\n", SW_RESULT_PARSE, "line break", 9},
        {HDR MOT, SW_RESULT_BAD_DATA, "at least one frame", 10},
        {HDR MOT "\n \n", SW_RESULT_BAD_DATA, "at least one frame", 12},
        {HDR MOT "1\n", SW_RESULT_PARSE, "one value per channel", 10},
        {HDR MOT "1 2\n3 4 5\n", SW_RESULT_PARSE, "one value per channel", 11},
        {HDR MOT "1 2\nx 4\n", SW_RESULT_PARSE, "number on a frame line", 11},
        {HDR MOT "1 2\n3 nan\n", SW_RESULT_BAD_DATA, "finite", 11},
        {HDR MOT "1 2\n3 -Infinity\n", SW_RESULT_BAD_DATA, "finite", 11},
        {HDR MOT "1 2\n3 1e-\n", SW_RESULT_PARSE, "number", 11},
        {HDR MOT "1 2\n3 +\n", SW_RESULT_PARSE, "number", 11},
        {HDR MOT "1 2\n1e39 3\n", SW_RESULT_BAD_DATA, "float range", 11},
        {"HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n}\n" MOT "\n", SW_RESULT_BAD_DATA,
         "at least one channel", 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const bad_case* c = &cases[i];
        sw_bvh_result r;
        memset(&r, 0xAB, sizeof r);
        sw_error err = SW_ERROR_INIT;
        sw_result res = read_str(c->text, NULL, &r, &err);
        if (res != c->result) {
            fail_msg("case %zu: %s, expected %s (check \"%s\" line %lld)", i, sw_result_str(res),
                     sw_result_str(c->result), err.check ? err.check : "", (long long)err.index);
        }
        assert_int_equal(err.result, c->result);
        assert_non_null(err.check);
        if (c->check && !strstr(err.check, c->check)) {
            fail_msg("case %zu: check \"%s\" does not name \"%s\"", i, err.check, c->check);
        }
        if (c->line != -2 && err.index != c->line) {
            fail_msg("case %zu: line %lld, expected %lld", i, (long long)err.index,
                     (long long)c->line);
        }
        assert_true(err.offset <= strlen(c->text));
        /* On failure *out holds nothing to free. */
        assert_null(r.skeleton);
        assert_null(r.clip);
    }
    /* Arguments. */
    sw_bvh_result r;
    sw_error err;
    assert_int_equal(sw_bvh_read(k_two_joints, 10, NULL, NULL, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_bvh_read(NULL, 10, NULL, NULL, &r, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_bvh_read(NULL, 0, NULL, NULL, &r, NULL), SW_RESULT_PARSE);
}

/* Every prefix of a valid file either fails cleanly (PARSE or BAD_DATA, a
 * check, a line within the prefix) or is itself a complete file: the
 * independent parser reads the same frames from it. */
static void test_every_prefix(void** state) {
    (void)state;
    const size_t n = strlen(k_two_joints);
    const size_t motion = (size_t)(strstr(k_two_joints, "10 20 30") - k_two_joints);
    uint32_t ok = 0;
    for (size_t len = 0; len <= n; ++len) {
        char* copy = (char*)malloc(len + 1);
        memcpy(copy, k_two_joints, len);
        copy[len] = '\0';
        sw_bvh_result r;
        sw_error err = SW_ERROR_INIT;
        sw_result res = sw_bvh_read(copy, len, NULL, NULL, &r, &err);
        if (res == SW_RESULT_OK) {
            ++ok;
            assert_true(len > motion);
            fk_bvh ref;
            assert_int_equal(fk_parse(copy, &ref), 0);
            assert_int_equal((int)r.frames_read, ref.frames);
            assert_int_equal(ref.frames * ref.channels, (int)(r.frames_read * 11u));
            assert_int_equal(r.warnings != 0, ref.frames != 3);
            /* The root translation track holds the file's numbers. */
            const sw_clip_track* t = track_of(r.clip, 0, 0);
            for (int f = 0; f < ref.frames; ++f) {
                sw_vec3 v = key_vec3(r.clip, t, (uint32_t)f);
                assert_near(v.x, ref.data[f * 11 + 0], 1e-6);
                assert_near(v.z, ref.data[f * 11 + 2], 1e-6);
            }
            fk_free(&ref);
            sw_bvh_result_free(&r, NULL);
        } else {
            if (res != SW_RESULT_PARSE && res != SW_RESULT_BAD_DATA) {
                fail_msg("prefix %zu: %s", len, sw_result_str(res));
            }
            assert_non_null(err.check);
            assert_true(err.index >= 1);
            assert_true(err.offset <= len);
        }
        free(copy);
    }
    /* Prefixes ending inside the first frame line's last number, or after it. */
    assert_true(ok >= 3);
    print_message("every prefix: %zu prefixes, %u read as complete files\n", n + 1, ok);
}

/* Finite OFFSETs whose sum passes float (3e38 twice) are refused: the rest
 * pose would sample to infinities. */
static void test_offsets_overflow(void** state) {
    (void)state;
    const char* text = "HIERARCHY\nROOT Hips\n{\n OFFSET 3e38 0 0\n CHANNELS 3 Zrotation Xrotation "
                       "Yrotation\n JOINT Spine\n {\n  OFFSET 3e38 0 0\n  CHANNELS 3 Zrotation "
                       "Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\n"
                       "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0\n";
    sw_bvh_result r;
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(read_str(text, NULL, &r, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "rest pose finite in model space");
}

static void test_joint_limit(void** state) {
    (void)state;
    /* 1025 nested joints: LIMIT at the 1025th, before any building. */
    size_t cap = 1100u * 40u + 256u;
    char* text = (char*)malloc(cap);
    size_t w = (size_t)snprintf(text, cap, "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\n");
    for (int j = 1; j <= 1024; ++j) {
        w += (size_t)snprintf(text + w, cap - w, "JOINT J%d\n{\nOFFSET 0 0 0\n", j);
    }
    sw_bvh_result r;
    sw_error err;
    assert_int_equal(sw_bvh_read(text, w, NULL, NULL, &r, &err), SW_RESULT_LIMIT);
    assert_string_equal(err.check, "joints <= SW_SKELETON_MAX_JOINTS");
    assert_int_equal(err.index, 2 + 3 * 1024);
    /* 1024 joints with End Sites kept would make more than 1024 joints. */
    w = (size_t)snprintf(text, cap, "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 1 Xrotation\n");
    for (int j = 1; j < 1024; ++j) {
        w += (size_t)snprintf(text + w, cap - w, "JOINT J%d\n{\nOFFSET 0 0 0\n", j);
    }
    w += (size_t)snprintf(text + w, cap - w, "End Site\n{\nOFFSET 0 1 0\n}\n");
    for (int j = 0; j < 1024; ++j)
        w += (size_t)snprintf(text + w, cap - w, "}\n");
    w += (size_t)snprintf(text + w, cap - w, "MOTION\nFrames: 1\nFrame Time: 1\n3\n");
    assert_int_equal(sw_bvh_read(text, w, NULL, NULL, &r, &err), SW_RESULT_OK);
    assert_int_equal(r.skeleton->joints_count, 1024);
    sw_bvh_result_free(&r, NULL);
    sw_bvh_options opt = {0.0f, true, NULL};
    assert_int_equal(sw_bvh_read(text, w, &opt, NULL, &r, &err), SW_RESULT_LIMIT);
    free(text);
}

/* Allocator failing at the n-th allocation, counting live blocks. */
typedef struct fail_alloc {
    int countdown; /* allocations left before failing; < 0: never */
    int live;
    int calls;
} fail_alloc;

static void* fail_alloc_fn(void* user, size_t size, size_t align) {
    fail_alloc* f = (fail_alloc*)user;
    ++f->calls;
    if (f->countdown == 0) return NULL;
    if (f->countdown > 0) --f->countdown;
    size_t rounded = (size + align - 1) & ~(align - 1);
    void* p = aligned_alloc(align, rounded);
    if (p) ++f->live;
    return p;
}

static void fail_free_fn(void* user, void* ptr, size_t size) {
    (void)size;
    fail_alloc* f = (fail_alloc*)user;
    --f->live;
    free(ptr);
}

static void test_allocation_failures(void** state) {
    (void)state;
    fail_alloc fa = {-1, 0, 0};
    sw_allocator a = {fail_alloc_fn, fail_free_fn, &fa};
    sw_bvh_result r;
    sw_error err;
    sw_bvh_options opt = {0.0f, true, NULL};
    assert_int_equal(sw_bvh_read(k_two_joints, strlen(k_two_joints), &opt, &a, &r, &err),
                     SW_RESULT_OK);
    const int total = fa.calls;
    assert_int_equal(fa.live, 2); /* skeleton and clip */
    sw_bvh_result_free(&r, &a);
    assert_int_equal(fa.live, 0);
    for (int n = 0; n < total; ++n) {
        fa.countdown = n;
        fa.calls = 0;
        sw_result res = sw_bvh_read(k_two_joints, strlen(k_two_joints), &opt, &a, &r, &err);
        assert_int_equal(res, SW_RESULT_OUT_OF_MEMORY);
        assert_non_null(err.check);
        assert_int_equal(fa.live, 0);
    }
}

/* ---- real data: CMU files against the independent parser and FK ---- */

/* Max |sinew model position - FK position| over all joints at time t, with
 * the reference between frames f and f + 1 at alpha. */
static double compare_pose(const fk_bvh* ref, const sw_skeleton* s, const sw_clip* c, float t,
                           int f, double alpha, bool end_sites) {
    sw_xform4* local = (sw_xform4*)aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)aligned_alloc(16, s->joints_count * sizeof(sw_mat4));
    double* pos = (double*)malloc((size_t)ref->count * 3 * sizeof(double));
    sw_sample_job sj = {
        .clip = c, .skeleton = s, .time = t, .out = local, .out_count = s->packets_count};
    assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
    sw_local_to_model_job lj = {.skeleton = s,
                                .local = local,
                                .local_count = s->packets_count,
                                .out = model,
                                .out_count = s->joints_count};
    assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
    fk_pose(ref, f, alpha, 1.0, pos, NULL);
    double worst = 0.0;
    uint32_t j = 0;
    for (int k = 0; k < ref->count; ++k) {
        if (ref->joints[k].end_site && !end_sites) continue;
        if (!ref->joints[k].end_site) {
            assert_string_equal(sw_skeleton_joint_name(s, j), ref->joints[k].name);
        }
        for (int a = 0; a < 3; ++a) {
            double d = fabs((double)model[j].m[12 + a] - pos[k * 3 + a]);
            if (d > worst) worst = d;
        }
        ++j;
    }
    assert_int_equal(j, s->joints_count);
    free(pos);
    free(model);
    free(local);
    return worst;
}

static void check_cmu(const char* rel, bool end_sites) {
    char path[512];
    if (!sw_test_model_path(path, sizeof path, rel)) return;
    size_t size = 0;
    char* text = fk_read_text(path, &size);
    assert_non_null(text);
    fk_bvh ref;
    assert_int_equal(fk_parse(text, &ref), 0);
    sw_bvh_options opt = {0.0f, end_sites, NULL};
    sw_bvh_result r;
    sw_error err;
    assert_int_equal(sw_bvh_read(text, size, &opt, NULL, &r, &err), SW_RESULT_OK);
    assert_int_equal((int)r.frames_read, ref.frames);
    assert_int_equal((int)r.frames_declared, ref.frames_declared);
    assert_int_equal(r.warnings, 0);
    int joints = 0;
    for (int k = 0; k < ref.count; ++k)
        joints += !ref.joints[k].end_site || end_sites;
    assert_int_equal((int)r.skeleton->joints_count, joints);
    const float rate = (float)(1.0 / (double)r.frame_time);
    const int last = ref.frames - 1;
    const int frames[] = {0, 1, 500, 1000, last - 1, last};
    double worst = 0.0;
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; ++i) {
        const int f = frames[i];
        double d = compare_pose(&ref, r.skeleton, r.clip, (float)f / rate, f, 0.0, end_sites);
        if (d > worst) worst = d;
    }
    /* Between frames: the reference slerps each joint's rotation and lerps
     * translations at the fraction between the two keys' float times (what
     * the clip holds; float time alone moves the fraction by ~5e-4 late in
     * a 37 s clip). */
    double worst_mid = 0.0;
    const double fractions[] = {0.25, 0.5, 0.8};
    const int mids[] = {0, 733, 1999, last - 1};
    for (size_t i = 0; i < sizeof mids / sizeof mids[0]; ++i) {
        for (size_t k = 0; k < 3; ++k) {
            const float t = ((float)mids[i] + (float)fractions[k]) / rate;
            const float t0 = (float)mids[i] / rate, t1 = (float)(mids[i] + 1) / rate;
            const double alpha = ((double)t - (double)t0) / ((double)t1 - (double)t0);
            double d = compare_pose(&ref, r.skeleton, r.clip, t, mids[i], alpha, end_sites);
            if (d > worst_mid) worst_mid = d;
        }
    }
    print_message("%s%s: %d frames, %d joints; max FK deviation %.3g at frames, %.3g between "
                  "frames (file units)\n",
                  rel, end_sites ? " (End Sites)" : "", ref.frames, joints, worst, worst_mid);
    assert_true(worst <= 1e-4);
    assert_true(worst_mid <= 1e-4);
    sw_bvh_result_free(&r, NULL);
    fk_free(&ref);
    free(text);
}

static void test_cmu_01_01(void** state) {
    (void)state;
    check_cmu("BVH/01_01.bvh", false);
    check_cmu("BVH/01_01.bvh", true);
}

static void test_cmu_01_03(void** state) {
    (void)state;
    check_cmu("BVH/01_03.bvh", false);
}

static void test_boxing_frame_count(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/Boxing_Toes.bvh")) return;
    size_t size = 0;
    char* text = fk_read_text(path, &size);
    assert_non_null(text);
    sw_bvh_result r;
    sw_error err;
    assert_int_equal(sw_bvh_read(text, size, NULL, NULL, &r, &err), SW_RESULT_OK);
    assert_int_equal(r.frames_declared, 3069);
    assert_int_equal(r.frames_read, 3070);
    assert_int_equal(r.warnings & SW_BVH_WARNING_FRAME_COUNT, SW_BVH_WARNING_FRAME_COUNT);
    assert_string_equal(r.warning, "declared 3069 frames, found 3070");
    assert_int_equal(r.skeleton->joints_count, 21);
    assert_near(r.clip->duration, 3069 * 0.01, 1e-3);
    /* ZXY channels: FK of the last frame matches the independent reference. */
    fk_bvh ref;
    assert_int_equal(fk_parse(text, &ref), 0);
    assert_int_equal(ref.frames, 3070);
    const float rate = (float)(1.0 / (double)r.frame_time);
    double d = compare_pose(&ref, r.skeleton, r.clip, 3069.0f / rate, 3069, 0.0, false);
    double d2 = compare_pose(&ref, r.skeleton, r.clip, 1234.0f / rate, 1234, 0.0, false);
    print_message("Boxing_Toes.bvh: max FK deviation %.3g, %.3g (file units)\n", d, d2);
    assert_true(d <= 1e-3 && d2 <= 1e-3);
    fk_free(&ref);
    sw_bvh_result_free(&r, NULL);
    free(text);
}

/* Hand-made files in tests/data: every frame and a point between frames
 * against the independent FK, with and without End Sites. */
static void test_data_files(void** state) {
    (void)state;
    static const struct {
        const char* name;
        int frames_declared, frames;
        uint32_t joints, end_sites;
    } files[] = {
        {"mixed_orders.bvh", 5, 5, 7, 3},
        {"crlf_two_roots.bvh", 3, 3, 4, 1},
        {"frame_count_short.bvh", 5, 3, 2, 1},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", SINEW_TEST_DATA, files[i].name);
        size_t size = 0;
        char* text = fk_read_text(path, &size);
        assert_non_null(text);
        fk_bvh ref;
        assert_int_equal(fk_parse(text, &ref), 0);
        for (int es = 0; es < 2; ++es) {
            sw_bvh_options opt = {0.0f, es == 1, NULL};
            sw_bvh_result r;
            sw_error err;
            assert_int_equal(sw_bvh_read(text, size, &opt, NULL, &r, &err), SW_RESULT_OK);
            assert_int_equal((int)r.frames_declared, files[i].frames_declared);
            assert_int_equal((int)r.frames_read, files[i].frames);
            assert_int_equal(r.warnings != 0, files[i].frames != files[i].frames_declared);
            assert_int_equal(r.skeleton->joints_count,
                             files[i].joints + (es ? files[i].end_sites : 0u));
            const float rate = (float)(1.0 / (double)r.frame_time);
            double worst = 0.0;
            for (int f = 0; f < ref.frames; ++f) {
                double d = compare_pose(&ref, r.skeleton, r.clip, (float)f / rate, f, 0.0, es);
                if (d > worst) worst = d;
                if (f + 1 < ref.frames) {
                    const float t = ((float)f + 0.3f) / rate;
                    const float t0 = (float)f / rate, t1 = (float)(f + 1) / rate;
                    const double alpha = ((double)t - (double)t0) / ((double)t1 - (double)t0);
                    d = compare_pose(&ref, r.skeleton, r.clip, t, f, alpha, es);
                    if (d > worst) worst = d;
                }
            }
            if (!(worst <= 1e-4)) fail_msg("%s: max FK deviation %.3g", files[i].name, worst);
            sw_bvh_result_free(&r, NULL);
        }
        fk_free(&ref);
        free(text);
    }
}

/* ---- asset opener on BVH and unknown files ---- */

static void test_asset_open(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/Boxing_Toes.bvh")) return;
    sw_asset a;
    sw_error err;
    sw_asset_options opt = {.scale = 0.01f, .end_sites = true};
    assert_int_equal(sw_asset_open(path, &opt, &a, &err), SW_RESULT_OK);
    assert_int_equal(a.format, SW_ASSET_FORMAT_BVH);
    assert_int_equal(a.skeleton->joints_count, 26);
    assert_int_equal(a.clips_count, 1);
    assert_int_equal(a.clips[0]->joints_count, 26);
    assert_string_equal(a.warning, "declared 3069 frames, found 3070");
    assert_true(a.file_size > 1000000u);
    assert_int_equal(sw_asset_find_clip(&a, "motion"), 0);
    assert_int_equal(sw_asset_find_clip(&a, "0"), 0);
    assert_int_equal(sw_asset_find_clip(&a, "1"), -1);
    assert_int_equal(sw_asset_find_clip(&a, "walk"), -1);
    assert_int_equal(sw_asset_find_clip(&a, ""), -1);
    sw_asset_free(&a);
    assert_null(a.skeleton);
    sw_asset_free(&a);

    assert_int_equal(sw_asset_open("/nonexistent/file.bvh", NULL, &a, &err), SW_RESULT_IO);
    assert_string_equal(err.check, "open file");
    opt.scale = -2.0f;
    assert_int_equal(sw_asset_open(path, &opt, &a, &err), SW_RESULT_LIMIT);
    /* Unknown content, and a BVH that fails keeps its format for the report. */
    char tmp[] = "/tmp/sinew_test_bvh_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    FILE* f = fdopen(fd, "wb");
    fputs("hello", f);
    fclose(f);
    assert_int_equal(sw_asset_open(tmp, NULL, &a, &err), SW_RESULT_PARSE);
    assert_string_equal(err.check, "known file format");
    f = fopen(tmp, "wb");
    fputs("\xEF\xBB\xBF  HIERARCHY\nROOT A\n{\nOFFSET 0 0 0\n", f);
    fclose(f);
    assert_int_equal(sw_asset_open(tmp, NULL, &a, &err), SW_RESULT_PARSE);
    assert_int_equal(a.format, SW_ASSET_FORMAT_BVH);
    assert_int_equal(err.index, 5);
    remove(tmp);
}

/* An archive with two skeletons: the asset exposes skeleton 0 and only its clips. */
static void test_asset_open_archive(void** state) {
    (void)state;
    sw_bvh_options o1 = {0.0f, false, "first"};
    sw_bvh_options o2 = {0.0f, true, "second"};
    sw_bvh_options o3 = {2.0f, false, "third"};
    sw_bvh_result a = read_ok(k_two_joints, &o1);
    sw_bvh_result b = read_ok(k_two_joints, &o2);
    sw_bvh_result c = read_ok(k_two_joints, &o3);
    const sw_skeleton* skeletons[2] = {b.skeleton, a.skeleton};
    const sw_clip* clips[3] = {a.clip, b.clip, c.clip};
    const uint32_t links[3] = {1, 0, 1};
    sw_archive_contents contents = {.skeletons = skeletons,
                                    .skeletons_count = 2,
                                    .clips = clips,
                                    .clips_count = 3,
                                    .clip_skeletons = links};
    char tmp[] = "/tmp/sinew_test_asset_XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    sw_error err;
    assert_int_equal(sw_archive_write_file(&contents, tmp, &err), SW_RESULT_OK);
    sw_asset asset;
    assert_int_equal(sw_asset_open(tmp, NULL, &asset, &err), SW_RESULT_OK);
    assert_int_equal(asset.format, SW_ASSET_FORMAT_SINEW);
    assert_int_equal(asset.skeleton->joints_count, 4);
    assert_int_equal(asset.clips_count, 1);
    assert_string_equal(sw_clip_name(asset.clips[0]), "second");
    assert_int_equal(sw_asset_find_clip(&asset, "second"), 0);
    assert_int_equal(sw_asset_find_clip(&asset, "first"), -1);
    assert_string_equal(asset.warning, "");
    /* The loaded blocks are the written ones. */
    assert_memory_equal(asset.skeleton, b.skeleton, b.skeleton->size);
    assert_memory_equal(asset.clips[0], b.clip, b.clip->size);
    sw_asset_free(&asset);
    /* Cut short: the archive's own check is reported, the format kept. */
    size_t size = 0;
    void* bytes = sw_test_read_file(tmp, &size);
    assert_non_null(bytes);
    FILE* f = fopen(tmp, "wb");
    fwrite(bytes, 1, size - 1, f);
    fclose(f);
    assert_int_equal(sw_asset_open(tmp, NULL, &asset, &err), SW_RESULT_TRUNCATED);
    assert_non_null(err.check);
    assert_int_equal(asset.format, SW_ASSET_FORMAT_SINEW);
    assert_null(asset.skeleton);
    free(bytes);
    remove(tmp);
    sw_bvh_result_free(&a, NULL);
    sw_bvh_result_free(&b, NULL);
    sw_bvh_result_free(&c, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_channel_orders),
        cmocka_unit_test(test_position_channels_any_joint),
        cmocka_unit_test(test_end_sites),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_line_endings),
        cmocka_unit_test(test_frame_count_mismatch),
        cmocka_unit_test(test_constant_tracks),
        cmocka_unit_test(test_sign_continuity),
        cmocka_unit_test(test_not_nul_terminated),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_offsets_overflow),
        cmocka_unit_test(test_joint_limit),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_cmu_01_01),
        cmocka_unit_test(test_cmu_01_03),
        cmocka_unit_test(test_boxing_frame_count),
        cmocka_unit_test(test_data_files),
        cmocka_unit_test(test_asset_open),
        cmocka_unit_test(test_asset_open_archive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
