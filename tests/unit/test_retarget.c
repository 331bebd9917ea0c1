/* Retargeting: name maps, the runtime job (identity, scaled copy, other rest
 * orientations), CMU walks onto the built-in humanoid and RobotExpressive
 * with foot IK (ground and sliding), planted frames, the bake with and
 * without the foot lock, map files, validity tables, the retarget verb of
 * the CLI. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, WEXITSTATUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "sinew/retarget/retarget.h"
#include "sinew/showcase/character.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/readers/asset.h"
#include "test_util.h"

#define CMU_SCALE 0.056444f
#ifndef RT_PLANT_SPEED
#define RT_PLANT_SPEED 0.1f
#endif
#ifndef RT_CLIP
#define RT_CLIP "01_01.bvh"
#endif

/* ---- helpers ---- */

static sw_xform4* rt_pose(const sw_skeleton* s) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, s->packets_count * sizeof(sw_xform4));
    assert_non_null(p);
    return p;
}

static void* rt_scratch(const sw_retarget_map* m, size_t* size) {
    *size = (sw_retarget_scratch_size(m) + 15u) & ~(size_t)15u;
    void* p = aligned_alloc(16, *size);
    assert_non_null(p);
    return p;
}

static void rt_model(const sw_skeleton* s, const sw_xform4* pose, sw_mat4* out) {
    const sw_local_to_model_job l2m = {
        .skeleton = s,
        .local = pose,
        .local_count = s->packets_count,
        .out = out,
        .out_count = s->joints_count,
    };
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

static sw_vec3 rt_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

static void rt_sample(const sw_clip* c, const sw_skeleton* s, float t, sw_xform4* out) {
    const sw_sample_job job = {
        .clip = c,
        .skeleton = s,
        .time = t,
        .out = out,
        .out_count = s->packets_count,
    };
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
}

static bool rt_open_cmu(const char* name, sw_asset* a) {
    char path[512];
    char rel[64];
    snprintf(rel, sizeof rel, "BVH/%s", name);
    if (!sw_test_model_path(path, sizeof path, rel)) return false;
    const sw_asset_options opt = {.scale = CMU_SCALE};
    sw_error err = {0};
    assert_int_equal(sw_asset_open(path, &opt, a, &err), SW_RESULT_OK);
    return true;
}

/* A copy of `s` whose joints are given by `f` (index, joint desc in/out). */
static const sw_skeleton* rt_copy(const sw_skeleton* s,
                                  void (*f)(uint32_t j, sw_skeleton_joint* all, void* user),
                                  void* user) {
    sw_skeleton_joint* joints = calloc(s->joints_count, sizeof *joints);
    assert_non_null(joints);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        joints[j].name = sw_skeleton_joint_name(s, j);
        joints[j].parent = sw_skeleton_parents(s)[j];
        joints[j].rest = sw_pose_get(sw_skeleton_rest_pose(s), j);
    }
    for (uint32_t j = 0; j < s->joints_count; ++j)
        f(j, joints, user);
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = s->joints_count};
    const sw_skeleton* out = NULL;
    sw_error err = {0};
    assert_int_equal(sw_skeleton_create(&desc, NULL, &out, &err), SW_RESULT_OK);
    free(joints);
    return out;
}

static void rt_map_auto(const sw_skeleton* src, const sw_skeleton* tgt, bool leg_ik,
                        sw_retarget_map* map) {
    sw_retarget_joint_map jm;
    assert_int_equal(sw_retarget_joint_map_auto(src, tgt, &jm), SW_RESULT_OK);
    sw_retarget_pair pairs[SW_SKELETON_MAX_JOINTS];
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    assert_int_equal(sw_retarget_joint_map_desc(&jm, leg_ik, pairs, limbs, &desc), SW_RESULT_OK);
    sw_error err = {0};
    assert_int_equal(sw_retarget_map_init(&desc, map, &err), SW_RESULT_OK);
}

static void rt_run(const sw_retarget_map* map, const sw_skeleton* src, const sw_skeleton* tgt,
                   const sw_xform4* in, float ik, void* scratch, size_t scratch_size,
                   sw_xform4* out) {
    const sw_retarget_job job = {
        .map = map,
        .source = src,
        .target = tgt,
        .source_pose = in,
        .source_pose_count = src->packets_count,
        .ik_weight = ik,
        .scratch = scratch,
        .scratch_size = scratch_size,
        .out = out,
        .out_count = tgt->packets_count,
    };
    assert_int_equal(sw_retarget_job_run(&job), SW_RESULT_OK);
}

/* ---- name tables ---- */

