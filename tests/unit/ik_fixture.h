/* Shared by the IK tests: a pose with its model matrices, a synthetic leg,
 * the CMU skeleton in metres, and rotation helpers. */
#ifndef SINEW_TEST_IK_FIXTURE_H
#define SINEW_TEST_IK_FIXTURE_H

#include "test_util.h"

#include "sinew/ik/ik.h"
#include "sinew/tools/readers/bvh.h"

typedef struct ik_rig {
    const sw_skeleton* skel;
    sw_xform4* pose;
    sw_mat4* model;
    uint32_t packets, joints;
} ik_rig;

static inline void ik_rig_model(ik_rig* r) {
    const sw_local_to_model_job l2m = {.skeleton = r->skel,
                                       .local = r->pose,
                                       .local_count = r->packets,
                                       .out = r->model,
                                       .out_count = r->joints};
    assert_int_equal(sw_local_to_model_job_run(&l2m), SW_RESULT_OK);
}

/* A rig at the skeleton's rest pose with its model matrices. */
static inline void ik_rig_init(ik_rig* r, const sw_skeleton* skel) {
    r->skel = skel;
    r->packets = skel->packets_count;
    r->joints = skel->joints_count;
    r->pose = aligned_alloc(16, sizeof(sw_xform4) * r->packets);
    r->model = aligned_alloc(16, sizeof(sw_mat4) * r->joints);
    assert_non_null(r->pose);
    assert_non_null(r->model);
    memcpy(r->pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * r->packets);
    ik_rig_model(r);
}

static inline void ik_rig_free(ik_rig* r) {
    free(r->pose);
    free(r->model);
}

static inline sw_vec3 ik_pos(const ik_rig* r, uint32_t j) {
    return sw_vec3_make(r->model[j].m[12], r->model[j].m[13], r->model[j].m[14]);
}

static inline float ik_dist(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_length(sw_vec3_sub(a, b));
}

/* Angle in [0, pi] between two rotations. */
static inline float ik_quat_angle(sw_quat a, sw_quat b) {
    /* From the relative rotation with atan2: acos(dot) loses its digits for
     * small angles. */
    const sw_quat d = sw_quat_mul(sw_quat_conjugate(sw_quat_normalize(a)), sw_quat_normalize(b));
    const double v = sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
    return (float)(2.0 * atan2(v, fabs((double)d.w)));
}

/* Angle in [0, pi] between two directions (double precision). */
static inline double ik_vec_angle(sw_vec3 a, sw_vec3 b) {
    const double ax = a.x, ay = a.y, az = a.z, bx = b.x, by = b.y, bz = b.z;
    const double cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    return atan2(sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}

/* Random rotations (up to `max_angle` radians from the rest rotation) on
 * every joint; translations and scales stay at rest. */
static inline void ik_rig_random_pose(ik_rig* r, uint32_t* rng, float max_angle) {
    const sw_xform4* rest = sw_skeleton_rest_pose(r->skel);
    for (uint32_t j = 0; j < r->joints; ++j) {
        sw_xform x = sw_pose_get(rest, j);
        const sw_vec3 axis = sw_vec3_make(sw_test_rand(rng, -1, 1), sw_test_rand(rng, -1, 1),
                                          sw_test_rand(rng, -1, 1));
        x.r = sw_quat_mul(x.r, sw_quat_from_axis_angle(axis, sw_test_rand(rng, -1, 1) * max_angle));
        sw_pose_set(r->pose, j, x);
    }
    ik_rig_model(r);
}

/* A leg: root, hip, knee, shin twist bone, ankle, toe, and a spare branch,
 * with non-trivial rest rotations and a uniformly scaled root. */
enum { LEG_ROOT, LEG_HIP, LEG_KNEE, LEG_TWIST, LEG_ANKLE, LEG_TOE, LEG_OTHER, LEG_JOINTS };

static inline const sw_skeleton* ik_make_leg(void) {
    sw_skeleton_joint js[LEG_JOINTS];
    const char* names[LEG_JOINTS] = {"root", "hip", "knee", "twist", "ankle", "toe", "other"};
    const int32_t parents[LEG_JOINTS] = {-1, 0, 1, 2, 3, 4, 0};
    const sw_vec3 t[LEG_JOINTS] = {{0, 1, 0},       {0.1f, -0.05f, 0}, {0, -0.45f, 0.02f},
                                   {0, -0.2f, 0},   {0, -0.22f, 0},    {0, -0.05f, 0.12f},
                                   {-0.1f, 0.2f, 0}};
    uint32_t rng = 77;
    for (uint32_t j = 0; j < LEG_JOINTS; ++j) {
        const sw_vec3 axis = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                          sw_test_rand(&rng, -1, 1));
        js[j] = (sw_skeleton_joint){.name = names[j],
                                    .parent = parents[j],
                                    .rest = {.t = t[j],
                                             .r = sw_quat_from_axis_angle(axis, 0.3f),
                                             .s = sw_vec3_make(1, 1, 1)}};
    }
    js[LEG_ROOT].rest.s = sw_vec3_make(1.5f, 1.5f, 1.5f);
    const sw_skeleton_desc desc = {.joints = js, .joints_count = LEG_JOINTS};
    const sw_skeleton* s = NULL;
    sw_error err = {0};
    if (sw_skeleton_create(&desc, NULL, &s, &err) != SW_RESULT_OK)
        fail_msg("skeleton: %s", err.check ? err.check : "?");
    return s;
}

