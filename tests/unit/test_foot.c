/* Foot placement: CMU legs on a step up, a hole, a 20 degree slope (feet on
 * the surface within 1 mm, no over-extension, the pelvis lowered only when
 * needed, the foot tilted to the normal within its limit), a synthetic walk
 * down a step (pelvis continuous, against the unsmoothed pop), weight 0 and
 * 0.5, the capture itself jumping over a step and back, a four-legged
 * synthetic creature, and the validity table. The ground is analytic: a
 * height field hit by vertical rays. */
#include "ik_fixture.h"

#include "sinew/ik/foot.h"

#define PI_F 3.14159265f

/* ---- analytic ground ---- */

typedef enum ground_kind { GROUND_FLAT, GROUND_STEP, GROUND_SLOPE } ground_kind;

typedef struct ground {
    ground_kind kind;
    float height;   /* STEP: height beyond the edge; FLAT: the height */
    float edge_z;   /* STEP: the edge, along +Z */
    float edge_x;   /* STEP: only x > edge_x is raised (NAN: every x) */
    float angle;    /* SLOPE: rising along +Z */
    uint32_t calls; /* rays cast */
    bool bad_dir;   /* set when a ray was not straight down */
} ground;

static float ground_height(const ground* g, float x, float z) {
    switch (g->kind) {
    case GROUND_FLAT:
        return g->height;
    case GROUND_STEP:
        return (z >= g->edge_z && !(x <= g->edge_x)) ? g->height : 0.0f;
    case GROUND_SLOPE:
        return tanf(g->angle) * z;
    }
    return 0.0f;
}

static sw_vec3 ground_normal(const ground* g) {
    if (g->kind != GROUND_SLOPE) return sw_vec3_make(0, 1, 0);
    return sw_vec3_normalize(sw_vec3_make(0, 1, -tanf(g->angle)));
}

static bool ground_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                       sw_vec3* normal) {
    ground* g = user;
    g->calls++;
    if (fabsf(dir.x) > 1e-6f || fabsf(dir.z) > 1e-6f || fabsf(dir.y + 1.0f) > 1e-6f) {
        g->bad_dir = true;
        return false;
    }
    const float h = ground_height(g, from.x, from.z);
    if (h > from.y || h < from.y - max_distance) return false;
    *point = sw_vec3_make(from.x, h, from.z);
    *normal = ground_normal(g);
    return true;
}

/* ---- the CMU character ---- */

typedef struct cmu {
    sw_bvh_result bvh;
    ik_rig rig;
    uint32_t hips;
    sw_foot_leg legs[2];
    float leg_length[2];
} cmu;

static bool cmu_open(cmu* c) {
    memset(c, 0, sizeof(*c));
    if (!ik_read_cmu(&c->bvh)) return false;
    ik_rig_init(&c->rig, c->bvh.skeleton);
    uint32_t l[3], r[3];
    assert_int_equal(sw_ik_find_two_bone(c->bvh.skeleton, "LeftUpLeg", "LeftLeg", "LeftFoot", l),
                     SW_RESULT_OK);
    assert_int_equal(sw_ik_find_two_bone(c->bvh.skeleton, "RightUpLeg", "RightLeg", "RightFoot", r),
                     SW_RESULT_OK);
    c->hips = (uint32_t)sw_skeleton_find_joint(c->bvh.skeleton, "Hips");
    c->legs[0] = (sw_foot_leg){.hip = l[0], .knee = l[1], .ankle = l[2]};
    c->legs[1] = (sw_foot_leg){.hip = r[0], .knee = r[1], .ankle = r[2]};
    /* frame 0: standing */
    ik_rig_sample(&c->rig, c->bvh.clip, 0.0f);
    for (int i = 0; i < 2; ++i)
        c->leg_length[i] =
            ik_dist(ik_pos(&c->rig, c->legs[i].hip), ik_pos(&c->rig, c->legs[i].knee)) +
            ik_dist(ik_pos(&c->rig, c->legs[i].knee), ik_pos(&c->rig, c->legs[i].ankle));
    return true;
}