static void test_bone_names(void** state) {
    (void)state;
    static const struct {
        const char* name;
        sw_retarget_bone bone;
    } rows[] = {
        {"mixamorig:Hips", SW_RETARGET_BONE_HIPS},
        {"mixamorig:LeftUpLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"mixamorig:RightLeg", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"mixamorig:LeftFoot", SW_RETARGET_BONE_LEFT_FOOT},
        {"mixamorig:RightToeBase", SW_RETARGET_BONE_RIGHT_TOES},
        {"mixamorig:LeftArm", SW_RETARGET_BONE_LEFT_UPPER_ARM},
        {"mixamorig:LeftForeArm", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"mixamorig:RightHand", SW_RETARGET_BONE_RIGHT_HAND},
        {"mixamorig:Neck", SW_RETARGET_BONE_NECK},
        {"pelvis", SW_RETARGET_BONE_HIPS},
        {"thigh_l", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"calf_r", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"foot_l", SW_RETARGET_BONE_LEFT_FOOT},
        {"ball_r", SW_RETARGET_BONE_RIGHT_TOES},
        {"clavicle_l", SW_RETARGET_BONE_LEFT_SHOULDER},
        {"upperarm_r", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"lowerarm_l", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"hand_r", SW_RETARGET_BONE_RIGHT_HAND},
        {"neck_01", SW_RETARGET_BONE_NECK},
        {"head", SW_RETARGET_BONE_HEAD},
        {"Hips", SW_RETARGET_BONE_HIPS},
        {"LeftUpLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"RightLeg", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"LeftToeBase", SW_RETARGET_BONE_LEFT_TOES},
        {"RightShoulder", SW_RETARGET_BONE_RIGHT_SHOULDER},
        {"Neck1", SW_RETARGET_BONE_NECK},
        {"UpperLegL", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"LowerLegR", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"FootL", SW_RETARGET_BONE_LEFT_FOOT},
        {"ShoulderR", SW_RETARGET_BONE_RIGHT_SHOULDER},
        {"UpperArmL", SW_RETARGET_BONE_LEFT_UPPER_ARM},
        {"LowerArmR", SW_RETARGET_BONE_RIGHT_LOWER_ARM},
        {"Palm2L", SW_RETARGET_BONE_LEFT_HAND},
        {"Thigh.L", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"L_Hand", SW_RETARGET_BONE_LEFT_HAND},
        {"Bip01|R_Foot", SW_RETARGET_BONE_RIGHT_FOOT},
        {"LEFT_UPPER_ARM", SW_RETARGET_BONE_LEFT_UPPER_ARM},
        {"Bip01 L Thigh", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"Bip01 R Calf", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"Bip01 L Toe0", SW_RETARGET_BONE_LEFT_TOES},
        {"Bip01 Pelvis", SW_RETARGET_BONE_HIPS},
        {"Bip01 R Clavicle", SW_RETARGET_BONE_RIGHT_SHOULDER},
        {"Bip01", SW_RETARGET_BONE_NONE},
        {"Spine", SW_RETARGET_BONE_NONE},
        {"LowerBack", SW_RETARGET_BONE_NONE},
        {"LHipJoint", SW_RETARGET_BONE_NONE},
        {"LeftHandIndex1", SW_RETARGET_BONE_NONE},
        {"Abdomen", SW_RETARGET_BONE_NONE},
        {"thigh_twist_01_l", SW_RETARGET_BONE_NONE},
        {"Foot", SW_RETARGET_BONE_NONE},     /* a limb bone needs a side */
        {"LeftHead", SW_RETARGET_BONE_NONE}, /* a central bone has none */
        {"", SW_RETARGET_BONE_NONE},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(rows[i].name);
        if (b != rows[i].bone)
            fail_msg("%s: got %s, want %s", rows[i].name, sw_retarget_bone_str(b),
                     sw_retarget_bone_str(rows[i].bone));
    }
    assert_int_equal(sw_retarget_bone_from_name(NULL), SW_RETARGET_BONE_NONE);
    assert_string_equal(sw_retarget_bone_str(SW_RETARGET_BONE_LEFT_TOES), "left_toes");
    assert_string_equal(sw_retarget_bone_str(SW_RETARGET_BONE_COUNT), "none");
}

/* A skeleton from names and parents (positions along a simple humanoid). */
static const sw_skeleton* rt_named(const char* const* names, const int32_t* parents,
                                   const float (*pos)[3], uint32_t n) {
    sw_skeleton_joint joints[64];
    for (uint32_t j = 0; j < n; ++j) {
        joints[j].name = names[j];
        joints[j].parent = parents[j];
        joints[j].rest = sw_xform_identity();
        joints[j].rest.t = sw_vec3_make(pos[j][0], pos[j][1], pos[j][2]);
    }
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = n};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

/* One row per naming scheme people meet; each name read as its documented bone. */
static void test_bone_name_schemes(void** state) {
    (void)state;
    enum { N = SW_RETARGET_BONE_NONE, H = SW_RETARGET_BONE_HIPS };
    static const struct {
        const char* scheme;
        const char* name;
        sw_retarget_bone bone;
    } rows[] = {
        {"Mixamo", "mixamorig:LeftUpLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"Mixamo", "mixamorig:RightForeArm", SW_RETARGET_BONE_RIGHT_LOWER_ARM},
        {"Mixamo", "mixamorig:Spine2", (sw_retarget_bone)N},
        {"UE", "thigh_l", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"UE", "calf_r", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"UE", "ball_r", SW_RETARGET_BONE_RIGHT_TOES},
        {"UE", "upperarm_r", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"UE", "ik_foot_l", (sw_retarget_bone)N},
        {"UE", "calf_twist_01_l", (sw_retarget_bone)N},
        {"Unity", "LeftUpperLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"Unity", "RightLowerLeg", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"Unity", "RightToes", SW_RETARGET_BONE_RIGHT_TOES},
        {"Unity", "LeftLowerArm", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"Unity", "UpperChest", (sw_retarget_bone)N},
        {"Biped", "Bip01 R UpperArm", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"Biped", "Bip01 L Forearm", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"Biped", "Bip01 R Toe0", SW_RETARGET_BONE_RIGHT_TOES},
        {"Biped", "Bip01 Head", SW_RETARGET_BONE_HEAD},
        {"Biped", "Bip01 Spine1", (sw_retarget_bone)N},
        {"Blender", "thigh.L", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"Blender", "shin.R", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"Blender", "upper_arm.R", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"Blender", "DEF-forearm.L", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"Blender", "Hand_R", SW_RETARGET_BONE_RIGHT_HAND},
        {"Blender", "foot.l", SW_RETARGET_BONE_LEFT_FOOT},
        {"B_*_Left", "B_Hip_Left", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"B_*_Left", "B_Knee_Right", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"B_*_Left", "B_Ankle_Left", SW_RETARGET_BONE_LEFT_FOOT},
        {"B_*_Left", "B_Toe_Right", SW_RETARGET_BONE_RIGHT_TOES},
        {"B_*_Left", "B_Clavicle_Left", SW_RETARGET_BONE_LEFT_SHOULDER},
        {"B_*_Left", "B_UpperArm_Right", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"B_*_Left", "B_Neck", SW_RETARGET_BONE_NECK},
        {"B_*_Left", "B_Root_Pelvis_L", (sw_retarget_bone)N}, /* a central bone with a side */
        {"B_*_Left", "B_Finger1_Left", (sw_retarget_bone)N},
        {"CMU", "LeftUpLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"CMU", "RightArm", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"CMU", "LHipJoint", (sw_retarget_bone)N},
        {"CMU", "RThumb", (sw_retarget_bone)N},
        {"CMU Boxing", "LeftHip", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"CMU Boxing", "RightElbow", SW_RETARGET_BONE_RIGHT_LOWER_ARM},
        {"CMU Boxing", "LeftWrist", SW_RETARGET_BONE_LEFT_HAND},
        {"CMU Boxing", "RightAnkle", SW_RETARGET_BONE_RIGHT_FOOT},
        {"DAZ", "lThigh", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"DAZ", "rShin", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"DAZ", "lCollar", SW_RETARGET_BONE_LEFT_SHOULDER},
        {"DAZ", "rShldr", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"DAZ", "lForeArm", SW_RETARGET_BONE_LEFT_LOWER_ARM},
        {"DAZ", "hip", (sw_retarget_bone)H},
        {"Genesis", "lShldrBend", SW_RETARGET_BONE_LEFT_UPPER_ARM},
        {"Genesis", "rForearmBend", SW_RETARGET_BONE_RIGHT_LOWER_ARM},
        {"Genesis", "lThighBend", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"Genesis", "lThighTwist", (sw_retarget_bone)N},
        {"Genesis", "abdomenLower", (sw_retarget_bone)N},
        {"variants", "Left_Thigh", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"variants", "Thigh_L", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"variants", "L_Thigh", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"variants", "r_calf", SW_RETARGET_BONE_RIGHT_LOWER_LEG},
        {"variants", "CC_Base_L_Thigh", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"variants", "J_Bip_R_UpperArm", SW_RETARGET_BONE_RIGHT_UPPER_ARM},
        {"variants", "Character1_LeftUpLeg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
        {"variants", "leftupleg", SW_RETARGET_BONE_LEFT_UPPER_LEG},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        const sw_retarget_bone b = sw_retarget_bone_from_name(rows[i].name);
        if (b != rows[i].bone)
            fail_msg("%s %s: got %s, want %s", rows[i].scheme, rows[i].name,
                     sw_retarget_bone_str(b), sw_retarget_bone_str(rows[i].bone));
    }
}

/* A BCN_Epileptic-like rig: no hips name, a neck named where the head is,
 * mesh nodes "Torso" and "Head" beside the skeleton. */
static const char* const rt_bcn[] = {
    "$dummy_root",     "Torso",          "B_Root_Pelvis_L", "B_LowerPelvis",    "B_Hip_Left",
    "B_Knee_Left",     "B_Ankle_Left",   "B_Toe_Left",      "B_Hip_Right",      "B_Knee_Right",
    "B_Ankle_Right",   "B_Toe_Right",    "B_Spine1",        "B_Spine4",         "B_Clavicle_Left",
    "B_UpperArm_Left", "B_ForeArm_Left", "B_Hand_Left",     "B_Clavicle_Right", "B_UpperArm_Right",
    "B_ForeArm_Right", "B_Hand_Right",   "B_Root_Neck_H",   "B_Neck",           "B_Jaw",
    "B_Eye_Left",      "Head",
};
static const int32_t rt_bcn_parents[] = {-1, 0,  0,  2,  3,  4,  5,  6,  3,  8,  9,  10, 2, 12,
                                         13, 14, 15, 16, 13, 18, 19, 20, 13, 22, 23, 23, 0};

static void test_auto_map_hierarchy(void** state) {
    (void)state;
    float pos[64][3];
    for (int j = 0; j < 64; ++j) {
        pos[j][0] = 0.0f;
        pos[j][1] = 0.1f;
        pos[j][2] = 0.0f;
    }
    const uint32_t n = sizeof rt_bcn_parents / sizeof rt_bcn_parents[0];
    const sw_skeleton* bcn = rt_named(rt_bcn, rt_bcn_parents, (const float(*)[3])pos, n);
    /* each role by hand from the rig's tree (-1: none) */
    static const int32_t want[SW_RETARGET_BONE_COUNT] = {
        -1, 2, 22, 23, 14, 15, 16, 17, 4, 5, 6, 7, 18, 19, 20, 21, 8, 9, 10, 11,
    };
    uint8_t mask[64];
    memset(mask, 1, sizeof mask);
    mask[1] = mask[26] = 0; /* the mesh nodes */
    for (int masked = 0; masked < 2; ++masked) {
        sw_retarget_joint_map jm;
        assert_int_equal(sw_retarget_joint_map_auto_masked(bcn, masked ? mask : NULL, bcn,
                                                           masked ? mask : NULL, &jm),
                         SW_RESULT_OK);
        for (int b = 1; b < SW_RETARGET_BONE_COUNT; ++b)
            if (jm.source_bones[b] != want[b])
                fail_msg("%s: got %d, want %d (mask %d)", sw_retarget_bone_str((sw_retarget_bone)b),
                         jm.source_bones[b], want[b], masked);
        assert_int_equal(jm.source_of[26], 26); /* the mesh node: only its namesake */
    }
    /* an arm without a collar: "LeftShoulder" is the upper arm; a Genesis arm
     * with twist halves: the lower arm is the Bend joint, not the Twist */
    static const char* const arms[] = {
        "hip",        "chest",       "LeftShoulder", "LeftElbow",     "LeftWrist", "rCollar",
        "rShldrBend", "rShldrTwist", "rForearmBend", "rForearmTwist", "rHand",
    };
    static const int32_t arm_parents[] = {-1, 0, 1, 2, 3, 1, 5, 6, 7, 8, 9};
    const sw_skeleton* rig = rt_named(arms, arm_parents, (const float(*)[3])pos, 11);
    sw_retarget_joint_map jm;
    assert_int_equal(sw_retarget_joint_map_auto(rig, rig, &jm), SW_RESULT_OK);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_LEFT_SHOULDER], -1);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_LEFT_UPPER_ARM], 2);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_LEFT_LOWER_ARM], 3);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_LEFT_HAND], 4);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_RIGHT_SHOULDER], 5);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_RIGHT_UPPER_ARM], 6);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_RIGHT_LOWER_ARM], 8);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_RIGHT_HAND], 10);
    assert_int_equal(jm.source_bones[SW_RETARGET_BONE_HIPS], 0);
    /* the rig onto the BCN rig: the roles pair, the rest stays free */
    assert_int_equal(sw_retarget_joint_map_auto(rig, bcn, &jm), SW_RESULT_OK);
    assert_int_equal(jm.source_of[15], 2);  /* B_UpperArm_Left <- LeftShoulder */
    assert_int_equal(jm.source_of[20], 8);  /* B_ForeArm_Right <- rForearmBend */
    assert_int_equal(jm.source_of[14], -1); /* B_Clavicle_Left: the rig has none */
    assert_int_equal(sw_retarget_joint_map_missing(&jm) & (1u << SW_RETARGET_BONE_LEFT_SHOULDER),
                     1u << SW_RETARGET_BONE_LEFT_SHOULDER);
    assert_int_equal(sw_retarget_joint_map_missing(NULL), 0u);
    /* 3ds Max Biped: the thighs hang off "Bip01 Spine", the clavicles off the
     * neck; the spine is Spine..Spine3, first to first and last to last */
    static const char* const biped[] = {
        "Bip01",
        "Bip01 Pelvis",
        "Bip01 Spine",
        "Bip01 L Thigh",
        "Bip01 L Calf",
        "Bip01 L Foot",
        "Bip01 L Toe0",
        "Bip01 R Thigh",
        "Bip01 R Calf",
        "Bip01 R Foot",
        "Bip01 R Toe0",
        "Bip01 Spine1",
        "Bip01 Spine2",
        "Bip01 Spine3",
        "Bip01 Neck",
        "Bip01 L Clavicle",
        "Bip01 L UpperArm",
        "Bip01 L Forearm",
        "Bip01 L Hand",
        "Bip01 R Clavicle",
        "Bip01 R UpperArm",
        "Bip01 R Forearm",
        "Bip01 R Hand",
        "Bip01 Head",
    };
    static const int32_t biped_parents[] = {-1, 0,  1,  2,  3,  4,  5,  2,  7,  8,  9,  2,
                                            11, 12, 13, 14, 15, 16, 17, 14, 19, 20, 21, 14};
    const sw_skeleton* max = rt_named(biped, biped_parents, (const float(*)[3])pos, 24);
    assert_int_equal(sw_retarget_joint_map_auto(max, bcn, &jm), SW_RESULT_OK);
    static const int32_t bcn_from_biped[][2] = {
        {2, 1},   {12, 2},  {13, 13}, {22, 14}, {23, 23}, {4, 3},
        {11, 10}, {14, 15}, {21, 22}, {9, 8},   {7, 6},
    };
    for (size_t i = 0; i < sizeof bcn_from_biped / sizeof bcn_from_biped[0]; ++i)
        if (jm.source_of[bcn_from_biped[i][0]] != bcn_from_biped[i][1])
            fail_msg("%s <- %d, want %s", rt_bcn[bcn_from_biped[i][0]],
                     jm.source_of[bcn_from_biped[i][0]], biped[bcn_from_biped[i][1]]);
    sw_skeleton_destroy(max, NULL);
    sw_skeleton_destroy(rig, NULL);
    sw_skeleton_destroy(bcn, NULL);
}

