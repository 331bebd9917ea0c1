/* Ragdolls without a physics engine: the humanoid template and its errors,
 * description checks, drive and read-back through a minimal engine written
 * here (kinematic bodies moved exactly by their velocities), interpolation,
 * per-joint blend weights, face up / down and root alignment on known lying
 * poses, spawn failures, and the fixed-step stepper. The ODE backend's
 * tests are in test_ragdoll_ode.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "ragdoll_fixture.h"
/* (the fixture reads the built-in humanoid and assets: tools and showcase) */
#include "sinew/core/blend.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/ragdoll.h"

/* ---- a minimal engine: states only, kinematic motion integrated exactly ---- */

#define MOCK_MAX 64

typedef struct mock_engine {
    sw_physics_body_state state[MOCK_MAX];
    bool body_alive[MOCK_MAX];
    bool kinematic[MOCK_MAX];
    bool joint_alive[MOCK_MAX];
    sw_physics_joint_desc joint[MOCK_MAX];
    sw_physics_motor motor[MOCK_MAX];
    uint32_t bodies_alive, joints_alive;
    int32_t fail_joint_at; /* create_joint fails on this call (0-based); -1: never */
    uint32_t joint_calls;
} mock_engine;

/* Takes the first free slot of `alive` (count kept in *n), or -1. */
static int32_t mock_take(bool* alive, uint32_t* n) {
    for (uint32_t i = 0; i < MOCK_MAX; ++i) {
        if (alive[i]) continue;
        alive[i] = true;
        ++*n;
        return (int32_t)i;
    }
    return -1;
}
static void mock_release(bool* alive, uint32_t* n, sw_physics_handle h) {
    assert_true(h < MOCK_MAX && alive[h]);
    alive[h] = false;
    --*n;
}
static sw_result mock_create_body(void* user, const sw_physics_body_desc* d,
                                  sw_physics_handle* out) {
    mock_engine* m = (mock_engine*)user;
    const int32_t i = mock_take(m->body_alive, &m->bodies_alive);
    if (i < 0) return SW_RESULT_LIMIT;
    m->state[i] = d->state;
    m->kinematic[i] = d->kinematic;
    *out = (sw_physics_handle)i;
    return SW_RESULT_OK;
}
static void mock_destroy_body(void* user, sw_physics_handle h) {
    mock_engine* m = (mock_engine*)user;
    mock_release(m->body_alive, &m->bodies_alive, h);
}
static sw_result mock_create_joint(void* user, const sw_physics_joint_desc* d,
                                   sw_physics_handle* out) {
    mock_engine* m = (mock_engine*)user;
    if ((int32_t)m->joint_calls++ == m->fail_joint_at) return SW_RESULT_OUT_OF_MEMORY;
    assert_true(m->body_alive[d->parent] && m->body_alive[d->child]);
    const int32_t i = mock_take(m->joint_alive, &m->joints_alive);
    if (i < 0) return SW_RESULT_LIMIT;
    m->joint[i] = *d;
    *out = (sw_physics_handle)i;
    return SW_RESULT_OK;
}
static void mock_destroy_joint(void* user, sw_physics_handle h) {
    mock_engine* m = (mock_engine*)user;
    mock_release(m->joint_alive, &m->joints_alive, h);
}
static void mock_set_kinematic(void* user, sw_physics_handle h, bool k) {
    ((mock_engine*)user)->kinematic[h] = k;
}
static void mock_set_state(void* user, sw_physics_handle h, const sw_physics_body_state* s) {
    ((mock_engine*)user)->state[h] = *s;
}
static void mock_get_state(void* user, sw_physics_handle h, sw_physics_body_state* out) {
    *out = ((mock_engine*)user)->state[h];
}
static void mock_impulse(void* user, sw_physics_handle h, sw_vec3 j, sw_vec3 p) {
    (void)p;
    mock_engine* m = (mock_engine*)user;
    m->state[h].linear_velocity = sw_vec3_add(m->state[h].linear_velocity, j);
}
static void mock_motor(void* user, sw_physics_handle h, const sw_physics_motor* mo) {
    ((mock_engine*)user)->motor[h] = *mo;
}

static sw_physics mock_physics(mock_engine* m) {
    memset(m, 0, sizeof *m);
    m->fail_joint_at = -1;
    sw_physics p = {m,
                    mock_create_body,
                    mock_destroy_body,
                    mock_create_joint,
                    mock_destroy_joint,
                    mock_set_kinematic,
                    mock_set_state,
                    mock_get_state,
                    mock_impulse,
                    mock_motor};
    return p;
}

/* Moves every body by its velocities over h: exact for constant velocities. */
static void mock_step(mock_engine* m, float h) {
    for (uint32_t i = 0; i < MOCK_MAX; ++i) {
        if (!m->body_alive[i]) continue;
        sw_physics_body_state* s = &m->state[i];
        s->transform.t = sw_vec3_add(s->transform.t, sw_vec3_scale(s->linear_velocity, h));
        float w = sw_vec3_length(s->angular_velocity);
        if (w > 0.0f)
            s->transform.r = sw_quat_normalize(
                sw_quat_mul(sw_quat_from_axis_angle(s->angular_velocity, w * h), s->transform.r));
    }
}

/* ---- template ---- */