static void cmu_close(cmu* c) {
    ik_rig_free(&c->rig);
    sw_bvh_result_free(&c->bvh, NULL);
}

static sw_foot_job cmu_job(cmu* c, ground* g, sw_foot_state* st) {
    return (sw_foot_job){.skeleton = c->rig.skel,
                         .model = c->rig.model,
                         .model_count = c->rig.joints,
                         .pelvis = c->hips,
                         .legs = c->legs,
                         .legs_count = 2,
                         .ray = ground_ray,
                         .ray_user = g,
                         .dt = 1.0f / 60.0f,
                         .weight = 1.0f,
                         .state = st,
                         .pose = c->rig.pose,
                         .pose_count = c->rig.packets};
}

/* After a job: the model matrices match the pose, every ankle is as high
 * above the ground as it was above the floor (1 mm), no leg is longer than
 * its bones. */
static void check_feet(cmu* c, const ground* g, const sw_vec3 anim[2], float floor) {
    sw_mat4 fresh[64];
    assert_true(c->rig.joints <= 64);
    const sw_local_to_model_job l2m = {.skeleton = c->rig.skel,
                                       .local = c->rig.pose,
                                       .local_count = c->rig.packets,
                                       .out = fresh,
                                       .out_count = c->rig.joints};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
    for (uint32_t j = 0; j < c->rig.joints; ++j)
        sw_test_mat4_near(&fresh[j], &c->rig.model[j], 1e-5f);
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 a = ik_pos(&c->rig, c->legs[i].ankle);
        const float want = ground_height(g, a.x, a.z) + (anim[i].y - floor);
        assert_near(a.y, want, 1e-3);
        assert_near(a.x, anim[i].x, 1e-3);
        assert_near(a.z, anim[i].z, 1e-3);
        const float reach = ik_dist(ik_pos(&c->rig, c->legs[i].hip), a);
        assert_true(reach <= c->leg_length[i] + 1e-5f);
    }
}