/* Local offsets shared by the rigs below: hips, 3 spine, neck, head, leg x3, toe, arm x4. */
static const char* const rt_mixamo[] = {
    "mixamorig:Hips",        "mixamorig:Spine",        "mixamorig:Spine1",
    "mixamorig:Spine2",      "mixamorig:Neck",         "mixamorig:Head",
    "mixamorig:LeftUpLeg",   "mixamorig:LeftLeg",      "mixamorig:LeftFoot",
    "mixamorig:LeftToeBase", "mixamorig:LeftShoulder", "mixamorig:LeftArm",
    "mixamorig:LeftForeArm", "mixamorig:LeftHand",     "mixamorig:RightUpLeg",
    "mixamorig:RightLeg",    "mixamorig:RightFoot",    "mixamorig:HeadTop_End",
};
static const char* const rt_unreal[] = {
    "pelvis",     "spine_01", "spine_02", "spine_03", "neck_01",    "head",
    "thigh_l",    "calf_l",   "foot_l",   "ball_l",   "clavicle_l", "upperarm_l",
    "lowerarm_l", "hand_l",   "thigh_r",  "calf_r",   "foot_r",     "thigh_twist_01_l",
};
static const int32_t rt_parents[] = {-1, 0, 1, 2, 3, 4, 0, 6, 7, 8, 3, 10, 11, 12, 0, 14, 15, 5};
static const float rt_offsets[][3] = {
    {0, 1, 0},    {0, 0.1f, 0},   {0, 0.1f, 0},   {0, 0.1f, 0},      {0, 0.2f, 0},     {0, 0.1f, 0},
    {0.1f, 0, 0}, {0, -0.45f, 0}, {0, -0.45f, 0}, {0, -0.05f, 0.1f}, {0.05f, 0.1f, 0}, {0.1f, 0, 0},
    {0.3f, 0, 0}, {0.25f, 0, 0},  {-0.1f, 0, 0},  {0, -0.45f, 0},    {0, -0.45f, 0},   {0, 0.1f, 0},
};

static void test_auto_map_conventions(void** state) {
    (void)state;
    const uint32_t n = 18;
    const sw_skeleton* mix = rt_named(rt_mixamo, rt_parents, rt_offsets, n);
    const sw_skeleton* ue = rt_named(rt_unreal, rt_parents, rt_offsets, n);
    sw_retarget_joint_map jm;
    assert_int_equal(sw_retarget_joint_map_auto(mix, ue, &jm), SW_RESULT_OK);
    /* every joint maps to the one at the same place but the twist bone / head end */
    for (uint32_t t = 0; t < 17; ++t) {
        if (jm.source_of[t] != (int32_t)t)
            fail_msg("%s <- %d, want %s", rt_unreal[t], jm.source_of[t], rt_mixamo[t]);
    }
    assert_int_equal(jm.source_of[17], -1); /* thigh_twist_01_l vs HeadTop_End: no match */
    assert_int_equal(sw_retarget_joint_map_count(&jm), 17);
    sw_skeleton_destroy(mix, NULL);
    sw_skeleton_destroy(ue, NULL);
}

static const char* rt_source_name(const sw_retarget_joint_map* jm, const char* target) {
    const int32_t t = sw_skeleton_find_joint(jm->target, target);
    if (t < 0 || jm->source_of[t] < 0) return "-";
    return sw_skeleton_joint_name(jm->source, (uint32_t)jm->source_of[t]);
}

