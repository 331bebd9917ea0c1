/* Retargeting on real files: every humanoid of assimp-testmodels and the
 * shared assets maps its roles onto the built-in humanoid (BCN_Epileptic.X
 * through assimp, its mesh nodes left out), BCN_Epileptic.X retargets with
 * the rotations the header promises, and a clip baked onto its own skeleton
 * with the defaults (the ground fitted as the CLI does) is the clip itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/showcase/character.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/readers/asset.h"
#include "test_util.h"

/* Opens a model of assimp-testmodels ("X/BCN_Epileptic.X") or, with asset,
 * of the shared assets; false (skipped, said) when absent. */
static bool rta_open(const char* rel, bool asset, float scale, sw_asset* a) {
    char path[512];
    if (!(asset ? sw_test_asset_path(path, sizeof path, rel)
                : sw_test_model_path(path, sizeof path, rel)))
        return false;
    const sw_asset_reader readers[] = {SW_ASSIMP_ASSET_READER};
    const sw_asset_options opt = {
        .scale = scale, .readers = readers, .readers_count = 1, .readers_in_process = true};
    sw_error err = {0};
    assert_int_equal(sw_asset_open(path, &opt, a, &err), SW_RESULT_OK);
    return true;
}

/* The automatic map of a's skeleton joints onto the humanoid's. */
static void rta_map(const sw_asset* a, const sw_scene* human, sw_retarget_joint_map* jm) {
    uint8_t* m = malloc(2u * SW_SKELETON_MAX_JOINTS);
    assert_non_null(m);
    assert_int_equal(sw_retarget_skeleton_joints(a->skeleton, a->meshes, a->meshes_count, a->clips,
                                                 a->clips_count, m),
                     SW_RESULT_OK);
    assert_int_equal(
        sw_retarget_skeleton_joints(human->skeleton, (const sw_mesh* const*)human->meshes,
                                    human->meshes_count, NULL, 0, m + SW_SKELETON_MAX_JOINTS),
        SW_RESULT_OK);
    assert_int_equal(sw_retarget_joint_map_auto_masked(a->skeleton, m, human->skeleton,
                                                       m + SW_SKELETON_MAX_JOINTS, jm),
                     SW_RESULT_OK);
    free(m);
}

static const char* rta_source(const sw_retarget_joint_map* jm, const char* target) {
    const int32_t t = sw_skeleton_find_joint(jm->target, target);
    if (t < 0 || jm->source_of[t] < 0) return "-";
    return sw_skeleton_joint_name(jm->source, (uint32_t)jm->source_of[t]);
}

/* Each file's humanoid joints (read off its joint list) all map: every role
 * of the humanoid but those the file has no joint for (the robot's toes). */
static void test_humanoids_map_fully(void** state) {
    (void)state;
    static const struct {
        const char* rel;
        bool asset;
        uint32_t mapped;
    } files[] = {
        {"X/BCN_Epileptic.X", false, 21},  {"BVH/01_01.bvh", false, 21},
        {"BVH/01_03.bvh", false, 21},      {"BVH/Boxing_Toes.bvh", false, 21},
        {"RobotExpressive.glb", true, 19},
    };
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    sw_retarget_joint_map* jm = malloc(sizeof *jm);
    assert_non_null(jm);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
        sw_asset a;
        if (!rta_open(files[i].rel, files[i].asset, 0.0f, &a)) continue;
        rta_map(&a, &human, jm);
        const uint32_t n = sw_retarget_joint_map_count(jm);
        print_message("%s: %u of %u humanoid joints mapped\n", files[i].rel, n,
                      human.skeleton->joints_count);
        assert_int_equal(n, files[i].mapped);
        const uint32_t toes =
            (1u << SW_RETARGET_BONE_LEFT_TOES) | (1u << SW_RETARGET_BONE_RIGHT_TOES);
        assert_int_equal(sw_retarget_joint_map_missing(jm), files[i].mapped == 21 ? 0u : toes);
        sw_asset_free(&a);
    }
    sw_asset bcn;
    if (rta_open("X/BCN_Epileptic.X", false, 0.0f, &bcn)) {
        rta_map(&bcn, &human, jm);
        static const char* const pairs[][2] = {
            {"B_Root_Pelvis_L", "Hips"}, /* where the legs and the chest meet */
            {"B_Spine4", "Spine1"},      /* the chest: the arms branch there */
            {"B_Root_Neck_H", "Neck"},     {"B_Neck", "Head"}, /* the face hangs off B_Neck */
            {"B_Hip_Left", "LeftUpLeg"},   {"B_Ankle_Right", "RightFoot"},
            {"B_Toe_Left", "LeftToeBase"}, {"B_Clavicle_Right", "RightShoulder"},
            {"B_Hand_Left", "LeftHand"},
        };
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i)
            assert_string_equal(rta_source(jm, pairs[i][1]), pairs[i][0]);
        uint8_t mask[SW_SKELETON_MAX_JOINTS];
        assert_int_equal(sw_retarget_skeleton_joints(bcn.skeleton, bcn.meshes, bcn.meshes_count,
                                                     bcn.clips, bcn.clips_count, mask),
                         SW_RESULT_OK);
        static const char* const meshes[] = {"Torso", "Head", "Legs"};
        for (int i = 0; i < 3; ++i)
            assert_int_equal(mask[sw_skeleton_find_joint(bcn.skeleton, meshes[i])], 0);
        assert_int_equal(mask[sw_skeleton_find_joint(bcn.skeleton, "B_Eye_Left")], 1);
        sw_asset_free(&bcn);
    }
    free(jm);
    sw_scene_free(&human, NULL);
}