static void test_step_up_and_hole(void** state) {
    (void)state;
    cmu c;
    if (!cmu_open(&c)) return;
    sw_vec3 anim[2] = {ik_pos(&c.rig, c.legs[0].ankle), ik_pos(&c.rig, c.legs[1].ankle)};
    const sw_vec3 hips0 = ik_pos(&c.rig, c.hips);
    SINEW_ALIGN16 sw_xform4 pose0[8];
    assert_true(c.rig.packets <= 8);
    memcpy(pose0, c.rig.pose, sizeof(sw_xform4) * c.rig.packets);
    const sw_mat4 hips_model0 = c.rig.model[c.hips];

    /* A step up under the left foot only (left foot at +x in CMU files): the
     * pelvis stays, the left leg bends up 12 cm. */
    const float mid_x = 0.5f * (anim[0].x + anim[1].x);
    ground up = {.kind = GROUND_STEP, .height = 0.12f, .edge_z = -10.0f, .edge_x = mid_x};
    assert_true(anim[0].x > mid_x);
    sw_foot_state st = {0};
    sw_foot_job job = cmu_job(&c, &up, &st);
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    assert_false(up.bad_dir);
    assert_int_equal(up.calls, 2);
    check_feet(&c, &up, anim, 0.0f);
    /* The pelvis stays, but for the reach rule: lowered until both targets
     * are within 0.999 of the leg length (the standing legs are nearly
     * straight). */
    float drop = 0.0f;
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 hip =
            sw_vec3_make(c.rig.model[c.legs[i].hip].m[12],
                         c.rig.model[c.legs[i].hip].m[13] - ik_pos(&c.rig, c.hips).y + hips0.y,
                         c.rig.model[c.legs[i].hip].m[14]);
        const sw_vec3 t = sw_vec3_make(anim[i].x, anim[i].y + (i == 0 ? 0.12f : 0.0f), anim[i].z);
        const double dh = hypot((double)t.x - hip.x, (double)t.z - hip.z);
        const double reach = 0.999 * c.leg_length[i];
        const double lowest = ((double)t.y - hip.y) + sqrt(reach * reach - dh * dh);
        if (lowest < drop) drop = (float)lowest;
    }
    print_message("standing CMU legs: pelvis lowered %.5f m for reach\n", (double)-drop);
    assert_true(drop > -0.005f);
    assert_near(ik_pos(&c.rig, c.hips).y - hips0.y, drop, 1e-5);
    assert_near(ik_pos(&c.rig, c.hips).x, hips0.x, 0.0);
    assert_near(ik_pos(&c.rig, c.hips).z, hips0.z, 0.0);
    assert_true(st.legs[0].grounded && st.legs[1].grounded);
    assert_near(st.legs[0].offset.value, 0.12f, 1e-6);
    assert_near(st.legs[1].offset.value, 0.0f, 1e-6);

    /* A hole 15 cm deep under the left foot: the pelvis goes down at least
     * 15 cm, the other leg bends. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    ground hole = {.kind = GROUND_STEP, .height = -0.15f, .edge_z = -10.0f, .edge_x = mid_x};
    st = (sw_foot_state){0};
    job = cmu_job(&c, &hole, &st);
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    check_feet(&c, &hole, anim, 0.0f);
    const sw_vec3 hips1 = ik_pos(&c.rig, c.hips);
    assert_true(hips1.y <= hips0.y - 0.15f + 1e-5f);
    assert_near(hips1.y - hips0.y, st.pelvis.value, 1e-5);
    assert_near(hips1.x, hips0.x, 1e-6);
    assert_near(hips1.z, hips0.z, 1e-6);
    /* The pelvis only moves: its rotation is the animated one. */
    sw_test_quat_near(sw_quat_from_mat4(&c.rig.model[c.hips]), sw_quat_from_mat4(&hips_model0),
                      1e-6f);

    /* A hole too deep for the lowest floor the ray looks at: the foot stays. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    ground deep = {.kind = GROUND_STEP, .height = -2.0f, .edge_z = -10.0f, .edge_x = mid_x};
    st = (sw_foot_state){0};
    job = cmu_job(&c, &deep, &st);
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    assert_false(st.legs[0].grounded);
    sw_test_vec3_near(ik_pos(&c.rig, c.legs[0].ankle), anim[0], 1e-4f);
    assert_near(ik_pos(&c.rig, c.hips).y, hips0.y, 0.005);
    cmu_close(&c);
}

static void test_slope(void** state) {
    (void)state;
    cmu c;
    if (!cmu_open(&c)) return;
    const sw_vec3 anim[2] = {ik_pos(&c.rig, c.legs[0].ankle), ik_pos(&c.rig, c.legs[1].ankle)};
    const sw_quat anim_rot[2] = {sw_quat_from_mat4(&c.rig.model[c.legs[0].ankle]),
                                 sw_quat_from_mat4(&c.rig.model[c.legs[1].ankle])};
    SINEW_ALIGN16 sw_xform4 pose0[8];
    memcpy(pose0, c.rig.pose, sizeof(sw_xform4) * c.rig.packets);

    /* 20 degrees rising along +Z, the character facing up the slope: a foot
     * behind z = 0 is below the floor and the pelvis goes down with it. */
    ground slope = {.kind = GROUND_SLOPE, .angle = 20.0f * PI_F / 180.0f};
    sw_foot_state st = {0};
    sw_foot_job job = cmu_job(&c, &slope, &st);
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    check_feet(&c, &slope, anim, 0.0f);
    const float lowest = fminf(ground_height(&slope, anim[0].x, anim[0].z),
                               ground_height(&slope, anim[1].x, anim[1].z));
    assert_true(st.pelvis.value <= fminf(lowest, 0.0f) + 1e-6f);
    /* Feet tilted by exactly the slope (20 degrees < the 35 degree default). */
    const sw_quat tilt = sw_quat_from_to(sw_vec3_make(0, 1, 0), ground_normal(&slope));
    for (int i = 0; i < 2; ++i)
        sw_test_quat_near(sw_quat_from_mat4(&c.rig.model[c.legs[i].ankle]),
                          sw_quat_mul(tilt, anim_rot[i]), 2e-5f);

    /* A 10 degree limit: the feet turn 10 degrees about the same axis. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    st = (sw_foot_state){0};
    job.max_tilt = 10.0f * PI_F / 180.0f;
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    check_feet(&c, &slope, anim, 0.0f);
    const sw_quat tilt10 = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), -job.max_tilt);
    for (int i = 0; i < 2; ++i) {
        sw_test_quat_near(sw_quat_from_mat4(&c.rig.model[c.legs[i].ankle]),
                          sw_quat_mul(tilt10, anim_rot[i]), 2e-5f);
        assert_near(ik_quat_angle(sw_quat_from_mat4(&c.rig.model[c.legs[i].ankle]), anim_rot[i]),
                    job.max_tilt, 1e-4);
    }

    /* no_tilt: feet keep their animated orientation. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    st = (sw_foot_state){0};
    job.max_tilt = 0.0f;
    job.no_tilt = true;
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    for (int i = 0; i < 2; ++i)
        sw_test_quat_near(sw_quat_from_mat4(&c.rig.model[c.legs[i].ankle]), anim_rot[i], 2e-5f);

    /* Weight 0.5: half the offsets, half the tilt. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    st = (sw_foot_state){0};
    job.no_tilt = false;
    job.weight = 0.5f;
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 a = ik_pos(&c.rig, c.legs[i].ankle);
        assert_near(a.y, anim[i].y + 0.5f * ground_height(&slope, anim[i].x, anim[i].z), 1e-3);
        assert_near(ik_quat_angle(sw_quat_from_mat4(&c.rig.model[c.legs[i].ankle]), anim_rot[i]),
                    10.0f * PI_F / 180.0f, 1e-4);
    }

    /* Weight 0: pose and model bit-identical; the state still advances. */
    memcpy(c.rig.pose, pose0, sizeof(sw_xform4) * c.rig.packets);
    ik_rig_model(&c.rig);
    sw_mat4 model0[64];
    memcpy(model0, c.rig.model, sizeof(sw_mat4) * c.rig.joints);
    st = (sw_foot_state){0};
    job.weight = 0.0f;
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    assert_memory_equal(pose0, c.rig.pose, sizeof(sw_xform4) * c.rig.packets);
    assert_memory_equal(model0, c.rig.model, sizeof(sw_mat4) * c.rig.joints);
    assert_true(st.started);
    assert_near(st.legs[0].offset.value, ground_height(&slope, anim[0].x, anim[0].z), 1e-6);
    cmu_close(&c);
}