static void test_auto_map_cmu_humanoid_robot(void** state) {
    (void)state;
    sw_asset cmu;
    if (!rt_open_cmu("01_01.bvh", &cmu)) return;
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    sw_retarget_joint_map jm;
    assert_int_equal(sw_retarget_joint_map_auto(cmu.skeleton, human.skeleton, &jm), SW_RESULT_OK);
    static const char* const pairs[][2] = {
        {"Hips", "Hips"},
        {"LowerBack", "Spine"},
        {"Spine1", "Spine1"},
        {"Neck", "Neck"},
        {"Head", "Head"},
        {"LeftUpLeg", "LeftUpLeg"},
        {"RightLeg", "RightLeg"},
        {"LeftFoot", "LeftFoot"},
        {"RightToeBase", "RightToeBase"},
        {"LeftShoulder", "LeftShoulder"},
        {"RightArm", "RightArm"},
        {"LeftForeArm", "LeftForeArm"},
        {"RightHand", "RightHand"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; ++i)
        assert_string_equal(rt_source_name(&jm, pairs[i][1]), pairs[i][0]);
    assert_int_equal(sw_retarget_joint_map_count(&jm), human.skeleton->joints_count);

    char path[512];
    if (sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) {
        sw_asset robot;
        sw_error err = {0};
        assert_int_equal(sw_asset_open(path, NULL, &robot, &err), SW_RESULT_OK);
        assert_int_equal(sw_retarget_joint_map_auto(cmu.skeleton, robot.skeleton, &jm),
                         SW_RESULT_OK);
        static const char* const rp[][2] = {
            {"Hips", "Hips"},
            {"LowerBack", "Abdomen"},
            {"Spine1", "Torso_1"},
            {"Neck", "Neck"},
            {"Head", "Head"},
            {"LeftUpLeg", "UpperLegL"},
            {"LeftLeg", "LowerLegL"},
            {"RightFoot", "FootR"},
            {"LeftShoulder", "ShoulderL"},
            {"RightArm", "UpperArmR"},
            {"LeftForeArm", "LowerArmL"},
            {"RightHand", "Palm2R"},
        };
        for (size_t i = 0; i < sizeof rp / sizeof rp[0]; ++i)
            assert_string_equal(rt_source_name(&jm, rp[i][1]), rp[i][0]);
        /* the robot onto the humanoid, the other way round */
        assert_int_equal(sw_retarget_joint_map_auto(robot.skeleton, human.skeleton, &jm),
                         SW_RESULT_OK);
        assert_string_equal(rt_source_name(&jm, "LeftUpLeg"), "UpperLegL");
        assert_string_equal(rt_source_name(&jm, "RightFoot"), "FootR");
        assert_string_equal(rt_source_name(&jm, "Spine"), "Abdomen");
        sw_asset_free(&robot);
    }
    sw_scene_free(&human, NULL);
    sw_asset_free(&cmu);
}

static void test_map_edits_and_file(void** state) {
    (void)state;
    const sw_skeleton* mix = rt_named(rt_mixamo, rt_parents, rt_offsets, 18);
    const sw_skeleton* ue = rt_named(rt_unreal, rt_parents, rt_offsets, 18);
    sw_retarget_joint_map jm;
    assert_int_equal(sw_retarget_joint_map_auto(mix, ue, &jm), SW_RESULT_OK);
    assert_int_equal(sw_retarget_joint_map_set(&jm, "mixamorig:LeftUpLeg", "thigh_twist_01_l"),
                     SW_RESULT_OK);
    assert_int_equal(jm.source_of[17], 6);
    assert_int_equal(sw_retarget_joint_map_clear(&jm, "head"), SW_RESULT_OK);
    assert_int_equal(jm.source_of[5], -1);
    assert_int_equal(sw_retarget_joint_map_set(&jm, "nope", "head"), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_retarget_joint_map_set(&jm, "mixamorig:Head", "nope"), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_retarget_joint_map_clear(&jm, "nope"), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_retarget_joint_map_set(NULL, "a", "b"), SW_RESULT_INVALID_ARGUMENT);

    const char* text = "# hand edits\n"
                       "  mixamorig:Head = head \r\n"
                       "\n"
                       "=thigh_twist_01_l\n"
                       "mixamorig:Spine2=spine_01\n";
    sw_error err = {0};
    assert_int_equal(sw_retarget_joint_map_parse(&jm, text, strlen(text), &err), SW_RESULT_OK);
    assert_int_equal(jm.source_of[5], 5);
    assert_int_equal(jm.source_of[17], -1);
    assert_int_equal(jm.source_of[1], 3);
    const char* bad = "mixamorig:Head=head\nno equals sign\n";
    assert_int_equal(sw_retarget_joint_map_parse(&jm, bad, strlen(bad), &err), SW_RESULT_PARSE);
    assert_string_equal(err.check, "source=target");
    assert_int_equal(err.index, 2);
    const char* unknown = "\n\nmixamorig:Head=skull\n";
    assert_int_equal(sw_retarget_joint_map_parse(&jm, unknown, strlen(unknown), &err),
                     SW_RESULT_NOT_FOUND);
    assert_string_equal(err.check, "joint name");
    assert_int_equal(err.index, 3);
    char longline[1100];
    memset(longline, 'a', sizeof longline);
    assert_int_equal(sw_retarget_joint_map_parse(&jm, longline, sizeof longline, &err),
                     SW_RESULT_LIMIT);
    assert_int_equal(sw_retarget_joint_map_parse(NULL, "", 0, &err), SW_RESULT_INVALID_ARGUMENT);
    sw_skeleton_destroy(mix, NULL);
    sw_skeleton_destroy(ue, NULL);
}

/* ---- the job against closed forms ---- */

/* Retargets every 7th frame of the CMU clip from `src` onto `tgt` and checks
 * that tgt's model positions are `k` times src's, within tol * max(1, |p|). */
static void rt_check_positions_clip(const sw_asset* cmu, uint32_t clip_index,
                                    const sw_skeleton* tgt, float k, float tol, bool check_local) {
    const sw_skeleton* src = cmu->skeleton;
    sw_retarget_map* map = malloc(sizeof *map);
    assert_non_null(map);
    rt_map_auto(src, tgt, false, map);
    assert_int_equal(map->pairs_count, tgt->joints_count);
    assert_near(map->root_scale, k, 1e-5f * k);
    size_t ss;
    void* scratch = rt_scratch(map, &ss);
    sw_xform4* in = rt_pose(src);
    sw_xform4* out = rt_pose(tgt);
    sw_mat4* ms = malloc(src->joints_count * sizeof(sw_mat4));
    sw_mat4* mt = malloc(tgt->joints_count * sizeof(sw_mat4));
    const sw_clip* clip = cmu->clips[clip_index];
    float worst = 0.0f;
    for (float t = 0.0f; t <= clip->duration; t += 7.0f / 120.0f) {
        rt_sample(clip, src, t, in);
        rt_run(map, src, tgt, in, 0.0f, scratch, ss, out);
        rt_model(src, in, ms);
        rt_model(tgt, out, mt);
        for (uint32_t j = 0; j < tgt->joints_count; ++j) {
            const sw_vec3 want = sw_vec3_scale(rt_pos(&ms[j]), k);
            const sw_vec3 got = rt_pos(&mt[j]);
            const float d = sw_vec3_length(sw_vec3_sub(got, want));
            const float rel = d / fmaxf(1.0f, sw_vec3_length(want));
            if (rel > worst) worst = rel;
            if (check_local) {
                sw_test_quat_near(sw_pose_get(out, j).r, sw_pose_get(in, j).r, 1e-5f);
                sw_test_vec3_near(sw_pose_get(out, j).t, sw_pose_get(in, j).t, 1e-5f);
            }
        }
    }
    print_message("model positions: worst relative difference %.3g (tolerance %.3g)\n",
                  (double)worst, (double)tol);
    assert_true(worst <= tol);
    free(ms);
    free(mt);
    free(in);
    free(out);
    free(scratch);
    free(map);
}

static void rt_check_positions(const sw_asset* a, const sw_skeleton* tgt, float k, float tol,
                               bool check_local) {
    rt_check_positions_clip(a, 0, tgt, k, tol, check_local);
}

static void test_identity(void** state) {
    (void)state;
    sw_asset cmu;
    if (!rt_open_cmu("01_03.bvh", &cmu)) return;
    rt_check_positions(&cmu, cmu.skeleton, 1.0f, 1e-5f, true);
    sw_asset_free(&cmu);
}

static void rt_scale_joint(uint32_t j, sw_skeleton_joint* all, void* user) {
    all[j].rest.t = sw_vec3_scale(all[j].rest.t, *(const float*)user);
}

static void test_scaled_copy(void** state) {
    (void)state;
    sw_asset cmu;
    if (!rt_open_cmu("01_03.bvh", &cmu)) return;
    float k = 1.37f;
    const sw_skeleton* big = rt_copy(cmu.skeleton, rt_scale_joint, &k);
    rt_check_positions(&cmu, big, k, 1e-4f, false);
    sw_skeleton_destroy(big, NULL);
    k = 0.6f;
    const sw_skeleton* small = rt_copy(cmu.skeleton, rt_scale_joint, &k);
    rt_check_positions(&cmu, small, k, 1e-4f, false);
    sw_skeleton_destroy(small, NULL);
    sw_asset_free(&cmu);
}

/* RobotExpressive onto itself and onto a scaled copy: its IK-rig feet are
 * animated by translation, carried as the source's offsets from its rest. */
static void test_identity_robot(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_asset robot;
    sw_error err = {0};
    assert_int_equal(sw_asset_open(path, NULL, &robot, &err), SW_RESULT_OK);
    const uint32_t walking = (uint32_t)sw_asset_find_clip(&robot, "Walking");
    rt_check_positions_clip(&robot, walking, robot.skeleton, 1.0f, 1e-5f, false);
    float k = 0.5f;
    const sw_skeleton* small = rt_copy(robot.skeleton, rt_scale_joint, &k);
    rt_check_positions_clip(&robot, walking, small, k, 1e-4f, false);
    sw_skeleton_destroy(small, NULL);
    sw_asset_free(&robot);
}

/* Each joint's rest rotation gains an extra turn E_j on its own side
 * (r' = E_parent^-1 r E_j) and its offset is turned back (t' = E_parent^-1 t),
 * so the model rest positions stay where they were. */
typedef struct rt_twist {
    sw_quat e[SW_SKELETON_MAX_JOINTS];
} rt_twist;

static void rt_twist_joint(uint32_t j, sw_skeleton_joint* all, void* user) {
    const rt_twist* tw = (const rt_twist*)user;
    const int32_t p = all[j].parent;
    const sw_quat ep = p < 0 ? sw_quat_identity() : sw_quat_conjugate(tw->e[p]);
    all[j].rest.r = sw_quat_normalize(sw_quat_mul(sw_quat_mul(ep, all[j].rest.r), tw->e[j]));
    all[j].rest.t = sw_quat_rotate(ep, all[j].rest.t);
}

static void test_other_rest_orientations(void** state) {
    (void)state;
    sw_asset cmu;
    if (!rt_open_cmu("01_03.bvh", &cmu)) return;
    rt_twist* tw = malloc(sizeof *tw);
    uint32_t seed = 7;
    for (uint32_t j = 0; j < cmu.skeleton->joints_count; ++j)
        tw->e[j] = sw_test_rand_quat(&seed);
    const sw_skeleton* twisted = rt_copy(cmu.skeleton, rt_twist_joint, tw);
    /* the copy's rest model positions equal the original's */
    sw_mat4* a = malloc(cmu.skeleton->joints_count * sizeof(sw_mat4));
    sw_mat4* b = malloc(cmu.skeleton->joints_count * sizeof(sw_mat4));
    sw_xform4* pa = rt_pose(cmu.skeleton);
    memcpy(pa, sw_skeleton_rest_pose(twisted), cmu.skeleton->packets_count * sizeof(sw_xform4));
    rt_model(twisted, pa, b);
    memcpy(pa, sw_skeleton_rest_pose(cmu.skeleton),
           cmu.skeleton->packets_count * sizeof(sw_xform4));
    rt_model(cmu.skeleton, pa, a);
    for (uint32_t j = 0; j < cmu.skeleton->joints_count; ++j)
        sw_test_vec3_near(rt_pos(&a[j]), rt_pos(&b[j]), 1e-5f);
    rt_check_positions(&cmu, twisted, 1.0f, 1e-4f, false);
    free(pa);
    free(a);
    free(b);
    free(tw);
    sw_skeleton_destroy(twisted, NULL);
    sw_asset_free(&cmu);
}

/* ---- CMU walk onto other characters, feet ---- */

typedef struct rt_feet {
    float sink;         /* lowest ankle height below its standing height (m, >= 0 is sinking) */
    float planted_gap;  /* highest planted ankle above its standing height */
    float slide;        /* largest horizontal drift of a target ankle over one planted interval */
    float source_slide; /* same for the source, scaled */
    uint32_t steps;
    float scale;         /* the map's root_scale */
    float jump_boundary; /* largest per-frame velocity change of a target foot or the root (m/s)
                          * within 0.15 s of a plant's start or end */
    float jump_all;      /* the same over every frame */
    float toe_sink;      /* lowest toe joint below its standing height (-1e9: no toes) */
} rt_feet;

typedef enum rt_mode {
    RT_JOB,         /* the runtime job on every frame */
    RT_BAKE,        /* the bake, no foot lock */
    RT_BAKE_LOCKED, /* the bake with the foot lock */
} rt_mode;

/* CMU clip `clip_index` onto `tgt` at 120 Hz (the clip's rate), the target
 * pose from the job or from a bake at the same rate, measured against the
 * SOURCE's contact frames (sw_retarget_find_contacts, RT_PLANT_SPEED, 5 cm). */
static void rt_walk(const sw_asset* cmu, uint32_t clip_index, const sw_skeleton* tgt, float ik,
                    float ground, rt_mode mode, rt_feet* out) {
    const sw_skeleton* src = cmu->skeleton;
    sw_retarget_map* map = malloc(sizeof *map);
    rt_map_auto(src, tgt, true, map);
    map->target_ground = ground;
    assert_int_equal(
        sw_retarget_fit_ground(map, src, cmu->clips[clip_index], tgt, &map->source_ground),
        SW_RESULT_OK);
    size_t ss;
    void* scratch = rt_scratch(map, &ss);
    sw_xform4* in = rt_pose(src);
    sw_xform4* outp = rt_pose(tgt);
    sw_mat4* ms = malloc(src->joints_count * sizeof(sw_mat4));
    sw_mat4* mt = malloc(tgt->joints_count * sizeof(sw_mat4));
    int32_t sf[2] = {sw_skeleton_find_joint(src, "LeftFoot"),
                     sw_skeleton_find_joint(src, "RightFoot")};
    int32_t tf[2] = {-1, -1}, toe[2] = {-1, -1};
    for (uint32_t j = 0; j < tgt->joints_count; ++j) {
        const sw_retarget_bone bone = sw_retarget_bone_from_name(sw_skeleton_joint_name(tgt, j));
        if (bone == SW_RETARGET_BONE_LEFT_FOOT && tf[0] < 0) tf[0] = (int32_t)j;
        if (bone == SW_RETARGET_BONE_RIGHT_FOOT && tf[1] < 0) tf[1] = (int32_t)j;
        if (bone == SW_RETARGET_BONE_LEFT_TOES && toe[0] < 0) toe[0] = (int32_t)j;
        if (bone == SW_RETARGET_BONE_RIGHT_TOES && toe[1] < 0) toe[1] = (int32_t)j;
    }
    assert_true(sf[0] >= 0 && sf[1] >= 0 && tf[0] >= 0 && tf[1] >= 0);
    /* standing height of each target ankle and toe: its rest height above `ground` */
    memcpy(outp, sw_skeleton_rest_pose(tgt), tgt->packets_count * sizeof(sw_xform4));
    rt_model(tgt, outp, mt);
    float stand[2] = {rt_pos(&mt[tf[0]]).y - ground, rt_pos(&mt[tf[1]]).y - ground};
    float toe_stand[2] = {0.0f, 0.0f};
    for (int side = 0; side < 2; ++side)
        if (toe[side] >= 0) toe_stand[side] = rt_pos(&mt[toe[side]]).y - ground;
    const sw_clip* clip = cmu->clips[clip_index];
    const float dt = 1.0f / 120.0f;
    const uint32_t frames = (uint32_t)(clip->duration / dt);
    const sw_clip* baked = NULL;
    if (mode != RT_JOB) {
        const sw_retarget_bake_options opt = {
            .rate = 120.0f, .ik_weight = ik, .foot_lock = mode == RT_BAKE_LOCKED};
        sw_error err = {0};
        assert_int_equal(sw_retarget_bake(map, src, clip, tgt, &opt, NULL, &baked, &err),
                         SW_RESULT_OK);
    }
    /* planted in the SOURCE: the ankle moves under RT_PLANT_SPEED within 5 cm
     * of the lowest it gets in the clip (the definition the bake's lock uses) */
    sw_vec3* src_feet = malloc(2u * frames * sizeof(sw_vec3));
    uint8_t* planted = malloc(2u * frames);
    for (uint32_t f = 0; f < frames; ++f) {
        rt_sample(clip, src, (float)f * dt, in);
        rt_model(src, in, ms);
        for (int side = 0; side < 2; ++side)
            src_feet[(size_t)side * frames + f] = rt_pos(&ms[sf[side]]);
    }
    for (int side = 0; side < 2; ++side)
        assert_int_equal(sw_retarget_find_contacts(src_feet + (size_t)side * frames, frames, 120.0f,
                                                   RT_PLANT_SPEED, 0.05f,
                                                   planted + (size_t)side * frames),
                         SW_RESULT_OK);
    /* frames near a plant's start or end (where a lock fades in or out) */
    const uint32_t near_frames = 18; /* 0.15 s */
    uint8_t* near = calloc(frames, 1);
    for (int side = 0; side < 2; ++side)
        for (uint32_t f = 1; f < frames; ++f)
            if (planted[(size_t)side * frames + f] != planted[(size_t)side * frames + f - 1])
                for (uint32_t g = f > near_frames ? f - near_frames : 0;
                     g < frames && g <= f + near_frames; ++g)
                    near[g] = 1;
    sw_vec3* hist = malloc(2u * tgt->joints_count * sizeof(sw_vec3)); /* frames f-1, f-2 */
    sw_vec3 anchor_s[2], anchor_t[2];
    uint32_t planted_for[2] = {0, 0};
    memset(out, 0, sizeof *out);
    out->scale = map->root_scale;
    out->sink = -1e9f;
    out->planted_gap = -1e9f;
    out->toe_sink = -1e9f;
    for (uint32_t f = 0; f < frames; ++f) {
        rt_sample(clip, src, (float)f * dt, in);
        if (baked)
            rt_sample(baked, tgt, (float)f * dt, outp);
        else
            rt_run(map, src, tgt, in, ik, scratch, ss, outp);
        rt_model(tgt, outp, mt);
        /* jumps of the joints the lock moves: the feet and the root */
        const uint32_t watched[3] = {(uint32_t)tf[0], (uint32_t)tf[1], (uint32_t)map->root_target};
        for (uint32_t w = 0; w < 3; ++w) {
            const uint32_t j = watched[w];
            const sw_vec3 p = rt_pos(&mt[j]);
            if (f >= 2) {
                const sw_vec3 a = sw_vec3_sub(sw_vec3_sub(p, hist[j]),
                                              sw_vec3_sub(hist[j], hist[tgt->joints_count + j]));
                const float jump = sw_vec3_length(a) / dt;
                if (jump > out->jump_all) out->jump_all = jump;
                if (near[f] && jump > out->jump_boundary) out->jump_boundary = jump;
            }
            hist[tgt->joints_count + j] = hist[j];
            hist[j] = p;
        }
        for (int side = 0; side < 2; ++side) {
            const sw_vec3 ps = src_feet[(size_t)side * frames + f];
            const sw_vec3 pt = rt_pos(&mt[tf[side]]);
            const float h = pt.y - ground - stand[side];
            if (-h > out->sink) out->sink = -h;
            if (toe[side] >= 0) {
                const float ht = rt_pos(&mt[toe[side]]).y - ground - toe_stand[side];
                if (-ht > out->toe_sink) out->toe_sink = -ht;
            }
            if (planted[(size_t)side * frames + f]) {
                if (planted_for[side] == 0) {
                    anchor_s[side] = ps;
                    anchor_t[side] = pt;
                }
                ++planted_for[side];
                const sw_vec3 dtg = sw_vec3_sub(pt, anchor_t[side]);
                const sw_vec3 dsr = sw_vec3_scale(sw_vec3_sub(ps, anchor_s[side]), map->root_scale);
                const float slide = sqrtf(dtg.x * dtg.x + dtg.z * dtg.z);
                const float sslide = sqrtf(dsr.x * dsr.x + dsr.z * dsr.z);
                if (slide > out->slide) out->slide = slide;
                if (sslide > out->source_slide) out->source_slide = sslide;
                if (h > out->planted_gap) out->planted_gap = h;
            } else {
                if (planted_for[side] >= 12) ++out->steps;
                planted_for[side] = 0;
            }
        }
    }
    if (baked) sw_clip_destroy(baked, NULL);
    free(hist);
    free(near);
    free(planted);
    free(src_feet);
    free(ms);
    free(mt);
    free(in);
    free(outp);
    free(scratch);
    free(map);
}

static void rt_report(const char* what, const rt_feet* r) {
    print_message(
        "%s (scale %.3f): %u planted intervals, ankles sink at most %.2f cm below standing height, "
        "planted ankles at most %.2f cm above it, planted ankles slide at most %.2f cm "
        "(source, scaled: %.2f cm); largest per-frame velocity change of a foot or the root %.3f "
        "m/s near "
        "plant starts and ends, %.3f m/s anywhere; toes sink at most %.2f cm (-1e9: no toes)\n",
        what, (double)r->scale, r->steps, (double)(100.0f * r->sink),
        (double)(100.0f * r->planted_gap), (double)(100.0f * r->slide),
        (double)(100.0f * r->source_slide), (double)r->jump_boundary, (double)r->jump_all,
        (double)(100.0f * r->toe_sink));
}

/* Contacts of a closed-form walk at 120 Hz: a foot standing at y = 0.08
 * for half of each 1 s cycle, then swinging 0.6 m forward on a cycloid
 * (x = 0.6 (s - sin(2 pi s) / 2 pi), y = 0.08 + 0.05 (1 - cos(2 pi s)), s in
 * [0, 1) over the half cycle: no speed at either end); key 0 a reference
 * pose 0.5 m under it (never slow, so not the height reference). */
static sw_vec3 rt_walk_foot(uint32_t k, float* vx) {
    const float t = (float)k / 120.0f, cycle = floorf(t), u = t - cycle;
    const float two_pi = 6.2831853f;
    if (u < 0.5f) {
        *vx = 0.0f;
        return sw_vec3_make(0.6f * cycle, 0.08f, 0.0f);
    }
    const float s = (u - 0.5f) / 0.5f;
    *vx = 0.6f / 0.5f * (1.0f - cosf(two_pi * s));
    return sw_vec3_make(0.6f * (cycle + s - sinf(two_pi * s) / two_pi),
                        0.08f + 0.05f * (1.0f - cosf(two_pi * s)), 0.0f);
}

static void test_find_contacts(void** state) {
    (void)state;
    enum { KEYS = 600 };
    const float speed = 0.15f, height = 0.05f;
    /* the speed window: SW_RETARGET_CONTACT_WINDOW (0.05 s) = 3 keys each side */
    const uint32_t w = 3;
    sw_vec3 p[KEYS];
    float vx[KEYS];
    uint8_t on[KEYS];
    for (uint32_t k = 0; k < KEYS; ++k)
        p[k] = rt_walk_foot(k, &vx[k]);
    p[0] = sw_vec3_make(-1.0f, -0.42f, 0.0f);
    assert_int_equal(sw_retarget_find_contacts(p, KEYS, 120.0f, speed, height, on), SW_RESULT_OK);
    uint32_t stance = 0, swing = 0;
    for (uint32_t k = w + 1; k + w < KEYS; ++k) {
        /* standing still across the whole window: in contact */
        bool still = true;
        float slowest = INFINITY;
        for (uint32_t j = k - w; j <= k + w; ++j) {
            still = still && vx[j] == 0.0f && p[j].y == 0.08f;
            slowest = fminf(slowest, vx[j]);
        }
        if (still) {
            if (!on[k]) fail_msg("key %u: standing still, not in contact", k);
            ++stance;
        }
        /* x never slower than 1.5 speed across the window (x only grows): the
         * window's mean speed is over it, so the contact is released */
        if (slowest > SW_RETARGET_CONTACT_RELEASE * speed) {
            if (on[k]) fail_msg("key %u: moving over %.3f m/s, in contact", k, (double)slowest);
            ++swing;
        }
        /* over 1.5 times the height above the stance: released */
        if (p[k].y > 0.08f + SW_RETARGET_CONTACT_RELEASE * height && on[k])
            fail_msg("key %u: %.3f m above the ground, in contact", k, (double)(p[k].y - 0.08f));
    }
    assert_true(stance > 200 && swing > 150); /* both cases met many times */
    assert_int_equal(on[0], 0);               /* the reference pose: not slow */
    /* hysteresis: a foot resting at 0, raised slowly to 6 cm (between the
     * 5 cm that begins a contact and the 7.5 cm that ends one) stays in
     * contact; lifted away fast and lowered back to 6 cm, it does not start one */
    for (uint32_t k = 0; k < 240; ++k) {
        float y = 0.0f;
        if (k >= 60 && k < 120) y = 0.06f * (float)(k - 60) / 60.0f; /* 0.12 m/s up */
        if (k >= 120 && k < 150) y = 0.06f;
        if (k >= 150 && k < 160) y = 0.06f + 0.3f * (float)(k - 150) / 10.0f; /* 3.6 m/s */
        if (k >= 160 && k < 170) y = 0.36f - 0.3f * (float)(k - 160) / 10.0f;
        if (k >= 170) y = 0.06f;
        p[k] = sw_vec3_make(0.0f, y, 0.0f);
    }
    assert_int_equal(sw_retarget_find_contacts(p, 240, 120.0f, speed, height, on), SW_RESULT_OK);
    for (uint32_t k = 0; k < 240; ++k) {
        const uint8_t want = k < 148; /* until the window reaches the lift (key 151) */
        if (on[k] != want) fail_msg("hysteresis key %u: contact %u, want %u", k, on[k], want);
    }
    assert_int_equal(sw_retarget_find_contacts(p, 1, 120.0f, speed, height, on), SW_RESULT_OK);
    assert_int_equal(on[0], 0); /* one key: no speed */
    assert_int_equal(sw_retarget_find_contacts(NULL, 30, 10.0f, 0.5f, 0.05f, on),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_find_contacts(p, 30, 10.0f, 0.5f, 0.05f, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_find_contacts(p, 0, 10.0f, 0.5f, 0.05f, on),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_find_contacts(p, 30, 0.0f, 0.5f, 0.05f, on),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_find_contacts(p, 30, 10.0f, NAN, 0.05f, on),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_find_contacts(p, 30, 10.0f, 0.5f, -1.0f, on),
                     SW_RESULT_INVALID_ARGUMENT);
}

static void test_cmu_onto_humanoid(void** state) {
    (void)state;
    sw_asset cmu;
    if (!rt_open_cmu(RT_CLIP, &cmu)) return;
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    rt_feet ik, fk;
    rt_walk(&cmu, 0, human.skeleton, 1.0f, 0.0f, RT_JOB, &ik);
    rt_walk(&cmu, 0, human.skeleton, 0.0f, 0.0f, RT_JOB, &fk);
    rt_report("CMU 01_01 onto the humanoid, foot IK", &ik);
    rt_report("CMU 01_01 onto the humanoid, no IK", &fk);
    assert_true(ik.steps > 4);
    assert_true(ik.sink < 0.01f);  /* no ankle more than 1 cm below its standing height */
    assert_true(ik.sink > -0.01f); /* the lowest comes within 1 cm of it: the feet touch */
    /* the bake with and without the foot lock */
    rt_feet lk, bk;
    rt_walk(&cmu, 0, human.skeleton, 1.0f, 0.0f, RT_BAKE_LOCKED, &lk);
    rt_walk(&cmu, 0, human.skeleton, 1.0f, 0.0f, RT_BAKE, &bk);
    rt_report("CMU 01_01 onto the humanoid, bake, foot IK and lock", &lk);
    rt_report("CMU 01_01 onto the humanoid, bake, foot IK, no lock", &bk);
    /* the job follows the capture's own drift within its contacts (3.0 cm at
     * most, counted with the contact finder's hysteresis); the lock removes it */
    assert_true(ik.slide <= ik.source_slide + 0.001f); /* retargeting adds under 1 mm */
    assert_true(fk.slide > ik.slide);
    assert_int_equal(lk.steps, ik.steps);
    assert_true(lk.slide < 0.01f);
    assert_true(lk.slide < 0.5f * bk.slide);
    assert_true(lk.sink < 0.01f);
    assert_true(lk.sink > -0.01f);
    assert_true(lk.slide < 0.001f);   /* pinned: within 1 mm */
    assert_true(lk.toe_sink < 0.01f); /* no toe under its standing height */
    /* no pop where the lock fades in and out: below the capture's own jumps */
    assert_true(lk.jump_boundary <= bk.jump_all);
    assert_true(lk.jump_boundary <= bk.jump_boundary);
    sw_scene_free(&human, NULL);
    sw_asset_free(&cmu);
}

static void test_cmu_onto_robot(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_asset cmu;
    if (!rt_open_cmu(RT_CLIP, &cmu)) return;
    sw_asset robot;
    sw_error err = {0};
    assert_int_equal(sw_asset_open(path, NULL, &robot, &err), SW_RESULT_OK);
    rt_feet r;
    rt_walk(&cmu, 0, robot.skeleton, 1.0f, 0.0f, RT_JOB, &r);
    rt_report("CMU 01_01 onto RobotExpressive (feet placed, no IK chain)", &r);
    assert_true(r.steps > 4);
    assert_true(r.sink < 0.01f);
    assert_true(r.sink > -0.01f);
    /* The robot's feet follow the source's ankles exactly (scaled): without
     * the lock they slide as much as the capture does, which misses the 1 cm
     * goal on 01_01; retargeting itself adds under 1 mm to it. */
    assert_true(r.slide <= r.source_slide + 0.001f);
    rt_feet lk, bk;
    rt_walk(&cmu, 0, robot.skeleton, 1.0f, 0.0f, RT_BAKE_LOCKED, &lk);
    rt_walk(&cmu, 0, robot.skeleton, 1.0f, 0.0f, RT_BAKE, &bk);
    rt_report("CMU 01_01 onto RobotExpressive, bake, foot lock", &lk);
    rt_report("CMU 01_01 onto RobotExpressive, bake, no lock", &bk);
    assert_int_equal(lk.steps, r.steps);
    assert_true(lk.slide < 0.01f); /* the goal, met with the lock */
    assert_true(lk.slide < 0.5f * bk.slide);
    assert_true(lk.sink < 0.01f);
    assert_true(lk.sink > -0.01f);
    assert_true(lk.jump_boundary <= bk.jump_all);
    assert_true(lk.jump_boundary <= bk.jump_boundary);
    sw_asset_free(&robot);
    sw_asset_free(&cmu);
}

/* ---- validity ---- */

typedef struct rt_valid {
    const sw_skeleton* src;
    const sw_skeleton* tgt;
    sw_retarget_map* map;
    sw_xform4* in;
    sw_xform4* out;
    void* scratch;
    size_t scratch_size;
} rt_valid;

static void test_job_validity(void** state) {
    (void)state;
    const sw_skeleton* mix = rt_named(rt_mixamo, rt_parents, rt_offsets, 18);
    const sw_skeleton* ue = rt_named(rt_unreal, rt_parents, rt_offsets, 18);
    sw_retarget_map* map = malloc(sizeof *map);
    rt_map_auto(mix, ue, true, map);
    assert_int_equal(map->limbs_count, 2);
    size_t ss;
    char* scratch = rt_scratch(map, &ss);
    sw_xform4* in = rt_pose(mix);
    memcpy(in, sw_skeleton_rest_pose(mix), mix->packets_count * sizeof(sw_xform4));
    sw_xform4* out = aligned_alloc(16, (ue->packets_count + 1) * sizeof(sw_xform4));
    const sw_retarget_job valid = {
        .map = map,
        .source = mix,
        .target = ue,
        .source_pose = in,
        .source_pose_count = mix->packets_count,
        .ik_weight = 1.0f,
        .scratch = scratch,
        .scratch_size = ss,
        .out = out,
        .out_count = ue->packets_count,
    };
    assert_int_equal(sw_retarget_job_validate(&valid), SW_RESULT_OK);
    assert_int_equal(sw_retarget_job_run(&valid), SW_RESULT_OK);
    const sw_retarget_job zero = {0};
    assert_int_equal(sw_retarget_job_validate(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_job_run(&zero), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_job_validate(NULL), SW_RESULT_INVALID_ARGUMENT);
    struct {
        sw_retarget_job job;
        sw_result want;
    } rows[16];
    int n = 0;
#define RT_ROW(field, value, result)                                                               \
    do {                                                                                           \
        rows[n].job = valid;                                                                       \
        rows[n].job.field = value;                                                                 \
        rows[n++].want = result;                                                                   \
    } while (0)
    RT_ROW(map, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(source, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(target, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(source_pose, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(scratch, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(out, NULL, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(ik_weight, -0.1f, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(ik_weight, NAN, SW_RESULT_INVALID_ARGUMENT);
    RT_ROW(source_pose_count, mix->packets_count - 1, SW_RESULT_BUFFER_TOO_SMALL);
    RT_ROW(out_count, ue->packets_count - 1, SW_RESULT_BUFFER_TOO_SMALL);
    RT_ROW(scratch_size, ss - 16, SW_RESULT_BUFFER_TOO_SMALL);
    RT_ROW(scratch, scratch + 4, SW_RESULT_MISALIGNED);
    RT_ROW(out, (sw_xform4*)(void*)((char*)out + 4), SW_RESULT_MISALIGNED);
    RT_ROW(out, in, SW_RESULT_OVERLAP);
    RT_ROW(scratch, (void*)out, SW_RESULT_OVERLAP);
#undef RT_ROW
    for (int i = 0; i < n; ++i) {
        memset(out, 0x5a, ue->packets_count * sizeof(sw_xform4));
        if (rows[i].want == SW_RESULT_OK) continue;
        if (sw_retarget_job_validate(&rows[i].job) != rows[i].want ||
            sw_retarget_job_run(&rows[i].job) != rows[i].want)
            fail_msg("row %d: got %d/%d, want %d", i, sw_retarget_job_validate(&rows[i].job),
                     sw_retarget_job_run(&rows[i].job), rows[i].want);
        /* nothing written on failure */
        for (size_t b = 0; b < ue->packets_count * sizeof(sw_xform4); ++b)
            if (((const unsigned char*)out)[b] != 0x5a && rows[i].job.out == out)
                fail_msg("row %d wrote the output", i);
    }
    /* a map built for other skeletons */
    sw_retarget_job other = valid;
    other.source = ue;
    other.target = mix;
    assert_int_equal(sw_retarget_job_validate(&other), SW_RESULT_OK); /* same joint counts */
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    other.target = human.skeleton;
    assert_int_equal(sw_retarget_job_validate(&other), SW_RESULT_INVALID_ARGUMENT);
    sw_scene_free(&human, NULL);

    /* map init */
    sw_retarget_pair pairs[2] = {{0, 0}, {6, 6}};
    sw_retarget_limb limb = {6, 7, 8, 8};
    const sw_retarget_map_desc good = {
        .source = mix,
        .target = ue,
        .pairs = pairs,
        .pairs_count = 2,
        .limbs = &limb,
        .limbs_count = 1,
    };
    sw_error err = {0};
    assert_int_equal(sw_retarget_map_init(&good, map, &err), SW_RESULT_OK);
    assert_int_equal(map->root_target, 0);
    assert_near(map->root_scale, 1.0f, 1e-6f);
    const sw_retarget_map_desc zd = {0};
    assert_int_equal(sw_retarget_map_init(&zd, map, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_map_init(NULL, map, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_retarget_map_init(&good, NULL, &err), SW_RESULT_INVALID_ARGUMENT);
    sw_retarget_map_desc d = good;
    d.pairs_count = 0;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_INVALID_ARGUMENT);
    d = good;
    d.limbs = NULL;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_INVALID_ARGUMENT);
    d = good;
    d.root_scale = -1.0f;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_INVALID_ARGUMENT);
    d = good;
    d.root_scale = INFINITY;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_INVALID_ARGUMENT);
    d = good;
    d.target_ground = NAN;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_INVALID_ARGUMENT);
    d = good;
    d.limbs_count = SW_RETARGET_MAX_LIMBS + 1;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_LIMIT);
    sw_retarget_pair bad_pairs[2] = {{0, 0}, {18, 6}};
    d = good;
    d.pairs = bad_pairs;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "pair joint in range");
    assert_int_equal(err.index, 1);
    bad_pairs[1] = (sw_retarget_pair){5, 0};
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "target joint mapped once");
    sw_retarget_limb bad_limb = {7, 6, 8, 8};
    d = good;
    d.limbs = &bad_limb;
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "limb joints in ancestor order");
    bad_limb = (sw_retarget_limb){6, 7, 8, 99};
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "limb source in range");
    /* a root that does not stand above the mapped joints */
    sw_retarget_pair flat[1] = {{8, 8}};
    d = (sw_retarget_map_desc){.source = mix, .target = ue, .pairs = flat, .pairs_count = 1};
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "root height > 0");
    d.root_scale = 2.0f; /* given: no measure needed */
    assert_int_equal(sw_retarget_map_init(&d, map, &err), SW_RESULT_OK);
    assert_int_equal(sw_retarget_scratch_size(NULL), 0);
    free(out);
    free(in);
    free(scratch);
    free(map);
    sw_skeleton_destroy(mix, NULL);
    sw_skeleton_destroy(ue, NULL);
}

/* ---- bake ---- */

static void test_bake(void** state) {
    (void)state;
    /* the humanoid's walk (events) onto a scaled copy of itself, and back */
    sw_scene human;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    float k = 0.8f;
    const sw_skeleton* small = rt_copy(human.skeleton, rt_scale_joint, &k);
    sw_retarget_map* map = malloc(sizeof *map);
    rt_map_auto(human.skeleton, small, false, map);
    assert_near(map->root_scale, k, 1e-5f);
    const sw_clip* walk = human.clips[1];
    const sw_clip* baked = NULL;
    sw_error err = {0};
    assert_int_equal(sw_retarget_bake(map, human.skeleton, walk, small, NULL, NULL, &baked, &err),
                     SW_RESULT_OK);
    assert_string_equal(sw_clip_name(baked), sw_clip_name(walk));
    assert_near(baked->duration, walk->duration, 0.0f);
    assert_int_equal(baked->events_count, walk->events_count);
    for (uint32_t e = 0; e < walk->events_count; ++e) {
        assert_string_equal(sw_clip_event_name(baked, e), sw_clip_event_name(walk, e));
        assert_near(sw_clip_events(baked)[e].time, sw_clip_events(walk)[e].time, 0.0f);
    }
    /* at the keys (30 Hz, the walk's rate) the baked clip is the job's output */
    size_t ss;
    void* scratch = rt_scratch(map, &ss);
    sw_xform4* in = rt_pose(human.skeleton);
    sw_xform4* job_out = rt_pose(small);
    sw_xform4* clip_out = rt_pose(small);
    sw_mat4* mj = malloc(small->joints_count * sizeof(sw_mat4));
    sw_mat4* mc = malloc(small->joints_count * sizeof(sw_mat4));
    sw_mat4* ms = malloc(small->joints_count * sizeof(sw_mat4));
    float worst_key = 0.0f, worst_between = 0.0f;
    for (uint32_t f = 0; f <= 60; ++f) {
        const float t = fminf(walk->duration, (float)f / 60.0f);
        rt_sample(walk, human.skeleton, t, in);
        rt_run(map, human.skeleton, small, in, 0.0f, scratch, ss, job_out);
        rt_sample(baked, small, t, clip_out);
        rt_model(small, job_out, mj);
        rt_model(small, clip_out, mc);
        rt_model(human.skeleton, in, ms);
        for (uint32_t j = 0; j < small->joints_count; ++j) {
            const float d = sw_vec3_length(sw_vec3_sub(rt_pos(&mj[j]), rt_pos(&mc[j])));
            float* worst = (f % 2 == 0) ? &worst_key : &worst_between;
            if (d > *worst) *worst = d;
            /* scaled copy: k times the source's positions */
            if (f % 2 == 0)
                sw_test_vec3_near(rt_pos(&mc[j]), sw_vec3_scale(rt_pos(&ms[j]), k), 1e-4f);
        }
    }
    print_message("bake: baked clip vs job at the keys %.3g m, between keys %.3g m\n",
                  (double)worst_key, (double)worst_between);
    assert_true(worst_key < 1e-5f);
    assert_true(worst_between < 5e-3f);
    /* float tracks carried over as they are */
    char path[512];
    if (sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) {
        sw_asset robot;
        assert_int_equal(sw_asset_open(path, NULL, &robot, &err), SW_RESULT_OK);
        sw_retarget_map* m2 = malloc(sizeof *m2);
        rt_map_auto(robot.skeleton, robot.skeleton, false, m2);
        const sw_clip* yes = robot.clips[sw_asset_find_clip(&robot, "Yes")];
        const sw_clip* b2 = NULL;
        const sw_retarget_bake_options opt = {.rate = 24.0f};
        assert_int_equal(
            sw_retarget_bake(m2, robot.skeleton, yes, robot.skeleton, &opt, NULL, &b2, &err),
            SW_RESULT_OK);
        assert_int_equal(b2->float_tracks_count, yes->float_tracks_count);
        assert_true(yes->float_tracks_count > 0);
        for (uint32_t f = 0; f < yes->float_tracks_count; ++f)
            assert_string_equal(sw_clip_float_track_name(b2, f), sw_clip_float_track_name(yes, f));
        float fa[64], fb[64];
        sw_xform4* pa = rt_pose(robot.skeleton);
        for (float t = 0.0f; t <= yes->duration; t += 0.1f) {
            const sw_sample_job ja = {.clip = yes,
                                      .skeleton = robot.skeleton,
                                      .time = t,
                                      .out = pa,
                                      .out_count = robot.skeleton->packets_count,
                                      .floats = fa,
                                      .floats_count = 64};
            const sw_sample_job jb = {.clip = b2,
                                      .skeleton = robot.skeleton,
                                      .time = t,
                                      .out = pa,
                                      .out_count = robot.skeleton->packets_count,
                                      .floats = fb,
                                      .floats_count = 64};
            assert_int_equal(sw_sample_job_run(&ja), SW_RESULT_OK);
            assert_int_equal(sw_sample_job_run(&jb), SW_RESULT_OK);
            for (uint32_t f = 0; f < yes->float_tracks_count; ++f)
                assert_near(fa[f], fb[f], 0.0f);
        }
        free(pa);
        sw_clip_destroy(b2, NULL);
        free(m2);
        sw_asset_free(&robot);
    }
    /* arguments */
    assert_int_equal(sw_retarget_bake(NULL, human.skeleton, walk, small, NULL, NULL, &baked, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    const sw_retarget_bake_options bad[] = {
        {.ik_weight = 2.0f},
        {.rate = -1.0f},
        {.foot_lock = true, .lock_speed = -0.1f},
        {.foot_lock = true, .lock_height = NAN},
        {.foot_lock = true, .lock_blend = INFINITY},
    };
    const sw_clip* none = NULL;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        assert_int_equal(
            sw_retarget_bake(map, human.skeleton, walk, small, &bad[i], NULL, &none, &err),
            SW_RESULT_INVALID_ARGUMENT);
    assert_null(none);
    assert_int_equal(sw_retarget_bake(map, small, walk, human.skeleton, NULL, NULL, &none, &err),
                     SW_RESULT_OK); /* same joint counts: allowed */
    sw_clip_destroy(none, NULL);
    free(mj);
    free(mc);
    free(ms);
    free(in);
    free(job_out);
    free(clip_out);
    free(scratch);
    free(map);
    sw_clip_destroy(baked, NULL);
    sw_skeleton_destroy(small, NULL);
    sw_scene_free(&human, NULL);
}

/* ---- the CLI ---- */

static int rt_cli(const char* args) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s >/dev/null 2>&1", SINEW_CLI_PATH, args);
    const int st = system(cmd);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

/* RobotExpressive's Walking onto itself with every option of the CLI at its
 * default (foot lock on; the robot's feet are placed, no IK chain): the
 * written clip gives back the source's local poses at its keys (the keys'
 * own 24 Hz grid) and halfway between them. */
static void rt_cli_self(const char* dir) {
    char robot[512], args[4096], out[600];
    if (!sw_test_asset_path(robot, sizeof robot, "RobotExpressive.glb")) return;
    snprintf(out, sizeof out, "%s/robot_self.sinew", dir);
    snprintf(args, sizeof args, "retarget '%s' --clips Walking --to '%s' -o '%s'", robot, robot,
             out);
    assert_int_equal(rt_cli(args), 0);
    sw_asset src, res;
    sw_error err = {0};
    assert_int_equal(sw_asset_open(robot, NULL, &src, &err), SW_RESULT_OK);
    assert_int_equal(sw_asset_open(out, NULL, &res, &err), SW_RESULT_OK);
    const sw_clip* a = src.clips[sw_asset_find_clip(&src, "Walking")];
    const sw_clip* b = res.clips[0];
    const sw_skeleton* s = src.skeleton;
    sw_xform4* p = rt_pose(s);
    sw_xform4* q = rt_pose(s);
    float worst = 0.0f;
    for (uint32_t k = 0; k <= 46; ++k) { /* 0.958 s: 23 key intervals, halves too */
        const float t = fminf((float)k / 48.0f, a->duration);
        rt_sample(a, s, t, p);
        rt_sample(b, res.skeleton, t, q);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const sw_xform x = sw_pose_get(p, j), y = sw_pose_get(q, j);
            worst = fmaxf(worst, 1.0f - fabsf(sw_quat_dot(x.r, y.r)));
            worst = fmaxf(worst,
                          sw_vec3_length(sw_vec3_sub(x.t, y.t)) / fmaxf(1.0f, sw_vec3_length(x.t)));
        }
    }
    print_message("sinew retarget RobotExpressive Walking onto itself: local poses differ by "
                  "%.3g\n",
                  (double)worst);
    assert_true(worst <= 1e-6f);
    free(p);
    free(q);
    sw_asset_free(&res);
    sw_asset_free(&src);
}

/* Runs the CLI with stdout into out_path and stderr into err_path; the exit code. */
static int rt_cli_capture(const char* args, const char* out_path, const char* err_path) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", SINEW_CLI_PATH, args, out_path, err_path);
    const int st = system(cmd);
    return st == -1 ? -1 : WEXITSTATUS(st);
}

/* The first `cap` - 1 bytes of a file, NUL-terminated. */
static void rt_read_text(const char* path, char* buf, size_t cap) {
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    const size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

/* A source with no humanoid joints (the CSM marker cloud) fails with one
 * line that counts the mapped joints, names the missing roles and points to
 * --print-map and --map; BCN_Epileptic.X's printed map, given back with
 * --map, retargets. */
static void rt_cli_thin_map(const char* dir) {
    char csm[512], bcn[512], args[4096], out[600], err[600], text[8192];
    snprintf(out, sizeof out, "%s/stdout.txt", dir);
    snprintf(err, sizeof err, "%s/stderr.txt", dir);
    if (sw_test_model_path(csm, sizeof csm, "CSM/ThomasFechten.csm")) {
        snprintf(args, sizeof args, "retarget '%s' --to default -o '%s/csm.sinew'", csm, dir);
        assert_int_equal(rt_cli_capture(args, out, err), 1);
        rt_read_text(err, text, sizeof text);
        print_message("%s", text);
        assert_non_null(strstr(text, "0 of 21 target joints mapped"));
        assert_non_null(strstr(text, "unmapped roles: hips, neck, head"));
        assert_non_null(strstr(text, "--print-map"));
        assert_non_null(strstr(text, "--map FILE"));
        assert_ptr_equal(strchr(text, '\n'), text + strlen(text) - 1); /* one line */
    }
    if (!sw_test_model_path(bcn, sizeof bcn, "X/BCN_Epileptic.X")) return;
    char map_path[600];
    snprintf(map_path, sizeof map_path, "%s/bcn.map", dir);
    snprintf(args, sizeof args, "retarget '%s' --to default --print-map", bcn);
    assert_int_equal(rt_cli_capture(args, map_path, err), 0);
    rt_read_text(map_path, text, sizeof text);
    assert_non_null(strstr(text, "(21 of 21 target joints mapped)"));
    assert_non_null(strstr(text, "\nB_Neck=Head\n"));
    assert_null(strstr(text, "\nHead=Head\n")); /* the mesh node named Head */
    snprintf(args, sizeof args, "retarget '%s' --to default --map '%s' -o '%s/bcn.sinew'", bcn,
             map_path, dir);
    assert_int_equal(rt_cli_capture(args, out, err), 0);
    rt_read_text(out, text, sizeof text);
    assert_non_null(strstr(text, "21 of 21 target joints mapped"));
}

static void test_cli(void** state) {
    (void)state;
    if (SINEW_CLI_PATH[0] == '\0') {
        print_message("skipped: the CLI is not built\n");
        return;
    }
    char bvh[512];
    if (!sw_test_model_path(bvh, sizeof bvh, "BVH/01_01.bvh")) return;
    char dir[] = "/tmp/sinew_retarget_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[4096], out[600];
    /* onto the built-in humanoid, .sinew, with the foot lock (default) and without */
    sw_asset res;
    sw_error err = {0};
    for (int lock = 1; lock >= 0; --lock) {
        snprintf(out, sizeof out, "%s/cmu_humanoid%s.sinew", dir, lock ? "" : "_free");
        snprintf(args, sizeof args, "retarget '%s' --scale 0.056444 --to default%s -o '%s'", bvh,
                 lock ? "" : " --no-foot-lock", out);
        assert_int_equal(rt_cli(args), 0);
        assert_int_equal(sw_asset_open(out, NULL, &res, &err), SW_RESULT_OK);
        sw_scene human;
        assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
        assert_int_equal(res.skeleton->joints_count, human.skeleton->joints_count);
        assert_int_equal(res.clips_count, 1);
        assert_int_equal(res.meshes_count, 1);
        /* the written clip is the bake with the ground fitted and foot IK */
        sw_asset cmu;
        assert_true(rt_open_cmu("01_01.bvh", &cmu));
        assert_near(res.clips[0]->duration, cmu.clips[0]->duration, 1e-6f);
        sw_retarget_map* map = malloc(sizeof *map);
        rt_map_auto(cmu.skeleton, human.skeleton, true, map);
        assert_int_equal(sw_retarget_fit_ground(map, cmu.skeleton, cmu.clips[0], human.skeleton,
                                                &map->source_ground),
                         SW_RESULT_OK);
        const sw_retarget_bake_options bopt = {.ik_weight = 1.0f, .foot_lock = lock == 1};
        const sw_clip* baked = NULL;
        assert_int_equal(sw_retarget_bake(map, cmu.skeleton, cmu.clips[0], human.skeleton, &bopt,
                                          NULL, &baked, &err),
                         SW_RESULT_OK);
        sw_xform4* a = rt_pose(human.skeleton);
        sw_xform4* b = rt_pose(human.skeleton);
        for (float t = 0.0f; t < baked->duration; t += 1.37f) {
            rt_sample(baked, human.skeleton, t, a);
            rt_sample(res.clips[0], res.skeleton, t, b);
            for (uint32_t j = 0; j < human.skeleton->joints_count; ++j) {
                sw_test_quat_near(sw_pose_get(a, j).r, sw_pose_get(b, j).r, 1e-6f);
                sw_test_vec3_near(sw_pose_get(a, j).t, sw_pose_get(b, j).t, 1e-6f);
            }
        }
        free(a);
        free(b);
        sw_clip_destroy(baked, NULL);
        free(map);
        sw_asset_free(&cmu);
        sw_asset_free(&res);
        sw_scene_free(&human, NULL);
    }
    snprintf(out, sizeof out, "%s/cmu_humanoid.sinew", dir);
    /* sinew demo plays it */
    snprintf(args, sizeof args, "demo --character '%s' --seconds 0.5 --out '%s/demo'", out, dir);
    assert_int_equal(rt_cli(args), 0);
    /* map files, usage */
    char map_path[600];
    snprintf(map_path, sizeof map_path, "%s/bad.map", dir);
    FILE* f = fopen(map_path, "w");
    assert_non_null(f);
    fputs("Hips=Hips\nLeftFoot LeftFoot\n", f);
    fclose(f);
    snprintf(args, sizeof args, "retarget '%s' --to default --map '%s' -o '%s/x.sinew'", bvh,
             map_path, dir);
    assert_int_equal(rt_cli(args), 1);
    snprintf(args, sizeof args, "retarget '%s' --to default --map '%s/none.map' -o '%s/x.sinew'",
             bvh, dir, dir);
    assert_int_equal(rt_cli(args), 1);
    snprintf(args, sizeof args, "retarget '%s' -o '%s/x.sinew'", bvh, dir);
    assert_int_equal(rt_cli(args), 2);
    snprintf(args, sizeof args, "retarget '%s' --to default --bogus -o '%s/x.sinew'", bvh, dir);
    assert_int_equal(rt_cli(args), 2);
    snprintf(args, sizeof args, "retarget '%s/missing.bvh' --to default -o '%s/x.sinew'", dir, dir);
    assert_int_equal(rt_cli(args), 1);
    snprintf(args, sizeof args, "test ! -e '%s/x.sinew'", dir);
    assert_int_equal(system(args), 0); /* no output written by the failures */
    /* onto RobotExpressive, .glb */
    char robot[512];
    if (sw_test_asset_path(robot, sizeof robot, "RobotExpressive.glb")) {
        snprintf(out, sizeof out, "%s/cmu_robot.glb", dir);
        snprintf(args, sizeof args, "retarget '%s' --scale 0.056444 --to '%s' -o '%s'", bvh, robot,
                 out);
        assert_int_equal(rt_cli(args), 0);
        assert_int_equal(sw_asset_open(out, NULL, &res, &err), SW_RESULT_OK);
        assert_int_equal(res.skeleton->joints_count, 46);
        assert_int_equal(res.clips_count, 1);
        assert_int_equal(res.meshes_count, 19);
        sw_asset_free(&res);
        snprintf(args, sizeof args, "demo --character '%s' --seconds 0.5 --out '%s/demo2'", out,
                 dir);
        assert_int_equal(rt_cli(args), 0);
    }
    rt_cli_thin_map(dir);
    rt_cli_self(dir);
    snprintf(args, sizeof args, "rm -rf '%s'", dir);
    assert_int_equal(system(args), 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bone_names),
        cmocka_unit_test(test_bone_name_schemes),
        cmocka_unit_test(test_auto_map_hierarchy),
        cmocka_unit_test(test_auto_map_conventions),
        cmocka_unit_test(test_auto_map_cmu_humanoid_robot),
        cmocka_unit_test(test_map_edits_and_file),
        cmocka_unit_test(test_identity),
        cmocka_unit_test(test_identity_robot),
        cmocka_unit_test(test_scaled_copy),
        cmocka_unit_test(test_other_rest_orientations),
        cmocka_unit_test(test_find_contacts),
        cmocka_unit_test(test_cmu_onto_humanoid),
        cmocka_unit_test(test_cmu_onto_robot),
        cmocka_unit_test(test_job_validity),
        cmocka_unit_test(test_bake),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