static void test_find_humanoid(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    const sw_ragdoll_humanoid_joints* h = &c.joints;
#define NAME(j) sw_skeleton_joint_name(c.skel, (uint32_t)(j))
    assert_string_equal(NAME(h->hips), "Hips");
    assert_string_equal(NAME(h->spine), "Spine");
    assert_string_equal(NAME(h->chest), "Spine1");
    assert_string_equal(NAME(h->neck), "Neck");
    assert_string_equal(NAME(h->head), "Head");
    assert_string_equal(NAME(h->upper_arm[0]), "LeftArm");
    assert_string_equal(NAME(h->forearm[1]), "RightForeArm");
    assert_string_equal(NAME(h->hand[0]), "LeftHand");
    assert_string_equal(NAME(h->thigh[1]), "RightUpLeg");
    assert_string_equal(NAME(h->shin[0]), "LeftLeg");
    assert_string_equal(NAME(h->foot[1]), "RightFoot");
    rd_free(&c);
    if (!rd_load_robot(&c)) return;
    h = &c.joints;
    assert_string_equal(NAME(h->hips), "Hips");
    assert_string_equal(NAME(h->spine), "Abdomen");
    assert_string_equal(NAME(h->chest), "Torso_1");
    assert_string_equal(NAME(h->upper_arm[0]), "UpperArmL");
    assert_string_equal(NAME(h->hand[1]), "Palm2R");
    assert_string_equal(NAME(h->shin[0]), "LowerLegL");
    assert_string_equal(NAME(h->foot[0]), "FootL");
    /* Its legs hang under "Body", beside "Hips": the pelvis body goes there. */
    assert_string_equal(NAME(c.desc.bodies[0].joint), "Body");
#undef NAME
    rd_free(&c);
}

/* Distance from p to the segment a-b. */
static float seg_dist(sw_vec3 p, sw_vec3 a, sw_vec3 b) {
    sw_vec3 ab = sw_vec3_sub(b, a);
    float t = sw_vec3_dot(sw_vec3_sub(p, a), ab) / sw_vec3_dot(ab, ab);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return sw_vec3_length(sw_vec3_sub(p, sw_vec3_add(a, sw_vec3_scale(ab, t))));
}

static void test_desc_humanoid(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    const sw_ragdoll_desc* d = &c.desc;
    assert_int_equal(d->bodies_count, 12);
    assert_int_equal(d->joints_count, 11);
    for (uint32_t b = 0; b < d->bodies_count; ++b)
        assert_int_equal(c.parts[b], (sw_ragdoll_part)(b + 1));
    assert_int_equal(c.parts[12], SW_RAGDOLL_PART_NONE);
    assert_string_equal(sw_ragdoll_part_str(SW_RAGDOLL_PART_LEFT_SHIN), "left_shin");
    assert_string_equal(sw_ragdoll_part_str((sw_ragdoll_part)99), "none");
    /* Mass = density x capsule volume (pi r^2 h + 4/3 pi r^3). */
    float total = 0.0f;
    for (uint32_t b = 0; b < d->bodies_count; ++b) {
        const sw_ragdoll_body_desc* bd = &d->bodies[b];
        float r = bd->radius, h = sw_vec3_length(sw_vec3_sub(bd->b, bd->a));
        float v = 3.14159265f * r * r * h + 4.0f / 3.0f * 3.14159265f * r * r * r;
        assert_near(bd->mass, 1000.0f * v, 1e-3f * bd->mass);
        total += bd->mass;
    }
    print_message("sinew_humanoid ragdoll: %u bodies, %.1f kg\n", d->bodies_count, (double)total);
    assert_true(total > 40.0f && total < 100.0f);
    /* Limb capsules lie on their bones (model space, rest pose). */
    const sw_xform4* rest = sw_skeleton_rest_pose(c.skel);
    rd_model(&c, rest, sw_xform_identity(), c.model);
    const struct {
        sw_ragdoll_part part;
        int32_t from, to;
    } bones[] = {
        {SW_RAGDOLL_PART_LEFT_UPPER_ARM, c.joints.upper_arm[0], c.joints.forearm[0]},
        {SW_RAGDOLL_PART_LEFT_FOREARM, c.joints.forearm[0], c.joints.hand[0]},
        {SW_RAGDOLL_PART_RIGHT_THIGH, c.joints.thigh[1], c.joints.shin[1]},
        {SW_RAGDOLL_PART_RIGHT_SHIN, c.joints.shin[1], c.joints.foot[1]},
    };
    for (uint32_t i = 0; i < sizeof bones / sizeof bones[0]; ++i) {
        const sw_ragdoll_body_desc* bd = &d->bodies[bones[i].part - 1];
        sw_xform jm = rd_rigid(&c.model[bd->joint]);
        sw_vec3 a = sw_xform_point(jm, bd->a), b = sw_xform_point(jm, bd->b);
        sw_vec3 p0 = rd_mat_pos(&c.model[bones[i].from]), p1 = rd_mat_pos(&c.model[bones[i].to]);
        assert_true(seg_dist(a, p0, p1) < 1e-5f);
        assert_true(seg_dist(b, p0, p1) < 1e-5f);
        /* The capsule's rounded ends reach the joints. */
        assert_near(sw_vec3_length(sw_vec3_sub(a, p0)), bd->radius, 1e-5f);
        assert_near(sw_vec3_length(sw_vec3_sub(b, p1)), bd->radius, 1e-5f);
    }
    assert_int_equal(sw_ragdoll_desc_validate(d, c.skel, NULL), SW_RESULT_OK);
    rd_free(&c);
    /* RobotExpressive's foot joints sit at its soles: its shin capsules lie
     * on their bones, start a radius below the knee and stop short of the
     * foot so that their lowest point at rest is a tenth of the bone above
     * the lowest joint of the rest pose (the ground). */
    if (!rd_load_robot(&c)) return;
    d = &c.desc;
    rest = sw_skeleton_rest_pose(c.skel);
    rd_model(&c, rest, sw_xform_identity(), c.model);
    float ground = INFINITY;
    for (uint32_t j = 0; j < c.skel->joints_count; ++j)
        ground = fminf(ground, rd_mat_pos(&c.model[j]).y);
    for (int s = 0; s < 2; ++s) {
        const sw_ragdoll_part part =
            s == 0 ? SW_RAGDOLL_PART_LEFT_SHIN : SW_RAGDOLL_PART_RIGHT_SHIN;
        const sw_ragdoll_body_desc* bd = &d->bodies[part - 1];
        sw_xform jm = rd_rigid(&c.model[bd->joint]);
        sw_vec3 a = sw_xform_point(jm, bd->a), b = sw_xform_point(jm, bd->b);
        sw_vec3 p0 = rd_mat_pos(&c.model[c.joints.shin[s]]),
                p1 = rd_mat_pos(&c.model[c.joints.foot[s]]);
        const float len = sw_vec3_length(sw_vec3_sub(p1, p0));
        assert_true(seg_dist(a, p0, p1) < 1e-4f);
        assert_true(seg_dist(b, p0, p1) < 1e-4f);
        assert_near(sw_vec3_length(sw_vec3_sub(a, p0)), bd->radius, 1e-4f);
        assert_true(p1.y - ground < 0.1f * len); /* the foot joint is that low */
        const float lowest = fminf(a.y, b.y) - bd->radius;
        print_message("RobotExpressive shin %d: foot joint %.3f m above the ground, capsule %.3f m "
                      "(bone %.3f m)\n",
                      s, (double)(p1.y - ground), (double)(lowest - ground), (double)len);
        assert_near(lowest - ground, 0.1f * len, 0.01f * len);
    }
    rd_free(&c);
}