/* A synthetic walk cycle on the CMU legs (hips swinging, knees bending in
 * swing) carried forward at 1.2 m/s over a 15 cm step down. */
static void walk_pose(cmu* c, const sw_xform4* rest_pose, float t, float lift, sw_mat4* root) {
    memcpy(c->rig.pose, rest_pose, sizeof(sw_xform4) * c->rig.packets);
    const float w = 2.0f * PI_F * 0.9f; /* 0.9 cycles per second */
    for (int i = 0; i < 2; ++i) {
        const float ph = w * t + (float)i * PI_F;
        sw_xform hip = sw_pose_get(c->rig.pose, c->legs[i].hip);
        hip.r =
            sw_quat_mul(hip.r, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), -0.35f * sinf(ph)));
        sw_pose_set(c->rig.pose, c->legs[i].hip, hip);
        sw_xform knee = sw_pose_get(c->rig.pose, c->legs[i].knee);
        const float bend = 0.15f + 0.6f * fmaxf(0.0f, sinf(ph));
        knee.r = sw_quat_mul(knee.r, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), bend));
        sw_pose_set(c->rig.pose, c->legs[i].knee, knee);
    }
    *root = sw_mat4_from_xform(
        (sw_xform){.t = sw_vec3_make(0, lift, 1.2f * t), .r = sw_quat_identity(), .s = {1, 1, 1}});
    const sw_local_to_model_job l2m = {.skeleton = c->rig.skel,
                                       .local = c->rig.pose,
                                       .local_count = c->rig.packets,
                                       .root_transform = root,
                                       .out = c->rig.model,
                                       .out_count = c->rig.joints};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

