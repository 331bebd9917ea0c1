/* Mirroring: name patterns, twins, plane, the mirror job (twice is the
 * identity, model-space positions reflect with twins swapped) on
 * RobotExpressive, CMU 01_01 and the built-in humanoid, a rest pose whose
 * twins have different local axes, and the offline bake. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "runtime/core/internal.h"
#include "sinew/retarget/mirror.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "test_util.h"

/* ---- helpers ---- */

static const sw_mirror* make_mirror(const sw_skeleton* s, const sw_mirror_pair* pairs,
                                    uint32_t pairs_count) {
    sw_mirror_desc d = {.skeleton = s, .pairs = pairs, .pairs_count = pairs_count};
    const sw_mirror* m = NULL;
    sw_error e = {0};
    sw_result r = sw_mirror_create(&d, NULL, &m, &e);
    if (r != SW_RESULT_OK) fail_msg("sw_mirror_create: %s (%s)", sw_result_str(r), e.check);
    return m;
}

static sw_xform4* new_pose(uint32_t packets) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * packets);
    assert_non_null(p);
    for (uint32_t i = 0; i < packets; ++i)
        sw_xform4_identity(&p[i]);
    return p;
}

static void model_of(const sw_skeleton* s, const sw_xform4* pose, sw_mat4* out) {
    sw_local_to_model_job j = {.skeleton = s,
                               .local = pose,
                               .local_count = s->packets_count,
                               .out = out,
                               .out_count = s->joints_count};
    assert_int_equal(sw_local_to_model_job_run(&j), SW_RESULT_OK);
}

static sw_vec3 reflect(sw_vec3 v, uint32_t axis) {
    if (axis == SW_MIRROR_AXIS_Y)
        v.y = -v.y;
    else if (axis == SW_MIRROR_AXIS_Z)
        v.z = -v.z;
    else
        v.x = -v.x;
    return v;
}

/* Columns of a model matrix with the reflection applied on both sides,
 * R * M * R, compared as rotation matrices after normalizing scale. */
static sw_quat model_rot(const sw_mat4* m) {
    sw_xform x;
    assert_true(sw_mat4_decompose(m, &x));
    return x.r;
}
static sw_quat reflect_q(sw_quat q, uint32_t axis) {
    if (axis == SW_MIRROR_AXIS_Y) return sw_quat_make(-q.x, q.y, -q.z, q.w);
    if (axis == SW_MIRROR_AXIS_Z) return sw_quat_make(-q.x, -q.y, q.z, q.w);
    return sw_quat_make(q.x, -q.y, -q.z, q.w);
}

/* Distance between rotations up to sign: min(|a - b|, |a + b|) over the
 * four components (about half the angle for small angles). */
static float qdist(sw_quat a, sw_quat b) {
    float d = 0.0f, n = 0.0f;
    d += (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z) +
         (a.w - b.w) * (a.w - b.w);
    n += (a.x + b.x) * (a.x + b.x) + (a.y + b.y) * (a.y + b.y) + (a.z + b.z) * (a.z + b.z) +
         (a.w + b.w) * (a.w + b.w);
    return sqrtf(fminf(d, n));
}

typedef struct check_stats {
    float twice;    /* worst |mirror(mirror(p)) - p| over components */
    float position; /* worst model-space position error (skeleton units) */
    float rotation; /* worst model-space delta rotation error (quaternion components) */
} check_stats;

/* Runs the job on `pose`; checks mirroring twice and, independently of the
 * library's per-joint corrections, the model-space result: positions are the
 * reflection of the twin's, and every joint's rotation relative to its rest
 * rotation in model space is the reflection of its twin's. */
static check_stats check_pose(const sw_skeleton* s, const sw_mirror* m, const sw_xform4* pose,
                              const sw_mat4* frames) {
    const uint32_t P = s->packets_count, J = s->joints_count;
    sw_xform4* once = new_pose(P);
    sw_xform4* twice = new_pose(P);
    sw_mirror_job job = {.mirror = m, .in = pose, .in_count = P, .out = once, .out_count = P};
    assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
    job.in = once;
    job.out = twice;
    assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
    check_stats st = {0, 0, 0};
    for (uint32_t j = 0; j < J; ++j) {
        sw_xform a = sw_pose_get(pose, j), b = sw_pose_get(twice, j);
        float scale = fmaxf(1.0f, sw_vec3_length(a.t));
        st.twice = fmaxf(st.twice, sw_vec3_length(sw_vec3_sub(a.t, b.t)) / scale);
        st.twice = fmaxf(st.twice, qdist(a.r, b.r));
        st.twice = fmaxf(st.twice, sw_vec3_length(sw_vec3_sub(a.s, b.s)));
    }
    sw_mat4* mo = (sw_mat4*)malloc(sizeof(sw_mat4) * J);
    sw_mat4* mm = (sw_mat4*)malloc(sizeof(sw_mat4) * J);
    sw_mat4* mr = (sw_mat4*)malloc(sizeof(sw_mat4) * J);
    assert_non_null(mo);
    assert_non_null(mm);
    assert_non_null(mr);
    model_of(s, pose, mo);
    model_of(s, once, mm);
    if (frames)
        memcpy(mr, frames, sizeof(sw_mat4) * J);
    else
        model_of(s, sw_skeleton_rest_pose(s), mr);
    for (uint32_t k = 0; k < J; ++k) {
        const uint32_t j = sw_mirror_twin(m, k);
        sw_vec3 want = reflect(sw_vec3_make(mo[j].m[12], mo[j].m[13], mo[j].m[14]), m->axis);
        sw_vec3 got = sw_vec3_make(mm[k].m[12], mm[k].m[13], mm[k].m[14]);
        st.position = fmaxf(st.position, sw_vec3_length(sw_vec3_sub(want, got)));
        /* delta'_k = Q'_k * conj(rest_k) must be reflect(Q_j * conj(rest_j)). */
        sw_quat dk = sw_quat_mul(model_rot(&mm[k]), sw_quat_conjugate(model_rot(&mr[k])));
        sw_quat dj = reflect_q(sw_quat_mul(model_rot(&mo[j]), sw_quat_conjugate(model_rot(&mr[j]))),
                               m->axis);
        st.rotation = fmaxf(st.rotation, qdist(sw_quat_normalize(dk), sw_quat_normalize(dj)));
    }
    free(mo);
    free(mm);
    free(mr);
    free(once);
    free(twice);
    return st;
}

/* The rest pose with every rotation turned by a random angle up to `amp`
 * and the roots moved. */
