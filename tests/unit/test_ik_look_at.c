/* Look-at / aim: validity table, exact within the limit, never past it,
 * shares over a chain, up-axis levelling, opposite targets, weight 0, and a
 * CMU head turning over spine, neck and head. */
#include "ik_fixture.h"

#define PI_F 3.14159265f

/* Forward of joint j in model space for a local forward axis. */
static sw_vec3 model_forward(const ik_rig* r, uint32_t j, sw_vec3 local) {
    return sw_vec3_normalize(sw_quat_rotate(sw_quat_from_mat4(&r->model[j]), local));
}

/* Runs the job on a copy of the model matrices and recomputes them. */
static sw_result run_look_at(ik_rig* r, sw_ik_look_at_job job) {
    sw_mat4* old = malloc(sizeof(sw_mat4) * r->joints);
    memcpy(old, r->model, sizeof(sw_mat4) * r->joints);
    job.model = old;
    const sw_result res = sw_ik_look_at_job_run(&job);
    free(old);
    ik_rig_model(r);
    return res;
}

static const sw_ik_look_at_joint k_spine[3] = {{2, 0.3f}, {4, 0.5f}, {6, 1.0f}};

static sw_ik_look_at_job chain_job(ik_rig* r, sw_vec3 target) {
    return (sw_ik_look_at_job){.skeleton = r->skel,
                               .model = r->model,
                               .model_count = r->joints,
                               .joints = k_spine,
                               .joints_count = 3,
                               .forward = sw_vec3_make(0, 0, 1),
                               .target = target,
                               .weight = 1.0f,
                               .pose = r->pose,
                               .pose_count = r->packets};
}