/* Runs the walk; returns the largest frame-to-frame change of the pelvis
 * offset (metres). */
static float walk_over_step(cmu* c, float half_life, bool check_end) {
    SINEW_ALIGN16 sw_xform4 rest[8];
    /* standing straight: the skeleton's rest pose, feet on the floor */
    memcpy(rest, sw_skeleton_rest_pose(c->rig.skel), sizeof(sw_xform4) * c->rig.packets);
    ground g = {.kind = GROUND_STEP, .height = -0.15f, .edge_z = 1.0f, .edge_x = NAN};
    sw_foot_state st = {0};
    sw_mat4 root;
    float prev = 0.0f, worst = 0.0f;
    const float dt = 1.0f / 60.0f;
    /* The rest pose has the hips at the origin: lift it so the lowest ankle
     * of the cycle sits 8 cm above the floor (y = 0), as a foot's height. */
    float low = 1e9f;
    for (int k = 0; k < 120; ++k) {
        walk_pose(c, rest, (float)k / 120.0f / 0.9f, 0.0f, &root);
        for (int i = 0; i < 2; ++i)
            low = fminf(low, ik_pos(&c->rig, c->legs[i].ankle).y);
    }
    const float lift = 0.08f - low;
    const float floor = 0.0f;
    for (int f = 0; f <= 150; ++f) { /* 2.5 s: 3 m, across the edge */
        const float t = (float)f * dt;
        walk_pose(c, rest, t, lift, &root);
        const sw_vec3 hip_anim = ik_pos(&c->rig, c->hips);
        sw_foot_job job = cmu_job(c, &g, &st);
        job.root_transform = &root;
        job.floor_height = floor;
        job.pelvis_half_life = half_life;
        job.foot_half_life = half_life;
        job.dt = dt;
        assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
        const float pelvis = ik_pos(&c->rig, c->hips).y - hip_anim.y;
        assert_true(pelvis <= 1e-6f);
        if (f > 0) worst = fmaxf(worst, fabsf(pelvis - prev));
        prev = pelvis;
        for (int i = 0; i < 2; ++i)
            assert_true(ik_dist(ik_pos(&c->rig, c->legs[i].hip),
                                ik_pos(&c->rig, c->legs[i].ankle)) <= c->leg_length[i] + 1e-5f);
    }
    if (check_end) {
        /* Standing still past the edge for a second: feet settle on the low
         * floor within 1 mm, the pelvis 15 cm down. */
        const float t = 2.5f;
        for (int f = 0; f < 60; ++f) {
            walk_pose(c, rest, t, lift, &root);
            sw_foot_job job = cmu_job(c, &g, &st);
            job.root_transform = &root;
            job.floor_height = floor;
            job.dt = dt;
            assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
        }
        walk_pose(c, rest, t, lift, &root);
        const sw_vec3 anim[2] = {ik_pos(&c->rig, c->legs[0].ankle),
                                 ik_pos(&c->rig, c->legs[1].ankle)};
        const sw_vec3 hip_anim = ik_pos(&c->rig, c->hips);
        sw_foot_job job = cmu_job(c, &g, &st);
        job.root_transform = &root;
        job.floor_height = floor;
        job.dt = dt;
        assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
        for (int i = 0; i < 2; ++i) {
            const sw_vec3 a = ik_pos(&c->rig, c->legs[i].ankle);
            assert_near(a.y, -0.15f + (anim[i].y - floor), 1e-3);
        }
        assert_near(ik_pos(&c->rig, c->hips).y - hip_anim.y, -0.15f, 1e-3);
    }
    return worst;
}

static void test_walk_over_step(void** state) {
    (void)state;
    cmu c;
    if (!cmu_open(&c)) return;
    /* Springs: at most ~1 cm per frame (a critically damped spring from rest
     * peaks at y * 0.15 / e = 0.93 m/s with the 0.1 s default half-life). */
    const float smooth = walk_over_step(&c, 0.0f, true);
    print_message("pelvis: largest change per frame %.4f m (smoothed)\n", (double)smooth);
    assert_true(smooth > 0.0f);
    assert_true(smooth < 0.02f);
    /* Without smoothing the pelvis pops by the step height in one frame. */
    const float snap = walk_over_step(&c, -1.0f, false);
    print_message("pelvis: largest change per frame %.4f m (no smoothing)\n", (double)snap);
    assert_true(snap > 0.1f);
    cmu_close(&c);
}