static void random_pose(const sw_skeleton* s, uint32_t* seed, float amp, float move,
                        sw_xform4* out) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), j);
        sw_vec3 axis = sw_vec3_make(sw_test_rand(seed, -1, 1), sw_test_rand(seed, -1, 1),
                                    sw_test_rand(seed, -1, 1));
        x.r = sw_quat_normalize(
            sw_quat_mul(x.r, sw_quat_from_axis_angle(axis, sw_test_rand(seed, -amp, amp))));
        if (parents[j] < 0) {
            x.t = sw_vec3_add(x.t, sw_vec3_make(sw_test_rand(seed, -move, move),
                                                sw_test_rand(seed, -move, move),
                                                sw_test_rand(seed, -move, move)));
        }
        sw_pose_set(out, j, x);
    }
}

static void sample(const sw_skeleton* s, const sw_clip* c, float t, sw_xform4* out, float* floats) {
    sw_sample_job j = {.clip = c,
                       .skeleton = s,
                       .time = t,
                       .out = out,
                       .out_count = s->packets_count,
                       .floats = floats,
                       .floats_count = floats ? c->float_tracks_count : 0};
    assert_int_equal(sw_sample_job_run(&j), SW_RESULT_OK);
}

/* Checks random poses and `clip` sampled at `n` times; tolerance on
 * positions in skeleton units. */
static check_stats check_skeleton(const char* what, const sw_skeleton* s, const sw_mirror* m,
                                  const sw_mat4* frames, const sw_clip* clip, float pos_tol,
                                  float move) {
    sw_xform4* pose = new_pose(s->packets_count);
    uint32_t seed = 12345u;
    check_stats worst = {0, 0, 0};
    for (int i = 0; i < 24; ++i) {
        if (clip && i >= 4)
            sample(s, clip, clip->duration * (float)(i - 4) / 19.0f, pose, NULL);
        else if (i == 0)
            memcpy(pose, sw_skeleton_rest_pose(s), sizeof(sw_xform4) * s->packets_count);
        else
            random_pose(s, &seed, 1.2f, move, pose);
        check_stats st = check_pose(s, m, pose, frames);
        worst.twice = fmaxf(worst.twice, st.twice);
        worst.position = fmaxf(worst.position, st.position);
        worst.rotation = fmaxf(worst.rotation, st.rotation);
    }
    print_message("%s: %u joints, %u twin pairs, axis %u; worst twice %.3g, position %.3g, "
                  "rotation %.3g\n",
                  what, s->joints_count, m->pairs_count, m->axis, (double)worst.twice,
                  (double)worst.position, (double)worst.rotation);
    assert_true(worst.twice <= 1e-5f);
    assert_true(worst.position <= pos_tol);
    assert_true(worst.rotation <= 1e-4f);
    free(pose);
    return worst;
}

/* ---- names ---- */

static void test_swap_name_table(void** state) {
    (void)state;
    static const struct {
        const char* in;
        const char* out; /* NULL: no side marker */
    } rows[] = {
        {"LeftArm", "RightArm"},
        {"RightUpLeg", "LeftUpLeg"},
        {"mixamorig:LeftHand", "mixamorig:RightHand"},
        {"LEFT_FOOT", "RIGHT_FOOT"},
        {"foot_left", "foot_right"},
        {"UpperArmL", "UpperArmR"},
        {"LowerLegR", "LowerLegL"},
        {"hand_l", "hand_r"},
        {"hand_R", "hand_L"},
        {"Hand.L", "Hand.R"},
        {"thigh.r", "thigh.l"},
        {"l_hand", "r_hand"},
        {"R_Hand", "L_Hand"},
        {"LHand", "RHand"},
        {"Bip01_L_Thigh", "Bip01_R_Thigh"},
        {"Bip01 R Calf", "Bip01 L Calf"},
        {"LeftFootDown", "RightFootDown"},
        {"Spine", NULL},
        {"ArmRoll", NULL},
        {"Control", NULL},
        {"CTRL", NULL},
        {"Head", NULL},
        {"Lower", NULL},
        {"ArmLUpper", NULL},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        bool ok = sw_mirror_swap_name(rows[i].in, 0, buf, sizeof buf);
        if (!rows[i].out) {
            if (ok) fail_msg("%s: unexpected swap %s", rows[i].in, buf);
            continue;
        }
        if (!ok || strcmp(buf, rows[i].out) != 0)
            fail_msg("%s: want %s got %s", rows[i].in, rows[i].out, ok ? buf : "(none)");
    }
    /* Second candidate: the letter after the word. */
    assert_true(sw_mirror_swap_name("Left_L", 1, buf, sizeof buf));
    assert_string_equal(buf, "Left_R");
    assert_false(sw_mirror_swap_name("Left_L", 2, buf, sizeof buf));
    assert_false(sw_mirror_swap_name("LeftArm", 0, buf, 8)); /* "RightArm" needs 9 */
    assert_false(sw_mirror_swap_name(NULL, 0, buf, sizeof buf));
}

/* A skeleton from names and parents; rest translations put "left" joints
 * at +x, "right" at -x. */
static const sw_skeleton* names_skeleton(const char* const* names, const int32_t* parents,
                                         uint32_t n) {
    sw_skeleton_joint js[32];
    assert_true(n <= 32);
    char buf[64];
    for (uint32_t j = 0; j < n; ++j) {
        js[j].name = names[j];
        js[j].parent = parents[j];
        js[j].rest = sw_xform_identity();
        float side = 0.0f;
        if (sw_mirror_swap_name(names[j], 0, buf, sizeof buf)) {
            /* side from which marker it swapped: the swapped name contains R/r or right */
            side = (strstr(names[j], "eft") || strstr(names[j], "EFT") || strstr(names[j], "_l") ||
                    strstr(names[j], ".L") || strstr(names[j], "l_") || names[j][0] == 'L' ||
                    (strlen(names[j]) > 0 && names[j][strlen(names[j]) - 1] == 'L'))
                       ? 1.0f
                       : -1.0f;
        }
        js[j].rest.t = sw_vec3_make(0.1f * side, 0.1f, 0.0f);
    }
    sw_skeleton_desc d = {js, n};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    sw_result r = sw_skeleton_create(&d, NULL, &s, &e);
    if (r != SW_RESULT_OK) fail_msg("skeleton: %s (%s)", sw_result_str(r), e.check);
    return s;
}

