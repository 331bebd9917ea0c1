/* IK on RobotExpressive (../shared/assets, read with the native glTF reader):
 * two-bone and FABRIK/CCD on both arms over the Idle and Walking clips,
 * look-at over torso, neck and head. Skipped with a message when the asset
 * is absent.
 *
 * The skeleton holds the skin's joints and their ancestors. Its legs end at
 * the knee (LowerLegL/R has no joint below it: the feet, FootL/R, hang off
 * the root "Bone", driven by the IK of the authoring tool), so a
 * hip-knee-ankle chain does not exist in this rig; the arms
 * (UpperArm -> LowerArm -> Palm2) and the spine do. */
#include "ik_fixture.h"

#include "sinew/tools/readers/gltf.h"

static bool read_robot(sw_scene* s) {
    char path[1024];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    sw_error e = {0};
    const sw_result r = sw_gltf_read_file(path, NULL, NULL, s, &e);
    if (r != SW_RESULT_OK) fail_msg("RobotExpressive.glb: %s (%s)", sw_result_str(r), e.check);
    return true;
}

static const sw_clip* clip_named(const sw_scene* s, const char* name) {
    for (uint32_t i = 0; i < s->clips_count; ++i)
        if (strcmp(sw_clip_name(s->clips[i]), name) == 0) return s->clips[i];
    fail_msg("no clip %s", name);
    return NULL;
}

static void test_robot_arms(void** state) {
    (void)state;
    sw_scene scene;
    if (!read_robot(&scene)) return;
    ik_rig r;
    ik_rig_init(&r, scene.skeleton);
    const char* arms[2][3] = {{"UpperArmL", "LowerArmL", "Palm2L"},
                              {"UpperArmR", "LowerArmR", "Palm2R"}};
    const char* clips[2] = {"Idle", "Walking"};
    uint32_t rng = 41;
    int solved = 0;
    float worst = 0.0f, worst_len = 0.0f, arm_len = 0.0f;
    for (int c = 0; c < 2; ++c) {
        const sw_clip* clip = clip_named(&scene, clips[c]);
        for (int f = 0; f < 20; ++f) {
            for (int a = 0; a < 2; ++a) {
                ik_rig_sample(&r, clip, clip->duration * (float)f / 20.0f);
                uint32_t idx[3];
                assert_int_equal(
                    sw_ik_find_two_bone(r.skel, arms[a][0], arms[a][1], arms[a][2], idx),
                    SW_RESULT_OK);
                const sw_vec3 p0 = ik_pos(&r, idx[0]), p1 = ik_pos(&r, idx[1]),
                              p2 = ik_pos(&r, idx[2]);
                const float l1 = ik_dist(p0, p1), l2 = ik_dist(p1, p2);
                const float reach = l1 + l2;
                arm_len = reach;
                /* A target within reach, around the current hand. */
                const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(sw_test_rand(&rng, -1, 1),
                                                                   sw_test_rand(&rng, -1, 1),
                                                                   sw_test_rand(&rng, -1, 1)));
                const sw_vec3 target =
                    sw_vec3_add(p0, sw_vec3_scale(dir, reach * sw_test_rand(&rng, 0.5f, 0.95f)));
                sw_mat4* old = malloc(sizeof(sw_mat4) * r.joints);
                memcpy(old, r.model, sizeof(sw_mat4) * r.joints);
                bool reached = false;
                const sw_ik_two_bone_job job = {.skeleton = r.skel,
                                                .model = old,
                                                .model_count = r.joints,
                                                .start_joint = idx[0],
                                                .mid_joint = idx[1],
                                                .end_joint = idx[2],
                                                .target = target,
                                                .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                                .pole = sw_vec3_make(0, 0, -1),
                                                .weight = 1.0f,
                                                .pose = r.pose,
                                                .pose_count = r.packets,
                                                .reached = &reached};
                assert_int_equal(sw_ik_two_bone_job_run(&job), SW_RESULT_OK);
                ik_rig_model(&r);
                assert_true(reached);
                const float err = ik_dist(ik_pos(&r, idx[2]), target);
                const float len_err =
                    fmaxf(fabsf(ik_dist(ik_pos(&r, idx[0]), ik_pos(&r, idx[1])) - l1),
                          fabsf(ik_dist(ik_pos(&r, idx[1]), ik_pos(&r, idx[2])) - l2));
                if (err > worst) worst = err;
                if (len_err > worst_len) worst_len = len_err;
                /* Relative to the arm: the rig's scales differ from 1 by up to
                 * 2e-5, where the write-back is no longer exact. */
                assert_true(err <= 1e-4f * reach);
                assert_true(len_err <= 1e-4f * reach);
                ++solved;
                free(old);
            }
        }
    }
    print_message("RobotExpressive arms: %d two-bone solves, worst reach error %g, worst bone "
                  "length change %g (model units; arm length %g)\n",
                  solved, (double)worst, (double)worst_len, (double)arm_len);
    ik_rig_free(&r);
    sw_scene_free(&scene, NULL);
}