/* Model rotations of a local pose. */
static void rta_model_rot(const sw_skeleton* s, const sw_xform4* pose, sw_quat* out) {
    const int16_t* parents = sw_skeleton_parents(s);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_quat r = sw_pose_get(pose, j).r;
        out[j] = sw_quat_normalize(parents[j] < 0 ? r : sw_quat_mul(out[parents[j]], r));
    }
}

static void rta_sample(const sw_clip* c, const sw_skeleton* s, float t, sw_xform4* out) {
    const sw_sample_job job = {
        .clip = c, .skeleton = s, .time = t, .out = out, .out_count = s->packets_count};
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
}

/* BCN_Epileptic.X onto the humanoid: the map prepares (it failed with
 * "root height > 0"), the bake runs with the CLI's defaults, and without IK
 * every mapped joint turns from its rest as its source does:
 * Q_t = Q_s * inverse(Q_s rest) * Q_t rest (model rotations). */
static void test_bcn_retargets(void** state) {
    (void)state;
    sw_asset bcn;
    if (!rta_open("X/BCN_Epileptic.X", false, 0.0f, &bcn)) return;
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    const sw_skeleton *src = bcn.skeleton, *tgt = human.skeleton;
    sw_retarget_joint_map* jm = malloc(sizeof *jm);
    sw_retarget_map* map = malloc(sizeof *map);
    assert_true(jm && map);
    rta_map(&bcn, &human, jm);
    sw_retarget_pair pairs[SW_SKELETON_MAX_JOINTS];
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    assert_int_equal(sw_retarget_joint_map_desc(jm, true, pairs, limbs, &desc), SW_RESULT_OK);
    sw_error err = {0};
    assert_int_equal(sw_retarget_map_init(&desc, map, &err), SW_RESULT_OK);
    assert_int_equal(map->limbs_count, 2);
    assert_int_equal(sw_retarget_fit_ground(map, src, bcn.clips[0], tgt, &map->source_ground),
                     SW_RESULT_OK);
    const sw_clip* baked = NULL;
    const sw_retarget_bake_options cli = {.ik_weight = 1.0f, .foot_lock = true};
    assert_int_equal(sw_retarget_bake(map, src, bcn.clips[0], tgt, &cli, NULL, &baked, &err),
                     SW_RESULT_OK);
    assert_float_equal(baked->duration, bcn.clips[0]->duration, 1e-6f);
    sw_clip_destroy(baked, NULL);
    assert_int_equal(sw_retarget_bake(map, src, bcn.clips[0], tgt, NULL, NULL, &baked, &err),
                     SW_RESULT_OK);
    sw_xform4* sp = aligned_alloc(16, src->packets_count * sizeof(sw_xform4));
    sw_xform4* tp = aligned_alloc(16, tgt->packets_count * sizeof(sw_xform4));
    sw_quat *sq = malloc(src->joints_count * sizeof *sq),
            *tq = malloc(tgt->joints_count * sizeof *tq);
    sw_quat *sr = malloc(src->joints_count * sizeof *sr),
            *tr = malloc(tgt->joints_count * sizeof *tr);
    assert_true(sp && tp && sq && tq && sr && tr);
    rta_model_rot(src, sw_skeleton_rest_pose(src), sr);
    rta_model_rot(tgt, sw_skeleton_rest_pose(tgt), tr);
    float worst = 0.0f;
    for (float t = 0.0f; t <= baked->duration; t += 0.25f) {
        rta_sample(bcn.clips[0], src, t, sp);
        rta_sample(baked, tgt, t, tp);
        rta_model_rot(src, sp, sq);
        rta_model_rot(tgt, tp, tq);
        for (uint32_t j = 0; j < tgt->joints_count; ++j) {
            const int32_t s = jm->source_of[j];
            if (s < 0) continue;
            const sw_quat want = sw_quat_mul(sw_quat_mul(sq[s], sw_quat_conjugate(sr[s])), tr[j]);
            const float d = 1.0f - fabsf(sw_quat_dot(sw_quat_normalize(want), tq[j]));
            if (d > worst) worst = d;
        }
    }
    print_message("BCN_Epileptic.X onto the humanoid: rotation 1 - |dot| at most %.3g\n",
                  (double)worst);
    assert_true(worst < 1e-5f);
    free(sp), free(tp), free(sq), free(tq), free(sr), free(tr);
    sw_clip_destroy(baked, NULL);
    free(map);
    free(jm);
    sw_scene_free(&human, NULL);
    sw_asset_free(&bcn);
}

