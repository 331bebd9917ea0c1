/* IK write-back (rotate job, local rotation) and two-bone IK: validity tables,
 * a direct model-space computation, reach, bone lengths, pole side, weight,
 * continuity through full extension, softness, degenerate inputs, the fast
 * solve against a textbook one in double, the solve-only entry point, CMU
 * legs and arms, RobotExpressive when its reader exists. */
#include "ik_fixture.h"

#define PI_F 3.14159265f
#define PI_D 3.14159265358979323846

/* ---- write-back ---- */

static void test_rotate_validity(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    const sw_ik_rotate_job valid = {.skeleton = s,
                                    .model = r.model,
                                    .model_count = r.joints,
                                    .joint = LEG_KNEE,
                                    .rotation = sw_quat_identity(),
                                    .weight = 1.0f,
                                    .pose = r.pose,
                                    .pose_count = r.packets};
    assert_int_equal(sw_ik_rotate_job_validate(&valid), SW_RESULT_OK);
    const sw_ik_rotate_job zero = {0};
    assert_int_equal(sw_ik_rotate_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_rotate_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_rotate_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);

    SINEW_ALIGN16 sw_xform4 buf[4];
    struct {
        sw_ik_rotate_job job;
        sw_result expect;
    } cases[12];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 12; ++i)
        cases[i].job = valid;
    cases[n].job.skeleton = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.pose = NULL, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.joint = LEG_JOINTS, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = -0.1f, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.weight = NAN, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.rotation.x = INFINITY, cases[n++].expect = SW_RESULT_INVALID_ARGUMENT;
    cases[n].job.model_count = r.joints - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose_count = r.packets - 1, cases[n++].expect = SW_RESULT_BUFFER_TOO_SMALL;
    cases[n].job.pose = (sw_xform4*)(void*)((char*)buf + 4),
    cases[n++].expect = SW_RESULT_MISALIGNED;
    cases[n].job.root_transform = (const sw_mat4*)(const void*)r.pose,
    cases[n++].expect = SW_RESULT_OVERLAP;
    cases[n].job.model = (const sw_mat4*)(const void*)r.pose, cases[n++].expect = SW_RESULT_OVERLAP;
    for (uint32_t i = 0; i < n; ++i) {
        SINEW_ALIGN16 sw_xform4 before[2];
        memcpy(before, r.pose, sizeof(before));
        if (sw_ik_rotate_job_validate(&cases[i].job) != cases[i].expect)
            fail_msg("case %u: validate gave %s", i,
                     sw_result_str(sw_ik_rotate_job_validate(&cases[i].job)));
        assert_int_equal(sw_ik_rotate_job_run(&cases[i].job), cases[i].expect);
        assert_memory_equal(before, r.pose, sizeof(before));
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* The new model matrix of a turned joint is the old one turned about the
 * joint's origin, computed directly in model space; its children follow. */
static void test_rotate_matches_model_space(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 5;
    const float weights[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.5f);
        const uint32_t joint = (uint32_t)iter % (LEG_JOINTS - 1); /* includes the root */
        const sw_quat t = sw_test_rand_quat(&rng);
        const float w = weights[iter % 4];
        sw_mat4 old[LEG_JOINTS];
        memcpy(old, r.model, sizeof(old));
        const sw_ik_rotate_job job = {.skeleton = s,
                                      .model = old,
                                      .model_count = r.joints,
                                      .joint = joint,
                                      .rotation = t,
                                      .weight = w,
                                      .pose = r.pose,
                                      .pose_count = r.packets};
        assert_int_equal(sw_ik_rotate_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        /* Expected: tw applied about the joint's origin o: M' = Tr(o) R(tw) Tr(-o) M. */
        const sw_quat tw = sw_quat_slerp(sw_quat_identity(), t, w);
        const sw_vec3 o = sw_vec3_make(old[joint].m[12], old[joint].m[13], old[joint].m[14]);
        for (uint32_t j = joint; j < LEG_JOINTS; ++j) {
            if (j != joint && !(j > joint && j != LEG_OTHER)) continue;
            const sw_vec3 p = sw_vec3_make(old[j].m[12], old[j].m[13], old[j].m[14]);
            const sw_vec3 expect = sw_vec3_add(o, sw_quat_rotate(tw, sw_vec3_sub(p, o)));
            sw_test_vec3_near(ik_pos(&r, j), expect, 2e-5f);
            sw_test_quat_near(sw_quat_from_mat4(&r.model[j]),
                              sw_quat_mul(tw, sw_quat_from_mat4(&old[j])), 2e-5f);
            /* Axes keep their lengths (the scale is untouched). */
            for (int c = 0; c < 3; ++c) {
                const sw_vec3 a = {old[j].m[c * 4], old[j].m[c * 4 + 1], old[j].m[c * 4 + 2]};
                const sw_vec3 b = {r.model[j].m[c * 4], r.model[j].m[c * 4 + 1],
                                   r.model[j].m[c * 4 + 2]};
                assert_near(sw_vec3_length(a), sw_vec3_length(b), 1e-5);
            }
        }
        /* A joint outside the sub-tree does not move. */
        if (joint != LEG_ROOT) sw_test_mat4_near(&r.model[LEG_OTHER], &old[LEG_OTHER], 0.0f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* The rotate job reads the parent's rotation from its matrix columns, never
 * as a quaternion; sw_ik_local_rotation takes the quaternion
 * (sw_quat_from_mat4, in double). Both give the same local rotation (2e-6,
 * up to sign) on random poses of the leg (uniformly scaled root), at random
 * weights, for every joint including the root. */
static void test_rotate_matches_local_rotation(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 31;
    float worst = 0.0f;
    for (int iter = 0; iter < 300; ++iter) {
        ik_rig_random_pose(&r, &rng, 2.0f);
        const uint32_t joint = (uint32_t)iter % LEG_JOINTS;
        const sw_quat t = sw_test_rand_quat(&rng);
        const float w = iter % 3 ? 1.0f : sw_test_rand(&rng, 0.05f, 1.0f);
        const int32_t parent = sw_skeleton_parents(s)[joint];
        const sw_quat p = parent >= 0 ? sw_quat_from_mat4(&r.model[parent]) : sw_quat_identity();
        const sw_quat expect = sw_ik_local_rotation(p, sw_pose_get(r.pose, joint).r, t, w);
        const sw_ik_rotate_job job = {.skeleton = s,
                                      .model = r.model,
                                      .model_count = r.joints,
                                      .joint = joint,
                                      .rotation = t,
                                      .weight = w,
                                      .pose = r.pose,
                                      .pose_count = r.packets};
        assert_int_equal(sw_ik_rotate_job_run(&job), SW_RESULT_OK);
        const sw_quat got = sw_pose_get(r.pose, joint).r;
        sw_test_quat_near(got, expect, 2e-6f);
        const float d = ik_quat_angle(got, expect);
        if (d > worst) worst = d;
        assert_near(sw_quat_dot(got, got), 1.0f, 1e-6);
    }
    print_message("rotate job vs sw_ik_local_rotation: worst difference %g rad\n", (double)worst);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* A root joint turns in the space of root_transform (rotated and scaled). */
static void test_rotate_root_transform(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    sw_xform rx = {
        .t = {1, 2, 3}, .r = sw_quat_from_axis_angle(sw_vec3_make(1, 2, 0), 0.8f), .s = {2, 2, 2}};
    const sw_mat4 root = sw_mat4_from_xform(rx);
    const sw_local_to_model_job l2m = {.skeleton = s,
                                       .local = r.pose,
                                       .local_count = r.packets,
                                       .root_transform = &root,
                                       .out = r.model,
                                       .out_count = r.joints};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
    const sw_quat old = sw_quat_from_mat4(&r.model[LEG_ROOT]);
    const sw_quat t = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 1), 1.1f);
    sw_mat4 before[LEG_JOINTS];
    memcpy(before, r.model, sizeof(before));
    const sw_ik_rotate_job job = {.skeleton = s,
                                  .model = before,
                                  .model_count = r.joints,
                                  .root_transform = &root,
                                  .joint = LEG_ROOT,
                                  .rotation = t,
                                  .weight = 1.0f,
                                  .pose = r.pose,
                                  .pose_count = r.packets};
    assert_int_equal(sw_ik_rotate_job_run(&job), SW_RESULT_OK);
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
    sw_test_quat_near(sw_quat_from_mat4(&r.model[LEG_ROOT]), sw_quat_mul(t, old), 1e-5f);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_local_rotation(void** state) {
    (void)state;
    uint32_t rng = 9;
    for (int i = 0; i < 200; ++i) {
        const sw_quat p = sw_test_rand_quat(&rng), l = sw_test_rand_quat(&rng);
        const sw_quat t = sw_test_rand_quat(&rng);
        /* Weight 0 returns local bit for bit, even unnormalized. */
        const sw_quat l2 = sw_quat_make(l.x * 2, l.y * 2, l.z * 2, l.w * 2);
        const sw_quat same = sw_ik_local_rotation(p, l2, t, 0.0f);
        assert_memory_equal(&same, &l2, sizeof(l2));
        /* Model rotation P * local' equals T * P * local. */
        const sw_quat out = sw_ik_local_rotation(p, l, t, 1.0f);
        sw_test_quat_near(sw_quat_mul(p, out), sw_quat_mul(t, sw_quat_mul(p, l)), 1e-5f);
        /* Half weight: half the angle of T, about T's axis. */
        const sw_quat half = sw_ik_local_rotation(p, l, t, 0.5f);
        const sw_quat applied =
            sw_quat_mul(sw_quat_mul(p, half), sw_quat_conjugate(sw_quat_mul(p, l)));
        float ang_t, ang_h;
        sw_vec3 ax_t, ax_h;
        sw_quat_to_axis_angle(t, &ax_t, &ang_t);
        sw_quat_to_axis_angle(applied, &ax_h, &ang_h);
        assert_near(ang_h, 0.5f * ang_t, 1e-4);
        if (ang_t > 0.01f) sw_test_vec3_near(ax_h, ax_t, 1e-3f);
        /* Weights above 1 clamp to 1. */
        sw_test_quat_near(sw_ik_local_rotation(p, l, t, 3.0f), out, 0.0f);
    }
}

/* ---- two-bone ---- */

static sw_ik_two_bone_job leg_job(ik_rig* r, sw_vec3 target, bool* reached) {
    return (sw_ik_two_bone_job){.skeleton = r->skel,
                                .model = r->model,
                                .model_count = r->joints,
                                .start_joint = LEG_HIP,
                                .mid_joint = LEG_KNEE,
                                .end_joint = LEG_ANKLE,
                                .target = target,
                                .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                .pole = sw_vec3_make(0, 0, 1),
                                .weight = 1.0f,
                                .pose = r->pose,
                                .pose_count = r->packets,
                                .reached = reached};
}

static void test_two_bone_validity(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    bool reached = false;
    const sw_ik_two_bone_job valid = leg_job(&r, sw_vec3_make(0.2f, 0.5f, 0.1f), &reached);
    assert_int_equal(sw_ik_two_bone_job_validate(&valid), SW_RESULT_OK);
    const sw_ik_two_bone_job zero = {0};
    assert_int_equal(sw_ik_two_bone_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_two_bone_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_two_bone_job_run(NULL), SW_RESULT_INVALID_ARGUMENT);

    /* A model whose knee sits on the hip: zero-length upper bone. */
    sw_mat4 flat[LEG_JOINTS];
    memcpy(flat, r.model, sizeof(flat));
    memcpy(&flat[LEG_KNEE].m[12], &flat[LEG_HIP].m[12], 3 * sizeof(float));
    sw_mat4 nan_model[LEG_JOINTS];
    memcpy(nan_model, r.model, sizeof(nan_model));
    nan_model[LEG_ANKLE].m[13] = NAN;

    SINEW_ALIGN16 sw_xform4 buf[4];
#define NCASES 30
    sw_ik_two_bone_job cases[NCASES];
    sw_result expect[NCASES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < NCASES; ++i)
        cases[i] = valid;
#define CASE(stmt, res) (cases[n].stmt, expect[n++] = (res))
    CASE(skeleton = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(model = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(pose = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(model_count = LEG_JOINTS - 1, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose_count = 1, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose = (sw_xform4*)(void*)((char*)buf + 8), SW_RESULT_MISALIGNED);
    CASE(model = (const sw_mat4*)(const void*)r.pose, SW_RESULT_OVERLAP);
    CASE(target.x = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(target.z = INFINITY, SW_RESULT_INVALID_ARGUMENT);
    CASE(pole.y = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(pole = sw_vec3_make(0, 0, 0), SW_RESULT_INVALID_ARGUMENT);
    CASE(pole_mode = (sw_ik_pole_mode)7, SW_RESULT_INVALID_ARGUMENT);
    CASE(twist = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = 1.5f, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(softness = 1.0f, SW_RESULT_INVALID_ARGUMENT);
    CASE(softness = -0.1f, SW_RESULT_INVALID_ARGUMENT);
    CASE(end_rotation_weight = -1.0f, SW_RESULT_INVALID_ARGUMENT);
    CASE(end_rotation_weight = 0.5f, SW_RESULT_INVALID_ARGUMENT); /* zero end_rotation */
    CASE(end_rotation.w = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(start_joint = LEG_JOINTS, SW_RESULT_INVALID_ARGUMENT);
    CASE(mid_joint = LEG_OTHER, SW_RESULT_INVALID_ARGUMENT);  /* not below the start */
    CASE(end_joint = LEG_KNEE, SW_RESULT_INVALID_ARGUMENT);   /* not below the mid */
    CASE(start_joint = LEG_KNEE, SW_RESULT_INVALID_ARGUMENT); /* start == mid */
    CASE(reached = (bool*)(void*)r.pose, SW_RESULT_OVERLAP);
    CASE(reached = (bool*)(void*)&r.model[2], SW_RESULT_OVERLAP);
    CASE(model = flat, SW_RESULT_BAD_DATA);
    CASE(model = nan_model, SW_RESULT_BAD_DATA);
#undef CASE
    for (uint32_t i = 0; i < n; ++i) {
        SINEW_ALIGN16 sw_xform4 before[2];
        memcpy(before, r.pose, sizeof(before));
        reached = true;
        const sw_result v = sw_ik_two_bone_job_validate(&cases[i]);
        if (v != expect[i]) fail_msg("case %u: validate gave %s", i, sw_result_str(v));
        assert_int_equal(sw_ik_two_bone_job_run(&cases[i]), expect[i]);
        assert_memory_equal(before, r.pose, sizeof(before));
        assert_true(reached); /* untouched */
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Reachable targets on random poses, with random poles: the end lands on
 * the target, bones keep their lengths, the hip stays, the knee bends towards
 * the pole. */
static void test_two_bone_reach(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 1234;
    for (int iter = 0; iter < 500; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.2f);
        const sw_vec3 a = ik_pos(&r, LEG_HIP), b = ik_pos(&r, LEG_KNEE), c = ik_pos(&r, LEG_ANKLE);
        const float l1 = ik_dist(a, b), l2 = ik_dist(b, c);
        const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(
            sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
        const float dmin = fabsf(l1 - l2) + 0.01f, dmax = l1 + l2 - 0.01f;
        const float d = sw_test_rand(&rng, dmin, dmax);
        const sw_vec3 target = sw_vec3_add(a, sw_vec3_scale(dir, d));
        sw_ik_two_bone_job job = leg_job(&r, target, NULL);
        bool reached = false;
        job.reached = &reached;
        sw_vec3 pole_dir;
        if (iter % 2) {
            job.pole_mode = SW_IK_POLE_MODE_DIRECTION;
            job.pole = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                    sw_test_rand(&rng, -1, 1));
            pole_dir = job.pole;
        } else {
            job.pole_mode = SW_IK_POLE_MODE_TARGET;
            job.pole =
                sw_vec3_add(a, sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                            sw_test_rand(&rng, -1, 1)));
            pole_dir = sw_vec3_sub(job.pole, a);
        }
        sw_mat4 old[LEG_JOINTS];
        memcpy(old, r.model, sizeof(old));
        job.model = old;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        assert_true(reached);
        ik_rig_model(&r);
        const sw_vec3 a1 = ik_pos(&r, LEG_HIP), b1 = ik_pos(&r, LEG_KNEE),
                      c1 = ik_pos(&r, LEG_ANKLE);
        if (ik_dist(c1, target) > 1e-4f)
            fail_msg("iter %d: end %g from target", iter, (double)ik_dist(c1, target));
        sw_test_vec3_near(a1, a, 1e-6f);
        assert_near(ik_dist(a1, b1), l1, 1e-5);
        assert_near(ik_dist(b1, c1), l2, 1e-5);
        /* Pole side: the knee's offset from the hip-target line. */
        const sw_vec3 pp = sw_vec3_sub(pole_dir, sw_vec3_scale(dir, sw_vec3_dot(pole_dir, dir)));
        const sw_vec3 off = sw_vec3_sub(sw_vec3_sub(b1, a1),
                                        sw_vec3_scale(dir, sw_vec3_dot(sw_vec3_sub(b1, a1), dir)));
        if (sw_vec3_length(pp) > 0.05f * sw_vec3_length(pole_dir)) {
            /* The offset points along the pole's perpendicular part. */
            assert_true(ik_vec_angle(off, pp) < 1e-2);
        }
        /* The joints outside the chain keep their model matrices. */
        sw_test_mat4_near(&r.model[LEG_OTHER], &old[LEG_OTHER], 0.0f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_two_bone_weight(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 42;
    ik_rig_random_pose(&r, &rng, 1.0f);
    SINEW_ALIGN16 sw_xform4 before[2];
    memcpy(before, r.pose, sizeof(before));
    bool reached = false;
    sw_ik_two_bone_job job = leg_job(&r, sw_vec3_make(0.3f, 0.4f, 0.2f), &reached);
    job.weight = 0.0f;
    job.end_rotation = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 1.0f);
    job.end_rotation_weight = 1.0f;
    job.twist = 0.7f;
    assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
    assert_memory_equal(before, r.pose, sizeof(before));
    assert_true(reached); /* reported for the solve at weight 1 */

    /* Weights in between move the end monotonically towards the target. */
    const sw_vec3 target = sw_vec3_add(ik_pos(&r, LEG_HIP), sw_vec3_make(0.2f, -0.5f, 0.3f));
    float last = ik_dist(ik_pos(&r, LEG_ANKLE), target);
    sw_mat4 old[LEG_JOINTS];
    memcpy(old, r.model, sizeof(old));
    for (int i = 1; i <= 10; ++i) {
        memcpy(r.pose, before, sizeof(before));
        sw_ik_two_bone_job wj = leg_job(&r, target, NULL);
        wj.model = old;
        wj.weight = (float)i / 10.0f;
        assert_int_equal(sw_ik_two_bone_job_run(&wj), SW_RESULT_OK);
        ik_rig_model(&r);
        const float dist = ik_dist(ik_pos(&r, LEG_ANKLE), target);
        assert_true(dist < last + 1e-6f);
        last = dist;
    }
    assert_true(last < 1e-4f);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Out of reach: straight, pointing at the target, not reached. Target on the
 * start joint or closer than |l1 - l2|: folded as far as it goes, no NaN. */
static void test_two_bone_out_of_reach(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 3;
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        sw_mat4 old[LEG_JOINTS];
        memcpy(old, r.model, sizeof(old));
        SINEW_ALIGN16 sw_xform4 before[2];
        memcpy(before, r.pose, sizeof(before));
        const sw_vec3 a = ik_pos(&r, LEG_HIP);
        const float l1 = ik_dist(a, ik_pos(&r, LEG_KNEE));
        const float l2 = ik_dist(ik_pos(&r, LEG_KNEE), ik_pos(&r, LEG_ANKLE));
        const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(
            sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
        const float dists[3] = {(l1 + l2) * sw_test_rand(&rng, 1.001f, 3.0f), 0.0f,
                                fabsf(l1 - l2) * 0.5f};
        for (int k = 0; k < 3; ++k) {
            memcpy(r.pose, before, sizeof(before));
            const sw_vec3 target = sw_vec3_add(a, sw_vec3_scale(dir, dists[k]));
            bool reached = true;
            sw_ik_two_bone_job job = leg_job(&r, target, &reached);
            job.model = old;
            assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
            assert_false(reached);
            ik_rig_model(&r);
            const sw_vec3 c1 = ik_pos(&r, LEG_ANKLE);
            assert_true(isfinite(c1.x) && isfinite(c1.y) && isfinite(c1.z));
            assert_near(ik_dist(a, ik_pos(&r, LEG_KNEE)), l1, 1e-5);
            if (k == 0) {
                sw_test_vec3_near(c1, sw_vec3_add(a, sw_vec3_scale(dir, l1 + l2)), 1e-4f);
            } else if (k == 2) {
                sw_test_vec3_near(c1, sw_vec3_add(a, sw_vec3_scale(dir, fabsf(l1 - l2))), 1e-4f);
            } else {
                assert_near(ik_dist(a, c1), fabsf(l1 - l2), 1e-4);
            }
        }
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Largest change of the hip's and knee's local rotations between
 * consecutive targets along a line through full extension. */
static float sweep_max_step(ik_rig* r, const sw_xform4* start_pose, const sw_mat4* model,
                            float step, float softness) {
    const sw_vec3 a =
        sw_vec3_make(model[LEG_HIP].m[12], model[LEG_HIP].m[13], model[LEG_HIP].m[14]);
    const float l1 = ik_dist(
        a, sw_vec3_make(model[LEG_KNEE].m[12], model[LEG_KNEE].m[13], model[LEG_KNEE].m[14]));
    const float l2 = ik_dist(
        sw_vec3_make(model[LEG_KNEE].m[12], model[LEG_KNEE].m[13], model[LEG_KNEE].m[14]),
        sw_vec3_make(model[LEG_ANKLE].m[12], model[LEG_ANKLE].m[13], model[LEG_ANKLE].m[14]));
    const float L = l1 + l2;
    const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(0.3f, -1.0f, 0.2f));
    sw_quat prev[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    float worst = 0.0f;
    for (float d = 0.95f * L; d <= 1.05f * L; d += step * L) {
        memcpy(r->pose, start_pose, sizeof(sw_xform4) * r->packets);
        sw_ik_two_bone_job job = leg_job(r, sw_vec3_add(a, sw_vec3_scale(dir, d)), NULL);
        job.model = model;
        job.softness = softness;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        const sw_quat q[2] = {sw_pose_get(r->pose, LEG_HIP).r, sw_pose_get(r->pose, LEG_KNEE).r};
        for (int k = 0; k < 2; ++k) {
            if (prev[k].w != 0.0f || prev[k].x != 0.0f) {
                const float ang = ik_quat_angle(prev[k], q[k]);
                if (ang > worst) worst = ang;
            }
            prev[k] = q[k];
        }
    }
    return worst;
}

/* Continuity through full extension: the exact solve bends like
 * sqrt(L - d) near extension, so the largest joint change shrinks with the
 * step (by ~sqrt(100) = 10 for a 100 times smaller step), never jumps; with
 * softness it is proportional to the step. */
static void test_two_bone_continuity(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 77;
    for (int iter = 0; iter < 5; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        sw_xform4* start = aligned_alloc(16, sizeof(sw_xform4) * r.packets);
        memcpy(start, r.pose, sizeof(sw_xform4) * r.packets);
        sw_mat4 model[LEG_JOINTS];
        memcpy(model, r.model, sizeof(model));
        const float coarse = sweep_max_step(&r, start, model, 1e-3f, 0.0f);
        const float fine = sweep_max_step(&r, start, model, 1e-5f, 0.0f);
        const float soft_coarse = sweep_max_step(&r, start, model, 1e-3f, 0.1f);
        const float soft_fine = sweep_max_step(&r, start, model, 1e-4f, 0.1f);
        print_message("continuity: largest joint change %.4g rad (step 1e-3 L), %.4g (1e-5 L); "
                      "softness 0.1: %.4g (1e-3 L), %.4g (1e-4 L)\n",
                      (double)coarse, (double)fine, (double)soft_coarse, (double)soft_fine);
        assert_true(coarse < 0.15f);
        assert_true(fine < coarse / 4.0f);
        assert_true(soft_coarse < 0.02f);
        assert_true(soft_fine < soft_coarse / 5.0f);
        free(start);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Softness: the reached distance follows the documented law, grows
 * monotonically with the target distance and stays below full reach. */
static void test_two_bone_softness(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 8;
    ik_rig_random_pose(&r, &rng, 0.8f);
    SINEW_ALIGN16 sw_xform4 before[2];
    memcpy(before, r.pose, sizeof(before));
    sw_mat4 old[LEG_JOINTS];
    memcpy(old, r.model, sizeof(old));
    const sw_vec3 a = ik_pos(&r, LEG_HIP);
    const float L =
        ik_dist(a, ik_pos(&r, LEG_KNEE)) + ik_dist(ik_pos(&r, LEG_KNEE), ik_pos(&r, LEG_ANKLE));
    const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(-0.2f, -1.0f, 0.4f));
    const float softness = 0.2f;
    float last = 0.0f;
    for (float f = 0.5f; f <= 2.0f; f += 0.01f) {
        memcpy(r.pose, before, sizeof(before));
        bool reached = false;
        sw_ik_two_bone_job job = leg_job(&r, sw_vec3_add(a, sw_vec3_scale(dir, f * L)), &reached);
        job.model = old;
        job.softness = softness;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        const float reach = ik_dist(a, ik_pos(&r, LEG_ANKLE));
        /* Independent expectation, in double. */
        const double ds = (double)L * (1.0 - softness), w = (double)L * softness;
        const double d = (double)(f * L);
        const double expect = d <= ds ? d : ds + w * (1.0 - exp(-(d - ds) / w));
        assert_near(reach, expect, 1e-4);
        assert_true(reach >= last - 1e-6f);
        assert_true(reach < L);
        assert_true(reached == (f * L <= ds));
        last = reach;
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* End orientation: at weight 1 the end joint takes the given model rotation;
 * twist turns the knee about the hip-target axis, keeping the end on target. */
static void test_two_bone_end_rotation_twist(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 21;
    for (int iter = 0; iter < 50; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        sw_mat4 old[LEG_JOINTS];
        memcpy(old, r.model, sizeof(old));
        SINEW_ALIGN16 sw_xform4 before[2];
        memcpy(before, r.pose, sizeof(before));
        const sw_vec3 a = ik_pos(&r, LEG_HIP);
        const sw_vec3 target = sw_vec3_add(a, sw_vec3_make(0.1f, -0.6f, 0.2f));
        const sw_quat want = sw_test_rand_quat(&rng);
        sw_ik_two_bone_job job = leg_job(&r, target, NULL);
        job.model = old;
        job.end_rotation = want;
        job.end_rotation_weight = 1.0f;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        sw_test_vec3_near(ik_pos(&r, LEG_ANKLE), target, 1e-4f);
        sw_test_quat_near(sw_quat_from_mat4(&r.model[LEG_ANKLE]), want, 2e-5f);
        const sw_vec3 knee0 = ik_pos(&r, LEG_KNEE);

        /* Twist: the knee turns by the angle about the hip-target axis. */
        memcpy(r.pose, before, sizeof(before));
        job.end_rotation_weight = 0.0f;
        job.twist = 0.6f;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        sw_test_vec3_near(ik_pos(&r, LEG_ANKLE), target, 1e-4f);
        const sw_vec3 u = sw_vec3_normalize(sw_vec3_sub(target, a));
        const sw_vec3 expect =
            sw_vec3_add(a, sw_quat_rotate(sw_quat_from_axis_angle(u, 0.6f), sw_vec3_sub(knee0, a)));
        sw_test_vec3_near(ik_pos(&r, LEG_KNEE), expect, 1e-4f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Degenerate inputs: a straight limb (no bend plane) with the pole, without
 * it, and a pole along the limb: finite, on target, lengths kept; with no
 * pole the bend plane of a bent limb is kept. */
static void test_two_bone_degenerate(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    /* Straighten the leg: knee and twist local rotations such that the knee,
     * twist and ankle line up with the hip-knee direction. */
    ik_rig_model(&r);
    for (uint32_t j = LEG_KNEE; j <= LEG_TWIST; ++j) {
        const sw_vec3 p = ik_pos(&r, j - 1), q = ik_pos(&r, j), c = ik_pos(&r, j + 1);
        const sw_quat t = sw_quat_from_to(sw_vec3_sub(c, q), sw_vec3_sub(q, p));
        const sw_ik_rotate_job rj = {.skeleton = s,
                                     .model = r.model,
                                     .model_count = r.joints,
                                     .joint = j,
                                     .rotation = t,
                                     .weight = 1.0f,
                                     .pose = r.pose,
                                     .pose_count = r.packets};
        sw_mat4 m[LEG_JOINTS];
        memcpy(m, r.model, sizeof(m));
        sw_ik_rotate_job rj2 = rj;
        rj2.model = m;
        assert_int_equal(sw_ik_rotate_job_run(&rj2), SW_RESULT_OK);
        ik_rig_model(&r);
    }
    const sw_vec3 a = ik_pos(&r, LEG_HIP), b = ik_pos(&r, LEG_KNEE), c = ik_pos(&r, LEG_ANKLE);
    assert_true(ik_vec_angle(sw_vec3_sub(b, a), sw_vec3_sub(c, b)) < 1e-4);
    const float l1 = ik_dist(a, b), l2 = ik_dist(b, c);
    SINEW_ALIGN16 sw_xform4 before[2];
    memcpy(before, r.pose, sizeof(before));
    sw_mat4 old[LEG_JOINTS];
    memcpy(old, r.model, sizeof(old));
    const sw_vec3 limb = sw_vec3_normalize(sw_vec3_sub(c, a));
    const sw_vec3 target = sw_vec3_add(a, sw_vec3_scale(limb, 0.7f * (l1 + l2)));
    for (int mode = 0; mode < 3; ++mode) {
        memcpy(r.pose, before, sizeof(before));
        sw_ik_two_bone_job job = leg_job(&r, target, NULL);
        job.model = old;
        if (mode == 0) job.pole_mode = SW_IK_POLE_MODE_NONE;
        if (mode == 1) job.pole = limb; /* collinear */
        if (mode == 2)
            job.pole = sw_vec3_normalize(sw_vec3_cross(limb, sw_vec3_make(0.3f, 0.5f, 0.8f)));
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        sw_test_vec3_near(ik_pos(&r, LEG_ANKLE), target, 1e-4f);
        assert_near(ik_dist(a, ik_pos(&r, LEG_KNEE)), l1, 1e-5);
        assert_near(ik_dist(ik_pos(&r, LEG_KNEE), ik_pos(&r, LEG_ANKLE)), l2, 1e-5);
        if (mode == 2) {
            const sw_vec3 off = sw_vec3_sub(ik_pos(&r, LEG_KNEE), a);
            assert_true(sw_vec3_dot(off, job.pole) > 0.0f);
        }
    }

    /* No pole on a bent limb: the knee stays in its bend plane. */
    uint32_t rng = 4;
    for (int iter = 0; iter < 50; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        memcpy(old, r.model, sizeof(old));
        const sw_vec3 a0 = ik_pos(&r, LEG_HIP), b0 = ik_pos(&r, LEG_KNEE),
                      c0 = ik_pos(&r, LEG_ANKLE);
        const sw_vec3 n0 =
            sw_vec3_normalize(sw_vec3_cross(sw_vec3_sub(b0, a0), sw_vec3_sub(c0, b0)));
        /* A target in the current plane. */
        const sw_vec3 t = sw_vec3_add(a0, sw_vec3_scale(sw_vec3_sub(c0, a0), 0.8f));
        sw_ik_two_bone_job job = leg_job(&r, t, NULL);
        job.model = old;
        job.pole_mode = SW_IK_POLE_MODE_NONE;
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        const sw_vec3 b1 = ik_pos(&r, LEG_KNEE), c1 = ik_pos(&r, LEG_ANKLE);
        sw_test_vec3_near(c1, t, 1e-4f);
        const sw_vec3 n1 =
            sw_vec3_normalize(sw_vec3_cross(sw_vec3_sub(b1, a0), sw_vec3_sub(c1, b1)));
        assert_true(sw_vec3_dot(n0, n1) > 0.9999f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* ---- two-bone against a reference in double ---- */

typedef struct dvec3 {
    double x, y, z;
} dvec3;

static dvec3 dv(sw_vec3 v) {
    return (dvec3){v.x, v.y, v.z};
}
static dvec3 dsub(dvec3 a, dvec3 b) {
    return (dvec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static dvec3 dadd(dvec3 a, dvec3 b) {
    return (dvec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
static dvec3 dscale(dvec3 a, double s) {
    return (dvec3){a.x * s, a.y * s, a.z * s};
}
static double ddot(dvec3 a, dvec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static dvec3 dcross(dvec3 a, dvec3 b) {
    return (dvec3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
static double dlen(dvec3 a) {
    return sqrt(ddot(a, a));
}
static dvec3 dnorm(dvec3 a) {
    return dscale(a, 1.0 / dlen(a));
}
/* v turned by `angle` about unit `axis` (Rodrigues). */
static dvec3 drot(dvec3 v, dvec3 axis, double angle) {
    const double c = cos(angle), s = sin(angle);
    return dadd(dadd(dscale(v, c), dscale(dcross(axis, v), s)),
                dscale(axis, ddot(axis, v) * (1.0 - c)));
}

/* The textbook two-bone solve in double: the law of cosines with acos for
 * the angles at the start and mid joints, the new joint positions built in
 * the plane of the target direction and the pole (or, without a pole, of
 * the target direction and the bend normal turned the shortest way), and
 * the mid joint's rotation about the bend normal by the change of its bend
 * angle. Out: the new mid and end positions and the mid rotation's axis and
 * angle. */
typedef struct two_bone_ref {
    dvec3 mid, end;
    dvec3 mid_axis;
    double mid_angle;
} two_bone_ref;

static two_bone_ref two_bone_reference(sw_vec3 a3, sw_vec3 b3, sw_vec3 c3, sw_vec3 target,
                                       const sw_vec3* pole_dir) {
    const dvec3 a = dv(a3), b = dv(b3), c = dv(c3);
    const dvec3 ab = dsub(b, a), bc = dsub(c, b);
    const double l1 = dlen(ab), l2 = dlen(bc);
    const dvec3 at = dsub(dv(target), a);
    const double dist = dlen(at);
    const dvec3 u = dscale(at, 1.0 / dist);
    double d = dist;
    if (d > l1 + l2) d = l1 + l2;
    if (d < fabs(l1 - l2)) d = fabs(l1 - l2);
    /* Angles: at the start between the limb and the upper bone, and the
     * mid joint's bend (pi minus the interior angle). */
    const double cos_start = (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d);
    const double cos_mid = (l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2);
    const double start_angle = acos(fmax(-1.0, fmin(1.0, cos_start)));
    const double bend1 = PI_D - acos(fmax(-1.0, fmin(1.0, cos_mid)));
    const double bend0 = acos(ddot(ab, bc) / (l1 * l2));
    const dvec3 n = dnorm(dcross(ab, bc));
    /* The side the mid joint goes to, perpendicular to u. */
    dvec3 side;
    if (pole_dir) {
        const dvec3 p = dv(*pole_dir);
        side = dnorm(dsub(p, dscale(u, ddot(p, u))));
    } else {
        /* The bend normal n turned with the limb the shortest way onto u;
         * the mid joint lies on the side limb x n (n = side x limb). */
        const dvec3 limb = dnorm(dadd(ab, drot(bc, n, bend1 - bend0)));
        const dvec3 axis = dcross(limb, u);
        const double s = dlen(axis);
        const dvec3 n1 = s > 1e-12 ? drot(n, dscale(axis, 1.0 / s), atan2(s, ddot(limb, u))) : n;
        side = dcross(u, n1);
    }
    two_bone_ref r;
    r.end = dadd(a, dscale(u, d));
    r.mid = dadd(a, dscale(dadd(dscale(u, cos(start_angle)), dscale(side, sin(start_angle))), l1));
    r.mid_axis = n;
    r.mid_angle = bend1 - bend0;
    return r;
}

/* The fast solve against the reference on 1000 random limbs (bones 0.2 to 1
 * long in any directions, bent at least 0.06 rad), targets reachable or not
 * (closer than |l1 - l2| or beyond l1 + l2), poles as points, directions or
 * none: the mid and end joints where the reference puts them (1e-5 of the
 * reach), the mid rotation about the bend normal by the reference's angle
 * (2e-5 rad), the reached flag, and the mid joint on the pole's side. */
static void test_two_bone_reference(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 2024;
    int counts[3] = {0, 0, 0};
    double worst_pos = 0.0, worst_angle = 0.0;
    for (int iter = 0; iter < 1000; ++iter) {
        const sw_vec3 a = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                       sw_test_rand(&rng, -1, 1));
        sw_vec3 dirs[3];
        for (int k = 0; k < 3; ++k)
            dirs[k] = sw_vec3_normalize(sw_vec3_make(
                sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
        const float l1 = sw_test_rand(&rng, 0.2f, 1.0f), l2 = sw_test_rand(&rng, 0.2f, 1.0f);
        const sw_vec3 b = sw_vec3_add(a, sw_vec3_scale(dirs[0], l1));
        const sw_vec3 c = sw_vec3_add(b, sw_vec3_scale(dirs[1], l2));
        if (ik_vec_angle(dirs[0], dirs[1]) < 0.06 || ik_vec_angle(dirs[0], dirs[1]) > PI_D - 0.06) {
            --iter;
            continue;
        }
        const float L = l1 + l2, m = fabsf(l1 - l2);
        /* Reachable (half the cases), beyond reach, or too close. */
        const int kind = iter % 4 == 3 ? 1 : (iter % 4 == 2 && m > 0.05f ? 2 : 0);
        const float dist = kind == 0   ? sw_test_rand(&rng, m + 0.01f * L, 0.99f * L)
                           : kind == 1 ? sw_test_rand(&rng, 1.01f, 3.0f) * L
                                       : sw_test_rand(&rng, 0.02f * L, m - 0.01f * L);
        const sw_vec3 target = sw_vec3_add(a, sw_vec3_scale(dirs[2], dist));
        ++counts[kind];
        /* Model matrices: only the chain's positions matter to the solve. */
        r.model[LEG_HIP].m[12] = a.x, r.model[LEG_HIP].m[13] = a.y, r.model[LEG_HIP].m[14] = a.z;
        r.model[LEG_KNEE].m[12] = b.x, r.model[LEG_KNEE].m[13] = b.y, r.model[LEG_KNEE].m[14] = b.z;
        r.model[LEG_ANKLE].m[12] = c.x, r.model[LEG_ANKLE].m[13] = c.y,
        r.model[LEG_ANKLE].m[14] = c.z;
        sw_ik_two_bone_job job = leg_job(&r, target, NULL);
        sw_vec3 pole_dir = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                        sw_test_rand(&rng, -1, 1));
        const int pole_kind = iter % 3;
        if (pole_kind == 0) {
            job.pole_mode = SW_IK_POLE_MODE_DIRECTION;
            job.pole = pole_dir;
        } else if (pole_kind == 1) {
            job.pole_mode = SW_IK_POLE_MODE_TARGET;
            job.pole = sw_vec3_add(a, pole_dir);
        } else {
            job.pole_mode = SW_IK_POLE_MODE_NONE;
        }
        if (pole_kind != 2) {
            /* A pole within 0.05 rad of the target direction: degenerate. */
            const double ang = ik_vec_angle(pole_dir, dirs[2]);
            if (ang < 0.05 || ang > PI_D - 0.05) {
                --counts[kind];
                --iter;
                continue;
            }
        }
        sw_ik_two_bone_rotations rot;
        assert_int_equal(sw_ik_two_bone_job_solve(&job, &rot), SW_RESULT_OK);
        const two_bone_ref ref =
            two_bone_reference(a, b, c, target, pole_kind == 2 ? NULL : &pole_dir);
        /* The solved joints: bones turned about the start by rot.start, the
         * lower one first about the mid joint by rot.mid. */
        const sw_vec3 ab1 = sw_quat_rotate(rot.start, sw_vec3_sub(b, a));
        const sw_vec3 bc1 = sw_quat_rotate(rot.start, sw_quat_rotate(rot.mid, sw_vec3_sub(c, b)));
        const dvec3 mid = dv(sw_vec3_add(a, ab1)), end = dv(sw_vec3_add(sw_vec3_add(a, ab1), bc1));
        const double pos_err = fmax(dlen(dsub(mid, ref.mid)), dlen(dsub(end, ref.end)));
        if (pos_err > worst_pos) worst_pos = pos_err;
        if (pos_err > 1e-5 * L)
            fail_msg("iter %d (kind %d, pole %d): joints %g from the reference", iter, kind,
                     pole_kind, pos_err);
        /* The mid rotation: about the bend normal, by the reference angle. */
        const dvec3 qv = {rot.mid.x, rot.mid.y, rot.mid.z};
        const double angle = 2.0 * atan2(ddot(qv, ref.mid_axis), (double)rot.mid.w);
        const double off_axis = dlen(dsub(qv, dscale(ref.mid_axis, ddot(qv, ref.mid_axis))));
        const double angle_err = fabs(angle - ref.mid_angle);
        if (angle_err > worst_angle) worst_angle = angle_err;
        assert_true(angle_err < 2e-5);
        assert_true(off_axis < 1e-5);
        assert_true(rot.reached == (kind == 0));
        /* Pole side: the mid joint's offset from the start-target line. */
        if (pole_kind != 2) {
            const dvec3 u = dnorm(dsub(dv(target), dv(a)));
            const dvec3 am = dsub(mid, dv(a));
            const dvec3 off = dsub(am, dscale(u, ddot(am, u)));
            const dvec3 p = dv(pole_dir);
            const dvec3 pp = dsub(p, dscale(u, ddot(p, u)));
            if (dlen(off) > 1e-3 * L) assert_true(ddot(off, pp) > 0.0);
        }
    }
    print_message("two-bone vs double reference: %d reachable, %d beyond reach, %d too close; "
                  "worst joint error %g (reach 0.4..2), worst mid angle error %g rad\n",
                  counts[0], counts[1], counts[2], worst_pos, worst_angle);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* The solve-only entry point: the same rotations as the run (written with
 * rotate jobs, the same pose up to 5e-7), nothing written on failure. */
static void test_two_bone_solve(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 99;
    SINEW_ALIGN16 sw_xform4 ran[2], applied[2], start[2];
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        memcpy(start, r.pose, sizeof(start));
        const sw_vec3 target =
            sw_vec3_add(ik_pos(&r, LEG_HIP), sw_vec3_make(sw_test_rand(&rng, -0.5f, 0.5f),
                                                          sw_test_rand(&rng, -0.8f, 0.2f),
                                                          sw_test_rand(&rng, -0.5f, 0.5f)));
        bool reached = false;
        sw_ik_two_bone_job job = leg_job(&r, target, &reached);
        job.weight = iter % 2 ? 1.0f : sw_test_rand(&rng, 0.0f, 1.0f);
        job.twist = iter % 3 ? 0.0f : 0.4f;
        sw_ik_two_bone_rotations rot;
        assert_int_equal(sw_ik_two_bone_job_solve(&job, &rot), SW_RESULT_OK);
        assert_memory_equal(start, r.pose, sizeof(start)); /* not written */
        assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
        assert_true(reached == rot.reached);
        memcpy(ran, r.pose, sizeof(ran));
        memcpy(r.pose, start, sizeof(start));
        const uint32_t joints[2] = {LEG_HIP, LEG_KNEE};
        const sw_quat rots[2] = {rot.start, rot.mid};
        for (int k = 0; k < 2; ++k) {
            const sw_ik_rotate_job rj = {.skeleton = s,
                                         .model = r.model,
                                         .model_count = r.joints,
                                         .joint = joints[k],
                                         .rotation = rots[k],
                                         .weight = job.weight,
                                         .pose = r.pose,
                                         .pose_count = r.packets};
            assert_int_equal(sw_ik_rotate_job_run(&rj), SW_RESULT_OK);
        }
        memcpy(applied, r.pose, sizeof(applied));
        /* The same up to rounding (the run leaves the normalization of the
         * solved rotations to its write-back); every other number the same
         * bits. */
        for (uint32_t j = 0; j < LEG_JOINTS; ++j) {
            const sw_xform a = sw_pose_get(ran, j), b = sw_pose_get(applied, j);
            sw_test_quat_near(a.r, b.r, 5e-7f);
            assert_memory_equal(&a.t, &b.t, sizeof a.t);
            assert_memory_equal(&a.s, &b.s, sizeof a.s);
            if (j != LEG_HIP && j != LEG_KNEE) assert_memory_equal(&a.r, &b.r, sizeof a.r);
        }
        memcpy(r.pose, start, sizeof(start));
    }
    /* Failures leave *out alone: NULL out, out over an input, a zero bone. */
    bool reached = false;
    sw_ik_two_bone_job job = leg_job(&r, sw_vec3_make(0.1f, 0.5f, 0.0f), &reached);
    assert_int_equal(sw_ik_two_bone_job_solve(&job, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_two_bone_job_solve(NULL, NULL), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(
        sw_ik_two_bone_job_solve(&job, (sw_ik_two_bone_rotations*)(void*)&r.model[LEG_OTHER]),
        SW_RESULT_OVERLAP);
    sw_mat4 flat[LEG_JOINTS];
    memcpy(flat, r.model, sizeof(flat));
    memcpy(&flat[LEG_ANKLE].m[12], &flat[LEG_KNEE].m[12], 3 * sizeof(float));
    job.model = flat;
    sw_ik_two_bone_rotations untouched;
    memset(&untouched, 0x5a, sizeof untouched);
    sw_ik_two_bone_rotations copy = untouched;
    assert_int_equal(sw_ik_two_bone_job_validate(&job), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_ik_two_bone_job_solve(&job, &untouched), SW_RESULT_BAD_DATA);
    assert_memory_equal(&copy, &untouched, sizeof copy);
    flat[LEG_ANKLE].m[12] = INFINITY;
    assert_int_equal(sw_ik_two_bone_job_solve(&job, &untouched), SW_RESULT_BAD_DATA);
    assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_BAD_DATA);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

static void test_find_two_bone_and_forward(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_leg();
    uint32_t idx[3] = {9, 9, 9};
    assert_int_equal(sw_ik_find_two_bone(s, "hip", "knee", "ankle", idx), SW_RESULT_OK);
    assert_int_equal(idx[0], LEG_HIP);
    assert_int_equal(idx[1], LEG_KNEE);
    assert_int_equal(idx[2], LEG_ANKLE);
    assert_int_equal(sw_ik_find_two_bone(s, "hip", "ankle", "knee", idx), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_ik_find_two_bone(s, "hip", "knee", "nope", idx), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_ik_find_two_bone(s, "hip", "knee", "other", idx), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_ik_find_two_bone(NULL, "hip", "knee", "ankle", idx),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_find_two_bone(s, "hip", "knee", "ankle", NULL),
                     SW_RESULT_INVALID_ARGUMENT);

    /* Forward from rest: the child's rest model position seen from the joint. */
    ik_rig r;
    ik_rig_init(&r, s);
    for (uint32_t j = 0; j < LEG_TOE; ++j) {
        for (uint32_t c = j + 1; c <= LEG_TOE; ++c) {
            const sw_vec3 f = sw_ik_forward_from_rest(s, j, c);
            const sw_vec3 expect = sw_vec3_normalize(sw_vec3_sub(ik_pos(&r, c), ik_pos(&r, j)));
            const sw_vec3 model_f = sw_quat_rotate(sw_quat_from_mat4(&r.model[j]), f);
            sw_test_vec3_near(model_f, expect, 1e-5f);
            assert_near(sw_vec3_length(f), 1.0f, 1e-6);
        }
    }
    const sw_vec3 z = sw_ik_forward_from_rest(s, LEG_KNEE, LEG_OTHER);
    assert_true(z.x == 0.0f && z.y == 0.0f && z.z == 0.0f);
    const sw_vec3 z2 = sw_ik_forward_from_rest(s, LEG_KNEE, LEG_KNEE);
    assert_true(z2.x == 0.0f && z2.y == 0.0f && z2.z == 0.0f);
    const sw_vec3 z3 = sw_ik_forward_from_rest(s, LEG_KNEE, 99);
    assert_true(z3.x == 0.0f && z3.y == 0.0f && z3.z == 0.0f);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* CMU legs and arms over the capture: targets around the current end, poles
 * ahead of the knee / behind the elbow. */
static void test_two_bone_cmu(void** state) {
    (void)state;
    sw_bvh_result bvh = {0};
    if (!ik_read_cmu(&bvh)) return;
    ik_rig r;
    ik_rig_init(&r, bvh.skeleton);
    const char* limbs[4][3] = {{"LeftUpLeg", "LeftLeg", "LeftFoot"},
                               {"RightUpLeg", "RightLeg", "RightFoot"},
                               {"LeftArm", "LeftForeArm", "LeftHand"},
                               {"RightArm", "RightForeArm", "RightHand"}};
    uint32_t rng = 99;
    const float duration = bvh.clip->duration;
    int solved = 0;
    for (int f = 0; f < 40; ++f) {
        const float t = duration * (float)f / 40.0f;
        for (int l = 0; l < 4; ++l) {
            ik_rig_sample(&r, bvh.clip, t);
            uint32_t idx[3];
            assert_int_equal(
                sw_ik_find_two_bone(bvh.skeleton, limbs[l][0], limbs[l][1], limbs[l][2], idx),
                SW_RESULT_OK);
            const sw_vec3 a = ik_pos(&r, idx[0]), b = ik_pos(&r, idx[1]), c = ik_pos(&r, idx[2]);
            const float l1 = ik_dist(a, b), l2 = ik_dist(b, c);
            const sw_vec3 target = sw_vec3_add(c, sw_vec3_make(sw_test_rand(&rng, -0.15f, 0.15f),
                                                               sw_test_rand(&rng, -0.15f, 0.15f),
                                                               sw_test_rand(&rng, -0.15f, 0.15f)));
            const float d = ik_dist(a, target);
            sw_mat4* old = malloc(sizeof(sw_mat4) * r.joints);
            memcpy(old, r.model, sizeof(sw_mat4) * r.joints);
            bool reached = false;
            const sw_ik_two_bone_job job = {
                .skeleton = r.skel,
                .model = old,
                .model_count = r.joints,
                .start_joint = idx[0],
                .mid_joint = idx[1],
                .end_joint = idx[2],
                .target = target,
                .pole_mode = SW_IK_POLE_MODE_TARGET,
                /* the current knee/elbow pushed out: keeps the bend side */
                .pole = sw_vec3_add(b, sw_vec3_sub(b, sw_vec3_scale(sw_vec3_add(a, c), 0.5f))),
                .weight = 1.0f,
                .pose = r.pose,
                .pose_count = r.packets,
                .reached = &reached};
            assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
            ik_rig_model(&r);
            assert_near(ik_dist(ik_pos(&r, idx[0]), ik_pos(&r, idx[1])), l1, 1e-5);
            assert_near(ik_dist(ik_pos(&r, idx[1]), ik_pos(&r, idx[2])), l2, 1e-5);
            if (d < l1 + l2 - 1e-3f && d > fabsf(l1 - l2) + 1e-3f) {
                assert_true(reached);
                if (ik_dist(ik_pos(&r, idx[2]), target) > 1e-4f)
                    fail_msg("%s at %g s: %g m from target", limbs[l][2], (double)t,
                             (double)ik_dist(ik_pos(&r, idx[2]), target));
                ++solved;
            }
            free(old);
        }
    }
    assert_true(solved > 100);
    ik_rig_free(&r);
    sw_bvh_result_free(&bvh, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rotate_validity),
        cmocka_unit_test(test_rotate_matches_model_space),
        cmocka_unit_test(test_rotate_matches_local_rotation),
        cmocka_unit_test(test_rotate_root_transform),
        cmocka_unit_test(test_local_rotation),
        cmocka_unit_test(test_two_bone_validity),
        cmocka_unit_test(test_two_bone_reach),
        cmocka_unit_test(test_two_bone_weight),
        cmocka_unit_test(test_two_bone_out_of_reach),
        cmocka_unit_test(test_two_bone_continuity),
        cmocka_unit_test(test_two_bone_softness),
        cmocka_unit_test(test_two_bone_end_rotation_twist),
        cmocka_unit_test(test_two_bone_degenerate),
        cmocka_unit_test(test_two_bone_reference),
        cmocka_unit_test(test_two_bone_solve),
        cmocka_unit_test(test_find_two_bone_and_forward),
        cmocka_unit_test(test_two_bone_cmu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
