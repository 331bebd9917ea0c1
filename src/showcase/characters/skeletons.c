/* Skeletons of the built-in characters (the humanoid and the spider) and
 * the model matrices of a rest pose, used by the mesh generator. */
#include "showcase/characters/internal.h"

/* Humanoid rest pose: every local rotation is identity, so each offset is
 * also the bone in model space. T-pose, +Y up, facing +Z, the character's
 * left on +X. Hips at 0.95 m, hip joints at 0.89, knees at 0.47, ankles at
 * 0.07, shoulders at 1.38, top of the head about 1.75. */
typedef struct sw__joint_def {
    const char* name;
    int32_t parent;
    float x, y, z;
} sw__joint_def;

static const sw__joint_def sw__humanoid_joints[SW__HUMANOID_JOINTS] = {
    {"Hips", -1, 0.0f, 0.95f, 0.0f},
    {"Spine", SW__HIPS, 0.0f, 0.10f, 0.0f},
    {"Spine1", SW__SPINE, 0.0f, 0.17f, 0.0f},
    {"Neck", SW__SPINE1, 0.0f, 0.20f, 0.0f},
    {"Head", SW__NECK, 0.0f, 0.10f, 0.0f},
    {"LeftShoulder", SW__SPINE1, 0.04f, 0.16f, 0.0f},
    {"LeftArm", SW__L_SHOULDER, 0.14f, 0.0f, 0.0f},
    {"LeftForeArm", SW__L_ARM, 0.28f, 0.0f, 0.0f},
    {"LeftHand", SW__L_FOREARM, 0.26f, 0.0f, 0.0f},
    {"RightShoulder", SW__SPINE1, -0.04f, 0.16f, 0.0f},
    {"RightArm", SW__R_SHOULDER, -0.14f, 0.0f, 0.0f},
    {"RightForeArm", SW__R_ARM, -0.28f, 0.0f, 0.0f},
    {"RightHand", SW__R_FOREARM, -0.26f, 0.0f, 0.0f},
    {"LeftUpLeg", SW__HIPS, 0.09f, -0.06f, 0.0f},
    {"LeftLeg", SW__L_UPLEG, 0.0f, -0.42f, 0.0f},
    {"LeftFoot", SW__L_LEG, 0.0f, -0.40f, 0.0f},
    {"LeftToeBase", SW__L_FOOT, 0.0f, -0.05f, 0.13f},
    {"RightUpLeg", SW__HIPS, -0.09f, -0.06f, 0.0f},
    {"RightLeg", SW__R_UPLEG, 0.0f, -0.42f, 0.0f},
    {"RightFoot", SW__R_LEG, 0.0f, -0.40f, 0.0f},
    {"RightToeBase", SW__R_FOOT, 0.0f, -0.05f, 0.13f},
};

static sw_xform sw__offset(float x, float y, float z) {
    sw_xform x0 = sw_xform_identity();
    x0.t = sw_vec3_make(x, y, z);
    return x0;
}

sw_result sw__humanoid_skeleton(const sw_allocator* alloc, const sw_skeleton** out, sw_error* err) {
    sw_skeleton_joint joints[SW__HUMANOID_JOINTS];
    for (uint32_t i = 0; i < SW__HUMANOID_JOINTS; ++i) {
        const sw__joint_def* d = &sw__humanoid_joints[i];
        joints[i].name = d->name;
        joints[i].parent = d->parent;
        joints[i].rest = sw__offset(d->x, d->y, d->z);
    }
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = SW__HUMANOID_JOINTS};
    return sw_skeleton_create(&desc, alloc, out, err);
}

/* Spider: the body 8 cm above the ground, legs leaving it radially at a
 * radius of 5 cm, a 4 cm coxa, a femur rising 6 cm over 10 cm, a tibia
 * coming down 14 cm over 12 cm to the tip on the ground: 31 cm from the
 * centre to each tip (about 0.6 m across). Leg pairs k = 0..3 point at
 * sw__spider_angle(k) from +Z (front pair first); leg 2k is on the left
 * (+X), 2k + 1 its mirror. */
float sw__spider_angle(uint32_t pair) {
    static const float deg[SW__SPIDER_PAIRS] = {40.0f, 75.0f, 105.0f, 140.0f};
    return deg[pair] * 0.017453292519943295f;
}

static const char* const sw__spider_names[SW__SPIDER_JOINTS] = {
    "Body",       "Leg0_Coxa",  "Leg0_Femur", "Leg0_Tibia", "Leg0_Tip",   "Leg1_Coxa",
    "Leg1_Femur", "Leg1_Tibia", "Leg1_Tip",   "Leg2_Coxa",  "Leg2_Femur", "Leg2_Tibia",
    "Leg2_Tip",   "Leg3_Coxa",  "Leg3_Femur", "Leg3_Tibia", "Leg3_Tip",   "Leg4_Coxa",
    "Leg4_Femur", "Leg4_Tibia", "Leg4_Tip",   "Leg5_Coxa",  "Leg5_Femur", "Leg5_Tibia",
    "Leg5_Tip",   "Leg6_Coxa",  "Leg6_Femur", "Leg6_Tibia", "Leg6_Tip",   "Leg7_Coxa",
    "Leg7_Femur", "Leg7_Tibia", "Leg7_Tip",
};

sw_result sw__spider_skeleton(const sw_allocator* alloc, const sw_skeleton** out, sw_error* err) {
    sw_skeleton_joint joints[SW__SPIDER_JOINTS];
    joints[0].name = sw__spider_names[0];
    joints[0].parent = -1;
    joints[0].rest = sw__offset(0.0f, SW__SPIDER_BODY_Y, 0.0f);
    for (uint32_t leg = 0; leg < SW__SPIDER_LEGS; ++leg) {
        const float a = sw__spider_angle(leg / 2u);
        const float side = (leg % 2u == 0u) ? 1.0f : -1.0f;
        const float dx = side * sinf(a);
        const float dz = cosf(a);
        const uint32_t base = 1u + 4u * leg;
        /* radial distance and height of each segment, body-relative */
        const float out_d[4] = {SW__SPIDER_BODY_RADIUS, SW__SPIDER_COXA, SW__SPIDER_FEMUR_OUT,
                                SW__SPIDER_TIBIA_OUT};
        const float up[4] = {0.0f, 0.0f, SW__SPIDER_FEMUR_UP,
                             -(SW__SPIDER_BODY_Y + SW__SPIDER_FEMUR_UP)};
        for (uint32_t s = 0; s < 4u; ++s) {
            joints[base + s].name = sw__spider_names[base + s];
            joints[base + s].parent = (int32_t)(s == 0u ? 0u : base + s - 1u);
            joints[base + s].rest = sw__offset(dx * out_d[s], up[s], dz * out_d[s]);
        }
    }
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = SW__SPIDER_JOINTS};
    return sw_skeleton_create(&desc, alloc, out, err);
}

/* Model matrices of a skeleton's rest pose (rotations are identity, so a
 * joint's model position is the sum of the offsets up its chain). */
void sw__rest_models(const sw_skeleton* skel, sw_mat4* models) {
    const int16_t* parents = sw_skeleton_parents(skel);
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    for (uint32_t j = 0; j < skel->joints_count; ++j) {
        const sw_mat4 local = sw_mat4_from_xform(sw_pose_get(rest, j));
        models[j] = parents[j] < 0 ? local : sw_mat4_mul(&models[parents[j]], &local);
    }
}