static void test_twin_table(void** state) {
    (void)state;
    static const char* const names[] = {
        "Hips",
        "LeftUpLeg",
        "RightUpLeg",
        "Spine",
        "UpperArmL",
        "UpperArmR",
        "hand_l",
        "hand_r",
        "Head",
        "eye.L",
        "eye.R",
        "L_Clav",
        "R_Clav",
        "LeftTail",
        "Bip01_L_Toe",
        "Bip01_R_Toe",
        "lonely_l",
        /* names that pair but parents that do not: dropped, and so are
         * their children's pairs */
        "LeftWing",
        "RightWing",
        "LeftFeather",
        "RightFeather",
    };
    static const int32_t parents[] = {-1, 0, 0, 0, 3, 3, 4, 5, 3,  8, 8,
                                      3,  3, 0, 1, 2, 3, 0, 3, 17, 18};
    static const struct {
        const char* a;
        const char* b;
    } pairs[] = {
        {"LeftUpLeg", "RightUpLeg"}, {"UpperArmL", "UpperArmR"}, {"hand_l", "hand_r"},
        {"eye.L", "eye.R"},          {"L_Clav", "R_Clav"},       {"Bip01_L_Toe", "Bip01_R_Toe"},
    };
    const uint32_t n = (uint32_t)(sizeof names / sizeof names[0]);
    const sw_skeleton* s = names_skeleton(names, parents, n);
    const sw_mirror* m = make_mirror(s, NULL, 0);
    assert_int_equal(m->pairs_count, sizeof pairs / sizeof pairs[0]);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
        uint32_t a = (uint32_t)sw_skeleton_find_joint(s, pairs[p].a);
        uint32_t b = (uint32_t)sw_skeleton_find_joint(s, pairs[p].b);
        assert_int_equal(sw_mirror_twin(m, a), b);
        assert_int_equal(sw_mirror_twin(m, b), a);
    }
    static const char* const selves[] = {"Hips",      "Spine",       "Head",
                                         "LeftTail",  "lonely_l",    "LeftWing",
                                         "RightWing", "LeftFeather", "RightFeather"};
    for (size_t i = 0; i < sizeof selves / sizeof selves[0]; ++i) {
        uint32_t j = (uint32_t)sw_skeleton_find_joint(s, selves[i]);
        assert_int_equal(sw_mirror_twin(m, j), j);
    }
    assert_int_equal(m->axis, SW_MIRROR_AXIS_X);
    sw_mirror_destroy(m, NULL);

    /* The manual map overrides: the eyes mirror onto themselves. A pair
     * whose parents are not twins (LeftTail under Hips, lonely_l under
     * Spine) is refused. */
    const sw_mirror_pair over[] = {{"eye.L", "eye.L"}, {"eye.R", "eye.R"}};
    m = make_mirror(s, over, 2);
    assert_int_equal(m->pairs_count, sizeof pairs / sizeof pairs[0] - 1u);
    uint32_t el = (uint32_t)sw_skeleton_find_joint(s, "eye.L");
    assert_int_equal(sw_mirror_twin(m, el), el);
    sw_mirror_destroy(m, NULL);

    sw_mirror_desc d = {.skeleton = s};
    const sw_mirror* bad = NULL;
    sw_error e = {0};
    const sw_mirror_pair asym[] = {{"LeftTail", "lonely_l"}};
    d.pairs = asym;
    d.pairs_count = 1;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "twin of parent is parent of twin");
    const sw_mirror_pair unknown[] = {{"LeftTail", "Nope"}};
    d.pairs = unknown;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_NOT_FOUND);
    const sw_mirror_pair twice[] = {{"hand_l", "hand_r"}, {"hand_r", "Head"}};
    d.pairs = twice;
    d.pairs_count = 2;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "joint in one pair");
    assert_int_equal(e.index, 1);
    /* no_patterns: only the manual pair. */
    const sw_mirror_pair one[] = {{"hand_l", "hand_r"}, {"UpperArmL", "UpperArmR"}};
    d.pairs = one;
    d.pairs_count = 2;
    d.no_patterns = true;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_OK);
    assert_int_equal(bad->pairs_count, 2);
    sw_mirror_destroy(bad, NULL);
    sw_skeleton_destroy(s, NULL);
}

/* ---- asymmetric rest frames ---- */

/* Hips turned about X (which keeps the plane x = 0), arms whose local rest
 * rotations differ completely between sides, hands placed so that rest
 * positions are symmetric in model space. */
static const sw_skeleton* asymmetric_skeleton(void) {
    const sw_quat hips = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.4f);
    const sw_quat ql = sw_quat_from_axis_angle(sw_vec3_make(0.3f, 1.0f, -0.2f), 1.1f);
    const sw_quat qr = sw_quat_from_axis_angle(sw_vec3_make(-0.7f, 0.2f, 0.5f), -2.3f);
    const sw_quat qlh = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 0.5f);
    const sw_quat qrh = sw_quat_from_axis_angle(sw_vec3_make(1, 1, 0), 1.5f);
    sw_skeleton_joint js[6];
    memset(js, 0, sizeof js);
    for (int i = 0; i < 6; ++i)
        js[i].rest = sw_xform_identity();
    js[0] = (sw_skeleton_joint){"Hips", -1, {{0, 1, 0}, hips, {1, 1, 1}}};
    js[1] = (sw_skeleton_joint){"Spine", 0, {{0, 0.2f, 0}, sw_quat_identity(), {1, 1, 1}}};
    /* In the Spine's frame (model rotation = hips), the arms sit at +-0.2 X
     * (X is kept by a rotation about X), and hands 0.3 further out in model
     * space: local t = conj(model rotation) * (+-0.3, 0, 0). */
    js[2] = (sw_skeleton_joint){"LeftArm", 1, {{0.2f, 0.1f, 0}, ql, {1, 1, 1}}};
    js[3] = (sw_skeleton_joint){"RightArm", 1, {{-0.2f, 0.1f, 0}, qr, {1, 1, 1}}};
    const sw_quat ml = sw_quat_mul(hips, ql), mr = sw_quat_mul(hips, qr);
    js[4] = (sw_skeleton_joint){
        "LeftHand",
        2,
        {sw_quat_rotate(sw_quat_conjugate(ml), sw_vec3_make(0.3f, 0, 0)), qlh, {1, 1, 1}}};
    js[5] = (sw_skeleton_joint){
        "RightHand",
        3,
        {sw_quat_rotate(sw_quat_conjugate(mr), sw_vec3_make(-0.3f, 0, 0)), qrh, {1, 1, 1}}};
    sw_skeleton_desc d = {js, 6};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&d, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