/* A skeleton from (name, parent, x, y, z) rows, rest rotations identity. */
typedef struct mini_joint {
    const char* name;
    int32_t parent;
    float x, y, z;
} mini_joint;

static const sw_skeleton* mini_skeleton(const mini_joint* rows, uint32_t n) {
    sw_skeleton_joint j[32];
    for (uint32_t i = 0; i < n; ++i) {
        j[i].name = rows[i].name;
        j[i].parent = rows[i].parent;
        j[i].rest = sw_xform_identity();
        j[i].rest.t = sw_vec3_make(rows[i].x, rows[i].y, rows[i].z);
    }
    const sw_skeleton_desc sd = {j, n};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&sd, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

static void test_humanoid_errors(void** state) {
    (void)state;
    /* No arms. */
    const mini_joint armless[] = {
        {"Hips", -1, 0, 1, 0},         {"Spine", 0, 0, 0.2f, 0},       {"Neck", 1, 0, 0.3f, 0},
        {"Head", 2, 0, 0.1f, 0},       {"LeftUpLeg", 0, 0.1f, 0, 0},   {"LeftLeg", 4, 0, -0.4f, 0},
        {"LeftFoot", 5, 0, -0.4f, 0},  {"RightUpLeg", 0, -0.1f, 0, 0}, {"RightLeg", 7, 0, -0.4f, 0},
        {"RightFoot", 8, 0, -0.4f, 0},
    };
    const sw_skeleton* s = mini_skeleton(armless, 10);
    sw_ragdoll_humanoid_joints h;
    sw_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(sw_ragdoll_humanoid_find(s, &h, &err), SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "humanoid joint");
    assert_int_equal(err.index, SW_RAGDOLL_PART_LEFT_UPPER_ARM);
    sw_ragdoll_desc d;
    memset(&d, 0x5a, sizeof d);
    const sw_ragdoll_desc before = d;
    assert_int_equal(sw_ragdoll_desc_humanoid(s, &h, NULL, &d, NULL, &err), SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "humanoid joint");
    assert_int_equal(err.index, SW_RAGDOLL_PART_LEFT_UPPER_ARM);
    assert_memory_equal(&d, &before, sizeof d); /* untouched on failure */
    sw_skeleton_destroy(s, NULL);

    /* A zero-length forearm (the hand sits on the elbow). */
    const mini_joint flat[] = {
        {"Hips", -1, 0, 1, 0},
        {"Spine", 0, 0, 0.2f, 0},
        {"Neck", 1, 0, 0.3f, 0},
        {"Head", 2, 0, 0.1f, 0},
        {"LeftArm", 1, 0.2f, 0.25f, 0},
        {"LeftForeArm", 4, 0.3f, 0, 0},
        {"LeftHand", 5, 0, 0, 0},
        {"RightArm", 1, -0.2f, 0.25f, 0},
        {"RightForeArm", 7, -0.3f, 0, 0},
        {"RightHand", 8, -0.3f, 0, 0},
        {"LeftUpLeg", 0, 0.1f, 0, 0},
        {"LeftLeg", 10, 0, -0.4f, 0},
        {"LeftFoot", 11, 0, -0.4f, 0},
        {"RightUpLeg", 0, -0.1f, 0, 0},
        {"RightLeg", 13, 0, -0.4f, 0},
        {"RightFoot", 14, 0, -0.4f, 0},
    };
    s = mini_skeleton(flat, 16);
    assert_int_equal(sw_ragdoll_humanoid_find(s, &h, &err), SW_RESULT_OK);
    assert_int_equal(sw_ragdoll_desc_humanoid(s, &h, NULL, &d, NULL, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "bone length > 0");
    assert_int_equal(err.index, SW_RAGDOLL_PART_LEFT_FOREARM);
    /* Only one spine joint: no spine body, the chest is it. */
    assert_int_equal(h.spine, -1);
    assert_string_equal(sw_skeleton_joint_name(s, (uint32_t)h.chest), "Spine");
    /* Index out of range; a part not below its parent part; bad options. */
    sw_ragdoll_humanoid_joints bad = h;
    bad.head = 999;
    assert_int_equal(sw_ragdoll_desc_humanoid(s, &bad, NULL, &d, NULL, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "joint in range");
    bad = h;
    bad.hand[0] = h.hand[1] - 1; /* RightForeArm: a real place, the forearm now long enough */
    bad.shin[0] = h.shin[1];     /* the right shin is not below the left thigh */
    bad.foot[0] = h.foot[1];
    assert_int_equal(sw_ragdoll_desc_humanoid(s, &bad, NULL, &d, NULL, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "chain to hips");
    sw_ragdoll_humanoid_options opt;
    memset(&opt, 0, sizeof opt);
    opt.density = NAN;
    assert_int_equal(sw_ragdoll_desc_humanoid(s, &h, &opt, &d, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ragdoll_desc_humanoid(NULL, &h, NULL, &d, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_skeleton_destroy(s, NULL);
}

/* One valid description, one field broken per case. */
/* Deviation of joint k's child from its parent in a pose (model rotations),
 * from the reference, as swing (the angle the twist axis is turned by) and
 * twist (what is left about the axis after the shortest rotation taking the
 * axis there): a second implementation of the limits' measure. */
static void admit_measure(const rd_character* c, const sw_ragdoll_desc* d, uint32_t k, sw_quat ref,
                          float* swing, float* twist) {
    const sw_ragdoll_joint_desc* jd = &d->joints[k];
    const sw_quat rp = rd_rigid(&c->model[d->bodies[jd->parent].joint]).r;
    const sw_quat rc = rd_rigid(&c->model[d->bodies[jd->child].joint]).r;
    const sw_quat dev = sw_quat_mul(sw_quat_conjugate(sw_quat_mul(rp, ref)), rc);
    const sw_vec3 t = sw_vec3_normalize(jd->twist_axis);
    const sw_vec3 moved = sw_quat_rotate(dev, t);
    *swing = acosf(fmaxf(-1.0f, fminf(1.0f, sw_vec3_dot(t, moved))));
    const sw_quat rest_of = sw_quat_mul(sw_quat_conjugate(sw_quat_from_to(t, moved)), dev);
    /* rest_of turns about t only: its angle, signed by its axis along t. */
    const float sn = rest_of.x * t.x + rest_of.y * t.y + rest_of.z * t.z;
    float a = 2.0f * atan2f(sn, rest_of.w);
    if (a > 3.14159265f) a -= 6.2831853f;
    if (a < -3.14159265f) a += 6.2831853f;
    *twist = a;
}

/* Limits derived from the animation: a description narrowed to 0.05 rad
 * swing and +-0.02 rad twist, widened with sw_ragdoll_desc_admit_pose over
 * every 1/30 s of the walk (margin 0.05), ends with each joint's limits at
 * the walk's largest swing and twist (measured a second way) plus the
 * margin, or the narrowed value where that is wider; wide limits stay. */
static void test_admit_pose(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    sw_ragdoll_desc d = c.desc;
    const float margin = 0.05f;
    sw_quat ref[SW_RAGDOLL_MAX_BODIES];
    for (uint32_t k = 0; k < d.joints_count; ++k) {
        d.joints[k].swing_limit = 0.05f;
        d.joints[k].twist_min = -0.02f;
        d.joints[k].twist_max = 0.02f;
        ref[k] = sw_quat_normalize(d.joints[k].reference); /* the template's are not zero */
    }
    float smax[SW_RAGDOLL_MAX_BODIES], tmin[SW_RAGDOLL_MAX_BODIES], tmax[SW_RAGDOLL_MAX_BODIES];
    for (uint32_t k = 0; k < d.joints_count; ++k)
        smax[k] = 0.0f, tmin[k] = 1e9f, tmax[k] = -1e9f;
    const int frames = (int)(c.walk->duration * 30.0f);
    sw_error err;
    for (int f = 0; f <= frames; ++f) {
        sw_xform root;
        rd_sample(&c, (float)f / 30.0f, c.pose, &root);
        assert_int_equal(
            sw_ragdoll_desc_admit_pose(&d, c.skel, c.pose, c.skel->packets_count, margin, &err),
            SW_RESULT_OK);
        rd_model(&c, c.pose, sw_xform_identity(), c.model);
        for (uint32_t k = 0; k < d.joints_count; ++k) {
            float sw, tw;
            admit_measure(&c, &d, k, ref[k], &sw, &tw);
            smax[k] = fmaxf(smax[k], sw);
            tmin[k] = fminf(tmin[k], tw);
            tmax[k] = fmaxf(tmax[k], tw);
        }
    }
    for (uint32_t k = 0; k < d.joints_count; ++k) {
        const sw_ragdoll_joint_desc* jd = &d.joints[k];
        assert_near(jd->swing_limit, fmaxf(0.05f, smax[k] + margin), 1e-3f);
        assert_near(jd->twist_min, fminf(-0.02f, tmin[k] - margin), 1e-3f);
        assert_near(jd->twist_max, fmaxf(0.02f, tmax[k] + margin), 1e-3f);
        /* the template's limits admit this walk already: no wider than them */
        assert_true(jd->swing_limit <= c.desc.joints[k].swing_limit);
    }
    /* joints 7 and 8: the left hip (child: left thigh) and knee */
    assert_int_equal(c.parts[d.joints[7].child], SW_RAGDOLL_PART_LEFT_THIGH);
    print_message(
        "admit: walk's largest left hip swing %.3f rad -> limit %.3f, left knee %.3f -> %.3f\n",
        (double)smax[7], (double)d.joints[7].swing_limit, (double)smax[8],
        (double)d.joints[8].swing_limit);
    /* Wide limits stay as they are. */
    sw_ragdoll_desc wide = c.desc;
    assert_int_equal(
        sw_ragdoll_desc_admit_pose(&wide, c.skel, c.pose, c.skel->packets_count, margin, NULL),
        SW_RESULT_OK);
    assert_memory_equal(&wide, &c.desc, sizeof wide);
    /* Errors leave the desc unchanged. */
    assert_int_equal(
        sw_ragdoll_desc_admit_pose(NULL, c.skel, c.pose, c.skel->packets_count, 0.0f, NULL),
        SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ragdoll_desc_admit_pose(&d, c.skel, c.pose, 0, 0.0f, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(
        sw_ragdoll_desc_admit_pose(&d, c.skel, c.pose, c.skel->packets_count, -1.0f, NULL),
        SW_RESULT_INVALID_ARGUMENT);
    sw_ragdoll_desc before = d;
    sw_xform bad = sw_pose_get(c.pose, 3);
    bad.r.x = NAN;
    sw_pose_set(c.pose, 3, bad);
    assert_int_equal(
        sw_ragdoll_desc_admit_pose(&d, c.skel, c.pose, c.skel->packets_count, 0.0f, &err),
        SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "finite pose");
    assert_int_equal(err.index, 3);
    assert_memory_equal(&before, &d, sizeof d);
    rd_free(&c);
}

static void test_desc_validate(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    const sw_ragdoll_desc good = c.desc;
    sw_ragdoll_desc d;
    sw_error err;
    struct {
        const char* check;
        sw_result result;
    } cases[] = {
        {"bodies count", SW_RESULT_LIMIT},
        {"joints count = bodies count - 1", SW_RESULT_LIMIT},
        {"body joint in range", SW_RESULT_BAD_DATA},
        {"one body per joint", SW_RESULT_BAD_DATA},
        {"capsule finite", SW_RESULT_BAD_DATA},
        {"radius > 0", SW_RESULT_BAD_DATA},
        {"mass > 0", SW_RESULT_BAD_DATA},
        {"joint bodies in range", SW_RESULT_BAD_DATA},
        {"parent body < child body", SW_RESULT_BAD_DATA},
        {"child of one joint", SW_RESULT_BAD_DATA},
        {"body joint below parent body's joint", SW_RESULT_BAD_DATA},
        {"twist axis non-zero", SW_RESULT_BAD_DATA},
        {"limits in range", SW_RESULT_BAD_DATA},
        {"limits in range", SW_RESULT_BAD_DATA},
        {"torque >= 0", SW_RESULT_BAD_DATA},
        {"reference unit", SW_RESULT_BAD_DATA},
        {"face body in range", SW_RESULT_BAD_DATA},
        {"trunk body in range", SW_RESULT_BAD_DATA},
        {"settle values >= 0", SW_RESULT_BAD_DATA},
    };
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        d = good;
        switch (i) {
        case 0:
            d.bodies_count = 0;
            break;
        case 1:
            d.joints_count = 3;
            break;
        case 2:
            d.bodies[3].joint = c.skel->joints_count;
            break;
        case 3:
            d.bodies[5].joint = d.bodies[4].joint;
            break;
        case 4:
            d.bodies[2].a.y = NAN;
            break;
        case 5:
            d.bodies[2].radius = 0.0f;
            break;
        case 6:
            d.bodies[2].mass = -1.0f;
            break;
        case 7:
            d.joints[1].child = 40;
            break;
        case 8:
            d.joints[1].parent = d.joints[1].child;
            break;
        case 9:
            d.joints[3].child = d.joints[2].child;
            break;
        case 10:
            d.joints[8].parent = 4;
            break; /* left shin under the left upper arm */
        case 11:
            d.joints[0].twist_axis = sw_vec3_make(0, 0, 0);
            break;
        case 12:
            d.joints[0].swing_limit = 4.0f;
            break;
        case 13:
            d.joints[0].twist_min = 0.5f;
            d.joints[0].twist_max = 0.2f;
            break;
        case 14:
            d.joints[0].max_torque = -1.0f;
            break;
        case 15:
            d.joints[0].reference = sw_quat_make(0, 0, 0, 2);
            break;
        case 16:
            d.face_body = 12;
            break;
        case 17:
            d.trunk_body = 12;
            break;
        case 18:
            d.settle_time = -1.0f;
            break;
        default:
            break;
        }
        memset(&err, 0, sizeof err);
        assert_int_equal(sw_ragdoll_desc_validate(&d, c.skel, &err), cases[i].result);
        assert_string_equal(err.check, cases[i].check);
        mock_engine m;
        sw_physics p = mock_physics(&m);
        sw_ragdoll* r = NULL;
        assert_int_equal(sw_ragdoll_create(&d, c.skel, &p, NULL, &r, &err), cases[i].result);
        assert_null(r);
    }
    d = good;
    assert_int_equal(sw_ragdoll_desc_validate(&d, NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    /* The all-zero desc fails, never crashes. */
    memset(&d, 0, sizeof d);
    assert_int_equal(sw_ragdoll_desc_validate(&d, c.skel, NULL), SW_RESULT_LIMIT);
    rd_free(&c);
}

/* ---- drive and read-back ---- */

static void check_drive_read(rd_character* c) {
    mock_engine m;
    sw_physics p = mock_physics(&m);
    sw_ragdoll* r = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(sw_ragdoll_create(&c->desc, c->skel, &p, NULL, &r, &err), SW_RESULT_OK);
    sw_xform root;
    rd_sample(c, 0.0f, c->pose, &root);
    root.r = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.7f);
    root.t = sw_vec3_make(2.0f, 0.0f, -1.0f);
    assert_int_equal(sw_ragdoll_spawn(r, c->pose, c->skel->packets_count, root, 1, &err),
                     SW_RESULT_OK);
    assert_int_equal(m.bodies_alive, c->desc.bodies_count);
    assert_int_equal(m.joints_alive, c->desc.joints_count);
    const float h = 1.0f / 60.0f;
    float worst = 0.0f, worst_prev = 0.0f;
    sw_xform4* prev = rd_pose_alloc(c->skel->packets_count);
    memcpy(prev, c->pose, sizeof(sw_xform4) * c->skel->packets_count);
    sw_xform prev_root = root;
    for (int i = 1; i <= 90; ++i) {
        sw_xform rr;
        rd_sample(c, (float)i * h, c->pose, &rr);
        rr = sw_xform_mul(root, rr);
        const sw_ragdoll_drive_desc d = {c->pose, c->skel->packets_count, rr, h};
        assert_int_equal(sw_ragdoll_drive(r, &d, &err), SW_RESULT_OK);
        mock_step(&m, h);
        assert_int_equal(sw_ragdoll_capture(r, h), SW_RESULT_OK);
        assert_int_equal(sw_ragdoll_read(r, 1.0f, rr, c->pose, c->skel->packets_count, c->pose2,
                                         c->skel->packets_count),
                         SW_RESULT_OK);
        float e = rd_max_joint_error(c, c->pose, c->pose2, rr, c->model, c->model2);
        if (!(e <= worst)) worst = e;
        /* alpha 0: the previous step's pose (under its root). */
        assert_int_equal(sw_ragdoll_read(r, 0.0f, prev_root, prev, c->skel->packets_count, c->pose2,
                                         c->skel->packets_count),
                         SW_RESULT_OK);
        e = rd_max_joint_error(c, prev, c->pose2, prev_root, c->model, c->model2);
        if (!(e <= worst_prev)) worst_prev = e;
        memcpy(prev, c->pose, sizeof(sw_xform4) * c->skel->packets_count);
        prev_root = rr;
    }
    print_message("%s: drive + exact kinematic motion + read-back: worst joint error %.2e m "
                  "(alpha 1), %.2e m (alpha 0 vs the previous step's pose)\n",
                  c->name, (double)worst, (double)worst_prev);
    assert_true(worst < 1e-4f);
    assert_true(worst_prev < 1e-4f);
    /* NaN in the pose: named error, nothing sent. */
    sw_xform bad = sw_pose_get(c->pose, 3);
    bad.r.x = NAN;
    sw_pose_set(c->pose, 3, bad);
    const sw_ragdoll_drive_desc d = {c->pose, c->skel->packets_count, root, h};
    memset(&err, 0, sizeof err);
    assert_int_equal(sw_ragdoll_drive(r, &d, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "finite pose");
    assert_int_equal(err.index, 3);
    sw_ragdoll_destroy(r, NULL);
    assert_int_equal(m.bodies_alive, 0);
    assert_int_equal(m.joints_alive, 0);
    free(prev);
}

static void test_drive_read_humanoid(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    check_drive_read(&c);
    rd_free(&c);
}

static void test_drive_read_robot(void** state) {
    (void)state;
    rd_character c;
    if (!rd_load_robot(&c)) return;
    check_drive_read(&c);
    rd_free(&c);
}

/* Motors: dynamic bodies' joints get the pose's relative rotation, the
 * child's strength, and a target velocity from the change between drives. */
static void test_motor_targets(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    mock_engine m;
    sw_physics p = mock_physics(&m);
    sw_ragdoll* r = NULL;
    assert_int_equal(sw_ragdoll_create(&c.desc, c.skel, &p, NULL, &r, NULL), SW_RESULT_OK);
    const sw_xform4* rest = sw_skeleton_rest_pose(c.skel);
    memcpy(c.pose, rest, sizeof(sw_xform4) * c.skel->packets_count);
    assert_int_equal(
        sw_ragdoll_spawn(r, c.pose, c.skel->packets_count, sw_xform_identity(), 0, NULL),
        SW_RESULT_OK);
    const uint32_t forearm = SW_RAGDOLL_PART_LEFT_FOREARM - 1, k = forearm - 1;
    assert_int_equal(sw_ragdoll_set_mode(r, forearm, SW_RAGDOLL_MODE_DYNAMIC), SW_RESULT_OK);
    assert_true(m.kinematic[sw_ragdoll_body_handle(r, forearm)] == false);
    assert_int_equal(sw_ragdoll_set_strength(r, forearm, 0.25f), SW_RESULT_OK);
    const float h = 0.01f;
    const sw_ragdoll_drive_desc d = {c.pose, c.skel->packets_count, sw_xform_identity(), h};
    assert_int_equal(sw_ragdoll_drive(r, &d, NULL), SW_RESULT_OK);
    /* Bend the elbow by 0.3 rad about Y: the target is that rotation. */
    sw_xform e = sw_pose_get(c.pose, c.desc.bodies[forearm].joint);
    const sw_quat bend = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.3f);
    e.r = sw_quat_mul(e.r, bend);
    sw_pose_set(c.pose, c.desc.bodies[forearm].joint, e);
    assert_int_equal(sw_ragdoll_drive(r, &d, NULL), SW_RESULT_OK);
    const sw_physics_motor* mo = &m.motor[k];
    sw_test_quat_near(sw_quat_dot(mo->target, bend) < 0 ? sw_quat_negate(mo->target) : mo->target,
                      bend, 1e-5f);
    assert_near(mo->strength, 0.25f, 0.0f);
    assert_near(mo->target_velocity.y, 0.3f / h, 1e-2f);
    /* Kinematic children get no motor. */
    assert_near(m.motor[0].strength, 0.0f, 0.0f);
    assert_int_equal(sw_ragdoll_set_strength(r, forearm, 1.5f), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ragdoll_set_mode(r, 99, SW_RAGDOLL_MODE_DYNAMIC),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_ragdoll_destroy(r, NULL);
    rd_free(&c);
}

/* ---- blend weights ---- */

static void test_blend_weights(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    mock_engine m;
    sw_physics p = mock_physics(&m);
    sw_ragdoll* r = NULL;
    assert_int_equal(sw_ragdoll_create(&c.desc, c.skel, &p, NULL, &r, NULL), SW_RESULT_OK);
    /* A struck left arm: the upper arm's subtree fully physical. */
    const uint32_t arm = SW_RAGDOLL_PART_LEFT_UPPER_ARM - 1;
    assert_int_equal(sw_ragdoll_set_subtree(r, arm, SW_RAGDOLL_MODE_DYNAMIC, 0.5f, 1.0f),
                     SW_RESULT_OK);
    const uint32_t lanes = c.skel->packets_count * 4u;
    float* w = (float*)malloc(sizeof(float) * lanes);
    assert_int_equal(sw_ragdoll_joint_weights(r, w, lanes - 1), SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_ragdoll_joint_weights(r, w, lanes), SW_RESULT_OK);
    const int32_t one[] = {c.joints.upper_arm[0], c.joints.forearm[0], c.joints.hand[0]};
    for (uint32_t j = 0; j < c.skel->joints_count; ++j) {
        bool in = false;
        for (uint32_t i = 0; i < 3; ++i)
            in = in || (int32_t)j == one[i];
        assert_near(w[j], in ? 1.0f : 0.0f, 0.0f);
    }
    /* Blend: weight 1 joints take the physics pose, weight 0 the animation. */
    sw_xform4* phys = rd_pose_alloc(c.skel->packets_count);
    sw_xform4* out = rd_pose_alloc(c.skel->packets_count);
    sw_test_random_pose(c.pose, c.skel->packets_count, c.skel->joints_count, 99u);
    sw_test_random_pose(phys, c.skel->packets_count, c.skel->joints_count, 100u);
    assert_int_equal(sw_ragdoll_blend(r, c.pose, phys, out, c.skel->packets_count), SW_RESULT_OK);
    for (uint32_t j = 0; j < c.skel->joints_count; ++j) {
        sw_xform want = sw_pose_get(w[j] > 0.5f ? phys : c.pose, j), got = sw_pose_get(out, j);
        sw_test_vec3_near(got.t, want.t, 1e-5f);
        sw_test_quat_near(sw_quat_dot(got.r, want.r) < 0 ? sw_quat_negate(got.r) : got.r, want.r,
                          1e-5f);
    }
    /* Half weight on the head: the blend job's nlerp of the two. */
    const uint32_t head = SW_RAGDOLL_PART_HEAD - 1;
    assert_int_equal(sw_ragdoll_set_weight(r, head, 0.5f), SW_RESULT_OK);
    assert_int_equal(sw_ragdoll_blend(r, c.pose, phys, out, c.skel->packets_count), SW_RESULT_OK);
    const uint32_t hj = c.desc.bodies[head].joint;
    sw_quat want = sw_quat_nlerp(sw_pose_get(c.pose, hj).r, sw_pose_get(phys, hj).r, 0.5f);
    sw_quat got = sw_pose_get(out, hj).r;
    sw_test_quat_near(sw_quat_dot(got, want) < 0 ? sw_quat_negate(got) : got, want, 1e-5f);
    assert_int_equal(sw_ragdoll_set_weight(r, head, NAN), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ragdoll_blend(r, c.pose, phys, c.pose, c.skel->packets_count),
                     SW_RESULT_OVERLAP);
    free(w);
    free(phys);
    free(out);
    sw_ragdoll_destroy(r, NULL);
    rd_free(&c);
}

/* ---- facing and root alignment on known lying poses ---- */

/* The humanoid's rest pose laid down: its Hips (the root joint, at the
 * origin of model space in x and z) turned by `lay` in model space. */
static void lying_pose(rd_character* c, sw_quat lay, sw_xform4* out) {
    memcpy(out, sw_skeleton_rest_pose(c->skel), sizeof(sw_xform4) * c->skel->packets_count);
    sw_xform hips = sw_pose_get(out, 0);
    hips.r = sw_quat_mul(lay, hips.r);
    hips.t.y = 0.15f;
    sw_pose_set(out, 0, hips);
}

static void test_facing_and_align(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    assert_int_equal(sw_skeleton_parents(c.skel)[0], -1); /* Hips is the root joint */
    const sw_vec3 X = sw_vec3_make(1, 0, 0), Y = sw_vec3_make(0, 1, 0);
    const struct {
        float lay;      /* about X: -pi/2 on the back (+Z forward turns to +Y) */
        float yaw;      /* the world root's turn */
        float clip_yaw; /* the get-up clip's lying pose turned in model space */
        sw_ragdoll_facing facing;
    } cases[] = {
        {-1.5707963f, 0.0f, 0.0f, SW_RAGDOLL_FACING_UP},
        {-1.5707963f, 2.0f, 0.0f, SW_RAGDOLL_FACING_UP},
        {1.5707963f, -1.0f, 0.0f, SW_RAGDOLL_FACING_DOWN},
        {1.5707963f, 0.5f, 0.6f, SW_RAGDOLL_FACING_DOWN},
        {-1.3f, 3.0f, -0.4f, SW_RAGDOLL_FACING_UP},
    };
    sw_xform4* clip = rd_pose_alloc(c.skel->packets_count);
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        mock_engine m;
        sw_physics p = mock_physics(&m);
        sw_ragdoll* r = NULL;
        assert_int_equal(sw_ragdoll_create(&c.desc, c.skel, &p, NULL, &r, NULL), SW_RESULT_OK);
        const sw_quat lay = sw_quat_from_axis_angle(X, cases[i].lay);
        lying_pose(&c, lay, c.pose);
        sw_xform root = sw_xform_identity();
        root.r = sw_quat_from_axis_angle(Y, cases[i].yaw);
        root.t = sw_vec3_make(3.0f, 0.0f, -2.0f);
        assert_int_equal(sw_ragdoll_spawn(r, c.pose, c.skel->packets_count, root, 0, NULL),
                         SW_RESULT_OK);
        sw_ragdoll_status st;
        assert_int_equal(sw_ragdoll_status_get(r, &st), SW_RESULT_OK);
        assert_int_equal(st.facing, cases[i].facing);
        /* The forward direction's height: cos of the lay angle's complement. */
        assert_near(st.facing_dot, -sinf(cases[i].lay), 1e-4f);
        assert_false(st.settled); /* no capture yet */
        assert_int_equal(sw_ragdoll_capture(r, 0.6f), SW_RESULT_OK);
        assert_int_equal(sw_ragdoll_status_get(r, &st), SW_RESULT_OK);
        assert_true(st.settled); /* no dynamic body; 0.6 s >= the default 0.5 s */
        assert_int_equal(st.facing, cases[i].facing);
        /* The get-up clip lies the same way, turned by clip_yaw in model
         * space: the root that puts it onto the ragdoll turns by
         * yaw - clip_yaw and puts its hips on the ragdoll's (x, z). */
        lying_pose(&c, sw_quat_mul(sw_quat_from_axis_angle(Y, cases[i].clip_yaw), lay), clip);
        sw_xform aligned;
        sw_error err;
        assert_int_equal(
            sw_ragdoll_align_root(r, clip, c.skel->packets_count, 0.0f, &aligned, &err),
            SW_RESULT_OK);
        sw_quat want = sw_quat_from_axis_angle(Y, cases[i].yaw - cases[i].clip_yaw);
        sw_test_quat_near(sw_quat_dot(aligned.r, want) < 0 ? sw_quat_negate(aligned.r) : aligned.r,
                          want, 1e-4f);
        sw_test_vec3_near(aligned.t, sw_vec3_make(3.0f, 0.0f, -2.0f), 1e-4f);
        /* Read in the aligned root's space, the pose is the clip's. */
        assert_int_equal(sw_ragdoll_read(r, 1.0f, aligned, clip, c.skel->packets_count, c.pose2,
                                         c.skel->packets_count),
                         SW_RESULT_OK);
        float e = rd_max_joint_error(&c, clip, c.pose2, aligned, c.model, c.model2);
        assert_true(e < 1e-4f);
        /* Bad input. */
        sw_xform nan_x = sw_pose_get(clip, 2);
        nan_x.t.x = NAN;
        sw_pose_set(clip, 2, nan_x);
        assert_int_equal(
            sw_ragdoll_align_root(r, clip, c.skel->packets_count, 0.0f, &aligned, &err),
            SW_RESULT_BAD_DATA);
        assert_string_equal(err.check, "finite pose");
        assert_int_equal(err.index, 2);
        sw_ragdoll_destroy(r, NULL);
    }
    free(clip);
    rd_free(&c);
}

/* A create_joint failure undoes the spawn: nothing is left in the engine. */
static void test_spawn_failure(void** state) {
    (void)state;
    rd_character c;
    rd_load_humanoid(&c);
    const sw_xform4* rest = sw_skeleton_rest_pose(c.skel);
    for (int32_t at = 0; at < (int32_t)c.desc.joints_count; ++at) {
        mock_engine m;
        sw_physics p = mock_physics(&m);
        m.fail_joint_at = at;
        sw_ragdoll* r = NULL;
        assert_int_equal(sw_ragdoll_create(&c.desc, c.skel, &p, NULL, &r, NULL), SW_RESULT_OK);
        sw_error err;
        assert_int_equal(
            sw_ragdoll_spawn(r, rest, c.skel->packets_count, sw_xform_identity(), 0, &err),
            SW_RESULT_OUT_OF_MEMORY);
        assert_int_equal(m.bodies_alive, 0);
        assert_int_equal(m.joints_alive, 0);
        /* Not spawned: per-frame calls refuse. */
        assert_int_equal(sw_ragdoll_capture(r, 0.01f), SW_RESULT_INVALID_ARGUMENT);
        sw_ragdoll_destroy(r, NULL);
    }
    rd_free(&c);
}

/* ---- stepper ---- */

static void test_stepper(void** state) {
    (void)state;
    sw_ragdoll_stepper s;
    memset(&s, 0, sizeof s);
    float alpha = -1.0f;
    assert_int_equal(sw_ragdoll_stepper_advance(&s, 1.0f / 60.0f, &alpha), 1);
    assert_near(alpha, 0.0f, 1e-6f);
    /* Random frame times: steps x step + accumulator = time added. */
    uint32_t seed = 5;
    s.step = 1.0f / 120.0f;
    s.accumulator = 0.0f;
    double total = 0.0;
    uint64_t steps = 0;
    for (int i = 0; i < 2000; ++i) {
        float dt = sw_test_rand(&seed, 0.0f, 0.05f);
        total += dt;
        uint32_t n = sw_ragdoll_stepper_advance(&s, dt, &alpha);
        assert_true(n <= SW_RAGDOLL_DEFAULT_MAX_STEPS);
        assert_true(alpha >= 0.0f && alpha < 1.0f);
        assert_near(alpha, s.accumulator / s.step, 1e-6f);
        steps += n;
    }
    assert_near((float)(total - (double)steps * (double)s.step - (double)s.accumulator), 0.0f,
                1e-3f);
    /* Beyond max_steps the time is dropped. */
    s.max_steps = 2;
    s.accumulator = 0.0f;
    assert_int_equal(sw_ragdoll_stepper_advance(&s, 1.0f, &alpha), 2);
    assert_true(s.accumulator < s.step);
    /* NaN and negative frame times count as 0. */
    const float acc = s.accumulator;
    assert_int_equal(sw_ragdoll_stepper_advance(&s, NAN, NULL), 0);
    assert_int_equal(sw_ragdoll_stepper_advance(&s, -1.0f, NULL), 0);
    assert_near(s.accumulator, acc, 0.0f);
    assert_int_equal(sw_ragdoll_stepper_advance(NULL, 1.0f, &alpha), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_humanoid),    cmocka_unit_test(test_desc_humanoid),
        cmocka_unit_test(test_humanoid_errors),  cmocka_unit_test(test_desc_validate),
        cmocka_unit_test(test_admit_pose),       cmocka_unit_test(test_drive_read_humanoid),
        cmocka_unit_test(test_drive_read_robot), cmocka_unit_test(test_motor_targets),
        cmocka_unit_test(test_blend_weights),    cmocka_unit_test(test_facing_and_align),
        cmocka_unit_test(test_spawn_failure),    cmocka_unit_test(test_stepper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