/* The capture itself (01_01: forward jumps along +Z and back) over a 10 cm
 * step down at z = 1, 18 s at 60 fps: the pelvis never rises above the
 * animation and moves less than 2 cm per frame, the legs are never longer
 * than their bones, and the feet cross the edge down and back up. */
static void test_cmu_clip_over_step(void** state) {
    (void)state;
    cmu c;
    if (!cmu_open(&c)) return;
    ground g = {.kind = GROUND_STEP, .height = -0.1f, .edge_z = 1.0f, .edge_x = NAN};
    sw_foot_state st = {0};
    float prev = 0.0f, worst = 0.0f, lowest = 0.0f;
    uint32_t crossings = 0;
    bool beyond_prev = false;
    const float dt = 1.0f / 60.0f;
    for (int f = 0; f < 1080; ++f) {
        ik_rig_sample(&c.rig, c.bvh.clip, (float)f * dt);
        const float hip_anim = ik_pos(&c.rig, c.hips).y;
        const bool beyond = ik_pos(&c.rig, c.legs[0].ankle).z >= g.edge_z;
        if (f > 0 && beyond != beyond_prev) crossings++;
        beyond_prev = beyond;
        sw_foot_job job = cmu_job(&c, &g, &st);
        job.dt = dt;
        assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
        const float pelvis = ik_pos(&c.rig, c.hips).y - hip_anim;
        assert_true(pelvis <= 1e-6f);
        lowest = fminf(lowest, pelvis);
        if (f > 0) worst = fmaxf(worst, fabsf(pelvis - prev));
        prev = pelvis;
        for (int i = 0; i < 2; ++i)
            assert_true(ik_dist(ik_pos(&c.rig, c.legs[i].hip), ik_pos(&c.rig, c.legs[i].ankle)) <=
                        c.leg_length[i] + 1e-5f);
    }
    print_message("CMU 01_01 over a 10 cm step: left foot crossed the edge %u times, pelvis down "
                  "to %.3f m, at most %.4f m per frame\n",
                  crossings, (double)lowest, (double)worst);
    assert_true(crossings >= 2);
    assert_true(lowest < -0.09f);
    assert_true(worst < 0.02f);
    cmu_close(&c);
}

/* ---- four legs ---- */