static void test_asymmetric_rest(void** state) {
    (void)state;
    const sw_skeleton* s = asymmetric_skeleton();
    const sw_mirror* m = make_mirror(s, NULL, 0);
    assert_int_equal(m->pairs_count, 2);
    assert_int_equal(m->axis, SW_MIRROR_AXIS_X);
    /* The rest pose mirrors onto itself in local space (it is symmetric in
     * model space, not in the local axes). */
    sw_xform4* out = new_pose(s->packets_count);
    sw_mirror_job job = {.mirror = m,
                         .in = sw_skeleton_rest_pose(s),
                         .in_count = s->packets_count,
                         .out = out,
                         .out_count = s->packets_count};
    assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        sw_xform a = sw_pose_get(sw_skeleton_rest_pose(s), j), b = sw_pose_get(out, j);
        sw_test_vec3_near(a.t, b.t, 1e-5f);
        sw_test_quat_near(a.r, b.r, 1e-5f);
    }
    check_skeleton("asymmetric rest", s, m, NULL, NULL, 1e-5f, 0.5f);

    /* Raising the left arm by 50 degrees about model +Z (towards +Y) must
     * raise the right arm by 50 degrees about model -Z. */
    sw_xform4* pose = new_pose(s->packets_count);
    memcpy(pose, sw_skeleton_rest_pose(s), sizeof(sw_xform4) * s->packets_count);
    sw_mat4 rest_model[6];
    model_of(s, pose, rest_model);
    const sw_quat raise = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 0.87f);
    const sw_quat parent_rot = model_rot(&rest_model[1]);
    sw_xform la = sw_pose_get(pose, 2);
    /* local' = conj(P) * raise * P * local */
    la.r = sw_quat_mul(sw_quat_mul(sw_quat_conjugate(parent_rot), sw_quat_mul(raise, parent_rot)),
                       la.r);
    sw_pose_set(pose, 2, la);
    job.in = pose;
    assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
    sw_mat4 after[6];
    model_of(s, out, after);
    /* Right hand: rest at (-0.5, y, z) relative to the arm; rotated about
     * -Z by 0.87 around the right arm's position. */
    sw_vec3 arm = sw_vec3_make(rest_model[3].m[12], rest_model[3].m[13], rest_model[3].m[14]);
    sw_vec3 hand = sw_vec3_make(rest_model[5].m[12], rest_model[5].m[13], rest_model[5].m[14]);
    const sw_quat lower = sw_quat_from_axis_angle(sw_vec3_make(0, 0, -1), 0.87f);
    sw_vec3 want = sw_vec3_add(arm, sw_quat_rotate(lower, sw_vec3_sub(hand, arm)));
    sw_test_vec3_near(sw_vec3_make(after[5].m[12], after[5].m[13], after[5].m[14]), want, 1e-5f);
    assert_true(after[5].m[13] > rest_model[5].m[13] + 0.1f); /* raised */

    /* Naive local mirroring (swap twins, reflect local rotations, no rest
     * correction) gets this rig wrong: the check above needs the deltas. */
    sw_xform naive = sw_pose_get(pose, 2);
    naive.r = reflect_q(naive.r, SW_MIRROR_AXIS_X);
    sw_xform right = sw_pose_get(out, 3);
    assert_true(fabsf(sw_quat_dot(naive.r, right.r)) < 0.99f);
    free(pose);
    free(out);
    sw_mirror_destroy(m, NULL);
    sw_skeleton_destroy(s, NULL);
}

static void test_axis_detection(void** state) {
    (void)state;
    /* Twins along Z and along Y. */
    for (uint32_t axis = SW_MIRROR_AXIS_Y; axis <= SW_MIRROR_AXIS_Z; ++axis) {
        sw_skeleton_joint js[3];
        for (int i = 0; i < 3; ++i)
            js[i].rest = sw_xform_identity();
        js[0].name = "Root", js[0].parent = -1;
        js[1].name = "LeftEar", js[1].parent = 0;
        js[2].name = "RightEar", js[2].parent = 0;
        js[1].rest.t =
            axis == SW_MIRROR_AXIS_Y ? sw_vec3_make(0.01f, 0.3f, 0) : sw_vec3_make(0.01f, 0, 0.3f);
        js[2].rest.t = axis == SW_MIRROR_AXIS_Y ? sw_vec3_make(0.01f, -0.3f, 0)
                                                : sw_vec3_make(0.01f, 0, -0.3f);
        sw_skeleton_desc d = {js, 3};
        const sw_skeleton* s = NULL;
        assert_int_equal(sw_skeleton_create(&d, NULL, &s, NULL), SW_RESULT_OK);
        const sw_mirror* m = make_mirror(s, NULL, 0);
        assert_int_equal(m->axis, axis);
        check_skeleton(axis == SW_MIRROR_AXIS_Y ? "axis Y" : "axis Z", s, m, NULL, NULL, 1e-5f,
                       0.3f);
        sw_mirror_destroy(m, NULL);
        /* Given axis wins over detection. */
        sw_mirror_desc md = {.skeleton = s, .axis = SW_MIRROR_AXIS_X};
        assert_int_equal(sw_mirror_create(&md, NULL, &m, NULL), SW_RESULT_OK);
        assert_int_equal(m->axis, SW_MIRROR_AXIS_X);
        sw_mirror_destroy(m, NULL);
        sw_skeleton_destroy(s, NULL);
    }
}

/* ---- real skeletons ---- */

static void test_humanoid(void** state) {
    (void)state;
    sw_scene sc;
    assert_int_equal(sw_showcase_humanoid(NULL, &sc, NULL, NULL), SW_RESULT_OK);
    const sw_mirror* m = make_mirror(sc.skeleton, NULL, 0);
    assert_int_equal(m->axis, SW_MIRROR_AXIS_X);
    assert_int_equal(m->pairs_count, 8); /* shoulder, arm, forearm, hand, upleg, leg, foot, toe */
    check_skeleton("humanoid walk", sc.skeleton, m, NULL, sc.clips[1], 1e-4f, 2.0f);
    sw_mirror_destroy(m, NULL);
    sw_scene_free(&sc, NULL);
}

static void test_cmu(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) skip();
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    sw_bvh_result b;
    sw_error e = {0};
    sw_bvh_options o = {.scale = 0.056444f}; /* inches * 1/0.45 * 0.0254: about metres */
    assert_int_equal(sw_bvh_read(text, size, &o, NULL, &b, &e), SW_RESULT_OK);
    const sw_mirror* m = make_mirror(b.skeleton, NULL, 0);
    assert_int_equal(m->axis, SW_MIRROR_AXIS_X);
    assert_true(m->pairs_count >= 10);
    check_skeleton("CMU 01_01", b.skeleton, m, NULL, b.clip, 1e-4f, 2.0f);
    sw_mirror_destroy(m, NULL);
    sw_bvh_result_free(&b, NULL);
    free(text);
}

static float bake_check(const sw_skeleton* s, const sw_mirror* m, const sw_clip* clip,
                        const sw_clip* baked, int samples);

/* Skins every vertex of the meshes with `pose` into out (3 floats each);
 * returns the count. */