/* A chain: "base" (root) then CHAIN_JOINTS joints each the child of the one
 * before, bones 0.1..0.3 long in random directions, random rest rotations,
 * and a spare branch "side" on the base. */
#define CHAIN_JOINTS 7
static inline const sw_skeleton* ik_make_chain(uint32_t seed) {
    sw_skeleton_joint js[CHAIN_JOINTS + 2];
    static const char* const names[CHAIN_JOINTS + 2] = {"base", "c1", "c2", "c3",  "c4",
                                                        "c5",   "c6", "c7", "side"};
    uint32_t rng = seed;
    for (uint32_t j = 0; j < CHAIN_JOINTS + 2; ++j) {
        const sw_vec3 dir = sw_vec3_normalize(
            sw_vec3_make(sw_test_rand(&rng, -0.3f, 0.3f), 1.0f, sw_test_rand(&rng, -0.3f, 0.3f)));
        const sw_vec3 axis = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                          sw_test_rand(&rng, -1, 1));
        js[j] = (sw_skeleton_joint){
            .name = names[j],
            .parent = j == 0 ? -1 : (j == CHAIN_JOINTS + 1 ? 0 : (int32_t)j - 1),
            .rest = {.t = j == 0 ? sw_vec3_make(0, 0.5f, 0)
                                 : sw_vec3_scale(dir, sw_test_rand(&rng, 0.1f, 0.3f)),
                     .r = sw_quat_from_axis_angle(axis, 0.4f),
                     .s = sw_vec3_make(1, 1, 1)}};
    }
    const sw_skeleton_desc desc = {.joints = js, .joints_count = CHAIN_JOINTS + 2};
    const sw_skeleton* s = NULL;
    sw_error err = {0};
    if (sw_skeleton_create(&desc, NULL, &s, &err) != SW_RESULT_OK)
        fail_msg("skeleton: %s", err.check ? err.check : "?");
    return s;
}

/* The CMU capture 01_01 in metres (0.056444 m per unit), or NULL (skipped). */
static inline bool ik_read_cmu(sw_bvh_result* out) {
    char path[512];
    if (!sw_test_model_path(path, sizeof(path), "BVH/01_01.bvh")) return false;
    size_t size = 0;
    char* text = sw_test_read_file(path, &size);
    assert_non_null(text);
    const sw_bvh_options opt = {.scale = 0.056444f};
    sw_error err = {0};
    const sw_result r = sw_bvh_read(text, size, &opt, NULL, out, &err);
    free(text);
    if (r != SW_RESULT_OK) fail_msg("01_01.bvh: %s (%s)", sw_result_str(r), err.check);
    return true;
}

/* Samples the CMU clip at time t into the rig's pose and model matrices. */
static inline void ik_rig_sample(ik_rig* r, const sw_clip* clip, float t) {
    const sw_sample_job job = {
        .clip = clip, .skeleton = r->skel, .time = t, .out = r->pose, .out_count = r->packets};
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
    ik_rig_model(r);
}

#endif