static const sw_skeleton* make_quadruped(void) {
    /* body (root) -> chest; hips on the body, shoulders on the chest. */
    static const char* names[14] = {"body",   "chest",  "hip_l",   "knee_l", "foot_l",
                                    "hip_r",  "knee_r", "foot_r",  "sh_l",   "elbow_l",
                                    "hand_l", "sh_r",   "elbow_r", "hand_r"};
    const int32_t parents[14] = {-1, 0, 0, 2, 3, 0, 5, 6, 1, 8, 9, 1, 11, 12};
    const sw_vec3 t[14] = {{0, 0.6f, 0},        {0, 0, 0.6f},        {0.15f, 0, 0},
                           {0, -0.28f, 0.04f},  {0, -0.28f, -0.04f}, {-0.15f, 0, 0},
                           {0, -0.28f, 0.04f},  {0, -0.28f, -0.04f}, {0.15f, 0, 0},
                           {0, -0.28f, -0.04f}, {0, -0.28f, 0.04f},  {-0.15f, 0, 0},
                           {0, -0.28f, -0.04f}, {0, -0.28f, 0.04f}};
    sw_skeleton_joint js[14];
    for (int j = 0; j < 14; ++j)
        js[j] = (sw_skeleton_joint){
            .name = names[j], .parent = parents[j], .rest = {t[j], {0, 0, 0, 1}, {1, 1, 1}}};
    const sw_skeleton_desc desc = {.joints = js, .joints_count = 14};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

static void test_four_legs(void** state) {
    (void)state;
    const sw_skeleton* s = make_quadruped();
    ik_rig r;
    ik_rig_init(&r, s);
    const sw_foot_leg legs[4] = {{2, 3, 4, {0, 0, 1}},
                                 {5, 6, 7, {0, 0, 1}},
                                 {8, 9, 10, {0, 0, -1}},
                                 {11, 12, 13, {0, 0, -1}}};
    sw_vec3 anim[4];
    float len[4];
    for (int i = 0; i < 4; ++i) {
        anim[i] = ik_pos(&r, legs[i].ankle);
        len[i] = ik_dist(ik_pos(&r, legs[i].hip), ik_pos(&r, legs[i].knee)) +
                 ik_dist(ik_pos(&r, legs[i].knee), anim[i]);
    }
    const float floor = 0.0f; /* the ankles are 4 cm above it */
    ground slope = {.kind = GROUND_SLOPE, .angle = 20.0f * PI_F / 180.0f};
    sw_foot_state st = {0};
    const sw_foot_job job = {.skeleton = s,
                             .model = r.model,
                             .model_count = r.joints,
                             .pelvis = 0,
                             .legs = legs,
                             .legs_count = 4,
                             .ray = ground_ray,
                             .ray_user = &slope,
                             .floor_height = floor,
                             .dt = 1.0f / 30.0f,
                             .weight = 1.0f,
                             .state = &st,
                             .pose = r.pose,
                             .pose_count = r.packets};
    assert_int_equal(sw_foot_job_run(&job), SW_RESULT_OK);
    /* Hind feet (z = 0) stay, front feet (z = 0.6) go up 0.6 tan 20 = 22 cm. */
    for (int i = 0; i < 4; ++i) {
        const sw_vec3 a = ik_pos(&r, legs[i].ankle);
        assert_near(a.y, ground_height(&slope, anim[i].x, anim[i].z) + anim[i].y, 1e-3);
        assert_true(ik_dist(ik_pos(&r, legs[i].hip), a) <= len[i] + 1e-5f);
        /* knees bend towards their poles: hind forward, front backward */
        const sw_vec3 k = ik_pos(&r, legs[i].knee);
        const sw_vec3 mid = sw_vec3_lerp(ik_pos(&r, legs[i].hip), a, 0.5f);
        assert_true(sw_vec3_dot(sw_vec3_sub(k, mid), legs[i].pole) > 0.0f);
    }
    assert_near(st.pelvis.value, 0.0f, 1e-6);
    /* Going downhill instead: the body drops by the lowest foot. */
    ik_rig_free(&r);
    ik_rig_init(&r, s);
    ground down = {.kind = GROUND_SLOPE, .angle = -20.0f * PI_F / 180.0f};
    sw_foot_job j2 = job;
    j2.model = r.model;
    j2.pose = r.pose;
    j2.ray_user = &down;
    st = (sw_foot_state){0};
    assert_int_equal(sw_foot_job_run(&j2), SW_RESULT_OK);
    const float low = ground_height(&down, 0, 0.6f);
    assert_true(st.pelvis.value <= low + 1e-6f);
    for (int i = 0; i < 4; ++i) {
        const sw_vec3 a = ik_pos(&r, legs[i].ankle);
        assert_near(a.y, ground_height(&down, anim[i].x, anim[i].z) + anim[i].y, 1e-3);
        assert_true(ik_dist(ik_pos(&r, legs[i].hip), a) <= len[i] + 1e-5f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* ---- validity ---- */

static void test_validity(void** state) {
    (void)state;
    const sw_skeleton* s = make_quadruped();
    ik_rig r;
    ik_rig_init(&r, s);
    sw_foot_leg legs[SW_FOOT_MAX_LEGS + 1];
    for (int i = 0; i <= SW_FOOT_MAX_LEGS; ++i)
        legs[i] = (sw_foot_leg){2, 3, 4, {0, 0, 0}};
    legs[1] = (sw_foot_leg){5, 6, 7, {0, 0, 1}};
    ground g = {.kind = GROUND_FLAT};
    sw_foot_state st = {0};
    const sw_foot_job valid = {.skeleton = s,
                               .model = r.model,
                               .model_count = r.joints,
                               .pelvis = 0,
                               .legs = legs,
                               .legs_count = 2,
                               .ray = ground_ray,
                               .ray_user = &g,
                               .dt = 1.0f / 60.0f,
                               .weight = 1.0f,
                               .state = &st,
                               .pose = r.pose,
                               .pose_count = r.packets};
    assert_int_equal(sw_foot_job_validate(&valid), SW_RESULT_OK);
    const sw_foot_job zero = {0};
    assert_int_equal(sw_foot_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_foot_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_foot_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);

    sw_foot_leg bad_order[2] = {{3, 2, 4, {0, 0, 0}}, {5, 6, 7, {0, 0, 0}}};
    sw_foot_leg not_under[2] = {{2, 3, 4, {0, 0, 0}}, {8, 9, 10, {0, 0, 0}}};
    sw_foot_leg out_of_range[2] = {{2, 3, 14, {0, 0, 0}}, {5, 6, 7, {0, 0, 0}}};
    sw_foot_leg nan_pole[2] = {{2, 3, 4, {NAN, 0, 0}}, {5, 6, 7, {0, 0, 0}}};
    sw_mat4 short_bone[14];
    memcpy(short_bone, r.model, sizeof(short_bone));
    short_bone[3] = short_bone[2];
    SINEW_ALIGN16 sw_xform4 buf[8];
    enum { CASES = 32 };
    struct {
        sw_foot_job job;
        sw_result expect;
    } cases[CASES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < CASES; ++i)
        cases[i].job = valid;
    cases[n].job.skeleton = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.ray = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.state = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pose = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs_count = 0, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs_count = SW_FOOT_MAX_LEGS + 1, cases[n++].expect = SW_RESULT_LIMIT;
    cases[n].job.model_count = r.joints - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose_count = r.packets - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose = (sw_xform4*)(void*)((char*)buf + 4),
    cases[n++].expect = SW_RESULT_MISALIGNED;
    cases[n].job.up.y = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.floor_height = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.max_step_up = -0.1f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.max_step_down = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.max_tilt = 2.0f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.max_tilt = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.foot_half_life = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pelvis_half_life = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.dt = -0.01f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = 1.5f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pelvis = 14, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs = out_of_range, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs = bad_order, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.legs = nan_pole, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pelvis = 2, cases[n].job.legs = not_under,
    cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.state = (sw_foot_state*)(void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.model = (sw_mat4*)(void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.legs = (const sw_foot_leg*)(const void*)r.model,
    cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.model = short_bone, cases[n++].expect = SW_RESULT_BAD_DATA;
    assert_true(n <= CASES);
    SINEW_ALIGN16 sw_xform4 pose0[4];
    sw_mat4 model0[14];
    memcpy(pose0, r.pose, sizeof(sw_xform4) * r.packets);
    memcpy(model0, r.model, sizeof(model0));
    for (uint32_t i = 0; i < n; ++i) {
        const sw_foot_state st0 = st;
        const sw_result v = sw_foot_job_validate(&cases[i].job);
        if (v != cases[i].expect)
            fail_msg("case %u: validate gave %s, expected %s", i, sw_result_str(v),
                     sw_result_str(cases[i].expect));
        assert_int_equal(sw_foot_job_run(&cases[i].job), cases[i].expect);
        assert_memory_equal(pose0, r.pose, sizeof(sw_xform4) * r.packets);
        assert_memory_equal(model0, r.model, sizeof(model0));
        assert_memory_equal(&st0, &st, sizeof(st));
    }
    assert_int_equal(g.calls, 0);
    /* The valid job runs; a negative half-life is allowed (no smoothing). */
    sw_foot_job ok = valid;
    ok.foot_half_life = -1.0f;
    assert_int_equal(sw_foot_job_run(&ok), SW_RESULT_OK);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_up_and_hole), cmocka_unit_test(test_slope),
        cmocka_unit_test(test_walk_over_step),   cmocka_unit_test(test_cmu_clip_over_step),
        cmocka_unit_test(test_four_legs),        cmocka_unit_test(test_validity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