static uint32_t skin_all(const sw_skeleton* s, const sw_mesh* const* meshes, uint32_t n,
                         const sw_xform4* pose, float* out) {
    sw_mat4* model = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    sw_mat4* pal = (sw_mat4*)malloc(sizeof(sw_mat4) * 1024);
    assert_non_null(model);
    assert_non_null(pal);
    model_of(s, pose, model);
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const sw_mesh* m = meshes[i];
        sw_skinning_job sk = {.model = model,
                              .model_count = s->joints_count,
                              .joints = sw_mesh_palette(m),
                              .inverse_bind = sw_mesh_inverse_binds(m),
                              .count = m->palette_count,
                              .out = pal,
                              .out_count = 1024};
        assert_int_equal(sw_skinning_job_run(&sk), SW_RESULT_OK);
        const float* p = sw_mesh_positions(m);
        const uint16_t* jn = sw_mesh_joints(m);
        const float* w = sw_mesh_weights(m);
        for (uint32_t v = 0; v < m->vertices_count; ++v) {
            sw_vec3 acc = {0, 0, 0};
            const sw_vec3 pv = sw_vec3_make(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
            for (int k = 0; k < 4; ++k) {
                const float wk = w[4 * v + (uint32_t)k];
                if (wk == 0.0f) continue;
                acc = sw_vec3_add(
                    acc, sw_vec3_scale(sw_mat4_point(&pal[jn[4 * v + (uint32_t)k]], pv), wk));
            }
            out[3 * count] = acc.x, out[3 * count + 1] = acc.y, out[3 * count + 2] = acc.z;
            ++count;
        }
    }
    free(model);
    free(pal);
    return count;
}

/* Worst distance from a mirrored skinned vertex (every 7th) to the nearest
 * reflected original vertex: the skinned mesh mirrors as a mesh. */
static float mesh_mirror_error(const sw_skeleton* s, const sw_mesh* const* meshes, uint32_t n,
                               const sw_mirror* m, const sw_xform4* pose) {
    uint32_t V = 0;
    for (uint32_t i = 0; i < n; ++i)
        V += meshes[i]->vertices_count;
    float* a = (float*)malloc(sizeof(float) * 3 * V);
    float* b = (float*)malloc(sizeof(float) * 3 * V);
    sw_xform4* mir = new_pose(s->packets_count);
    assert_non_null(a);
    assert_non_null(b);
    sw_mirror_job job = {.mirror = m,
                         .in = pose,
                         .in_count = s->packets_count,
                         .out = mir,
                         .out_count = s->packets_count};
    assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
    assert_int_equal(skin_all(s, meshes, n, pose, a), V);
    assert_int_equal(skin_all(s, meshes, n, mir, b), V);
    float worst = 0.0f;
    for (uint32_t v = 0; v < V; v += 7) {
        float best = INFINITY;
        for (uint32_t u = 0; u < V; ++u) {
            float rx = -a[3 * u] - b[3 * v], ry = a[3 * u + 1] - b[3 * v + 1],
                  rz = a[3 * u + 2] - b[3 * v + 2];
            best = fminf(best, rx * rx + ry * ry + rz * rz);
        }
        worst = fmaxf(worst, sqrtf(best));
    }
    free(a);
    free(b);
    free(mir);
    return worst;
}

static void test_robot(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) skip();
    sw_scene sc;
    sw_error e = {0};
    sw_result r = sw_gltf_read_file(path, NULL, NULL, &sc, &e);
    if (r != SW_RESULT_OK) fail_msg("RobotExpressive.glb: %s (%s)", sw_result_str(r), e.check);
    const sw_skeleton* s = sc.skeleton;
    /* Reference: the rest pose. Positions in the file's model space. */
    const sw_mirror* m = make_mirror(s, NULL, 0);
    assert_true(m->pairs_count >= 15);
    for (uint32_t c = 0; c < sc.clips_count; ++c) {
        char what[96];
        snprintf(what, sizeof what, "RobotExpressive %s", sw_clip_name(sc.clips[c]));
        check_skeleton(what, s, m, NULL, sc.clips[c], 1e-4f, 1.0f);
    }
    /* Reference: the meshes' bind pose (not the rest pose in this file). */
    sw_mat4* frames = (sw_mat4*)malloc(sizeof(sw_mat4) * s->joints_count);
    assert_non_null(frames);
    assert_int_equal(sw_mirror_bind_frames(s, (const sw_mesh* const*)sc.meshes, sc.meshes_count,
                                           frames, s->joints_count),
                     SW_RESULT_OK);
    sw_mirror_desc d = {.skeleton = s, .frames = frames, .frames_count = s->joints_count};
    const sw_mirror* mb = NULL;
    assert_int_equal(sw_mirror_create(&d, NULL, &mb, &e), SW_RESULT_OK);
    uint32_t wave = 0;
    while (wave + 1u < sc.clips_count && strcmp(sw_clip_name(sc.clips[wave]), "Wave") != 0)
        ++wave;
    check_skeleton("RobotExpressive Wave, bind frames", s, mb, frames, sc.clips[wave], 1e-4f, 1.0f);
    /* The skinned mesh: with the bind frames every mirrored vertex lands on
     * a reflected original vertex; with the rest pose as the reference the
     * head and body turn away (why the frames exist). */
    sw_xform4* pose = new_pose(s->packets_count);
    float worst_bind = 0.0f, worst_rest = 0.0f;
    /* The model itself is not exactly symmetric (ArmL has 296 vertices,
     * ArmR 284): its floor is the error at the rest pose, which is
     * symmetric in model space. */
    memcpy(pose, sw_skeleton_rest_pose(s), sizeof(sw_xform4) * s->packets_count);
    const float floor_err =
        mesh_mirror_error(s, (const sw_mesh* const*)sc.meshes, sc.meshes_count, mb, pose);
    for (int i = 0; i < 3; ++i) {
        sample(s, sc.clips[wave], sc.clips[wave]->duration * (0.2f + 0.3f * (float)i), pose, NULL);
        worst_bind = fmaxf(worst_bind, mesh_mirror_error(s, (const sw_mesh* const*)sc.meshes,
                                                         sc.meshes_count, mb, pose));
        worst_rest = fmaxf(worst_rest, mesh_mirror_error(s, (const sw_mesh* const*)sc.meshes,
                                                         sc.meshes_count, m, pose));
    }
    print_message("RobotExpressive Wave skinned: mirrored vertex to nearest reflected vertex, "
                  "bind frames %.3g, rest pose as reference %.3g (the model's own asymmetry at "
                  "rest %.3g)\n",
                  (double)worst_bind, (double)worst_rest, (double)floor_err);
    assert_true(worst_bind <= 1.05f * floor_err + 1e-3f);
    assert_true(worst_rest > 4.0f * worst_bind);
    /* Baking with the bind frames: untracked joints whose mirrored rest
     * rotation is not their own get one-key tracks; every clip samples to
     * the job's pose. */
    for (uint32_t c = 0; c < sc.clips_count; ++c) {
        const sw_clip* baked = NULL;
        assert_int_equal(sw_mirror_bake_clip(s, mb, sc.clips[c], NULL, NULL, &baked, &e),
                         SW_RESULT_OK);
        const float w = bake_check(s, mb, sc.clips[c], baked, 157);
        if (!(w <= 1e-4f))
            fail_msg("%s baked with bind frames: %g", sw_clip_name(baked), (double)w);
        sw_clip_destroy(baked, NULL);
    }
    /* Frames validity. */
    const sw_mirror* bad = NULL;
    d.frames_count = s->joints_count - 1u;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_INVALID_ARGUMENT);
    d.frames_count = s->joints_count;
    frames[3].m[5] = NAN;
    assert_int_equal(sw_mirror_create(&d, NULL, &bad, &e), SW_RESULT_BAD_DATA);
    assert_int_equal(e.index, 3);
    free(pose);
    free(frames);
    sw_mirror_destroy(mb, NULL);
    sw_mirror_destroy(m, NULL);
    sw_scene_free(&sc, NULL);
}