static void test_look_at_validity(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(1);
    ik_rig r;
    ik_rig_init(&r, s);
    const sw_ik_look_at_job valid = chain_job(&r, sw_vec3_make(1, 1, 1));
    assert_int_equal(sw_ik_look_at_job_validate(&valid), SW_RESULT_OK);
    const sw_ik_look_at_job zero = {0};
    assert_int_equal(sw_ik_look_at_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_look_at_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_ik_look_at_job_run(NULL), SW_RESULT_INVALID_ARGUMENT);
    const sw_ik_look_at_joint bad_share[2] = {{2, 1.5f}, {4, 1.0f}};
    const sw_ik_look_at_joint nan_share[1] = {{2, NAN}};
    const sw_ik_look_at_joint bad_order[2] = {{4, 0.5f}, {2, 1.0f}};
    const sw_ik_look_at_joint branch[2] = {{1, 0.5f}, {CHAIN_JOINTS + 1, 1.0f}};
    const sw_ik_look_at_joint out_of_range[1] = {{99, 1.0f}};
    static sw_ik_look_at_joint long_chain[SW_IK_MAX_CHAIN + 1];
    SINEW_ALIGN16 sw_xform4 buf[4];

#define NCASES 32
    sw_ik_look_at_job cases[NCASES];
    sw_result expect[NCASES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < NCASES; ++i)
        cases[i] = valid;
#define CASE(stmt, res) (cases[n].stmt, expect[n++] = (res))
    CASE(skeleton = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(model = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(pose = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints = NULL, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints_count = 0, SW_RESULT_INVALID_ARGUMENT);
    CASE(joints = bad_share, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 2;
    CASE(joints = nan_share, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 1;
    CASE(joints = bad_order, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 2;
    CASE(joints = branch, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 2;
    CASE(joints = out_of_range, SW_RESULT_INVALID_ARGUMENT);
    cases[n - 1].joints_count = 1;
    CASE(joints = long_chain, SW_RESULT_LIMIT);
    cases[n - 1].joints_count = SW_IK_MAX_CHAIN + 1;
    CASE(forward = sw_vec3_make(0, 0, 0), SW_RESULT_INVALID_ARGUMENT);
    CASE(forward.x = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(up = sw_vec3_make(0, 0, 2), SW_RESULT_INVALID_ARGUMENT); /* parallel to forward */
    CASE(up.y = INFINITY, SW_RESULT_INVALID_ARGUMENT);
    CASE(model_up.z = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(target.x = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(limit_angle = -0.1f, SW_RESULT_INVALID_ARGUMENT);
    CASE(limit_angle = 3.5f, SW_RESULT_INVALID_ARGUMENT);
    CASE(limit_angle = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = 2.0f, SW_RESULT_INVALID_ARGUMENT);
    CASE(weight = NAN, SW_RESULT_INVALID_ARGUMENT);
    CASE(model_count = 2, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose_count = 1, SW_RESULT_BUFFER_TOO_SMALL);
    CASE(pose = (sw_xform4*)(void*)((char*)buf + 4), SW_RESULT_MISALIGNED);
    CASE(model = (const sw_mat4*)(const void*)r.pose, SW_RESULT_OVERLAP);
    CASE(root_transform = (const sw_mat4*)(const void*)&r.pose[1], SW_RESULT_OVERLAP);
    CASE(joints = (const sw_ik_look_at_joint*)(const void*)r.pose, SW_RESULT_OVERLAP);
    cases[n - 1].joints_count = 1;
#undef CASE
    assert_true(n <= NCASES);
    /* Joints overlapping the pose: make the lane-0 values a valid joint. */
    for (uint32_t i = 0; i < n; ++i) {
        SINEW_ALIGN16 sw_xform4 before[3];
        memcpy(before, r.pose, sizeof(before));
        const sw_result v = sw_ik_look_at_job_validate(&cases[i]);
        if (v != expect[i]) fail_msg("case %u: validate gave %s", i, sw_result_str(v));
        assert_int_equal(sw_ik_look_at_job_run(&cases[i]), expect[i]);
        assert_memory_equal(before, r.pose, sizeof(before));
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Random targets and limits: the forward never turns past the limit, is
 * exact (points at the target from where the head ends up) when within it,
 * and stops exactly at the limit otherwise. */
static void test_look_at_limit(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(2);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 31;
    int within = 0, beyond = 0;
    for (int iter = 0; iter < 400; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.8f);
        const uint32_t head = k_spine[2].joint;
        const sw_vec3 fwd_local = sw_vec3_normalize(sw_vec3_make(
            sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1)));
        const sw_vec3 f0 = model_forward(&r, head, fwd_local);
        const sw_vec3 target = sw_vec3_add(
            ik_pos(&r, head), sw_vec3_make(sw_test_rand(&rng, -2, 2), sw_test_rand(&rng, -2, 2),
                                           sw_test_rand(&rng, -2, 2)));
        const float limit = iter % 4 == 0 ? 0.0f : sw_test_rand(&rng, 0.05f, 3.0f);
        sw_ik_look_at_job job = chain_job(&r, target);
        job.forward = fwd_local;
        job.limit_angle = limit;
        /* One joint, or the chain. */
        if (iter % 2) {
            job.joints = &k_spine[2];
            job.joints_count = 1;
        }
        assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
        const sw_vec3 f1 = model_forward(&r, head, fwd_local);
        const double turned = ik_vec_angle(f0, f1);
        const double eff_limit = limit > 0.0f ? (double)limit : 3.14159265358979;
        if (turned > eff_limit + 1e-4) fail_msg("iter %d: turned %g > %g", iter, turned, eff_limit);
        const sw_vec3 to_target = sw_vec3_sub(target, ik_pos(&r, head));
        const double want = ik_vec_angle(f0, to_target);
        if (want <= eff_limit) {
            if (ik_vec_angle(f1, to_target) > 2e-4)
                fail_msg("iter %d: %g rad off the target", iter, ik_vec_angle(f1, to_target));
            ++within;
        } else {
            assert_near(turned, eff_limit, 2e-4);
            /* Towards the target: the forward, the start and the target direction in one plane. */
            const sw_vec3 n = sw_vec3_normalize(sw_vec3_cross(f0, to_target));
            assert_near(sw_vec3_dot(f1, n), 0.0, 2e-4);
            ++beyond;
        }
    }
    print_message("look-at: %d targets within the limit (exact), %d beyond (clamped)\n", within,
                  beyond);
    assert_true(within > 50 && beyond > 50);
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Shares: the first joint takes share * the whole turn (measured on its own
 * rotation), later joints the rest; joints outside the chain stay. */
static void test_look_at_shares(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(3);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 32;
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 0.5f);
        const uint32_t head = k_spine[2].joint;
        const sw_vec3 fwd_local = sw_vec3_make(0, 0, 1);
        const sw_vec3 f0 = model_forward(&r, head, fwd_local);
        const sw_vec3 target = sw_vec3_add(
            ik_pos(&r, head),
            sw_vec3_scale(sw_quat_rotate(sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0),
                                                                 sw_test_rand(&rng, -1.5f, 1.5f)),
                                         f0),
                          3.0f));
        sw_mat4 before[CHAIN_JOINTS + 2];
        memcpy(before, r.model, sizeof(before));
        const sw_quat first0 = sw_quat_from_mat4(&r.model[k_spine[0].joint]);
        /* The first joint's turn: share 0.3 of from_to(f0, wanted), computed
         * here from the input forward and the target seen from the head. */
        const sw_quat whole = sw_quat_from_to(f0, sw_vec3_sub(target, ik_pos(&r, head)));
        sw_ik_look_at_job job = chain_job(&r, target);
        assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
        const sw_quat first1 = sw_quat_from_mat4(&r.model[k_spine[0].joint]);
        sw_test_quat_near(
            first1, sw_quat_mul(sw_quat_slerp(sw_quat_identity(), whole, 0.3f), first0), 2e-5f);
        assert_true(ik_vec_angle(model_forward(&r, head, fwd_local),
                                 sw_vec3_sub(target, ik_pos(&r, head))) < 2e-4);
        sw_test_mat4_near(&r.model[CHAIN_JOINTS + 1], &before[CHAIN_JOINTS + 1], 0.0f);
        /* Joints the chain passes over but does not list turn only with their parents. */
        const sw_quat j3 = sw_quat_from_mat4(&r.model[3]);
        const sw_quat j2 = sw_quat_from_mat4(&r.model[2]);
        sw_test_quat_near(sw_quat_mul(sw_quat_conjugate(j2), j3),
                          sw_quat_mul(sw_quat_conjugate(sw_quat_from_mat4(&before[2])),
                                      sw_quat_from_mat4(&before[3])),
                          2e-5f);
    }
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* Up axis: after the turn, the head's up lies in the vertical plane of its
 * forward, on the upper side; weight 0 is bit-exact; a target straight
 * behind turns by pi when unlimited. */
static void test_look_at_up_weight_opposite(void** state) {
    (void)state;
    const sw_skeleton* s = ik_make_chain(4);
    ik_rig r;
    ik_rig_init(&r, s);
    uint32_t rng = 33;
    const uint32_t head = k_spine[2].joint;
    for (int iter = 0; iter < 100; ++iter) {
        ik_rig_random_pose(&r, &rng, 1.0f);
        const sw_vec3 target = sw_vec3_add(
            ik_pos(&r, head), sw_vec3_make(sw_test_rand(&rng, -2, 2), sw_test_rand(&rng, -1, 1),
                                           sw_test_rand(&rng, -2, 2)));
        sw_ik_look_at_job job = chain_job(&r, target);
        job.up = sw_vec3_make(0, 1, 0);
        job.model_up = iter % 2 ? sw_vec3_make(0, 0, 0) : sw_vec3_make(0, 3, 0);
        assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
        const sw_vec3 f = model_forward(&r, head, job.forward);
        const sw_vec3 up = model_forward(&r, head, job.up);
        assert_true(ik_vec_angle(f, sw_vec3_sub(target, ik_pos(&r, head))) < 2e-4);
        const sw_vec3 side = sw_vec3_normalize(sw_vec3_cross(f, sw_vec3_make(0, 1, 0)));
        assert_near(sw_vec3_dot(up, side), 0.0, 1e-4);
        assert_true(up.y > 0.0f);
    }
    ik_rig_random_pose(&r, &rng, 1.0f);
    SINEW_ALIGN16 sw_xform4 before[3];
    memcpy(before, r.pose, sizeof(before));
    sw_ik_look_at_job job = chain_job(&r, sw_vec3_make(3, 2, 1));
    job.weight = 0.0f;
    job.up = sw_vec3_make(0, 1, 0);
    assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
    assert_memory_equal(before, r.pose, sizeof(before));
    /* Straight behind, one joint (it turns in place). */
    const sw_vec3 f0 = model_forward(&r, head, sw_vec3_make(0, 0, 1));
    job = chain_job(&r, sw_vec3_sub(ik_pos(&r, head), sw_vec3_scale(f0, 2.0f)));
    job.joints = &k_spine[2];
    job.joints_count = 1;
    assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
    sw_test_vec3_near(model_forward(&r, head, sw_vec3_make(0, 0, 1)), sw_vec3_scale(f0, -1.0f),
                      1e-4f);
    /* A target on the head: nothing to do. */
    memcpy(before, r.pose, sizeof(before));
    job = chain_job(&r, ik_pos(&r, head));
    assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
    assert_memory_equal(before, r.pose, sizeof(before));
    ik_rig_free(&r);
    sw_skeleton_destroy(s, NULL);
}

/* CMU: spine, neck and head turn the face (model +Z at the sampled pose,
 * expressed in the head's space) towards points around the character, the
 * forward of the rest pose measured with sw_ik_forward_from_rest as well. */
static void test_look_at_cmu(void** state) {
    (void)state;
    sw_bvh_result bvh = {0};
    if (!ik_read_cmu(&bvh)) return;
    ik_rig r;
    ik_rig_init(&r, bvh.skeleton);
    const char* names[4] = {"Spine1", "Neck", "Neck1", "Head"};
    sw_ik_look_at_joint chain[4];
    const float shares[4] = {0.2f, 0.3f, 0.5f, 1.0f};
    for (int i = 0; i < 4; ++i) {
        const int32_t j = sw_skeleton_find_joint(bvh.skeleton, names[i]);
        assert_true(j >= 0);
        chain[i] = (sw_ik_look_at_joint){(uint32_t)j, shares[i]};
    }
    const uint32_t head = chain[3].joint;
    /* Neck1 -> Head at rest: the bone's direction in Neck1's space. */
    const sw_vec3 bone = sw_ik_forward_from_rest(bvh.skeleton, chain[2].joint, head);
    assert_near(sw_vec3_length(bone), 1.0f, 1e-5);
    uint32_t rng = 34;
    int within = 0;
    for (int f = 0; f < 30; ++f) {
        ik_rig_sample(&r, bvh.clip, bvh.clip->duration * (float)f / 30.0f);
        const sw_quat rh = sw_quat_from_mat4(&r.model[head]);
        const sw_vec3 fwd_local = sw_quat_rotate(sw_quat_conjugate(rh), sw_vec3_make(0, 0, 1));
        const sw_vec3 f0 = model_forward(&r, head, fwd_local);
        const sw_vec3 target =
            sw_vec3_add(ik_pos(&r, head),
                        sw_vec3_make(sw_test_rand(&rng, -2, 2), sw_test_rand(&rng, -1, 1), 2.0f));
        const float limit = 1.2f;
        const sw_ik_look_at_job job = {
            .skeleton = r.skel,
            .model = r.model,
            .model_count = r.joints,
            .joints = chain,
            .joints_count = 4,
            .forward = fwd_local,
            .up = sw_quat_rotate(sw_quat_conjugate(rh), sw_vec3_make(0, 1, 0)),
            .target = target,
            .limit_angle = limit,
            .weight = 1.0f,
            .pose = r.pose,
            .pose_count = r.packets};
        assert_int_equal(run_look_at(&r, job), SW_RESULT_OK);
        const sw_vec3 f1 = model_forward(&r, head, fwd_local);
        assert_true(ik_vec_angle(f0, f1) <= limit + 1e-4);
        const sw_vec3 to_target = sw_vec3_sub(target, ik_pos(&r, head));
        if (ik_vec_angle(f0, to_target) < limit) {
            assert_true(ik_vec_angle(f1, to_target) < 2e-4);
            ++within;
        }
    }
    print_message("CMU look-at: %d of 30 targets within the limit, all exact\n", within);
    assert_true(within > 10);
    ik_rig_free(&r);
    sw_bvh_result_free(&bvh, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_look_at_validity), cmocka_unit_test(test_look_at_limit),
        cmocka_unit_test(test_look_at_shares),   cmocka_unit_test(test_look_at_up_weight_opposite),
        cmocka_unit_test(test_look_at_cmu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