static void test_robot_chains_and_look_at(void** state) {
    (void)state;
    sw_scene scene;
    if (!read_robot(&scene)) return;
    ik_rig r;
    ik_rig_init(&r, scene.skeleton);
    const sw_clip* clip = clip_named(&scene, "Idle");
    uint16_t idx16[8];
    uint32_t n = 0, chain[8];
    assert_int_equal(sw_skeleton_find_chain(r.skel, "ShoulderL", "Middle2L", idx16, 8, &n),
                     SW_RESULT_OK);
    for (uint32_t i = 0; i < n; ++i)
        chain[i] = idx16[i];
    const char* look[3] = {"Torso_1", "Neck", "Head"};
    sw_ik_look_at_joint look_chain[3];
    const float shares[3] = {0.3f, 0.5f, 1.0f};
    for (int i = 0; i < 3; ++i) {
        const int32_t j = sw_skeleton_find_joint(r.skel, look[i]);
        assert_true(j >= 0);
        look_chain[i] = (sw_ik_look_at_joint){(uint32_t)j, shares[i]};
    }
    uint32_t rng = 42;
    for (int f = 0; f < 10; ++f) {
        for (int solver = 0; solver < 2; ++solver) {
            ik_rig_sample(&r, clip, clip->duration * (float)f / 10.0f);
            float reach = 0.0f;
            for (uint32_t i = 0; i + 1 < n; ++i)
                reach += ik_dist(ik_pos(&r, chain[i]), ik_pos(&r, chain[i + 1]));
            const sw_vec3 tip = ik_pos(&r, chain[n - 1]);
            sw_vec3 target =
                sw_vec3_add(tip, sw_vec3_make(sw_test_rand(&rng, -0.2f, 0.2f) * reach,
                                              sw_test_rand(&rng, -0.2f, 0.2f) * reach,
                                              sw_test_rand(&rng, -0.2f, 0.2f) * reach));
            /* Within reach: pulled towards the root when past 95 % of it. */
            const sw_vec3 root = ik_pos(&r, chain[0]);
            const float to_root = ik_dist(target, root);
            if (to_root > 0.95f * reach)
                target = sw_vec3_add(
                    root, sw_vec3_scale(sw_vec3_sub(target, root), 0.95f * reach / to_root));
            sw_mat4* old = malloc(sizeof(sw_mat4) * r.joints);
            memcpy(old, r.model, sizeof(sw_mat4) * r.joints);
            float dist = -1.0f;
            sw_result res;
            if (solver == 0) {
                const sw_ik_fabrik_job job = {.skeleton = r.skel,
                                              .model = old,
                                              .model_count = r.joints,
                                              .joints = chain,
                                              .joints_count = n,
                                              .target = target,
                                              .weight = 1.0f,
                                              .iterations = 100,
                                              .tolerance = 1e-4f * reach,
                                              .pose = r.pose,
                                              .pose_count = r.packets,
                                              .distance = &dist};
                res = sw_ik_fabrik_job_run(&job);
            } else {
                const sw_ik_ccd_job job = {.skeleton = r.skel,
                                           .model = old,
                                           .model_count = r.joints,
                                           .joints = chain,
                                           .joints_count = n,
                                           .target = target,
                                           .weight = 1.0f,
                                           .iterations = 500,
                                           .tolerance = 1e-4f * reach,
                                           .pose = r.pose,
                                           .pose_count = r.packets,
                                           .distance = &dist};
                res = sw_ik_ccd_job_run(&job);
            }
            assert_int_equal(res, SW_RESULT_OK);
            ik_rig_model(&r);
            assert_true(dist <= 1e-4f * reach);
            assert_true(ik_dist(ik_pos(&r, chain[n - 1]), target) <= 2e-4f * reach);
            for (uint32_t i = 0; i + 1 < n; ++i) {
                const sw_vec3 a = {old[chain[i]].m[12], old[chain[i]].m[13], old[chain[i]].m[14]};
                const sw_vec3 b = {old[chain[i + 1]].m[12], old[chain[i + 1]].m[13],
                                   old[chain[i + 1]].m[14]};
                assert_near(ik_dist(ik_pos(&r, chain[i]), ik_pos(&r, chain[i + 1])), ik_dist(a, b),
                            1e-4 * reach);
            }
            free(old);
        }

        /* Look-at: the head's face (model +Z at this pose) towards a point ahead. */
        ik_rig_sample(&r, clip, clip->duration * (float)f / 10.0f);
        const uint32_t head = look_chain[2].joint;
        const sw_quat rh = sw_quat_from_mat4(&r.model[head]);
        const sw_vec3 fwd = sw_quat_rotate(sw_quat_conjugate(rh), sw_vec3_make(0, 0, 1));
        const sw_vec3 target =
            sw_vec3_add(ik_pos(&r, head),
                        sw_vec3_make(sw_test_rand(&rng, -3, 3), sw_test_rand(&rng, -1, 1), 4.0f));
        sw_mat4* old = malloc(sizeof(sw_mat4) * r.joints);
        memcpy(old, r.model, sizeof(sw_mat4) * r.joints);
        const sw_ik_look_at_job job = {.skeleton = r.skel,
                                       .model = old,
                                       .model_count = r.joints,
                                       .joints = look_chain,
                                       .joints_count = 3,
                                       .forward = fwd,
                                       .target = target,
                                       .limit_angle = 1.4f,
                                       .weight = 1.0f,
                                       .pose = r.pose,
                                       .pose_count = r.packets};
        assert_int_equal(sw_ik_look_at_job_run(&job), SW_RESULT_OK);
        ik_rig_model(&r);
        const sw_vec3 f1 =
            sw_vec3_normalize(sw_quat_rotate(sw_quat_from_mat4(&r.model[head]), fwd));
        const sw_vec3 to_target = sw_vec3_sub(target, ik_pos(&r, head));
        assert_true(ik_vec_angle(sw_vec3_make(0, 0, 1), f1) <= 1.4 + 1e-4);
        if (ik_vec_angle(sw_vec3_make(0, 0, 1), to_target) < 1.4)
            assert_true(ik_vec_angle(f1, to_target) < 5e-4);
        free(old);
    }
    ik_rig_free(&r);
    sw_scene_free(&scene, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_robot_arms),
        cmocka_unit_test(test_robot_chains_and_look_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