/* ---- job validity ---- */

static void test_job_validity(void** state) {
    (void)state;
    static const char* const names[] = {"Hips", "LeftLeg", "RightLeg", "Spine", "Head"};
    static const int32_t parents[] = {-1, 0, 0, 0, 3};
    const sw_skeleton* s = names_skeleton(names, parents, 5);
    const sw_mirror* m = make_mirror(s, NULL, 0);
    sw_xform4* in = new_pose(4);
    sw_xform4* out = new_pose(4);
    const sw_mirror_job good = {.mirror = m, .in = in, .in_count = 2, .out = out, .out_count = 2};
    sw_mirror_job zero;
    memset(&zero, 0, sizeof zero);
    sw_mirror bad_header = *m;
    bad_header.joints_count = 0;
    sw_mirror bad_packets = *m;
    bad_packets.packets_count = 1;
    struct {
        const char* what;
        sw_mirror_job job;
        sw_result want;
    } rows[] = {
        {"valid", good, SW_RESULT_OK},
        {"zero", zero, SW_RESULT_INVALID_ARGUMENT},
        {"no mirror", good, SW_RESULT_INVALID_ARGUMENT},
        {"no in", good, SW_RESULT_INVALID_ARGUMENT},
        {"no out", good, SW_RESULT_INVALID_ARGUMENT},
        {"mirror 0 joints", good, SW_RESULT_INVALID_ARGUMENT},
        {"mirror packets", good, SW_RESULT_INVALID_ARGUMENT},
        {"in short", good, SW_RESULT_BUFFER_TOO_SMALL},
        {"out short", good, SW_RESULT_BUFFER_TOO_SMALL},
        {"in misaligned", good, SW_RESULT_MISALIGNED},
        {"out misaligned", good, SW_RESULT_MISALIGNED},
        {"in place", good, SW_RESULT_OVERLAP},
        {"out over in", good, SW_RESULT_OVERLAP},
        {"out over mirror", good, SW_RESULT_OVERLAP},
    };
    rows[2].job.mirror = NULL;
    rows[3].job.in = NULL;
    rows[4].job.out = NULL;
    rows[5].job.mirror = &bad_header;
    rows[6].job.mirror = &bad_packets;
    rows[7].job.in_count = 1;
    rows[8].job.out_count = 1;
    rows[9].job.in = (const sw_xform4*)(const void*)((const char*)in + 4);
    rows[10].job.out = (sw_xform4*)(void*)((char*)out + 4);
    rows[11].job.out = in;
    rows[12].job.out = in + 1;
    rows[13].job.out = (sw_xform4*)(uintptr_t)(const void*)m;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        sw_xform4 before[2];
        memcpy(before, out, sizeof before);
        if (sw_mirror_job_validate(&rows[i].job) != rows[i].want)
            fail_msg("%s: validate gave %s", rows[i].what,
                     sw_result_str(sw_mirror_job_validate(&rows[i].job)));
        if (i >= 13) continue; /* running would write over the mirror data on success */
        if (sw_mirror_job_run(&rows[i].job) != rows[i].want) fail_msg("%s: run", rows[i].what);
        if (rows[i].want != SW_RESULT_OK && rows[i].job.out == out)
            assert_memory_equal(before, out, sizeof before);
    }
    assert_int_equal(sw_mirror_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_mirror_job_run(NULL), SW_RESULT_INVALID_ARGUMENT);

    /* init arguments */
    sw_mirror_desc d = {.skeleton = s};
    const size_t need = sw_mirror_measure(&d);
    assert_true(need > 0);
    assert_int_equal(sw_mirror_measure(NULL), 0);
    void* mem = aligned_alloc(16, need + 16);
    const sw_mirror* got = NULL;
    assert_int_equal(sw_mirror_init(mem, need, &d, &got, NULL), SW_RESULT_OK);
    assert_ptr_equal(got, mem);
    assert_int_equal(sw_mirror_init(mem, need - 1, &d, &got, NULL), SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_mirror_init((char*)mem + 4, need, &d, &got, NULL), SW_RESULT_MISALIGNED);
    assert_int_equal(sw_mirror_init(NULL, need, &d, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_mirror_init(mem, need, NULL, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_mirror_init(mem, need, &d, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    sw_mirror_desc dz;
    memset(&dz, 0, sizeof dz);
    assert_int_equal(sw_mirror_init(mem, need, &dz, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    d.axis = (sw_mirror_axis)7;
    assert_int_equal(sw_mirror_init(mem, need, &d, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    d.axis = SW_MIRROR_AXIS_DEFAULT;
    d.pairs_count = 1;
    assert_int_equal(sw_mirror_init(mem, need, &d, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    const sw_mirror_pair nul[] = {{"Hips", NULL}};
    d.pairs = nul;
    assert_int_equal(sw_mirror_init(mem, need, &d, &got, NULL), SW_RESULT_INVALID_ARGUMENT);
    free(mem);
    free(in);
    free(out);
    sw_mirror_destroy(m, NULL);
    sw_skeleton_destroy(s, NULL);
}

/* ---- bake ---- */

/* Sampling the baked clip equals the job on the sampled original. */
static float bake_check(const sw_skeleton* s, const sw_mirror* m, const sw_clip* clip,
                        const sw_clip* baked, int samples) {
    sw_xform4* a = new_pose(s->packets_count);
    sw_xform4* b = new_pose(s->packets_count);
    sw_xform4* c = new_pose(s->packets_count);
    float worst = 0.0f;
    for (int i = 0; i <= samples; ++i) {
        const float t = clip->duration * (float)i / (float)samples;
        sample(s, clip, t, a, NULL);
        sw_mirror_job job = {.mirror = m,
                             .in = a,
                             .in_count = s->packets_count,
                             .out = b,
                             .out_count = s->packets_count};
        assert_int_equal(sw_mirror_job_run(&job), SW_RESULT_OK);
        sample(s, baked, t, c, NULL);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            sw_xform x = sw_pose_get(b, j), y = sw_pose_get(c, j);
            worst = fmaxf(worst, sw_vec3_length(sw_vec3_sub(x.t, y.t)));
            worst = fmaxf(worst, sw_vec3_length(sw_vec3_sub(x.s, y.s)));
            worst = fmaxf(worst, qdist(x.r, y.r));
        }
    }
    free(a);
    free(b);
    free(c);
    return worst;
}

static void test_bake_humanoid(void** state) {
    (void)state;
    sw_scene sc;
    assert_int_equal(sw_showcase_humanoid(NULL, &sc, NULL, NULL), SW_RESULT_OK);
    const sw_mirror* m = make_mirror(sc.skeleton, NULL, 0);
    for (uint32_t c = 0; c < sc.clips_count; ++c) {
        const sw_clip* clip = sc.clips[c];
        const sw_clip* baked = NULL;
        sw_error e = {0};
        sw_result r = sw_mirror_bake_clip(sc.skeleton, m, clip, NULL, NULL, &baked, &e);
        if (r != SW_RESULT_OK) fail_msg("bake: %s (%s)", sw_result_str(r), e.check);
        char want[128];
        snprintf(want, sizeof want, "%s_mirrored", sw_clip_name(clip));
        assert_string_equal(sw_clip_name(baked), want);
        float worst = bake_check(sc.skeleton, m, clip, baked, 397);
        print_message("humanoid %s: baked vs job worst %.3g\n", sw_clip_name(clip), (double)worst);
        assert_true(worst <= 1e-4f);
        /* Events: same times, sides swapped. */
        assert_int_equal(baked->events_count, clip->events_count);
        for (uint32_t i = 0; i < clip->events_count; ++i) {
            const char* n = sw_clip_event_name(clip, i);
            char sw[64];
            assert_true(sw_mirror_swap_name(n, 0, sw, sizeof sw));
            bool found = false;
            for (uint32_t k = 0; k < baked->events_count; ++k) {
                if (sw_clip_events(baked)[k].time == sw_clip_events(clip)[i].time &&
                    strcmp(sw_clip_event_name(baked, k), sw) == 0)
                    found = true;
            }
            assert_true(found);
        }
        /* Root motion: the walk moves along +Z (on the plane): the mirror
         * walks the same way; the root's x is negated. */
        sw_xform4* p = new_pose(sc.skeleton->packets_count);
        sw_xform4* q = new_pose(sc.skeleton->packets_count);
        sample(sc.skeleton, clip, clip->duration, p, NULL);
        sample(sc.skeleton, baked, clip->duration, q, NULL);
        sw_xform hp = sw_pose_get(p, 0), hq = sw_pose_get(q, 0);
        assert_near(hq.t.x, -hp.t.x, 1e-5f);
        assert_near(hq.t.z, hp.t.z, 1e-5f);
        free(p);
        free(q);
        sw_clip_destroy(baked, NULL);
    }
    /* Raw clips only: a quantized or additive clip is refused; counts must match. */
    const sw_clip* baked = NULL;
    assert_int_equal(sw_mirror_bake_clip(NULL, m, sc.clips[0], NULL, NULL, &baked, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_mirror_destroy(m, NULL);
    sw_scene_free(&sc, NULL);
}

/* A clip on the asymmetric rig: cubic rotations, step translations,
 * explicit times on one side only, a float track and events. */
static void test_bake_tracks(void** state) {
    (void)state;
    const sw_skeleton* s = asymmetric_skeleton();
    const sw_mirror* m = make_mirror(s, NULL, 0);
    uint32_t seed = 99u;
    float rot_cubic[5 * 12], rot_lin[7 * 4], tr_step[4 * 3], tr_root[6 * 3], fl[3];
    for (int k = 0; k < 5; ++k) {
        sw_quat q = sw_test_rand_quat(&seed);
        float* v = &rot_cubic[k * 12];
        for (int c = 0; c < 4; ++c) {
            v[c] = sw_test_rand(&seed, -0.5f, 0.5f); /* in-tangent */
            v[8 + c] = sw_test_rand(&seed, -0.5f, 0.5f);
        }
        v[4] = q.x, v[5] = q.y, v[6] = q.z, v[7] = q.w;
    }
    for (int k = 0; k < 7; ++k) {
        sw_quat q = sw_test_rand_quat(&seed);
        rot_lin[k * 4] = q.x, rot_lin[k * 4 + 1] = q.y, rot_lin[k * 4 + 2] = q.z;
        rot_lin[k * 4 + 3] = q.w;
    }
    for (int i = 0; i < 12; ++i)
        tr_step[i] = sw_test_rand(&seed, -0.3f, 0.3f);
    for (int i = 0; i < 18; ++i)
        tr_root[i] = sw_test_rand(&seed, -1.0f, 1.0f);
    fl[0] = 0.0f, fl[1] = 1.0f, fl[2] = 0.5f;
    const float times5[] = {0.0f, 0.1f, 0.45f, 0.5f, 0.9f};
    const float times4[] = {0.0f, 0.3f, 0.6f, 1.0f};
    const sw_clip_track_desc tracks[] = {
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 0,
         .keys_count = 6,
         .rate = 5.0f,
         .values = tr_root},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 0,
         .keys_count = 7,
         .rate = 6.0f,
         .values = rot_lin},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 2,
         .interp = SW_INTERP_CUBIC,
         .keys_count = 5,
         .times = times5,
         .values = rot_cubic},
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 5,
         .interp = SW_INTERP_STEP,
         .keys_count = 4,
         .times = times4,
         .values = tr_step},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "LeftHandGrip",
         .keys_count = 3,
         .rate = 2.0f,
         .values = fl},
        {.kind = SW_TRACK_KIND_FLOAT, .name = "Blink", .keys_count = 3, .rate = 2.0f, .values = fl},
    };
    const sw_clip_event_desc events[] = {
        {0.25f, "foot_down_l"}, {0.5f, "Shout"}, {0.75f, "RightHandOpen"}};
    sw_clip_desc cd = {.name = "wave",
                       .duration = 1.0f,
                       .joints_count = 6,
                       .tracks = tracks,
                       .tracks_count = 6,
                       .events = events,
                       .events_count = 3};
    const sw_clip* clip = NULL;
    sw_error e = {0};
    sw_result r = sw_clip_create(&cd, NULL, &clip, &e);
    if (r != SW_RESULT_OK) fail_msg("clip: %s (%s)", sw_result_str(r), e.check);
    const sw_clip* baked = NULL;
    sw_mirror_bake_options bo = {.name = "wave_right"};
    assert_int_equal(sw_mirror_bake_clip(s, m, clip, &bo, NULL, &baked, &e), SW_RESULT_OK);
    assert_string_equal(sw_clip_name(baked), "wave_right");
    float worst = bake_check(s, m, clip, baked, 1009);
    print_message("asymmetric rig, cubic/step/linear tracks: baked vs job worst %.3g\n",
                  (double)worst);
    assert_true(worst <= 1e-5f);
    /* The left arm's cubic track now drives the right arm; the right hand's
     * step track the left hand. */
    assert_int_equal(sw_clip_joint_tracks(baked, 3)[1] != SW_CLIP_NO_TRACK, 1);
    assert_int_equal(sw_clip_tracks(baked)[sw_clip_joint_tracks(baked, 3)[1]].interp,
                     SW_INTERP_CUBIC);
    assert_int_equal(sw_clip_tracks(baked)[sw_clip_joint_tracks(baked, 4)[0]].interp,
                     SW_INTERP_STEP);
    assert_true(sw_clip_find_float_track(baked, "RightHandGrip") >= 0);
    assert_true(sw_clip_find_float_track(baked, "Blink") >= 0);
    assert_int_equal(sw_clip_find_float_track(baked, "LeftHandGrip"), -1);
    float fa[2], fb[2];
    sw_xform4* pa = new_pose(2);
    sample(s, clip, 0.8f, pa, fa);
    sample(s, baked, 0.8f, pa, fb);
    assert_near(fa[0], fb[sw_clip_find_float_track(baked, "RightHandGrip")], 0.0f);
    free(pa);
    assert_int_equal(baked->events_count, 3);
    assert_string_equal(sw_clip_event_name(baked, 0), "foot_down_r");
    assert_string_equal(sw_clip_event_name(baked, 1), "Shout");
    assert_string_equal(sw_clip_event_name(baked, 2), "LeftHandOpen");
    assert_near(sw_clip_events(baked)[2].time, 0.75f, 0.0f);
    sw_clip_destroy(baked, NULL);

    /* Baking the baked clip gives the original's samples back. */
    const sw_clip* back = NULL;
    const sw_clip* once = NULL;
    assert_int_equal(sw_mirror_bake_clip(s, m, clip, NULL, NULL, &once, NULL), SW_RESULT_OK);
    assert_int_equal(sw_mirror_bake_clip(s, m, once, NULL, NULL, &back, NULL), SW_RESULT_OK);
    sw_xform4* x = new_pose(2);
    sw_xform4* y = new_pose(2);
    for (int i = 0; i <= 100; ++i) {
        sample(s, clip, (float)i / 100.0f, x, NULL);
        sample(s, back, (float)i / 100.0f, y, NULL);
        for (uint32_t j = 0; j < 6; ++j) {
            sw_xform a = sw_pose_get(x, j), b = sw_pose_get(y, j);
            sw_test_vec3_near(a.t, b.t, 1e-5f);
            sw_test_quat_near(a.r, b.r, 1e-5f);
        }
    }
    free(x);
    free(y);
    sw_clip_destroy(once, NULL);
    sw_clip_destroy(back, NULL);

    /* Additive clips are refused. */
    cd.additive = true;
    const sw_clip* add = NULL;
    assert_int_equal(sw_clip_create(&cd, NULL, &add, NULL), SW_RESULT_OK);
    assert_int_equal(sw_mirror_bake_clip(s, m, add, NULL, NULL, &baked, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "not additive");
    sw_clip_destroy(add, NULL);
    sw_clip_destroy(clip, NULL);
    sw_mirror_destroy(m, NULL);
    sw_skeleton_destroy(s, NULL);
}

/* ---- the CLI ---- */

/* sinew mirror writes .sinew and .glb files whose clips sample to the
 * mirror job's poses of the original; a bad command line exits 2. */
static void test_cli(void** state) {
    (void)state;
    const char* cli = SINEW_CLI_PATH;
    char path[512];
    if (!cli[0]) {
        print_message("skipped: the CLI is not built\n");
        return;
    }
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    sw_asset orig;
    sw_error e = {0};
    assert_int_equal(sw_asset_open(path, NULL, &orig, &e), SW_RESULT_OK);
    const sw_mirror* m = make_mirror(orig.skeleton, NULL, 0);
    static const char* const exts[2] = {".sinew", ".glb"};
    for (int x = 0; x < 2; ++x) {
        char out[256], cmd[1024];
        snprintf(out, sizeof out, "/tmp/sinew_test_mirror_%d%s", (int)getpid(), exts[x]);
        snprintf(cmd, sizeof cmd, "'%s' mirror '%s' -o '%s' > /dev/null", cli, path, out);
        assert_int_equal(system(cmd), 0);
        sw_asset got;
        sw_result r = sw_asset_open(out, NULL, &got, &e);
        if (r != SW_RESULT_OK) fail_msg("%s: %s (%s)", out, sw_result_str(r), e.check);
        assert_int_equal(got.clips_count, 1);
        assert_int_equal(got.skeleton->joints_count, orig.skeleton->joints_count);
        assert_string_equal(sw_clip_name(got.clips[0]), "motion_mirrored");
        float worst = bake_check(orig.skeleton, m, orig.clips[0], got.clips[0], 301);
        print_message("sinew mirror -> %s: sampled vs job on the original, worst %.3g\n", exts[x],
                      (double)worst);
        assert_true(worst <= 1e-4f);
        sw_asset_free(&got);
        remove(out);
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' mirror '%s' 2> /dev/null", cli, path);
    int status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
    snprintf(cmd, sizeof cmd, "'%s' mirror '%s' -o /tmp/x.sinew --pair Nope,Hips 2> /dev/null", cli,
             path);
    status = system(cmd);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
    sw_mirror_destroy(m, NULL);
    sw_asset_free(&orig);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_swap_name_table),
        cmocka_unit_test(test_twin_table),
        cmocka_unit_test(test_asymmetric_rest),
        cmocka_unit_test(test_axis_detection),
        cmocka_unit_test(test_humanoid),
        cmocka_unit_test(test_cmu),
        cmocka_unit_test(test_robot),
        cmocka_unit_test(test_job_validity),
        cmocka_unit_test(test_bake_humanoid),
        cmocka_unit_test(test_bake_tracks),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