/* Clip `c` of `a` baked onto a's own skeleton with every option at its
 * default, the ground fitted: the largest difference of the local poses
 * from the source clip's at the bake's keys (rotations: 1 - |dot|;
 * translations: length, relative above 1). */
static float rta_self(const sw_asset* a, uint32_t c) {
    const sw_skeleton* s = a->skeleton;
    const sw_clip* clip = a->clips[c];
    sw_retarget_joint_map* jm = malloc(sizeof *jm);
    sw_retarget_map* map = malloc(sizeof *map);
    sw_retarget_pair* pairs = malloc(SW_SKELETON_MAX_JOINTS * sizeof *pairs);
    assert_true(jm && map && pairs);
    assert_int_equal(sw_retarget_joint_map_auto(s, s, jm), SW_RESULT_OK);
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    assert_int_equal(sw_retarget_joint_map_desc(jm, true, pairs, limbs, &desc), SW_RESULT_OK);
    sw_error err = {0};
    assert_int_equal(sw_retarget_map_init(&desc, map, &err), SW_RESULT_OK);
    assert_int_equal(sw_retarget_fit_ground(map, s, clip, s, &map->source_ground), SW_RESULT_OK);
    assert_float_equal(map->source_ground, map->target_ground, 0.0f);
    const sw_clip* baked = NULL;
    assert_int_equal(sw_retarget_bake(map, s, clip, s, NULL, NULL, &baked, &err), SW_RESULT_OK);
    sw_xform4* p = aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    sw_xform4* q = aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    assert_true(p && q);
    /* the bake's keys: those of its longest track, from 0 to the duration */
    uint32_t keys = 1;
    const sw_clip_track* tracks = sw_clip_tracks(baked);
    for (uint32_t i = 0; i < baked->tracks_count - baked->float_tracks_count; ++i)
        if (tracks[i].keys_count > keys) keys = tracks[i].keys_count;
    float worst = 0.0f;
    for (uint32_t k = 0; k < keys; ++k) {
        /* the times the bake sampled (retarget_map.h: uniform keys, the last at the duration) */
        const float rate = keys > 1 ? (float)(keys - 1) / clip->duration : 1.0f;
        const float t = k + 1 == keys ? clip->duration : (float)k / rate;
        rta_sample(clip, s, t, p);
        rta_sample(baked, s, t, q);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const sw_xform x = sw_pose_get(p, j), y = sw_pose_get(q, j);
            const float dq = 1.0f - fabsf(sw_quat_dot(x.r, y.r));
            const float dt =
                sw_vec3_length(sw_vec3_sub(x.t, y.t)) / fmaxf(1.0f, sw_vec3_length(x.t));
            worst = fmaxf(worst, fmaxf(dq, dt));
        }
    }
    free(p), free(q), free(pairs), free(map), free(jm);
    sw_clip_destroy(baked, NULL);
    return worst;
}

static void test_self_identity(void** state) {
    (void)state;
    sw_asset robot;
    if (rta_open("RobotExpressive.glb", true, 0.0f, &robot)) {
        for (uint32_t c = 0; c < robot.clips_count; ++c) {
            const float e = rta_self(&robot, c);
            print_message("RobotExpressive %s onto itself: local poses differ by %.3g\n",
                          sw_clip_name(robot.clips[c]), (double)e);
            assert_true(e <= 1e-6f);
        }
        sw_asset_free(&robot);
    }
    static const char* const bvh[] = {"BVH/01_03.bvh", "BVH/Boxing_Toes.bvh"};
    static const float scale[] = {0.056444f, 0.01f};
    for (int i = 0; i < 2; ++i) {
        sw_asset a;
        if (!rta_open(bvh[i], false, scale[i], &a)) continue;
        const float e = rta_self(&a, 0);
        print_message("%s onto itself: local poses differ by %.3g\n", bvh[i], (double)e);
        assert_true(e <= 1e-6f);
        sw_asset_free(&a);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_humanoids_map_fully),
        cmocka_unit_test(test_bcn_retargets),
        cmocka_unit_test(test_self_identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
